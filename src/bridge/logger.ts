/**
 * The daemon's logger: namespaced (`chessbridge:bridge:journal`, `chessbridge:driver:b-07`), lazy
 * (a thunk is only evaluated when its level is enabled) and injected everywhere, never imported as
 * a global. Levels inherit along `:` — `chessbridge:driver=debug` turns on debug for every driver —
 * and lines go to one sink: readable text for people, one JSON object a line for machines. Under
 * systemd the sink is stdout (journald adds time and unit), so no files are managed here.
 *
 *   const logger = makeLogger({ level: 'info', format: 'text', write: line => process.stdout.write(line) });
 *   const log = logger.child('chessbridge:bridge:daemon');
 *   log.info(() => `board b-01 connected (serial ${serial})`);
 */
import type { LogFn, LogLevel as MqttLogLevel } from './mqtt/log.js';

/** Levels, most severe first (the config's `logging.level` words). */
export const LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type Level = (typeof LEVELS)[number];

/** A message, or a thunk that builds it only when the level is enabled. */
export type Message = string | (() => string);

export interface LogRecord {
  /** Wall-clock time, ms since the Unix epoch. */
  readonly time: number;
  readonly level: Level;
  readonly namespace: string;
  readonly message: string;
  /** Structured fields (JSON output keeps them as they are; text appends `key=value`). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

export interface LoggerOptions {
  /** Least severe level written. */
  readonly level: Level;
  /** 'text': `2025-05-17T13:30:00.134Z INFO  chessbridge:bridge:daemon message`; 'json': one object a line. */
  readonly format: 'text' | 'json';
  /** Receives whole lines, each ending in `\n`. */
  readonly write: (line: string) => void;
  /** Per-namespace levels (`chessbridge:driver` → 'debug'); the longest matching prefix wins. */
  readonly levels?: Readonly<Record<string, Level>>;
  /** Wall clock (default Date.now). */
  readonly now?: () => number;
}

/** A logger bound to one namespace. */
export interface Logger {
  readonly namespace: string;
  error(message: Message, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: Message, fields?: Readonly<Record<string, unknown>>): void;
  info(message: Message, fields?: Readonly<Record<string, unknown>>): void;
  debug(message: Message, fields?: Readonly<Record<string, unknown>>): void;
  trace(message: Message, fields?: Readonly<Record<string, unknown>>): void;
  /** Whether a level would be written (to skip expensive work). */
  enabled(level: Level): boolean;
  /** A logger for a sub-namespace: `child('board:b-01')` of `chessbridge:bridge` is `chessbridge:bridge:board:b-01`. */
  child(suffix: string): Logger;
  /** The same sink as the MQTT layer's `LogFn` ('warning' is 'warn'). */
  readonly mqtt: LogFn;
}

const rank = (level: Level): number => LEVELS.indexOf(level);

/** The level in force for a namespace: the longest configured prefix (at a `:` boundary), else the default. */
export const levelFor = (
  namespace: string,
  fallback: Level,
  levels: Readonly<Record<string, Level>> = {},
): Level => {
  let best: { length: number; level: Level } | undefined;
  for (const [prefix, level] of Object.entries(levels)) {
    const matches = namespace === prefix || namespace.startsWith(`${prefix}:`);
    if (matches && (best === undefined || prefix.length > best.length))
      best = { length: prefix.length, level };
  }
  return best?.level ?? fallback;
};

const render = (m: Message): string => (typeof m === 'string' ? m : m());

const textValue = (v: unknown): string => {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  // JSON.stringify gives undefined for functions and undefined itself.
  const json = JSON.stringify(v) as string | undefined;
  return json === undefined ? String(v) : json;
};

/** One line of output (with its `\n`). */
export const makeLogLine = (record: LogRecord, format: 'text' | 'json'): string => {
  if (format === 'json') {
    return `${JSON.stringify({
      time: new Date(record.time).toISOString(),
      level: record.level,
      ns: record.namespace,
      msg: record.message,
      ...record.fields,
    })}\n`;
  }
  const extra = Object.entries(record.fields ?? {})
    .map(([k, v]) => ` ${k}=${textValue(v)}`)
    .join('');
  const level = record.level.toUpperCase().padEnd(5);
  return `${new Date(record.time).toISOString()} ${level} ${record.namespace} ${record.message}${extra}\n`;
};

const MQTT_LEVELS: Readonly<Record<MqttLogLevel, Level>> = {
  error: 'error',
  warning: 'warn',
  info: 'info',
  debug: 'debug',
};

/** Builds the root logger; every component gets a `child` of it. */
export const makeLogger = (options: LoggerOptions, namespace = 'chessbridge'): Logger => {
  const now = options.now ?? Date.now;
  const cache = new Map<string, Level>();
  const threshold = (ns: string): Level => {
    let level = cache.get(ns);
    if (level === undefined) {
      level = levelFor(ns, options.level, options.levels);
      cache.set(ns, level);
    }
    return level;
  };
  const write = (
    ns: string,
    level: Level,
    message: Message,
    fields?: Readonly<Record<string, unknown>>,
  ): void => {
    if (rank(level) > rank(threshold(ns))) return;
    let text: string;
    try {
      text = render(message);
    } catch (e) {
      text = `(log message failed: ${e instanceof Error ? e.message : String(e)})`;
    }
    options.write(
      makeLogLine(
        { time: now(), level, namespace: ns, message: text, ...(fields === undefined ? {} : { fields }) },
        options.format,
      ),
    );
  };
  const bind = (ns: string): Logger => ({
    namespace: ns,
    error: (m, f) => write(ns, 'error', m, f),
    warn: (m, f) => write(ns, 'warn', m, f),
    info: (m, f) => write(ns, 'info', m, f),
    debug: (m, f) => write(ns, 'debug', m, f),
    trace: (m, f) => write(ns, 'trace', m, f),
    enabled: level => rank(level) <= rank(threshold(ns)),
    child: suffix => bind(`${ns}:${suffix}`),
    mqtt: (level, message, mqttNs) => write(mqttNs, MQTT_LEVELS[level], message),
  });
  return bind(namespace);
};

/** A logger that writes nothing (tests that do not look at logs). */
export const silentLogger = (): Logger =>
  makeLogger({ level: 'error', format: 'text', write: () => undefined, levels: { chessbridge: 'error' } });

/** A logger that keeps its lines in memory (tests that do). */
export const memoryLogger = (level: Level = 'debug'): { logger: Logger; lines: string[] } => {
  const lines: string[] = [];
  return { logger: makeLogger({ level, format: 'text', write: l => lines.push(l.trimEnd()) }), lines };
};
