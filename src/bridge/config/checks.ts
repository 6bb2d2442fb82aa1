/**
 * Cross-field checks: the mistakes no single field shows. Duplicate board ids and serial numbers,
 * a port shared by boards that are not on one DGT bus, bus addresses, a calibration file on a
 * board other than Certabo or shared by two boards, pairings bound to an unknown board, to two
 * boards or twice in a round, rounds beyond the event, an unreadable time control, an embedded
 * broker open to the network without credentials, ports that collide, HTTP arbiter credentials
 * given twice or not at all, users named twice or whose secret is given in no way or in two, an
 * unreadable password hash.
 *
 * Each check looks only at the parts that passed the schema (a broken board entry is reported by
 * the schema and skipped here), so every mistake of a file is reported in one go.
 *
 *   const problems = crossFieldProblems(defaulted); // [{ pointer: '/boards/3/id', path, problem }]
 */
import { Value } from '@sinclair/typebox/value';
import { parseReadableTimeControl } from '../../engine/timeControl.js';
import { LANGUAGES, languageOf } from '../i18n/messages.js';
import { parseHash } from '../security/passwords.js';
import { chess960Problems } from './chess960.js';
import { makePathOf, type SchemaProblem } from './errors.js';
import {
  BoardSchema,
  BrokerSchema,
  HttpSchema,
  PairingSchema,
  TournamentSchema,
  UserSchema,
  type BoardConfig,
  type BrokerConfig,
  type HttpConfig,
  type PairingConfig,
  type TournamentConfig,
  type UserConfig,
} from './schema.js';

interface Indexed<T> {
  readonly index: number;
  readonly item: T;
}

const field = (v: unknown, key: string): unknown =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;

const validEntries = <T>(list: unknown, isValid: (v: unknown) => v is T): Indexed<T>[] =>
  Array.isArray(list) ? list.flatMap((item: unknown, index) => (isValid(item) ? [{ index, item }] : [])) : [];

const isBoard = (v: unknown): v is BoardConfig => Value.Check(BoardSchema, v);
const isPairing = (v: unknown): v is PairingConfig => Value.Check(PairingSchema, v);
const isUser = (v: unknown): v is UserConfig => Value.Check(UserSchema, v);
const section = <T>(v: unknown, check: (x: unknown) => boolean): T | undefined =>
  check(v) ? (v as T) : undefined;

const problem = (segments: readonly (string | number)[], text: string): SchemaProblem => ({
  pointer: segments.length === 0 ? '' : '/' + segments.join('/'),
  path: makePathOf(segments),
  problem: text,
});

const boardRef = (b: Indexed<BoardConfig>): string => `boards[${b.index}] (${b.item.id})`;

/** Groups entries by a key, keeping file order; entries whose key is undefined are left out. */
const groupBy = <T>(items: readonly T[], key: (t: T) => string | undefined): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    if (k === undefined) continue;
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [t]);
    else g.push(t);
  }
  return groups;
};

