/**
 * The logging contract of the MQTT layer: one injected function taking a level, a message or a
 * thunk (evaluated only when the level is enabled) and a namespace such as
 * `chessbridge:bridge:mqtt`. Nothing here writes anywhere; the composition root decides.
 *
 *   const log: LogFn = (level, msg, ns) => console.error(`${ns} ${level} ${typeof msg === 'string' ? msg : msg()}`);
 *   log('info', () => `connected to ${url}`, MQTT_NAMESPACE);
 */

/** Levels, most severe first. */
export const LOG_LEVELS = ['error', 'warning', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A message, or a thunk building it lazily (hex dumps, large payloads). */
export type LogMessage = string | (() => string);

/** The injected logger: `(level, msgOrThunk, namespace)`. */
export type LogFn = (level: LogLevel, message: LogMessage, namespace: string) => void;

/** Namespace of this layer; sub-components append `:client`, `:publisher`, `:requests`, `:broker`. */
export const MQTT_NAMESPACE = 'chessbridge:bridge:mqtt';

/** A logger that discards everything (tests that do not look at logs). */
export const silentLog: LogFn = () => undefined;

/** Evaluates a message or thunk. */
export const renderLogMessage = (message: LogMessage): string =>
  typeof message === 'string' ? message : message();
