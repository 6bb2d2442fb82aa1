/** The login check: right credentials always pass, guesses are slowed and counted per address. */
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/bridge/security/passwords.js';
import { UserDirectory } from '../../../src/bridge/security/users.js';

const CHEAP = { N: 1024, r: 8, p: 1 } as const;
const SECRET = 'tarrasch-1908-opens-e4';

const directory = async (now: () => number) =>
  new UserDirectory(
    [
      { name: 'anna', role: 'arbiter', hash: await hashPassword(SECRET, CHEAP) },
      { name: 'wall', role: 'display', secret: 'corridor-screen-7' },
    ],
    { burst: 3, perSecond: 1, concurrent: 2, queue: 4 },
    now,
  );

describe('UserDirectory', () => {
  it('accepts the right secret with its role, refuses others', async () => {
    const users = await directory(() => 0);
    expect(await users.check('anna', SECRET, '192.0.2.1')).toEqual({
      ok: true,
      principal: { user: 'anna', role: 'arbiter' },
    });
    expect(await users.check('wall', 'corridor-screen-7', '192.0.2.1')).toMatchObject({ ok: true });
    expect(await users.check('anna', 'wrong', '192.0.2.2')).toEqual({ ok: false, why: 'wrong' });
    expect(await users.check('nobody', SECRET, '192.0.2.2')).toEqual({ ok: false, why: 'wrong' });
    expect(users.roleOf('wall')).toBe('display');
    expect(users.names()).toEqual(['anna', 'wall']);
  });

  it('rejects a malformed hash at once, naming the user', () => {
    expect(() => new UserDirectory([{ name: 'bob', role: 'operator', hash: 'plain' }])).toThrow(
      /user bob: not a chessbridge/,
    );
  });

  it('slows a guessing address but never the right credentials once known', async () => {
    let t = 0;
    const users = await directory(() => t);
    expect((await users.check('anna', SECRET, 'nat')).ok).toBe(true);
    const whys: string[] = [];
    for (let i = 0; i < 200; i++) {
      const v = await users.check('anna', `guess-${i}`, 'nat');
      whys.push(v.ok ? 'ok' : v.why);
      if (i % 50 === 0) expect((await users.check('anna', SECRET, 'nat')).ok).toBe(true);
    }
    expect(whys.filter(w => w === 'ok')).toEqual([]);
    // The first right login took one of the three checks of the burst.
    expect(whys.filter(w => w === 'wrong')).toHaveLength(2);
    expect(whys.filter(w => w === 'slowed')).toHaveLength(198);
    t += 2000;
    expect(await users.check('anna', 'guess-again', 'nat')).toEqual({ ok: false, why: 'wrong' });
    expect((await users.check('anna', SECRET, 'nat')).ok).toBe(true);
  });

  it('slows guesses at one user from many addresses, but not a first login from a clean one', async () => {
    const users = await directory(() => 0);
    const whys: string[] = [];
    for (let round = 0; round < 3; round++)
      for (let a = 0; a < 10; a++) {
        const v = await users.check('anna', `guess-${round}-${a}`, `10.0.0.${a}`);
        whys.push(v.ok ? 'ok' : v.why);
      }
    // Each address's first guess is checked; later ones share anna's budget of three, then wait.
    expect(whys.filter(w => w === 'wrong')).toHaveLength(13);
    expect(whys.filter(w => w === 'slowed')).toHaveLength(17);
    // The arbiter's first login since the start, from an address that never failed: checked at once.
    expect(await users.check('anna', SECRET, '10.0.0.200')).toMatchObject({ ok: true });
  });

  it('logs failures in aggregate, one line per address, then forgets them', async () => {
    const users = await directory(() => 0);
    for (let i = 0; i < 10; i++) await users.check('anna', `guess-${i}`, '192.0.2.9');
    await users.check('root\n', 'x', '192.0.2.10');
    const lines = users.failureReport();
    expect(lines).toEqual([
      '10 failed logins from 192.0.2.9 (users anna); 7 refused unchecked while slowed',
      '1 failed login from 192.0.2.10 (users root\\n)',
    ]);
    expect(users.failureReport()).toEqual([]);
  });
});