const boardProblems = (boards: readonly Indexed<BoardConfig>[]): SchemaProblem[] => {
  const out: SchemaProblem[] = [];
  for (const [id, same] of groupBy(boards, b => b.item.id)) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    for (const b of rest)
      out.push(
        problem(['boards', b.index, 'id'], `duplicate board id "${id}" (also boards[${first.index}])`),
      );
  }
  for (const [serial, same] of groupBy(boards, b => b.item.serial)) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    for (const b of rest)
      out.push(
        problem(['boards', b.index, 'serial'], `serial number "${serial}" is also ${boardRef(first)}`),
      );
  }
  for (const b of boards) {
    const { driver, port, serial, busAddress } = b.item;
    if (driver === 'dgt-bus') {
      if (busAddress === undefined)
        out.push(
          problem(['boards', b.index, 'busAddress'], 'missing: a dgt-bus board needs its bus address'),
        );
      if (port === undefined)
        out.push(problem(['boards', b.index, 'port'], 'missing: a dgt-bus board needs the port of its bus'));
    } else {
      if (busAddress !== undefined)
        out.push(
          problem(['boards', b.index, 'busAddress'], `only dgt-bus boards have one (driver is ${driver})`),
        );
      if (port === undefined && serial === undefined)
        out.push(problem(['boards', b.index], 'give a port or a serial number to find the board by'));
    }
    if (b.item.capture !== undefined && driver === 'chessnut')
      out.push(
        problem(
          ['boards', b.index, 'capture'],
          'only boards on a serial line can be captured (chessnut is USB HID)',
        ),
      );
    if (b.item.calibration !== undefined && driver !== 'certabo')
      out.push(
        problem(['boards', b.index, 'calibration'], `only certabo boards have one (driver is ${driver})`),
      );
  }
  for (const [file, same] of groupBy(boards, b => b.item.calibration)) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    for (const b of rest)
      out.push(
        problem(['boards', b.index, 'calibration'], `${file} is also the calibration of ${boardRef(first)}`),
      );
  }
  for (const [number, same] of groupBy(boards, b =>
    b.item.number === undefined ? undefined : String(b.item.number),
  )) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    for (const b of rest)
      out.push(problem(['boards', b.index, 'number'], `board number ${number} is also ${boardRef(first)}`));
  }
  for (const [file, same] of groupBy(boards, b => b.item.capture)) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    for (const b of rest)
      if (b.item.driver !== 'dgt-bus' || b.item.port !== first.item.port)
        out.push(
          problem(['boards', b.index, 'capture'], `${file} is also the capture of ${boardRef(first)}`),
        );
  }
  for (const [port, same] of groupBy(boards, b => b.item.port)) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    const allBus = same.every(b => b.item.driver === 'dgt-bus');
    if (!allBus) {
      for (const b of rest)
        out.push(
          problem(
            ['boards', b.index, 'port'],
            `${port} is also used by ${boardRef(first)}; only dgt-bus boards share a port`,
          ),
        );
      continue;
    }
    for (const [address, onAddress] of groupBy(same, b => b.item.busAddress?.toString())) {
      const [head, ...others] = onAddress;
      if (head === undefined) continue;
      for (const b of others)
        out.push(
          problem(
            ['boards', b.index, 'busAddress'],
            `bus address ${address} on ${port} is also ${boardRef(head)}`,
          ),
        );
    }
  }
  return out;
};

const pairingProblems = (
  pairings: readonly Indexed<PairingConfig>[],
  boards: readonly Indexed<BoardConfig>[],
  tournament: TournamentConfig | undefined,
  allBoardsValid: boolean,
): SchemaProblem[] => {
  const out: SchemaProblem[] = [];
  const bySerial = groupBy(boards, b => b.item.serial);
  for (const p of pairings) {
    const { round, serial } = p.item;
    if (tournament !== undefined && round > tournament.rounds)
      out.push(
        problem(
          ['pairings', p.index, 'round'],
          `round ${round} is beyond tournament.rounds (${tournament.rounds})`,
        ),
      );
    if (serial === undefined) continue;
    const bound = bySerial.get(serial) ?? [];
    if (bound.length === 0 && allBoardsValid)
      out.push(problem(['pairings', p.index, 'serial'], `no board has serial number "${serial}"`));
    if (bound.length > 1)
      out.push(
        problem(
          ['pairings', p.index, 'serial'],
          `bound to ${bound.length} boards with serial number "${serial}": ${bound.map(boardRef).join(', ')}`,
        ),
      );
  }
  for (const [key, same] of groupBy(pairings, p => `${p.item.round}/${p.item.board}`)) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    const [round, board] = key.split('/');
    for (const p of rest)
      out.push(
        problem(
          ['pairings', p.index, 'board'],
          `round ${round} board ${board} is also pairings[${first.index}]`,
        ),
      );
  }
  for (const [key, same] of groupBy(pairings, p =>
    p.item.serial === undefined ? undefined : `${p.item.round}/${p.item.serial}`,
  )) {
    const [first, ...rest] = same;
    if (first === undefined) continue;
    const round = key.slice(0, key.indexOf('/'));
    for (const p of rest)
      out.push(
        problem(
          ['pairings', p.index, 'serial'],
          `board "${p.item.serial ?? ''}" already plays pairings[${first.index}] in round ${round}`,
        ),
      );
  }
  return out;
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A user name without password or the reverse, in the mapping at `at`. */
const credentialProblems = (at: readonly string[], owner: unknown): SchemaProblem[] => {
  const username = field(owner, 'username');
  const password = field(owner, 'password');
  if (username !== undefined && password === undefined)
    return [problem([...at, 'password'], 'missing: username is set')];
  if (password !== undefined && username === undefined)
    return [problem([...at, 'username'], 'missing: password is set')];
  return [];
};

