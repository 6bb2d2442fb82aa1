/**
 * The configured users made ready for the login check: each user's secret read from where the
 * configuration says (a hash in the file, a file holding the secret or its hash, an environment
 * variable holding the secret), the daemon's own user added with a secret made at each start, and
 * the plain secrets judged by the weak-secret rule for `chessbridge check`. A problem names the
 * field, as `users[2].passwordEnv: …`, and never shows a secret.
 *
 *   const r = await readUsers(config.users, process.env);
 *   if (r.isErr) throw r.error;                  // "users[1].passwordFile: cannot read …"
 *   const users = new UserDirectory([...r.value, daemonUser.entry]);
 *   await weakSecretProblems(config.users, process.env); // ['users[0].passwordEnv: …']
 */
import { readFile } from 'node:fs/promises';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';
import { generateSecret, parseHash, weakSecretProblem } from './passwords.js';
import type { Role, UserRole } from './roles.js';
import type { UserEntry } from './users.js';

/** A user as the configuration gives it (the shape of `users[]`). */
export interface ConfiguredUser {
  readonly name: string;
  readonly role: UserRole;
  readonly passwordHash?: string | undefined;
  readonly passwordFile?: string | undefined;
  readonly passwordEnv?: string | undefined;
}

export type UsersError = Error & { readonly kind: 'users'; readonly problems: readonly string[] };

/** The name of the daemon's own user; no configured user may take it. */
export const DAEMON_USER = 'daemon';

type Read = (path: string) => Promise<string>;
const readText: Read = path => readFile(path, 'utf8');

type Secret = { readonly hash: string } | { readonly secret: string };

/** One user's secret, or the problem as text (`users[i].field: …`). */
const secretOf = async (
  u: ConfiguredUser,
  i: number,
  env: Readonly<Record<string, string | undefined>>,
  read: Read,
): Promise<Secret | string> => {
  const at = `users[${i}]`;
  if (u.passwordHash !== undefined) {
    const h = parseHash(u.passwordHash);
    return h.isErr ? `${at}.passwordHash: ${h.error.message}` : { hash: u.passwordHash };
  }
  if (u.passwordEnv !== undefined) {
    const v = env[u.passwordEnv];
    if (v === undefined || v === '') return `${at}.passwordEnv: ${u.passwordEnv} is not set (user ${u.name})`;
    return { secret: v };
  }
  if (u.passwordFile !== undefined) {
    let text: string;
    try {
      text = await read(u.passwordFile);
    } catch (e) {
      return `${at}.passwordFile: cannot read ${u.passwordFile}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
    }
    const line = text.split(/\r?\n/)[0]?.trim() ?? '';
    if (line === '') return `${at}.passwordFile: ${u.passwordFile} is empty`;
    if (line.startsWith('scrypt$')) {
      const h = parseHash(line);
      return h.isErr ? `${at}.passwordFile: ${h.error.message}` : { hash: line };
    }
    return { secret: line };
  }
  return `${at}: give passwordHash (chessbridge passwd), passwordFile or passwordEnv`;
};

/** Every configured user with the secret read, or every problem at once. */
export const readUsers = async (
  users: readonly ConfiguredUser[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  read: Read = readText,
): Promise<Result<UserEntry[], UsersError>> => {
  const problems: string[] = [];
  const out: UserEntry[] = [];
  for (const [i, u] of users.entries()) {
    if (u.name === DAEMON_USER) {
      problems.push(`users[${i}].name: "${DAEMON_USER}" is the daemon's own user; choose another name`);
      continue;
    }
    const s = await secretOf(u, i, env, read);
    if (typeof s === 'string') problems.push(s);
    else out.push({ name: u.name, role: u.role, ...s });
  }
  if (problems.length > 0)
    return Result.err(dataError({ kind: 'users' as const, problems }, `users: ${problems.join('; ')}`));
  return Result.ok(out);
};

/** The plain secrets (environment, file) that are too weak, as `users[i].field: problem` lines. */
export const weakSecretProblems = async (
  users: readonly ConfiguredUser[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  read: Read = readText,
): Promise<string[]> => {
  const out: string[] = [];
  for (const [i, u] of users.entries()) {
    const s = await secretOf(u, i, env, read);
    if (typeof s === 'string') {
      out.push(s);
      continue;
    }
    if (!('secret' in s)) continue;
    const why = weakSecretProblem(s.secret, u.name);
    const field = u.passwordEnv !== undefined ? 'passwordEnv' : 'passwordFile';
    if (why !== undefined) out.push(`users[${i}].${field}: weak secret for ${u.name}: ${why}`);
  }
  return out;
};

/** The daemon's own user, with a secret made now (it lives in memory only). */
export const makeDaemonUser = (): {
  readonly name: string;
  readonly secret: string;
  readonly entry: UserEntry;
} => {
  const secret = generateSecret(24);
  const role: Role = 'daemon';
  return { name: DAEMON_USER, secret, entry: { name: DAEMON_USER, role, secret } };
};
