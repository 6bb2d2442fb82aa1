/**
 * Loads the venue configuration: YAML text → environment overrides → yes/no words → defaults →
 * schema → cross-field checks → a deep-frozen `Config`. Every problem is reported at once, one
 * `path: problem` line each, with the file line (or the environment variable) it came from:
 * `boards[2].serial: expected a string, got 137: put it in quotes ("00137") (line 14)`.
 *
 *   const r = await loadConfig({ path: 'config/mixed-hall.yaml' }, { env: process.env });
 *   if (r.isErr) for (const line of r.error.problems) console.error(line);
 *   else startDaemon(r.value); // r.value.mqtt.baseTopic, r.value.boards[0].serial, …
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Result } from '@badrap/result';
import { Value } from '@sinclair/typebox/value';
import { isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { dataError } from '../../engine/types.js';
import { crossFieldProblems } from './checks.js';
import { pointerSegments, QUOTE_HINT, schemaProblems, type SchemaProblem } from './errors.js';
import { withDefaults } from './defaults.js';
import { applyEnvOverrides, type Env } from './env.js';
import { ConfigSchema, type Config } from './schema.js';
import { readPairingsFile } from '../pairings/fromFile.js';

export type ConfigErrorDetail =
  /** The text was read but is not a valid configuration. */
  | { readonly kind: 'invalid'; readonly source: string; readonly problems: readonly string[] }
  /** The file could not be read; `code` is the system error code (ENOENT, EACCES, …). */
  | {
      readonly kind: 'unreadable';
      readonly source: string;
      readonly code: string | undefined;
      readonly problems: readonly string[];
    };

export type ConfigError = ConfigErrorDetail & Error;

/** Where the configuration comes from: a file, or text (with a name for messages). */
export type ConfigSource = { readonly path: string } | { readonly text: string; readonly name?: string };

export interface LoadOptions {
  /** Environment for `CHESSBRIDGE_*` overrides; the daemon passes `process.env`. Default: none. */
  readonly env?: Env;
  /** Reads a file as UTF-8 text (injected by tests). */
  readonly readText?: (path: string) => Promise<string>;
}

/** Freezes an object graph in place and returns it. */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

const errorOf = (source: string, problems: readonly string[]): ConfigError =>
  dataError(
    { kind: 'invalid', source, problems },
    `${source}: ${problems.length} configuration problem${problems.length === 1 ? '' : 's'}\n  ${problems.join('\n  ')}`,
  );

/** The 1-based line of the nearest node on the way to `pointer`, if the document has one. */
const lineOf = (doc: Document, counter: LineCounter, pointer: string): number | undefined => {
  const segments = pointerSegments(pointer);
  for (let n = segments.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(segments.slice(0, n), true);
    if (node !== null && typeof node === 'object' && 'range' in node && Array.isArray(node.range)) {
      const offset: unknown = node.range[0];
      if (typeof offset === 'number') return counter.linePos(offset).line;
    }
  }
  return undefined;
};

/** The text a scalar was written as, e.g. `00137` for a serial YAML read as the number 137. */
const sourceTextOf = (doc: Document, pointer: string, text: string): string | undefined => {
  const node = doc.getIn(pointerSegments(pointer), true);
  if (!isScalar(node) || node.range === undefined || node.range === null) return undefined;
  return text.slice(node.range[0], node.range[1]).trim();
};

const describe = (
  p: SchemaProblem,
  doc: Document,
  counter: LineCounter,
  text: string,
  sources: ReadonlyMap<string, string>,
): string => {
  const fromEnv = sources.get(p.pointer);
  if (fromEnv !== undefined) return `${p.path}: ${p.problem} (from ${fromEnv})`;
  let problem = p.problem;
  if (problem.endsWith(QUOTE_HINT)) {
    const written = sourceTextOf(doc, p.pointer, text);
    if (written !== undefined) problem += ` (${JSON.stringify(written)})`;
  }
  const line = lineOf(doc, counter, p.pointer);
  return line === undefined ? `${p.path}: ${problem}` : `${p.path}: ${problem} (line ${line})`;
};

/** Parses and validates configuration text; synchronous, no I/O. */
export const parseConfig = (
  text: string,
  options: LoadOptions = {},
  source = 'config',
): Result<Config, ConfigError> => {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map(e => {
      const at = counter.linePos(e.pos[0]);
      const where = `yaml (line ${at.line}, column ${at.col})`;
      return `${where}: ${e.message}`;
    });
    return Result.err(errorOf(source, problems));
  }
  const raw: unknown = doc.toJS();
  const { value: overridden, sources } = applyEnvOverrides(raw, options.env ?? {});
  const value: unknown = withDefaults(ConfigSchema, overridden);
  const problems = [...schemaProblems(ConfigSchema, value), ...crossFieldProblems(value)];
  if (problems.length > 0 || !Value.Check(ConfigSchema, value)) {
    const lines = problems.map(p => describe(p, doc, counter, text, sources));
    return Result.err(errorOf(source, lines.length > 0 ? lines : ['config: invalid']));
  }
  return Result.ok(deepFreeze(value));
};

/** Loads the configuration from a file or from text. */
export const loadConfig = async (
  from: ConfigSource,
  options: LoadOptions = {},
): Promise<Result<Config, ConfigError>> => {
  const parsed = await loadConfigText(from, options);
  if (parsed.isErr || parsed.value.tournament.pairingsFile === '') return parsed;
  return withPairingsFile(parsed.value, 'path' in from ? dirname(from.path) : '.', options, sourceOf(from));
};

const sourceOf = (from: ConfigSource): string => ('path' in from ? from.path : (from.name ?? 'config'));

/**
 * The config with the games of its pairings file added to `pairings`, and the file's path made
 * absolute (relative to the config file's folder), so the daemon can watch it.
 */
const withPairingsFile = async (
  config: Config,
  baseDir: string,
  options: LoadOptions,
  source: string,
): Promise<Result<Config, ConfigError>> => {
  const path = resolve(baseDir, config.tournament.pairingsFile);
  const file = await readPairingsFile(path, config, options.readText);
  if (file.isErr)
    return Result.err(
      errorOf(
        source,
        file.error.message.split('\n').map(l => `tournament.pairingsFile: ${l}`),
      ),
    );
  return Result.ok(
    deepFreeze({
      ...config,
      tournament: { ...config.tournament, pairingsFile: path },
      pairings: [...config.pairings, ...file.value],
    }),
  );
};

const loadConfigText = async (
  from: ConfigSource,
  options: LoadOptions,
): Promise<Result<Config, ConfigError>> => {
  if ('text' in from) return parseConfig(from.text, options, from.name ?? 'config');
  const read = options.readText ?? ((p: string) => readFile(p, 'utf8'));
  let text: string;
  try {
    text = await read(from.path);
  } catch (e) {
    const code = e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
    const why = e instanceof Error ? e.message : String(e);
    const problems = [`${from.path}: cannot read the file (${why})`];
    const error: ConfigError = dataError(
      { kind: 'unreadable', source: from.path, code, problems },
      problems[0] ?? from.path,
    );
    return Result.err(error);
  }
  return parseConfig(text, options, from.path);
};
