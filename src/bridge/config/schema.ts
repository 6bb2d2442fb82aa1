/**
 * The venue configuration schema: the one source of truth for the YAML file. Field types,
 * defaults and one-line descriptions live here; the TypeScript type is derived from it, the
 * environment overrides (env.ts) and the field table of docs/config.md (fields.ts) are derived
 * from it too, so none of them can drift.
 *
 *   import { ConfigSchema, type Config } from './schema.js';
 *   const board: BoardConfig = config.boards[0]!; // { id, driver, port, serial, orientation, clock, … }
 *   Value.Check(BoardSchema, candidate); // one section or list entry can be checked alone
 *
 * Bump CONFIG_VERSION only with a migration (docs/config.md says how).
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { EDITIONS, GAME_TYPES, SUPERVISIONS } from '../../engine/types.js';
import { USER_ROLES } from '../security/roles.js';

/** The configuration format this build reads. */
export const CONFIG_VERSION = 1;

/** Board drivers a venue can name. */
export const DRIVERS = ['dgt', 'dgt-bus', 'millennium', 'certabo', 'chessnut'] as const;
export type DriverName = (typeof DRIVERS)[number];

/** How a board stands: `auto` detects it from the starting position (docs/dgt.md). */
export const ORIENTATION_SETTINGS = ['auto', 'normal', 'rotated'] as const;

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export const LOG_FORMATS = ['text', 'json'] as const;

/** Highest DGT bus address (14 bits, docs/dgt.md). */
export const MAX_BUS_ADDRESS = 0x3fff;

/** Ids that appear in MQTT topics and file names: no `/`, `+`, `#`, spaces or dots. */
export const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
const ID_EXPECTS = 'an id: up to 64 letters, digits, - and _, starting with a letter or digit';

/**
 * A closed set of strings: at run time a union of literals (so validation and the error messages
 * see each allowed value), statically the union type `T` (a union built from an array, not a
 * tuple, would otherwise widen to string).
 */
export const StringEnum = <T extends string>(
  values: readonly T[],
  options: { readonly description: string; readonly default?: NoInfer<T>; readonly noun?: string },
): TUnsafe<T> =>
  Type.Unsafe<T>(
    Type.Union(
      values.map(v => Type.Literal(v)),
      options,
    ),
  );

/** An object section that rejects unknown keys and fills its own defaults when absent. */
const Section = <T extends Parameters<typeof Type.Object>[0]>(description: string, properties: T) =>
  Type.Object(properties, { additionalProperties: false, default: {}, description });

/** An object that rejects unknown keys; its required fields must be written. */
const Entry = <T extends Parameters<typeof Type.Object>[0]>(description: string, properties: T) =>
  Type.Object(properties, { additionalProperties: false, description });

const Port = (description: string, dflt: number) =>
  Type.Integer({ minimum: 1, maximum: 65535, default: dflt, description });

// ---------------------------------------------------------------------------------------------

/** Chess960 start of a pairing or a board (docs/operations.md, "Chess960 rounds"). */
const chess960Fields = {
  variant: Type.Optional(
    StringEnum(['standard', 'chess960'] as const, {
      description:
        '`chess960` for a Chess960 game; absent = the round’s (tournament.chess960), else standard',
    }),
  ),
  position: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 959,
      description:
        'Chess960 start position by number (518 = the standard one); with neither position nor fen, read off the board',
    }),
  ),
  fen: Type.Optional(
    Type.String({ minLength: 1, description: 'Chess960 start position as X-FEN or Shredder-FEN' }),
  ),
};

export const Chess960RoundSchema = Entry('A Chess960 round', {
  round: Type.Integer({ minimum: 1, description: 'Round number' }),
  position: chess960Fields.position,
  fen: chess960Fields.fen,
});

