/**
 * Environment overrides and word-to-value coercion, both derived from the schema.
 *
 * The rule: every scalar field outside the `boards` and `pairings` lists can be set by the
 * variable `CHESSBRIDGE_` + its path in upper snake case, sections joined by `_`
 * (`mqtt.url` → `CHESSBRIDGE_MQTT_URL`, `mqtt.broker.wsPort` → `CHESSBRIDGE_MQTT_BROKER_WS_PORT`).
 * An override wins over the file. Numbers are read as numbers and yes/no words as booleans;
 * anything else is left as text for the schema to refuse, with the variable named in the error.
 *
 *   const { value, sources } = applyEnvOverrides(raw, process.env);
 *   sources.get('/http/port'); // 'CHESSBRIDGE_HTTP_PORT' when the port came from there
 *   unknownEnvNames(process.env); // ['CHESSBRIDGE_MQTT_ULR'], worth a warning
 */
import type { TSchema } from '@sinclair/typebox';
import { configFields, ENV_PREFIX, type ConfigField } from './fields.js';
import { ConfigSchema } from './schema.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Variables with the prefix that are not config fields but are read elsewhere (the CLI). */
export const NON_FIELD_ENV: readonly string[] = ['CHESSBRIDGE_CONFIG'];

const TRUE_WORDS = new Set(['yes', 'true', 'on', '1', 'y']);
const FALSE_WORDS = new Set(['no', 'false', 'off', '0', 'n']);

/** `yes`/`no`, `true`/`false`, `on`/`off`, `1`/`0` in any case; undefined for anything else. */
export const parseBooleanWord = (text: string): boolean | undefined => {
  const t = text.trim().toLowerCase();
  if (TRUE_WORDS.has(t)) return true;
  if (FALSE_WORDS.has(t)) return false;
  return undefined;
};

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The value an environment string stands for in a field of `kind`; the text itself if unreadable. */
const fromText = (field: ConfigField, text: string): unknown => {
  switch (field.kind) {
    case 'integer':
    case 'number':
      return NUMBER.test(text.trim()) ? Number(text.trim()) : text;
    case 'boolean':
      return parseBooleanWord(text) ?? text;
    case 'string':
    case 'enum':
    case 'literal':
    case 'section':
    case 'list':
    case 'entry':
      return text;
  }
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const pointerOf = (segments: readonly string[]): string => '/' + segments.join('/');

export interface EnvApplied {
  /** The raw config with overrides written in (a copy; the input is not touched). */
  readonly value: unknown;
  /** JSON pointer → the variable that set it. */
  readonly sources: ReadonlyMap<string, string>;
}

/**
 * Writes every set `CHESSBRIDGE_*` field variable into a copy of `raw`, creating sections as
 * needed. A section that is not a mapping in the file is left alone (the schema reports it).
 */
export const applyEnvOverrides = (raw: unknown, env: Env, schema: TSchema = ConfigSchema): EnvApplied => {
  const sources = new Map<string, string>();
  const root: unknown = raw === undefined || raw === null ? {} : structuredClone(raw);
  if (!isRecord(root)) return { value: root, sources };
  for (const field of configFields(schema)) {
    if (field.env === undefined || field.segments === undefined) continue;
    const text = env[field.env];
    if (text === undefined) continue;
    const keys = field.segments;
    let node: Record<string, unknown> = root;
    let reachable = true;
    for (const key of keys.slice(0, -1)) {
      const next = node[key] ?? {};
      if (!isRecord(next)) {
        reachable = false;
        break;
      }
      node[key] = next;
      node = next;
    }
    const last = keys[keys.length - 1];
    if (!reachable || last === undefined) continue;
    node[last] = fromText(field, text);
    sources.set(pointerOf(keys), field.env);
  }
  return { value: root, sources };
};

/** `CHESSBRIDGE_*` variables that name no field (typos, or settings from another version). */
export const unknownEnvNames = (env: Env, schema: TSchema = ConfigSchema): string[] => {
  const known = new Set([...configFields(schema).flatMap(f => (f.env === undefined ? [] : [f.env]))]);
  return Object.keys(env)
    .filter(k => k.startsWith(ENV_PREFIX) && !known.has(k) && !NON_FIELD_ENV.includes(k))
    .sort();
};
