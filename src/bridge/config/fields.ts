/**
 * Walks the config schema into a flat list of fields: dotted path, kind, default, description
 * and, for scalar fields outside lists, the environment variable that overrides it. The env
 * overrides (env.ts), the boolean coercion of the loader and the table in docs/config.md all
 * come from this list, so the schema stays the only source of truth.
 *
 *   for (const f of configFields()) console.log(f.path, f.env ?? '-', f.description);
 *   envName(['mqtt', 'baseTopic']); // 'CHESSBRIDGE_MQTT_BASE_TOPIC'
 *   makeFieldTable(configFields()); // the markdown table of docs/config.md
 */
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { ConfigSchema } from './schema.js';

/** Every environment override starts with this. */
export const ENV_PREFIX = 'CHESSBRIDGE_';

export type FieldKind =
  'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'literal' | 'section' | 'list' | 'entry';

export interface ConfigField {
  /** Dotted path; list entries appear as `[]`: `mqtt.broker.port`, `boards[].serial`. */
  readonly path: string;
  /** Path segments of an object field outside lists (`['mqtt', 'url']`); undefined inside lists. */
  readonly segments: readonly string[] | undefined;
  readonly kind: FieldKind;
  readonly schema: TSchema;
  /** Allowed values of an `enum`, the value of a `literal`. */
  readonly values: readonly (string | number)[];
  /** Must be written: no default and not optional. */
  readonly required: boolean;
  /** The default, undefined when there is none. */
  readonly default: unknown;
  readonly description: string;
  /** The environment variable that overrides the field; scalar fields outside lists only. */
  readonly env: string | undefined;
}

/** `baseTopic` → `BASE_TOPIC`. */
const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** The environment variable of a field outside lists: `['http', 'port']` → `CHESSBRIDGE_HTTP_PORT`. */
export const envName = (segments: readonly string[]): string => ENV_PREFIX + segments.map(snake).join('_');

const literalValues = (schema: TSchema): (string | number)[] => {
  if (KindGuard.IsLiteral(schema)) {
    const v: unknown = schema.const;
    return typeof v === 'string' || typeof v === 'number' ? [v] : [];
  }
  if (KindGuard.IsUnion(schema)) return schema.anyOf.flatMap(literalValues);
  return [];
};

/** A union whose members are all string literals. */
export const isStringEnum = (schema: TSchema): boolean =>
  KindGuard.IsUnion(schema) && schema.anyOf.every(s => KindGuard.IsLiteralString(s));

export const kindOf = (schema: TSchema): FieldKind | undefined => {
  if (KindGuard.IsString(schema)) return 'string';
  if (KindGuard.IsInteger(schema)) return 'integer';
  if (KindGuard.IsNumber(schema)) return 'number';
  if (KindGuard.IsBoolean(schema)) return 'boolean';
  if (KindGuard.IsLiteral(schema)) return 'literal';
  if (isStringEnum(schema)) return 'enum';
  if (KindGuard.IsArray(schema)) return 'list';
  if (KindGuard.IsObject(schema)) return 'default' in schema ? 'section' : 'entry';
  return undefined;
};

const isScalar = (kind: FieldKind): boolean =>
  kind === 'string' || kind === 'integer' || kind === 'number' || kind === 'boolean' || kind === 'enum';

const describe = (schema: TSchema): string => {
  const d: unknown = schema.description;
  return typeof d === 'string' ? d : '';
};

function* walk(
  schema: TSchema,
  path: string,
  segments: readonly string[] | undefined,
  required: boolean,
): Generator<ConfigField> {
  const kind = kindOf(schema);
  if (kind === undefined) throw new TypeError(`config schema: unsupported field type at ${path}`);
  const dflt: unknown = schema.default;
  yield {
    path,
    segments,
    kind,
    schema,
    values: literalValues(schema),
    required: required && dflt === undefined,
    default: dflt,
    description: describe(schema),
    env: segments !== undefined && isScalar(kind) ? envName(segments) : undefined,
  };
  if (KindGuard.IsObject(schema)) {
    const needed = new Set(schema.required ?? []);
    for (const [key, child] of Object.entries(schema.properties)) {
      yield* walk(
        child,
        path === '' ? key : `${path}.${key}`,
        segments === undefined ? undefined : [...segments, key],
        needed.has(key),
      );
    }
  } else if (KindGuard.IsArray(schema)) {
    const items = schema.items;
    if (KindGuard.IsObject(items)) {
      const needed = new Set(items.required ?? []);
      for (const [key, child] of Object.entries(items.properties)) {
        yield* walk(child, `${path}[].${key}`, undefined, needed.has(key));
      }
    }
  }
}

/** Every field of the schema below the root, parents before their children, in schema order. */
export const configFields = (schema: TSchema = ConfigSchema): ConfigField[] => {
  if (!KindGuard.IsObject(schema)) throw new TypeError('config schema: the root must be an object');
  const needed = new Set(schema.required ?? []);
  return Object.entries(schema.properties).flatMap(([key, child]) => [
    ...walk(child, key, [key], needed.has(key)),
  ]);
};

const code = (v: unknown): string => '`' + (typeof v === 'string' ? JSON.stringify(v) : String(v)) + '`';

const range = (schema: TSchema): string => {
  const min: unknown = schema.minimum;
  const max: unknown = schema.maximum;
  if (typeof min === 'number' && typeof max === 'number') return ` ${min}–${max}`;
  if (typeof min === 'number') return ` ≥ ${min}`;
  return '';
};

/** The readable type of a field for the docs table. */
export const typeLabel = (f: ConfigField): string => {
  switch (f.kind) {
    case 'string':
      return 'string';
    case 'integer':
      return `integer${range(f.schema)}`;
    case 'number':
      return `number${range(f.schema)}`;
    case 'boolean':
      return 'yes/no';
    case 'enum':
      return f.values.map(v => `\`${String(v)}\``).join(' \\| ');
    case 'literal':
      return f.values.map(code).join(' \\| ');
    case 'section':
      return 'section';
    case 'list':
      return 'list';
    case 'entry':
      return 'mapping';
  }
};

const defaultLabel = (f: ConfigField): string => {
  if (f.required) return '**required**';
  if (f.default === undefined) return '—';
  if (f.kind === 'section') return '';
  if (Array.isArray(f.default)) return f.default.length === 0 ? 'empty' : code(JSON.stringify(f.default));
  if (typeof f.default === 'boolean') return f.default ? '`yes`' : '`no`';
  return code(f.default);
};

/** The markdown field table of docs/config.md: field, type, default, environment variable, description. */
export const makeFieldTable = (fields: readonly ConfigField[]): string => {
  const rows = fields.map(f => {
    const name = f.kind === 'section' || f.kind === 'list' ? `**\`${f.path}\`**` : `\`${f.path}\``;
    const env = f.env === undefined ? '' : `\`${f.env}\``;
    const desc = f.description.replace(/\|/g, '\\|');
    return `| ${name} | ${typeLabel(f)} | ${defaultLabel(f)} | ${env} | ${desc} |`;
  });
  return ['| field | type | default | environment | description |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
};
