/**
 * The MQTT surface as a typed map: every topic pattern under the base, the payload it carries,
 * and its QoS and retain flag. Topic names are built only through `makeTopic` (or the typed
 * builders of `makeTopics`), which refuse wildcards and empty levels. Wire fields are snake_case.
 *
 *   const t = makeTopics('chessbridge');
 *   const topic = t.gameEvents('r1-b3');          // { name: 'chessbridge/games/r1-b3/events', pattern: 'games/<game>/events' }
 *   client.publishTyped(topic, { game: 'r1-b3', seq: 1, at: Date.now(), type: 'move', san: 'e4' });
 */

/** The default base (first topic levels) of every topic. */
export const DEFAULT_BASE = 'chessbridge';

/** Any JSON value. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/** `bridge/state`: retained; the Last Will sets it to `offline`. */
export interface BridgeState {
  readonly state: 'online' | 'offline';
}

/** `bridge/info`: retained description of this daemon. */
export interface BridgeInfo {
  readonly version: string;
  /** This daemon's MQTT client id (unique per daemon in a venue). */
  readonly client_id: string;
  /** When the daemon started, ISO 8601. */
  readonly started_at: string;
  readonly boards: readonly string[];
  readonly games: readonly string[];
}

/** Counters of the MQTT layer, as they appear in `bridge/health`. */
export interface MqttHealthWire {
  readonly connected: boolean;
  readonly reconnects: number;
  readonly published: number;
  /** Events waiting for a PUBACK (in flight or not yet sent). */
  readonly queued: number;
  readonly acked: number;
  /** Events the broker refused; 0 is expected. */
  readonly dropped: number;
}

/** `bridge/health`: periodic, not retained. */
export interface BridgeHealth {
  /** ISO 8601 time of the report. */
  readonly at: string;
  readonly uptime_s: number;
  readonly mqtt: MqttHealthWire;
  readonly boards?: { readonly [board: string]: JsonObject };
}

/** `boards/<board>/state`: retained. */
export interface BoardState {
  readonly board: string;
  /** The board (table) number in the hall, when configured. */
  readonly number: number | null;
  readonly link: 'connected' | 'lost' | 'resynchronising';
  /** How the board stands for the operator (docs/mqtt.md). */
  readonly status: 'connected' | 'idle' | 'lost' | 'not_responding';
  /** What the operator is alerted to: `board_missing`, `clock_paused`, `board_mismatch`. */
  readonly problems: readonly ('board_missing' | 'clock_paused' | 'board_mismatch')[];
  /** The game bound to this board, if any. */
  readonly game: string | null;
  readonly serial?: string;
  readonly vendor: string | null;
  readonly model: string | null;
  readonly firmware: string | null;
  readonly battery: { readonly percent: number | null; readonly charging: boolean | null } | null;
  readonly clock: {
    readonly present: boolean;
    readonly running: 'left' | 'right' | null;
    readonly stopped_since: number | null;
    readonly battery_low: boolean;
  } | null;
  /** When the board last said anything (ms since the epoch). */
  readonly last_seen: number | null;
  /** Board part of a FEN as the board sees it (may be illegal while pieces are in hand). */
  readonly placement?: string;
  /** Milliseconds since the Unix epoch. */
  readonly at: number;
}

/** `games/<game>`: retained snapshot of a game; `seq` is the last event folded into it. */
export interface GameSnapshot {
  readonly game: string;
  readonly seq: number;
  readonly at: number;
  readonly board: string | null;
  readonly fen: string;
  readonly moves: readonly string[];
  readonly result: '1-0' | '0-1' | '1/2-1/2' | '*';
  readonly [field: string]: JsonValue;
}

/**
 * `games/<game>/events`: QoS 1 stream, one schema per event type (src/bridge/wire/schema.ts). `seq`
 * is strictly increasing per game, so consumers drop duplicates (`seq <= last seen`) and detect gaps.
 */
export type { EventMessage } from '../wire/schema.js';
import type { EventMessage } from '../wire/schema.js';

/** `alerts`: arbiter alerts of every board, QoS 1, not retained. */
export interface AlertMessage {
  readonly code: string;
  readonly message: string;
  readonly at: number;
  readonly game?: string;
  readonly board?: string;
  readonly seq?: number;
  readonly article?: string;
  readonly edition?: string;
}

/** The one response envelope of `bridge/response/<action>`. */
export interface ResponseEnvelope {
  readonly status: 'ok' | 'error';
  readonly data: JsonObject;
  readonly error?: string;
  /** Why not, as data the pages render in the reader's language (wire/refusals.ts). */
  readonly code?: string;
  readonly params?: Readonly<Record<string, string | number>>;
  readonly transaction?: string | number;
}

/** Topic pattern (below the base) → payload type. `<name>` marks a level filled at run time. */
export interface TopicMap {
  'bridge/state': BridgeState;
  'bridge/info': BridgeInfo;
  'bridge/health': BridgeHealth;
  'boards/<board>/state': BoardState;
  'games/<game>': GameSnapshot;
  /** The snapshot under the broadcast delay (docs/broadcast.md); published only with a delay. */
  'public/games/<game>': GameSnapshot;
  'games/<game>/events': EventMessage;
  /** PGN text, not JSON. */
  'games/<game>/pgn': string;
  alerts: AlertMessage;
  /** Validated by the request service (requests.ts), so unknown here. */
  'bridge/request/<action>': unknown;
  'bridge/response/<action>': ResponseEnvelope;
}
export type TopicPattern = keyof TopicMap;

/** QoS level of MQTT. */
export type Qos = 0 | 1 | 2;

