/**
 * The files an external mosquitto (2.x) needs to give the venue's users the guarantees of the
 * embedded broker (docs/security.md): a password file in mosquitto's PBKDF2-SHA512 format
 * (`name:$7$iterations$salt$hash`, salt and hash in base64, as `mosquitto_passwd` writes it) and an
 * ACL file. The daemon's account (`mqtt.username`, `mqtt.password`) reads and writes everything under
 * the topic base; an arbiter or operator writes only `<base>/bridge/request/<own name>/<action>`
 * for the actions of its role, and reads under the base; displays and broadcast tools only read
 * (with a broadcast delay, only the delayed copies under `<base>/public/` and the daemon's state).
 * Anonymous clients get nothing. No chessbridge code runs inside mosquitto: what it cannot check
 * (the retained flag on a request, another user's client id) is listed in docs/security.md.
 *
 *   const r = await mosquittoFiles({ base: 'chessbridge', daemon: { name: 'bridge', secret },
 *     users: config.users, env: process.env });
 *   if (r.isOk) { await writeFile('chessbridge.passwd', r.value.passwd); await writeFile('chessbridge.acl', r.value.acl); }
 */
import { pbkdf2, randomBytes } from 'node:crypto';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';
import { type ConfiguredUser, readUsers } from './configUsers.js';
import { weakSecretProblem } from './passwords.js';
import { PUBLIC_READERS, publicFilters } from '../mqtt/brokerAccess.js';
import { actionsOf } from './roles.js';

/** PBKDF2 rounds of new entries (mosquitto 2.0's own tool uses 101; more costs each login more CPU). */
export const MOSQUITTO_ITERATIONS = 1000;
const SALT_BYTES = 12;
const KEY_BYTES = 64;

/** One password file entry's hash, `$7$iterations$salt$hash`. */
export const mosquittoHash = (
  secret: string,
  iterations = MOSQUITTO_ITERATIONS,
  salt: Buffer = randomBytes(SALT_BYTES),
): Promise<string> =>
  new Promise((resolve, reject) =>
    pbkdf2(secret, salt, iterations, KEY_BYTES, 'sha512', (error, key) =>
      error
        ? reject(error)
        : resolve(`$7$${iterations}$${salt.toString('base64')}$${key.toString('base64')}`),
    ),
  );

/** A user as the ACL sees it: a name and what its role may do. */
export interface AclUser {
  readonly name: string;
  readonly role: ConfiguredUser['role'] | 'daemon';
}

/** The ACL file's text (see the module comment); `delayed` when a broadcast delay is set. */
export const mosquittoAcl = (base: string, users: readonly AclUser[], delayed = false): string => {
  const lines = [
    '# chessbridge: who may publish and read what (chessbridge broker-config writes this file).',
    '# Anonymous clients: nothing (no lines before the first user).',
  ];
  for (const u of users) {
    lines.push('', `# ${u.role}`, `user ${u.name}`);
    if (u.role === 'daemon') {
      lines.push(`topic readwrite ${base}/#`);
      continue;
    }
    if (delayed && PUBLIC_READERS.has(u.role)) {
      // The live games and boards would give the delayed moves away.
      const { prefix, exact } = publicFilters(base);
      lines.push(`topic read ${prefix}#`, ...exact.map(t => `topic read ${t}`));
      continue;
    }
    lines.push(`topic read ${base}/#`);
    for (const action of actionsOf(u.role))
      lines.push(`topic write ${base}/bridge/request/${u.name}/${action}`);
  }
  return `${lines.join('\n')}\n`;
};