/** HTTP arbiter credentials: at least one secret, each given once (inline or as a file). */
const arbiterProblems = (arbiter: unknown): SchemaProblem[] => {
  if (typeof arbiter !== 'object' || arbiter === null || Array.isArray(arbiter)) return [];
  const at = ['http', 'arbiter'];
  const out: SchemaProblem[] = [];
  for (const secret of ['token', 'password'] as const) {
    if (field(arbiter, secret) !== undefined && field(arbiter, `${secret}File`) !== undefined)
      out.push(problem([...at, `${secret}File`], `give ${secret} or ${secret}File, not both`));
  }
  if (['token', 'tokenFile', 'password', 'passwordFile'].every(k => field(arbiter, k) === undefined))
    out.push(problem(at, 'give a token, tokenFile, password or passwordFile (or leave arbiter out)'));
  return out;
};

const SECRET_SOURCES = ['passwordHash', 'passwordFile', 'passwordEnv'] as const;

/** Users: one name each, one way to give the secret, a readable hash. */
const userProblems = (users: readonly Indexed<UserConfig>[]): SchemaProblem[] => {
  const out: SchemaProblem[] = [];
  for (const [name, same] of groupBy(users, u => u.item.name)) {
    const [first, ...rest] = same;
    for (const u of rest)
      out.push(problem(['users', u.index, 'name'], `"${name}" is already users[${first?.index ?? 0}]`));
  }
  for (const { index, item } of users) {
    const given = SECRET_SOURCES.filter(k => item[k] !== undefined);
    if (given.length === 0)
      out.push(
        problem(['users', index], 'give passwordHash (chessbridge passwd), passwordFile or passwordEnv'),
      );
    for (const extra of given.slice(1))
      out.push(
        problem(
          ['users', index, extra],
          `give one of ${SECRET_SOURCES.join(', ')}, not ${given.join(' and ')}`,
        ),
      );
    if (item.passwordHash !== undefined) {
      const h = parseHash(item.passwordHash);
      if (h.isErr) out.push(problem(['users', index, 'passwordHash'], h.error.message));
    }
  }
  return out;
};

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** The embedded broker: open to the network only with credentials; no two listeners on one port. */
const brokerProblems = (broker: BrokerConfig, http: HttpConfig | undefined): SchemaProblem[] => {
  const out: SchemaProblem[] = [];
  for (const old of ['username', 'password'] as const)
    if (broker[old] !== undefined)
      out.push(
        problem(
          ['mqtt', 'broker', old],
          'no longer read: one shared password let any holder act as the daemon; give each person a user in users (docs/security.md)',
        ),
      );
  if (broker.anonymousRead && !LOOPBACK.test(broker.host))
    out.push(
      problem(
        ['mqtt', 'broker', 'anonymousRead'],
        `only for a single-machine demo: the broker listens on ${broker.host}, beyond this machine`,
      ),
    );
  if (broker.wsPort === broker.port)
    out.push(problem(['mqtt', 'broker', 'wsPort'], `same port as mqtt.broker.port (${broker.port})`));
  if (http?.enabled === true && http.port === broker.port)
    out.push(problem(['http', 'port'], `same port as mqtt.broker.port (${broker.port})`));
  if (http?.enabled === true && http.port === broker.wsPort)
    out.push(problem(['http', 'port'], `same port as mqtt.broker.wsPort (${broker.wsPort})`));
  return out;
};