export const TournamentSchema = Section('The event the boards play in', {
  name: Type.String({ default: 'chessbridge', description: 'Name of the event (PGN Event tag, displays)' }),
  site: Type.String({ default: '', description: 'Where it is played (PGN Site tag)' }),
  rounds: Type.Integer({ minimum: 1, maximum: 999, default: 1, description: 'Number of rounds' }),
  pairingsFile: Type.String({
    default: '',
    description:
      'Pairings of every round from a FIDE TRF file (Swiss-Manager, Vega) or a CSV file (`.csv`), relative to this file, added to `pairings` and read again when it changes (docs/broadcast.md); empty = none',
  }),
  chess960: Type.Array(Chess960RoundSchema, {
    default: [],
    description: 'Rounds played as Chess960, each with its start position (or none: read off each board)',
  }),
});

export const LawsSchema = Section('The Laws of Chess applied to every game', {
  edition: StringEnum(EDITIONS, {
    default: 'E23',
    noun: 'edition',
    description: 'Edition of the FIDE Laws in force',
  }),
  gameType: StringEnum(GAME_TYPES, { default: 'standard', description: 'standard, rapid or blitz' }),
  supervision: StringEnum(SUPERVISIONS, {
    default: 'full',
    description: 'Rapid/blitz: full (Competition Rules apply) or reduced (appendix rules)',
  }),
  timeControl: Type.String({
    default: '90m/40 + 30m, +30s',
    description: 'Time control in the readable form of docs/clock.md, e.g. `15+10`, `90m/40 + 30m, +30s`',
  }),
  alerts: StringEnum(['proven', 'possible'] as const, {
    default: 'proven',
    description:
      'Which Art. 4 findings are arbiter alerts: `proven` (what the board shows beyond any handling) or `possible` (also what is inferred from timing, such as a piece resting on a legal square; otherwise shown as findings, and an alert on a claim)',
  }),
  quietSeconds: Type.Number({
    minimum: 2.5,
    maximum: 60,
    default: 4,
    description:
      'How long a board must stay quiet before the daemon acts without a press: a board that is no position becomes an alert, a move that ends the game (mate nobody pressed for) ends it, a result gesture or a takeback is read',
  }),
});

export const JournalSchema = Section('Where games are recorded (docs/journal.md)', {
  dir: Type.String({
    minLength: 1,
    default: 'journal',
    description: 'Folder of the game journals; relative paths start at the working directory',
  }),
  checkpointSeconds: Type.Number({
    minimum: 0.1,
    maximum: 3600,
    default: 10,
    description: 'How often the shared write-ahead log is folded into the game files and emptied',
  }),
});

export const TlsSchema = Section('TLS towards an external broker (mqtts:// or wss://)', {
  ca: Type.Optional(Type.String({ minLength: 1, description: 'File with the CA certificate(s) to trust' })),
  cert: Type.Optional(Type.String({ minLength: 1, description: 'File with the client certificate' })),
  key: Type.Optional(Type.String({ minLength: 1, description: 'File with the client private key' })),
  rejectUnauthorized: Type.Boolean({
    default: true,
    description: 'Refuse a broker whose certificate does not verify',
  }),
});

/** A TLS listener's certificate and key (the HTTP server, the embedded broker). */
export const ServerTlsSchema = Entry(
  'Serve over TLS with this certificate and key (PEM files; `chessbridge cert` makes a self-signed pair; docs/security.md)',
  {
    cert: Type.String({
      minLength: 1,
      description:
        'File with the certificate (PEM), the chain after it if any; relative paths start at the working directory',
    }),
    key: Type.String({
      minLength: 1,
      description:
        "File with the certificate's private key (PEM, unencrypted, readable by the daemon's user only)",
    }),
  },
);

