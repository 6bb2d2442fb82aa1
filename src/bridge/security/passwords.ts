/**
 * Secrets as the configuration stores them: salted scrypt hashes written by `chessbridge passwd`,
 * in one self-describing string (`scrypt$N$r$p$salt$hash`, salt and hash in base64url), so the
 * cost can be raised later without breaking stored users. Also the rule for secrets too weak to
 * stand guard over a result: short ones, the examples of our own documentation, and words anyone
 * tries first.
 *
 *   const stored = await hashPassword('correct horse battery');   // 'scrypt$16384$8$1$…$…'
 *   await verifyPassword('correct horse battery', stored);         // true
 *   weakSecretProblem('change-me');                                // 'an example secret from …'
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';

const scrypt = (secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCb(secret, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** The cost of new hashes: about 16 MB and a few tens of milliseconds per check. */
export const SCRYPT_COST: ScryptCost = { N: 16384, r: 8, p: 1 };

export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** Shortest secret a user may have. */
export const MIN_SECRET_LENGTH = 12;

export interface ScryptHash {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

export type HashFormatError = Error & { readonly kind: 'hashFormat' };

const B64 = /^[A-Za-z0-9_-]+$/;

/** Reads a stored hash; the error says what is wrong with it (never echoes the hash). */
export const parseHash = (stored: string): Result<ScryptHash, HashFormatError> => {
  const bad = (why: string) =>
    Result.err<HashFormatError>(
      dataError({ kind: 'hashFormat' as const }, `not a chessbridge password hash: ${why}`),
    );
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt' || parts.length !== 6)
    return bad('expected scrypt$N$r$p$salt$hash, as `chessbridge passwd` writes it');
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every(n => Number.isInteger(n) && n > 0)) return bad('N, r and p must be positive integers');
  if (N < 1024 || (N & (N - 1)) !== 0) return bad('N must be a power of two of at least 1024');
  if (r * p > 64 || N * r > 1 << 24) return bad('cost beyond what this daemon will compute per login');
  const [salt, hash] = parts.slice(4) as [string, string];
  if (!B64.test(salt) || !B64.test(hash)) return bad('salt and hash must be base64url');
  const saltBytes = Buffer.from(salt, 'base64url');
  const hashBytes = Buffer.from(hash, 'base64url');
  if (saltBytes.length < 8 || hashBytes.length < 16) return bad('salt or hash too short');
  return Result.ok({ N, r, p, salt: saltBytes, hash: hashBytes });
};

const memoryFor = (h: { N: number; r: number }): number => 128 * h.N * h.r * 2;

/** A new salted hash of a secret. */
export const hashPassword = async (secret: string, cost: ScryptCost = SCRYPT_COST): Promise<string> => {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(secret, salt, KEY_LENGTH, { ...cost, maxmem: memoryFor(cost) });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
};

/** Whether `secret` is the one `stored` was made from (false for an unreadable hash). */
export const verifyPassword = async (secret: string, stored: string | ScryptHash): Promise<boolean> => {
  const parsed = typeof stored === 'string' ? parseHash(stored) : Result.ok(stored);
  if (parsed.isErr) return false;
  const h = parsed.value;
  const key = await scrypt(secret, h.salt, h.hash.length, { N: h.N, r: h.r, p: h.p, maxmem: memoryFor(h) });
  return timingSafeEqual(key, h.hash);
};

/** Secrets shipped in our examples and documentation, and the ones tried first by anyone. */
const KNOWN_SECRETS = new Set([
  'change-me',
  'changeme',
  'change-me-please',
  'password',
  'passw0rd',
  'secret',
  'admin',
  'administrator',
  'arbiter',
  'operator',
  'display',
  'broadcast',
  'chessbridge',
  'chess',
  'dgt',
  'livechess',
  'mosquitto',
  'qwerty',
  'letmein',
  'welcome',
  'test',
  'demo',
  '123456',
  '12345678',
  '123456789',
  '1234567890',
  '123456789012',
]);

/** Why a plain secret is too weak for a user (undefined when it will do). */
export const weakSecretProblem = (secret: string, user?: string): string | undefined => {
  const s = secret.trim();
  const folded = s.toLowerCase();
  if (KNOWN_SECRETS.has(folded) || KNOWN_SECRETS.has(folded.replace(/[^a-z0-9]+/g, '')))
    return 'an example or well-known secret: anyone tries it first';
  if (user !== undefined && user !== '' && folded === user.toLowerCase()) return 'the same as the user name';
  if (user !== undefined && user.length >= 3 && folded.includes(user.toLowerCase()))
    return 'contains the user name';
  if (s.length < MIN_SECRET_LENGTH) return `shorter than ${MIN_SECRET_LENGTH} characters`;
  if (new Set(s).size < 5) return 'fewer than 5 different characters';
  return undefined;
};

/** A random secret that passes weakSecretProblem (for the demo and `chessbridge passwd --generate`). */
export const generateSecret = (bytes = 15): string => randomBytes(bytes).toString('base64url');