export interface MosquittoFilesInput {
  readonly base: string;
  /** The daemon's account at the broker (`mqtt.username`, `mqtt.password`); undefined when missing. */
  readonly daemon: { readonly name: string | undefined; readonly secret: string | undefined };
  /** The daemon's client ids (`mqtt.clientId` and `<clientId>-requests`): no user may be named so. */
  readonly clientId: string;
  readonly users: readonly ConfiguredUser[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly read?: (path: string) => Promise<string>;
  readonly iterations?: number;
  /** A broadcast delay is set (`broadcast.delayMinutes` above 0): readers get the public topics only. */
  readonly delayed?: boolean;
}

export interface MosquittoFiles {
  /** The password file's text (one `name:$7$…` line per user, the daemon's first). */
  readonly passwd: string;
  readonly acl: string;
  /** How many users (the daemon's account included). */
  readonly users: number;
}

export type MosquittoFilesError = Error & {
  readonly kind: 'brokerConfig';
  readonly problems: readonly string[];
};

/** Both files, or every problem as a `path: problem` line. */
export const mosquittoFiles = async (
  input: MosquittoFilesInput,
): Promise<Result<MosquittoFiles, MosquittoFilesError>> => {
  const problems: string[] = [];
  const { name: daemonName, secret: daemonSecret } = input.daemon;
  if (daemonName === undefined)
    problems.push("mqtt.username: give the daemon's own account at the broker (it alone publishes games)");
  if (daemonSecret === undefined)
    problems.push("mqtt.password: give the secret of the daemon's account (or CHESSBRIDGE_MQTT_PASSWORD)");
  if (input.users.length === 0)
    problems.push('users: no users: give each arbiter, operator and display its own');
  const read = await readUsers(input.users, input.env ?? process.env, ...(input.read ? [input.read] : []));
  if (read.isErr) problems.push(...read.error.problems);
  const taken = new Set([input.clientId, `${input.clientId}-requests`]);
  for (const [i, u] of input.users.entries()) {
    if (u.name === daemonName)
      problems.push(
        `users[${i}].name: "${u.name}" is the daemon's account (mqtt.username); choose another name`,
      );
    if (taken.has(u.name))
      problems.push(
        `users[${i}].name: "${u.name}" is a client id of the daemon (mqtt.clientId): with use_username_as_clientid it could take the daemon's place`,
      );
  }
  if (daemonSecret !== undefined) {
    const why = weakSecretProblem(daemonSecret, daemonName);
    if (why !== undefined) problems.push(`mqtt.password: weak secret: ${why}`);
  }
  const entries = read.isOk ? read.value : [];
  for (const [i, e] of entries.entries()) {
    const why = e.secret === undefined ? undefined : weakSecretProblem(e.secret, e.name);
    if (why !== undefined) problems.push(`users[${i}]: weak secret for ${e.name}: ${why}`);
    if (e.secret === undefined)
      problems.push(
        `users[${i}]: ${e.name} has only a chessbridge hash, which mosquitto cannot check; give the secret as passwordFile or passwordEnv to write the broker's files`,
      );
  }
  if (problems.length > 0 || daemonName === undefined || daemonSecret === undefined)
    return Result.err(
      dataError({ kind: 'brokerConfig' as const, problems }, `broker-config: ${problems.join('; ')}`),
    );
  const lines = [`${daemonName}:${await mosquittoHash(daemonSecret, input.iterations)}`];
  for (const e of entries) lines.push(`${e.name}:${await mosquittoHash(e.secret ?? '', input.iterations)}`);
  const acl = mosquittoAcl(
    input.base,
    [{ name: daemonName, role: 'daemon' }, ...input.users.map(u => ({ name: u.name, role: u.role }))],
    input.delayed === true,
  );
  return Result.ok({ passwd: `${lines.join('\n')}\n`, acl, users: lines.length });
};

/** A mosquitto.conf to start from, naming where the two files are. */
export const mosquittoConfSample = (passwdPath: string, aclPath: string): string =>
  [
    '# mosquitto.conf for chessbridge (docs/security.md)',
    'per_listener_settings true',
    '',
    '# The daemon, on its own machine (or a network only it reaches)',
    'listener 1884 127.0.0.1',
    'allow_anonymous false',
    `password_file ${passwdPath}`,
    `acl_file ${aclPath}`,
    '',
    "# The hall: every client's id is its user name, so nobody can take the daemon's client id",
    'listener 1883',
    'allow_anonymous false',
    'use_username_as_clientid true',
    `password_file ${passwdPath}`,
    `acl_file ${aclPath}`,
    '',
    '# Browsers (the arbiter console, displays)',
    'listener 9001',
    'protocol websockets',
    'allow_anonymous false',
    'use_username_as_clientid true',
    `password_file ${passwdPath}`,
    `acl_file ${aclPath}`,
    '',
  ].join('\n');