/** How each topic is published. */
export const TOPIC_OPTIONS: {
  readonly [P in TopicPattern]: { readonly qos: Qos; readonly retain: boolean };
} = {
  'bridge/state': { qos: 1, retain: true },
  'bridge/info': { qos: 1, retain: true },
  'bridge/health': { qos: 0, retain: false },
  'boards/<board>/state': { qos: 1, retain: true },
  'games/<game>': { qos: 1, retain: true },
  'public/games/<game>': { qos: 1, retain: true },
  'games/<game>/events': { qos: 1, retain: false },
  'games/<game>/pgn': { qos: 1, retain: true },
  alerts: { qos: 1, retain: false },
  'bridge/request/<action>': { qos: 1, retain: false },
  'bridge/response/<action>': { qos: 1, retain: false },
};

/** A concrete topic name that remembers its pattern, so its payload type is known. */
export interface Topic<P extends TopicPattern> {
  readonly name: string;
  readonly pattern: P;
}

/**
 * Why a level is not valid in a topic name, or undefined when it is. Topic names we publish to
 * must not contain the wildcards `+` and `#`, empty levels, or NUL (MQTT 3.1.1 §4.7, MQTT 5 §4.7).
 */
export const levelProblem = (level: string): string | undefined => {
  if (level.length === 0) return 'empty level';
  if (level.includes('+')) return `wildcard "+" in level "${level}"`;
  if (level.includes('#')) return `wildcard "#" in level "${level}"`;
  if (level.includes('\u0000')) return `NUL character in level "${level}"`;
  if (level.startsWith('$')) return `level "${level}" starts with "$" (reserved for the broker)`;
  return undefined;
};

/**
 * Joins a base and levels into a topic name. The base may hold several levels (`venue/hall-a`);
 * each other argument is one level and must not contain `/`. Throws a TypeError naming the
 * problem: ids come from configuration or requests that were already validated, so a bad one here
 * is a programmer error.
 */
export const makeTopic = (base: string, ...levels: readonly string[]): string => {
  const baseLevels = base.split('/');
  baseLevels.forEach(level => {
    const problem = levelProblem(level);
    if (problem !== undefined) throw new TypeError(`invalid topic base "${base}": ${problem}`);
  });
  levels.forEach(level => {
    const problem = level.includes('/') ? `"/" inside level "${level}"` : levelProblem(level);
    if (problem !== undefined) throw new TypeError(`invalid topic level for base "${base}": ${problem}`);
  });
  return [...baseLevels, ...levels].join('/');
};

/** True when a topic name matches a subscription filter with `+` and `#` wildcards. */
export const matchesFilter = (filter: string, topic: string): boolean => {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    const level = f[i];
    if (level === '#') return !(i === 0 && topic.startsWith('$'));
    const name = t[i];
    if (name === undefined) return false;
    if (level === '+') {
      if (i === 0 && name.startsWith('$')) return false;
      continue;
    }
    if (level !== name) return false;
  }
  return f.length === t.length;
};

/** The typed builders of every topic under one base. */
export interface Topics {
  readonly base: string;
  readonly bridgeState: () => Topic<'bridge/state'>;
  readonly bridgeInfo: () => Topic<'bridge/info'>;
  readonly bridgeHealth: () => Topic<'bridge/health'>;
  readonly boardState: (board: string) => Topic<'boards/<board>/state'>;
  readonly game: (game: string) => Topic<'games/<game>'>;
  /** `<base>/public/games/<game>`: the delayed public snapshot. */
  readonly publicGame: (game: string) => Topic<'public/games/<game>'>;
  readonly gameEvents: (game: string) => Topic<'games/<game>/events'>;
  readonly gamePgn: (game: string) => Topic<'games/<game>/pgn'>;
  readonly alerts: () => Topic<'alerts'>;
  readonly request: (action: string) => Topic<'bridge/request/<action>'>;
  readonly response: (action: string) => Topic<'bridge/response/<action>'>;
  /** Subscription filter of every request: `<base>/bridge/request/#` (brokerAccess.ts reads the levels). */
  readonly requestFilter: string;
  /** Subscription filter of every game event of the venue under this base: `<base>/games/+/events`. */
  readonly allGameEventsFilter: string;
}

/** Builds the typed topic builders for a base (validated once here). */
export const makeTopics = (base: string = DEFAULT_BASE): Topics => {
  makeTopic(base);
  const topic = <P extends TopicPattern>(pattern: P, ...levels: string[]): Topic<P> => ({
    name: makeTopic(base, ...levels),
    pattern,
  });
  return {
    base,
    bridgeState: () => topic('bridge/state', 'bridge', 'state'),
    bridgeInfo: () => topic('bridge/info', 'bridge', 'info'),
    bridgeHealth: () => topic('bridge/health', 'bridge', 'health'),
    boardState: board => topic('boards/<board>/state', 'boards', board, 'state'),
    game: game => topic('games/<game>', 'games', game),
    publicGame: game => topic('public/games/<game>', 'public', 'games', game),
    gameEvents: game => topic('games/<game>/events', 'games', game, 'events'),
    gamePgn: game => topic('games/<game>/pgn', 'games', game, 'pgn'),
    alerts: () => topic('alerts', 'alerts'),
    request: action => topic('bridge/request/<action>', 'bridge', 'request', action),
    response: action => topic('bridge/response/<action>', 'bridge', 'response', action),
    requestFilter: `${base}/bridge/request/#`,
    allGameEventsFilter: `${base}/games/+/events`,
  };
};

/** Serialises a payload for its topic: JSON, except PGN which is plain text. */
export const makePayload = <P extends TopicPattern>(topic: Topic<P>, payload: TopicMap[P]): string =>
  typeof payload === 'string' && topic.pattern === 'games/<game>/pgn' ? payload : JSON.stringify(payload);
