/**
 * The daemon's logger: namespaced (`chessbridge:bridge:journal`, `chessbridge:driver:b-07`), lazy
 * (a thunk is only evaluated when its level is enabled) and injected everywhere, never imported as
 * a global. Levels inherit along `:` — `chessbridge:driver=debug` turns on debug for every driver —
 * and lines go to one sink: readable text for people, one JSON object a line for machines. Under
 * systemd the sink is stdout (journald adds time and unit), so no files are managed here. With
 * `repeatMs`, a line repeated word for word (same level, namespace, text and fields) within that
 * time is written once; when the time is up, one more line says how many times it came again.
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
  /** Collapse lines repeated within this many ms (default 0: write every line). */
  readonly repeatMs?: number;
}

/** Distinct lines followed for repeats, at most (the oldest is summed up and dropped first). */
const MAX_REPEAT_KEYS = 1000;

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
  const emit = (record: LogRecord): void => options.write(makeLogLine(record, options.format));
  const collapse = makeRepeats(options.repeatMs ?? 0, now, emit);
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
    const record = {
      time: now(),
      level,
      namespace: ns,
      message: text,
      ...(fields === undefined ? {} : { fields }),
    };
    if (collapse === undefined || collapse(record)) emit(record);
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

interface Repeat {
  readonly record: LogRecord;
  /** Until when the same line is not written again. */
  readonly until: number;
  /** Times it came again meanwhile. */
  count: number;
}

/**
 * The repeat filter: returns whether a record is to be written now; the repeats it holds back
 * are written as one line when their time is up (by the next such line, or a sweep every `ms`).
 */
const makeRepeats = (
  ms: number,
  now: () => number,
  emit: (record: LogRecord) => void,
): ((record: LogRecord) => boolean) | undefined => {
  if (ms <= 0) return undefined;
  const seen = new Map<string, Repeat>();
  let sweeper: NodeJS.Timeout | undefined;
  const close = (key: string, entry: Repeat, at: number): void => {
    seen.delete(key);
    if (entry.count === 0) return;
    const { record, count } = entry;
    const seconds = Math.max(1, Math.round((at - record.time) / 1000));
    emit({
      ...record,
      time: at,
      message: `${record.message} (repeated ${count} more time${count === 1 ? '' : 's'} in ${seconds} s)`,
    });
  };
  const sweep = (): void => {
    const at = now();
    for (const [key, entry] of seen) if (entry.until <= at) close(key, entry, at);
    if (seen.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return record => {
    const key = `${record.level}\u0000${record.namespace}\u0000${record.message}\u0000${
      record.fields === undefined ? '' : JSON.stringify(record.fields)
    }`;
    const entry = seen.get(key);
    if (entry !== undefined && entry.until > record.time) {
      entry.count += 1;
      return false;
    }
    if (entry !== undefined) close(key, entry, record.time);
    if (seen.size >= MAX_REPEAT_KEYS) {
      const oldest = seen.entries().next();
      if (oldest.done !== true) close(oldest.value[0], oldest.value[1], record.time);
    }
    seen.set(key, { record, until: record.time + ms, count: 0 });
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, ms);
      sweeper.unref();
    }
    return true;
  };
};

/** A logger that writes nothing (tests that do not look at logs). */
export const silentLogger = (): Logger =>
  makeLogger({ level: 'error', format: 'text', write: () => undefined, levels: { chessbridge: 'error' } });

/** A logger that keeps its lines in memory (tests that do). */
export const memoryLogger = (level: Level = 'debug'): { logger: Logger; lines: string[] } => {
  const lines: string[] = [];
  return { logger: makeLogger({ level, format: 'text', write: l => lines.push(l.trimEnd()) }), lines };
};
