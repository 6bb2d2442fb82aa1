/**
 * `chessbridge check` refuses weak and example secrets with a `path: problem` line, and
 * `chessbridge passwd` writes a hash that the daemon's check accepts (the real command, as a child).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../src/bridge/security/passwords.js';
import { childMainArgs } from '../../support/childBuild.js';
import { PROJECT_ROOT } from '../../support/shared.js';

const cli = (
  args: readonly string[],
  input = '',
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise(resolve => {
    const child = spawn(process.execPath, [...childMainArgs, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', c => resolve({ code: c, out, err }));
    child.stdin.end(input);
  });

describe('secrets on the command line', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-secrets-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('check names each weak or example secret by its path', async () => {
    await writeFile(join(dir, 'display.secret'), 'display\n');
    const file = join(dir, 'weak.yaml');
    await writeFile(
      file,
      [
        'mqtt: { url: "mqtt://hall:1883", username: daemon-a, password: change-me }',
        'users:',
        '  - { name: anna, role: arbiter, passwordEnv: WEAK_ANNA }',
        `  - { name: wall, role: display, passwordFile: ${join(dir, 'display.secret')} }`,
        '  - { name: olga, role: operator, passwordEnv: WEAK_UNSET }',
      ].join('\n'),
    );
    const r = await cli(['check', file], '', { WEAK_ANNA: 'change-me' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('users[0].passwordEnv: weak secret for anna: an example or well-known secret');
    expect(r.err).toContain('users[1].passwordFile: weak secret for wall: an example or well-known secret');
    expect(r.err).toContain('users[2].passwordEnv: WEAK_UNSET is not set (user olga)');
    expect(r.err).toContain('mqtt.password: weak secret: an example or well-known secret');
    const short = await cli(['check', file], '', { WEAK_ANNA: 'a', WEAK_UNSET: 'long-enough-secret-1' });
    expect(short.err).toContain('users[0].passwordEnv: weak secret for anna: shorter than 12 characters');
  });

  it('passwd hashes a good secret, refuses a weak one; check accepts the hash', async () => {
    const weak = await cli(['passwd'], 'change-me\n');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('chessbridge passwd: weak secret: an example or well-known secret');
    const good = await cli(['passwd'], 'tarrasch-1908-opens-e4\n');
    expect(good.code).toBe(0);
    const hash = good.out.trim();
    expect(await verifyPassword('tarrasch-1908-opens-e4', hash)).toBe(true);
    const file = join(dir, 'good.yaml');
    await writeFile(file, `users: [{ name: anna, role: arbiter, passwordHash: '${hash}' }]\n`);
    const checked = await cli(['check', file]);
    expect(checked.err).toBe('');
    expect(checked.code).toBe(0);
  });
});
