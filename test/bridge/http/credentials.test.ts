/**
 * The arbiter's HTTP credentials from the configuration: `http.arbiter` in the schema (readable
 * errors, each secret once, none = the section left out), the environment variable that keeps the
 * token out of the file, and the secret files read at start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/bridge/config/index.js';
import { parseSecretFile, readArbiterSecrets } from '../../../src/bridge/http/credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-credentials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = '0123456789abcdef0123';

/** The problems of a config text, or [] when it loads. */
const problemsOf = (text: string, env: Record<string, string> = {}): readonly string[] => {
  const r = parseConfig(text, { env });
  return r.isErr ? r.error.problems : [];
};

describe('http.arbiter in the configuration', () => {
  it('is absent by default, and then arbiter actions have no secret', async () => {
    const r = parseConfig('http: { port: 8081 }\n').unwrap();
    expect(r.http.arbiter).toBeUndefined();
    expect(await readArbiterSecrets(r.http.arbiter)).toMatchObject({ value: {} });
  });

  it('takes a token and a password written in the file', async () => {
    const c = parseConfig(`http:\n  arbiter:\n    token: ${TOKEN}\n    password: hall-a secret\n`).unwrap();
    expect(c.http.arbiter).toEqual({ token: TOKEN, password: 'hall-a secret' });
    expect((await readArbiterSecrets(c.http.arbiter)).unwrap()).toEqual({
      token: TOKEN,
      password: 'hall-a secret',
    });
  });

  it('takes the token from CHESSBRIDGE_HTTP_ARBITER_TOKEN, with no arbiter section in the file', () => {
    const c = parseConfig('http: { port: 8081 }\n', {
      env: { CHESSBRIDGE_HTTP_ARBITER_TOKEN: TOKEN },
    }).unwrap();
    expect(c.http.arbiter).toEqual({ token: TOKEN });
  });

  it('refuses short secrets, a secret given twice and an empty section, naming the field', () => {
    expect(problemsOf('http:\n  arbiter:\n    token: short\n')).toEqual([
      expect.stringMatching(/^http\.arbiter\.token: .*16.* \(line 3\)$/),
    ]);
    expect(problemsOf('http: { port: 8081 }\n', { CHESSBRIDGE_HTTP_ARBITER_PASSWORD: 'abc' })).toEqual([
      expect.stringMatching(/^http\.arbiter\.password: .*8.*\(from CHESSBRIDGE_HTTP_ARBITER_PASSWORD\)$/),
    ]);
    expect(problemsOf(`http:\n  arbiter:\n    token: ${TOKEN}\n    tokenFile: /etc/token\n`)).toEqual([
      expect.stringMatching(/^http\.arbiter\.tokenFile: give token or tokenFile, not both/),
    ]);
    expect(problemsOf('http:\n  arbiter: {}\n')).toEqual([
      expect.stringMatching(/^http\.arbiter: give a token, tokenFile, password or passwordFile/),
    ]);
    expect(problemsOf('http:\n  arbiter:\n    tokn: x\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^http\.arbiter\.tokn: unknown field \(did you mean token\?\)/),
      ]),
    );
  });
});

describe('readArbiterSecrets', () => {
  it('reads the first line of the secret files', async () => {
    const tokenFile = join(dir, 'token');
    const passwordFile = join(dir, 'password');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    writeFileSync(passwordFile, '  hall-b secret \r\nnot this line\n');
    expect((await readArbiterSecrets({ tokenFile, passwordFile })).unwrap()).toEqual({
      token: TOKEN,
      password: 'hall-b secret',
    });
  });

  it('says which file cannot be read, or holds too short a secret', async () => {
    const missing = await readArbiterSecrets({ tokenFile: join(dir, 'nope') });
    expect(missing.isErr && missing.error).toMatchObject({
      kind: 'unreadable',
      field: 'tokenFile',
      message: expect.stringMatching(/^http\.arbiter\.tokenFile: cannot read .*nope/) as unknown,
    });
    const short = join(dir, 'short');
    writeFileSync(short, 'abc\n');
    const tooShort = await readArbiterSecrets({ passwordFile: short });
    expect(tooShort.isErr && tooShort.error).toMatchObject({ kind: 'tooShort', minLength: 8 });
    writeFileSync(short, '\n');
    expect((await readArbiterSecrets({ tokenFile: short })).isErr).toBe(true);
  });

  it('keeps a secret file to its first line, blanks trimmed', () => {
    expect(parseSecretFile('secret\n')).toBe('secret');
    expect(parseSecretFile(' a b \r\nc')).toBe('a b');
    expect(parseSecretFile('')).toBe('');
  });
});
