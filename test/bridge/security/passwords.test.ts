/** Salted hashes, their stored format, and the rule for weak secrets. */
import { describe, expect, it } from 'vitest';
import {
  MIN_SECRET_LENGTH,
  generateSecret,
  hashPassword,
  parseHash,
  verifyPassword,
  weakSecretProblem,
} from '../../../src/bridge/security/passwords.js';

const CHEAP = { N: 1024, r: 8, p: 1 } as const;

describe('hashes', () => {
  it('verifies the secret it was made from and nothing else', async () => {
    const stored = await hashPassword('correct horse battery', CHEAP);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts each hash', async () => {
    const [a, b] = await Promise.all([
      hashPassword('same secret here', CHEAP),
      hashPassword('same secret here', CHEAP),
    ]);
    expect(a).not.toBe(b);
  });

  it('writes the default cost', async () => {
    expect(await hashPassword('correct horse battery')).toMatch(/^scrypt\$16384\$8\$1\$/);
  });

  it.each([
    ['plain text', 'hunter2', 'expected scrypt$N$r$p$salt$hash'],
    ['another scheme', 'bcrypt$1$2$3$4$5', 'expected scrypt$N$r$p$salt$hash'],
    ['a cost not a power of two', 'scrypt$1000$8$1$AAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAA', 'power of two'],
    ['a huge cost', 'scrypt$1048576$64$1$AAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAA', 'cost beyond'],
    ['a bad salt', 'scrypt$1024$8$1$A+A/$AAAAAAAAAAAAAAAAAAAAAAAA', 'base64url'],
    ['a short hash', 'scrypt$1024$8$1$AAAAAAAAAAAA$AAAA', 'too short'],
  ])('refuses %s with a reason', (_what, stored, reason) => {
    const r = parseHash(stored);
    expect(r.isErr).toBe(true);
    if (r.isErr) expect(r.error.message).toContain(reason);
  });

  it('does not verify against an unreadable hash', async () => {
    expect(await verifyPassword('anything', 'scrypt$nonsense')).toBe(false);
  });
});

describe('weak secrets', () => {
  it.each([
    ['change-me', undefined, 'example'],
    ['Change Me', undefined, 'example'],
    ['a', undefined, `shorter than ${MIN_SECRET_LENGTH}`],
    ['display', 'display', 'example'],
    ['mariagonzalez', 'mariagonzalez', 'same as the user name'],
    ['jo', 'jo', 'same as the user name'],
    ['anna-arbitra-2026', 'anna', 'contains the user name'],
    ['aaaaaaaaaaaaaaaa', undefined, 'fewer than 5 different'],
    ['abcdefghijk', undefined, `shorter than ${MIN_SECRET_LENGTH}`],
  ])('%s (user %s): %s', (secret, user, reason) => {
    expect(weakSecretProblem(secret, user)).toContain(reason);
  });

  it('accepts a long varied secret, and every generated one', () => {
    expect(weakSecretProblem('tarrasch-1908-opens-e4', 'anna')).toBeUndefined();
    for (let i = 0; i < 50; i++) expect(weakSecretProblem(generateSecret(), 'anna')).toBeUndefined();
  });
});