/** Every cross-field problem of a config whose defaults are filled in (it may still be invalid). */
/** The push to Lichess: one token source, each round pushed to one Lichess round. */
const pushProblems = (lichess: unknown): SchemaProblem[] => {
  if (typeof lichess !== 'object' || lichess === null || Array.isArray(lichess)) return [];
  const at = ['broadcast', 'lichess'];
  const out: SchemaProblem[] = [];
  const token = field(lichess, 'token');
  const tokenFile = field(lichess, 'tokenFile');
  if (token !== undefined && tokenFile !== undefined)
    out.push(problem([...at, 'tokenFile'], 'give token or tokenFile, not both'));
  if (token === undefined && tokenFile === undefined)
    out.push(problem(at, 'give tokenFile, token, or CHESSBRIDGE_BROADCAST_LICHESS_TOKEN in the environment'));
  const rounds = field(lichess, 'rounds');
  const seen = new Set<unknown>();
  if (Array.isArray(rounds))
    rounds.forEach((r: unknown, i) => {
      const round = field(r, 'round');
      if (round !== undefined && seen.has(round))
        out.push(problem([...at, 'rounds', i, 'round'], `round ${JSON.stringify(round)} is pushed twice`));
      seen.add(round);
    });
  return out;
};

export const crossFieldProblems = (value: unknown): SchemaProblem[] => {
  const boards = validEntries(field(value, 'boards'), isBoard);
  const allBoards = field(value, 'boards');
  const allBoardsValid = Array.isArray(allBoards) && allBoards.length === boards.length;
  const pairings = validEntries(field(value, 'pairings'), isPairing);
  const tournament = section<TournamentConfig>(field(value, 'tournament'), v =>
    Value.Check(TournamentSchema, v),
  );
  const http = section<HttpConfig>(field(value, 'http'), v => Value.Check(HttpSchema, v));
  const mqtt = field(value, 'mqtt');
  const broker = section<BrokerConfig>(field(mqtt, 'broker'), v => Value.Check(BrokerSchema, v));
  const out = [
    ...boardProblems(boards),
    ...pairingProblems(pairings, boards, tournament, allBoardsValid),
    ...chess960Problems(value),
  ];
  const timeControl = str(field(field(value, 'laws'), 'timeControl'));
  if (timeControl !== undefined) {
    const tc = parseReadableTimeControl(timeControl);
    if (tc.isErr) out.push(problem(['laws', 'timeControl'], tc.error.message));
  }
  out.push(...credentialProblems(['mqtt'], mqtt));
  out.push(...arbiterProblems(field(field(value, 'http'), 'arbiter')));
  out.push(...pushProblems(field(field(value, 'broadcast'), 'lichess')));
  const language = str(field(field(value, 'http'), 'language'));
  if (language !== undefined && languageOf(language) !== language)
    out.push(
      problem(
        ['http', 'language'],
        `no catalog for "${language}" (there are: ${Object.keys(LANGUAGES).join(', ')})`,
      ),
    );
  out.push(...userProblems(validEntries(field(value, 'users'), isUser)));
  if (field(mqtt, 'url') === undefined && broker !== undefined) out.push(...brokerProblems(broker, http));
  const livechess = field(value, 'livechess');
  const lcHost = str(field(livechess, 'host'));
  const lcPort = field(livechess, 'port');
  if (field(livechess, 'enabled') === true && typeof lcPort === 'number') {
    const taken =
      http?.enabled === true && http.port === lcPort
        ? 'http.port'
        : field(mqtt, 'url') === undefined && broker?.port === lcPort
          ? 'mqtt.broker.port'
          : field(mqtt, 'url') === undefined && broker?.wsPort === lcPort
            ? 'mqtt.broker.wsPort'
            : undefined;
    if (taken !== undefined) out.push(problem(['livechess', 'port'], `same port as ${taken} (${lcPort})`));
  }
  if (field(livechess, 'home') === true && lcHost !== undefined && !LOOPBACK.test(lcHost))
    out.push(
      problem(
        ['livechess', 'home'],
        `only for one machine: the LiveChess API listens on ${lcHost}, beyond this machine; give users credentials (docs/livechess-api.md)`,
      ),
    );
  return out;
};