export const BrokerSchema = Section('The embedded broker, used when mqtt.url is not set', {
  host: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description: 'Interface to listen on; anything but loopback requires username and password',
  }),
  port: Port('MQTT (TCP) port', 1883),
  wsPort: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 9001,
    description: 'MQTT over WebSocket port for browsers; 0 = none',
  }),
  anonymousRead: Type.Boolean({
    default: false,
    description:
      'Let clients connect without credentials, to read only; for a single-machine demo on 127.0.0.1, never in a hall (docs/security.md)',
  }),
  origins: Type.Array(
    Type.String({ pattern: '^https?://[^\\s/]+$', expects: 'an origin such as http://hall-pc:8080' }),
    {
      default: [],
      description:
        "Web origins whose pages may connect over WebSocket, besides the pages of this daemon's own HTTP server",
    },
  ),
  tls: Type.Optional(ServerTlsSchema),
  username: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'No longer read (check refuses it): give each person a user in `users`',
    }),
  ),
  password: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'No longer read (check refuses it): give each person a user in `users`',
    }),
  ),
});

export const MqttSchema = Section('MQTT: where games are published and requests arrive', {
  url: Type.Optional(
    Type.String({
      pattern: '^(mqtt|mqtts|ws|wss|tcp|ssl|tls)://[^\\s]+$',
      expects: 'a broker URL such as mqtt://host:1883 or wss://host/mqtt',
      description: 'External broker, e.g. mqtt://host:1883 or wss://host/mqtt; absent = embedded broker',
    }),
  ),
  baseTopic: Type.String({
    pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$',
    expects: 'topic levels of letters, digits, - and _ joined by /',
    default: 'chessbridge',
    description: 'Prefix of every topic (no wildcards, no leading or trailing /)',
  }),
  clientId: Type.String({
    pattern: ID_PATTERN,
    expects: ID_EXPECTS,
    default: 'chessbridge',
    description: 'MQTT client id; give every daemon on one broker its own',
  }),
  username: Type.Optional(Type.String({ minLength: 1, description: 'User name at the external broker' })),
  password: Type.Optional(Type.String({ minLength: 1, description: 'Password at the external broker' })),
  startTimeoutSeconds: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 30,
    description:
      'Seconds the start waits for the first connection to the broker; then `run` says so in one line and exits 1',
  }),
  tls: TlsSchema,
  broker: BrokerSchema,
});

/** Shortest secrets accepted for HTTP arbiter actions (a token is for scripts; a password is typed). */
export const MIN_TOKEN_LENGTH = 16;
export const MIN_PASSWORD_LENGTH = 8;

export const ArbiterCredentialsSchema = Entry(
  'Credentials of the HTTP arbiter actions (docs/web.md); absent = those actions are refused',
  {
    token: Type.Optional(
      Type.String({
        minLength: MIN_TOKEN_LENGTH,
        description: `Bearer token (at least ${MIN_TOKEN_LENGTH} characters); better from the environment than in the file`,
      }),
    ),
    tokenFile: Type.Optional(
      Type.String({ minLength: 1, description: 'File holding the token (read at start, one line)' }),
    ),
    password: Type.Optional(
      Type.String({
        minLength: MIN_PASSWORD_LENGTH,
        description: `Password for HTTP Basic login, any user name (at least ${MIN_PASSWORD_LENGTH} characters)`,
      }),
    ),
    passwordFile: Type.Optional(
      Type.String({ minLength: 1, description: 'File holding the password (read at start, one line)' }),
    ),
  },
);

export const HttpSchema = Section('The HTTP server: live PGN, web display, health', {
  enabled: Type.Boolean({ default: true, description: 'Serve HTTP at all' }),
  host: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Interface to listen on' }),
  port: Port('TCP port', 8080),
  language: Type.String({
    pattern: '^[a-z]{2}$',
    expects: 'a language of the catalogs: en, es (docs/i18n.md)',
    default: 'en',
    description:
      "Language of the pages when the reader has not chosen one and the browser's languages have no catalog, and of the sentences of the daemon's log (docs/i18n.md)",
  }),
  arbiter: Type.Optional(ArbiterCredentialsSchema),
  tls: Type.Optional(ServerTlsSchema),
});

