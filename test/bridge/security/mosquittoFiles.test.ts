/**
 * The external mosquitto's files: the password hash is the one mosquitto's own tool computes for
 * the same secret, salt and rounds (cross-checked with `mosquitto_passwd`), the ACL gives each role
 * its topics, and a configuration that cannot make the files says why, one `path: problem` each.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mosquittoAcl, mosquittoFiles, mosquittoHash } from '../../../src/bridge/security/mosquittoFiles.js';

const MOSQUITTO_PASSWD = ['/usr/bin/mosquitto_passwd', '/usr/sbin/mosquitto_passwd'].find(p => existsSync(p));

describe('the password file', () => {
  it('hashes as mosquitto_passwd does (PBKDF2-SHA512, $7$rounds$salt$hash)', async () => {
    if (MOSQUITTO_PASSWD === undefined)
      throw new Error('mosquitto_passwd is not installed (scripts/system-deps.sh)');
    const dir = await mkdtemp(join(tmpdir(), 'chessbridge-mosquitto-passwd-'));
    try {
      const file = join(dir, 'passwd');
      const secret = 'nimzo-larsen-attack-b3';
      execFileSync(MOSQUITTO_PASSWD, ['-c', '-b', file, 'anna', secret]);
      const line = (await readFile(file, 'utf8')).trim();
      const [user, stored = ''] = line.split(/:(.*)/s);
      expect(user).toBe('anna');
      const [, kind, rounds, salt] = stored.split('$');
      expect(kind).toBe('7');
      expect(await mosquittoHash(secret, Number(rounds), Buffer.from(salt ?? '', 'base64'))).toBe(stored);
      expect(await mosquittoHash(`${secret}!`, Number(rounds), Buffer.from(salt ?? '', 'base64'))).not.toBe(
        stored,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes one line per user, the daemon first, a fresh salt each', async () => {
    const r = await mosquittoFiles({
      base: 'hall',
      daemon: { name: 'bridge', secret: 'umpire-account-x9Q2k' },
      clientId: 'chessbridge',
      users: [
        { name: 'anna', role: 'arbiter', passwordEnv: 'T_ANNA' },
        { name: 'wall', role: 'display', passwordEnv: 'T_WALL' },
      ],
      env: { T_ANNA: 'petrosian-1963-tigran', T_WALL: 'corridor-screen-4411' },
      iterations: 101,
    });
    const files = r.unwrap();
    const lines = files.passwd.trim().split('\n');
    expect(lines.map(l => l.split(':')[0])).toEqual(['bridge', 'anna', 'wall']);
    for (const l of lines) expect(l).toMatch(/^[a-z]+:\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}==$/);
    expect(new Set(lines.map(l => l.split('$')[3])).size).toBe(3);
    expect(files.users).toBe(3);
  });
});

describe('the ACL file', () => {
  const acl = mosquittoAcl('hall', [
    { name: 'bridge', role: 'daemon' },
    { name: 'anna', role: 'arbiter' },
    { name: 'olga', role: 'operator' },
    { name: 'wall', role: 'display' },
  ]);
  const block = (user: string): string[] => {
    const lines = acl.split('\n');
    const start = lines.indexOf(`user ${user}`);
    const end = lines.findIndex((l, i) => i > start && l.startsWith('user '));
    return lines.slice(start + 1, end < 0 ? undefined : end).filter(l => l.startsWith('topic '));
  };

  it('gives nothing to anonymous clients', () => {
    const firstUser = acl.split('\n').findIndex(l => l.startsWith('user '));
    expect(
      acl
        .split('\n')
        .slice(0, firstUser)
        .filter(l => /^(topic|pattern) /.test(l)),
    ).toEqual([]);
  });

  it('lets the daemon alone write under the base; the others write only their own requests', () => {
    expect(block('bridge')).toEqual(['topic readwrite hall/#']);
    expect(block('anna')).toContain('topic write hall/bridge/request/anna/set_result');
    expect(block('anna')).toContain('topic write hall/bridge/request/anna/clock_text');
    expect(block('olga')).toEqual([
      'topic read hall/#',
      'topic write hall/bridge/request/olga/start_game',
      'topic write hall/bridge/request/olga/stop_game',
      'topic write hall/bridge/request/olga/bind_board',
      'topic write hall/bridge/request/olga/resync_board',
      'topic write hall/bridge/request/olga/upload_pairings',
      'topic write hall/bridge/request/olga/rebind_board',
      'topic write hall/bridge/request/olga/round_control',
    ]);
    expect(block('wall')).toEqual(['topic read hall/#']);
    for (const user of ['anna', 'olga', 'wall'])
      for (const line of block(user))
        expect(
          line === 'topic read hall/#' || line.startsWith(`topic write hall/bridge/request/${user}/`),
        ).toBe(true);
  });

  it('with a broadcast delay gives displays and broadcast tools the public topics only', () => {
    const delayed = mosquittoAcl(
      'hall',
      [
        { name: 'bridge', role: 'daemon' },
        { name: 'olga', role: 'operator' },
        { name: 'wall', role: 'display' },
        { name: 'relay', role: 'broadcast' },
      ],
      true,
    );
    const lines = delayed.split('\n');
    const blockOf = (user: string): string[] => {
      const start = lines.indexOf(`user ${user}`);
      const end = lines.findIndex((l, i) => i > start && l.startsWith('user '));
      return lines.slice(start + 1, end < 0 ? undefined : end).filter(l => l.startsWith('topic '));
    };
    const readerLines = [
      'topic read hall/public/#',
      'topic read hall/bridge/state',
      'topic read hall/bridge/info',
    ];
    expect(blockOf('wall')).toEqual(readerLines);
    expect(blockOf('relay')).toEqual(readerLines);
    // Arbiters and operators stay live.
    expect(blockOf('olga')[0]).toBe('topic read hall/#');
    expect(blockOf('bridge')).toEqual(['topic readwrite hall/#']);
  });
});

describe('what cannot be written', () => {
  it('names every problem by its path', async () => {
    const r = await mosquittoFiles({
      base: 'hall',
      daemon: { name: undefined, secret: undefined },
      clientId: 'chessbridge',
      users: [
        {
          name: 'anna',
          role: 'arbiter',
          passwordHash: 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g',
        },
        { name: 'chessbridge-requests', role: 'display', passwordEnv: 'T_UNSET' },
      ],
      env: {},
    });
    expect(r.isErr).toBe(true);
    const problems = r.isErr ? r.error.problems : [];
    expect(problems).toContain(
      "mqtt.username: give the daemon's own account at the broker (it alone publishes games)",
    );
    expect(problems.some(p => p.startsWith('mqtt.password: '))).toBe(true);
    expect(problems.some(p => p.startsWith('users[1].passwordEnv: T_UNSET is not set'))).toBe(true);
    expect(problems.some(p => p.startsWith('users[1].name: "chessbridge-requests" is a client id'))).toBe(
      true,
    );
  });

  it('refuses a user that has only a chessbridge hash, a user named as the daemon, a weak secret', async () => {
    const r = await mosquittoFiles({
      base: 'hall',
      daemon: { name: 'bridge', secret: 'umpire-account-x9Q2k' },
      clientId: 'chessbridge',
      users: [
        {
          name: 'anna',
          role: 'arbiter',
          passwordHash: 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g',
        },
        { name: 'bridge', role: 'display', passwordEnv: 'T_B' },
        { name: 'wall', role: 'display', passwordEnv: 'T_W' },
      ],
      env: { T_B: 'corridor-screen-4411', T_W: 'change-me' },
    });
    const problems = r.isErr ? r.error.problems : [];
    expect(problems.some(p => p.startsWith('users[0]: anna has only a chessbridge hash'))).toBe(true);
    expect(problems.some(p => p.startsWith('users[1].name: "bridge" is the daemon\'s account'))).toBe(true);
    expect(problems).toContain(
      'users[2]: weak secret for wall: an example or well-known secret: anyone tries it first',
    );
    expect(problems.some(p => p.startsWith('mqtt.password: '))).toBe(false);
  });
});
