/**
 * The configuration's public surface: load and validate a venue file, and the derived field list.
 *
 *   import { loadConfig, unknownEnvNames, type Config } from './config/index.js';
 *   const r = await loadConfig({ path: file }, { env: process.env });
 *   if (r.isErr) { for (const p of r.error.problems) console.error(p); process.exit(1); }
 */
export { deepFreeze, loadConfig, parseConfig } from './load.js';
export type { ConfigError, ConfigErrorDetail, ConfigSource, LoadOptions } from './load.js';
export { applyEnvOverrides, parseBooleanWord, unknownEnvNames } from './env.js';
export type { Env } from './env.js';
export { configFields, envName, ENV_PREFIX, makeFieldTable } from './fields.js';
export type { ConfigField } from './fields.js';
export {
  CONFIG_VERSION,
  ConfigSchema,
  DRIVERS,
  LOG_FORMATS,
  LOG_LEVELS,
  ORIENTATION_SETTINGS,
} from './schema.js';
export type {
  ArbiterCredentialsConfig,
  BoardConfig,
  BrokerConfig,
  Config,
  DriverName,
  HttpConfig,
  BroadcastConfig,
  WatchConfig,
  JournalConfig,
  LawsConfig,
  LiveChessConfig,
  LoggingConfig,
  MqttConfig,
  PairingConfig,
  PlayerConfig,
  TournamentConfig,
} from './schema.js';
export { startOf, type GameStartSpec } from './chess960.js';