export const UserSchema = Entry(
  'One person or program that connects, and what it may do (docs/security.md)',
  {
    name: Type.String({
      pattern: ID_PATTERN,
      expects: ID_EXPECTS,
      description: 'Login name (appears in request topics: letters, digits, - and _)',
    }),
    role: StringEnum(USER_ROLES, {
      noun: 'role',
      description:
        'arbiter (decides games and clocks), operator (boards and rounds, no results), display or broadcast (read only)',
    }),
    passwordHash: Type.Optional(
      Type.String({ minLength: 1, description: 'The salted hash `chessbridge passwd` writes (scrypt$…)' }),
    ),
    passwordFile: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'File holding the secret or its hash, one line (read at start)',
      }),
    ),
    passwordEnv: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        expects: 'an environment variable name',
        description: 'Environment variable holding the secret (for automation)',
      }),
    ),
  },
);

export const BoardSchema = Entry('One electronic board', {
  id: Type.String({
    pattern: ID_PATTERN,
    expects: ID_EXPECTS,
    description: 'Board id, unique across the venue (used in topics)',
  }),
  driver: StringEnum(DRIVERS, { noun: 'driver', description: 'Protocol spoken by the board' }),
  port: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Device path (prefer /dev/serial/by-id/… or a udev name); absent = find by serial',
    }),
  ),
  busAddress: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_BUS_ADDRESS,
      description: 'Address on a DGT bus (dgt-bus only)',
    }),
  ),
  serial: Type.Optional(
    Type.String({ minLength: 1, description: 'Serial number the board reports; pairings bind to it' }),
  ),
  number: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'Board (table) number in the hall: a pairing that names no serial is played on the board with its number',
    }),
  ),
  orientation: StringEnum(ORIENTATION_SETTINGS, {
    default: 'auto',
    description: 'auto (detect from the start position), normal, or rotated (turned 180°)',
  }),
  clock: Type.Boolean({ default: false, description: 'A clock is connected through this board' }),
  ...chess960Fields,
  calibration: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'certabo only: JSON file of the RFID piece calibration, learned from the start position when missing; absent = calibration/{id}.json in journal.dir',
    }),
  ),
  capture: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'serial boards: append every read from the line with its time to this capture file (docs/capture-format.md), to replay it with `chessbridge replay --driver`',
    }),
  ),
});

const Player = (description: string) =>
  Entry(description, {
    name: Type.String({ minLength: 1, description: 'Name as written in the PGN, e.g. "Carlsen, Magnus"' }),
    fideId: Type.Optional(Type.Integer({ minimum: 1, maximum: 999_999_999, description: 'FIDE id' })),
    title: Type.Optional(
      Type.String({ pattern: '^[A-Z]{1,4}$', expects: 'GM, IM, FM, CM, WGM, …', description: 'FIDE title' }),
    ),
    rating: Type.Optional(Type.Integer({ minimum: 0, maximum: 4000, description: 'FIDE rating' })),
    federation: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{3}$',
        expects: 'a three-letter code such as ESP',
        description: 'FIDE federation',
      }),
    ),
  });

export const PairingSchema = Entry('One game of a round', {
  round: Type.Integer({ minimum: 1, description: 'Round number' }),
  board: Type.Integer({ minimum: 1, description: 'Board (table) number within the round' }),
  white: Player('The player with the white pieces'),
  black: Player('The player with the black pieces'),
  serial: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Serial number of the electronic board it is played on; absent = bound later',
    }),
  ),
  ...chess960Fields,
});

export const PushRoundSchema = Entry('One round pushed to a Lichess broadcast round', {
  round: Type.Integer({ minimum: 1, maximum: 9999, description: 'Round of the tournament' }),
  id: Type.String({
    pattern: '^[A-Za-z0-9]{8}$',
    expects: 'the 8-letter id of a Lichess broadcast round (the last part of its address)',
    description: 'Lichess broadcast round id it is pushed to',
  }),
});

export const LichessPushSchema = Entry(
  'Direct push to Lichess broadcast rounds (docs/broadcast.md); absent = no push',
  {
    url: Type.String({
      pattern: '^https?://[^\\s/]+',
      expects: 'an http:// or https:// address',
      default: 'https://lichess.org',
      description: 'The Lichess server',
    }),
    rounds: Type.Array(PushRoundSchema, {
      minItems: 1,
      description: 'Which round goes to which Lichess broadcast round',
    }),
    token: Type.Optional(
      Type.String({
        minLength: 8,
        description:
          'API token with the broadcast scope; better from a file or the environment (CHESSBRIDGE_BROADCAST_LICHESS_TOKEN) than in the config',
      }),
    ),
    tokenFile: Type.Optional(
      Type.String({ minLength: 1, description: 'File holding the token (read at start, one line)' }),
    ),
  },
);

export const BroadcastSchema = Section(
  'Public outputs: the folder export, the push to Lichess and the broadcast delay (docs/broadcast.md)',
  {
    folder: Type.String({
      default: '',
      description:
        'Folder kept in step with the live feed in the LiveChess layout (tournament.json, round-N/index.json, round-N/games.pgn, round-N/game-K.pgn), each file written atomically, for FTP mirroring; empty = no export',
    }),
    delayMinutes: Type.Number({
      minimum: 0,
      maximum: 1440,
      default: 0,
      description:
        'Broadcast delay: the public outputs (live PGN and API over HTTP, the folder export, the push to Lichess, the public display pages and the `public/games/<game>` topics) show a move only this many minutes after it was made; the live MQTT topics, the arbiter console and the journal stay live. 0 = none',
    }),
    delayResults: Type.Boolean({
      default: true,
      description:
        'With a delay: a result waits for the delay and for every move before it (true), or is shown as soon as the arbiter has it (false)',
    }),
    lichess: Type.Optional(LichessPushSchema),
  },
);

export const WatchSchema = Section(
  'What the board status (MQTT boards/<board>/state, GET /api/boards, the console’s boards page) calls a problem (docs/operations.md)',
  {
    notRespondingSeconds: Type.Number({
      minimum: 1,
      maximum: 3600,
      default: 15,
      description:
        'A board opened but not answering (its link still being set up) this long is `not_responding`, a missing board',
    }),
    clockPausedSeconds: Type.Number({
      minimum: 5,
      maximum: 86_400,
      default: 300,
      description:
        'A clock stopped this long while its board’s game is under way (a move made, no result) is a `clock_paused` problem',
    }),
  },
);

export const RequestsSchema = Section(
  'Limits on requests (MQTT request topics and the HTTP arbiter actions; docs/operations.md)',
  {
    perSecond: Type.Number({
      minimum: 0.1,
      maximum: 10_000,
      default: 20,
      description:
        'Requests each client may make per second, on average (a token bucket per client); more are refused as rate limited',
    }),
    burst: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      default: 200,
      description: 'Requests a client may make at once after a quiet spell (the size of its bucket)',
    }),
    totalPerSecond: Type.Number({
      minimum: 1,
      maximum: 100_000,
      default: 200,
      description: 'Requests of all clients together the daemon takes per second; more are refused as busy',
    }),
    queue: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      default: 500,
      description: 'Requests taken and not yet answered, at most; more are refused as busy',
    }),
    concurrency: Type.Integer({
      minimum: 1,
      maximum: 256,
      default: 8,
      description: 'Requests handled at the same time; the others of the queue wait their turn',
    }),
    readPerSecond: Type.Number({
      minimum: 1,
      maximum: 1_000_000,
      default: 1000,
      description:
        "MQTT request messages read per second, at most, on the daemon's own connection for requests; beyond it the broker holds them, or drops what its queue cannot hold",
    }),
    refusalsPerSecond: Type.Number({
      minimum: 0,
      maximum: 100_000,
      default: 100,
      description:
        'MQTT refusals answered per second, at most (QoS 0); beyond it a refused request gets no answer, only counted',
    }),
  },
);

export const LiveChessSchema = Section(
  'The LiveChess-compatible WebSocket API for tools written for DGT LiveChess, such as the Lichess board page (docs/livechess-api.md)',
  {
    enabled: Type.Boolean({
      default: false,
      description: 'Serve the LiveChess API (ws://host:port/api/v1.0)',
    }),
    host: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Interface to listen on' }),
    port: Port('TCP port (LiveChess uses 1982)', 1982),
    home: Type.Boolean({
      default: false,
      description:
        'Home use: clients connect without credentials and may set up and flip boards; only on a loopback host (127.0.0.1), never in a hall',
    }),
    origins: Type.Array(
      Type.String({ pattern: '^https?://[^\\s/]+$', expects: 'an origin such as https://lichess.org' }),
      {
        default: [],
        description:
          'Web origins whose pages may connect (https://lichess.org for the Lichess board page); clients that are not browsers send no origin',
      },
    ),
    maxMessageBytes: Type.Integer({
      minimum: 256,
      maximum: 1_048_576,
      default: 16_384,
      description:
        'Longest message taken; a longer one gets an error reply (over 1 MiB closes the connection)',
    }),
    messagesPerSecond: Type.Number({
      minimum: 1,
      maximum: 100_000,
      default: 20,
      description: 'Messages each connection may send per second, on average; more get an error reply',
    }),
    burst: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 100,
      description: 'Messages a connection may send at once after a quiet spell',
    }),
  },
);

export const LoggingSchema = Section('Log output', {
  level: StringEnum(LOG_LEVELS, { default: 'info', description: 'Least severe level written' }),
  format: StringEnum(LOG_FORMATS, {
    default: 'text',
    description: 'text for people, json for machines (one object a line)',
  }),
  repeatSeconds: Type.Number({
    minimum: 0,
    maximum: 3600,
    default: 10,
    description:
      'A line repeated word for word within this many seconds is written once, then once more with the count of repeats; 0 = write every line',
  }),
});

export const ConfigSchema = Type.Object(
  {
    version: Type.Literal(CONFIG_VERSION, {
      default: CONFIG_VERSION,
      expects: `${CONFIG_VERSION} (the format this chessbridge reads)`,
      description: 'Format of this file; absent = the current one',
    }),
    tournament: TournamentSchema,
    laws: LawsSchema,
    journal: JournalSchema,
    mqtt: MqttSchema,
    http: HttpSchema,
    broadcast: BroadcastSchema,
    requests: RequestsSchema,
    livechess: LiveChessSchema,
    watch: WatchSchema,
    users: Type.Array(UserSchema, {
      default: [],
      description:
        'Who may connect to the embedded broker and the arbiter routes, and what each may do (docs/security.md)',
    }),
    boards: Type.Array(BoardSchema, { default: [], description: 'The boards this daemon reads' }),
    pairings: Type.Array(PairingSchema, {
      default: [],
      description: 'Games to play, bound to boards by serial number',
    }),
    logging: LoggingSchema,
  },
  { additionalProperties: false, description: 'chessbridge venue configuration' },
);

/** Everything readonly, all the way down (the loaded config is deep-frozen). */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The configuration as loaded: defaults filled in, validated, frozen. */
export type Config = DeepReadonly<Static<typeof ConfigSchema>>;
export type TournamentConfig = Config['tournament'];
export type LawsConfig = Config['laws'];
export type JournalConfig = Config['journal'];
export type MqttConfig = Config['mqtt'];
export type BrokerConfig = MqttConfig['broker'];
export type HttpConfig = Config['http'];
export type ArbiterCredentialsConfig = NonNullable<HttpConfig['arbiter']>;
export type BroadcastConfig = Config['broadcast'];
export type WatchConfig = Config['watch'];
export type BoardConfig = Config['boards'][number];
export type UserConfig = Config['users'][number];
export type PairingConfig = Config['pairings'][number];
export type PlayerConfig = PairingConfig['white'];
export type LoggingConfig = Config['logging'];
export type RequestsConfig = Config['requests'];
export type LiveChessConfig = Config['livechess'];
