/**
 * Turns TypeBox validation errors into readable `path: problem` lines, one per path, in the
 * order of the document: `boards[2].serial: expected a string`, `laws.edition: unknown edition
 * "E22"; expected one of E97, E09, E14, E17, E18, E23`, `mqtt.ulr: unknown field (did you mean url?)`.
 *
 *   const problems = schemaProblems(ConfigSchema, value); // [{ pointer, path, problem }]
 *   problems.map(p => `${p.path}: ${p.problem}`);
 *   makePath('/boards/2/serial'); // 'boards[2].serial'
 */
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { isStringEnum } from './fields.js';

/** The end of a "not a string" problem; the loader adds the text as written (`"00137"`). */
export const QUOTE_HINT = 'put it in quotes';

export interface SchemaProblem {
  /** JSON pointer of the offending value, as TypeBox reports it: `/boards/2/serial`. */
  readonly pointer: string;
  /** The same, for people: `boards[2].serial`; `config` for the whole file. */
  readonly path: string;
  readonly problem: string;
}

/** Splits a JSON pointer into keys and list indexes. */
export const pointerSegments = (pointer: string): (string | number)[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .map(s => (/^\d+$/.test(s) ? Number(s) : s));

/** `['boards', 2, 'serial']` → `boards[2].serial`. */
export const makePathOf = (segments: readonly (string | number)[]): string => {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out === '' ? 'config' : out;
};

export const makePath = (pointer: string): string => makePathOf(pointerSegments(pointer));

/** Edit distance with adjacent transpositions (optimal string alignment), case-insensitive. */
const distance = (a: string, b: string): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= x.length; i++) {
    const row = d[i] ?? [];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(x.length, y.length);
};

/** The closest known key, when it is close enough to be a typo. */
export const suggest = (key: string, known: readonly string[]): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(key, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= (key.length < 5 ? 1 : 2) ? best : undefined;
};

const shown = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'a mapping' : typeof value;
};

const got = (value: unknown): string => (value === undefined ? '' : `, got ${shown(value)}`);

const option = (schema: TSchema, key: string): unknown => (schema as Record<string, unknown>)[key];

const enumProblem = (schema: TSchema, value: unknown): string => {
  const values = KindGuard.IsUnion(schema) ? schema.anyOf.map(s => String(option(s, 'const'))) : [];
  const noun = option(schema, 'noun');
  const what = typeof noun === 'string' ? `unknown ${noun}` : 'unknown value';
  const head =
    typeof value === 'string' ? `${what} ${JSON.stringify(value)}` : `expected a string${got(value)}`;
  return `${head}; expected one of ${values.join(', ')}`;
};

type Describe = (e: ValueError) => string;

const atLeast: Describe = e => `must be at least ${String(option(e.schema, 'minimum'))}${got(e.value)}`;
const atMost: Describe = e => `must be at most ${String(option(e.schema, 'maximum'))}${got(e.value)}`;

const unknownField: Describe = e => {
  const segments = pointerSegments(e.path);
  const key = String(segments[segments.length - 1] ?? '');
  const known = KindGuard.IsObject(e.schema) ? Object.keys(e.schema.properties) : [];
  const near = suggest(key, known);
  return near === undefined ? 'unknown field' : `unknown field (did you mean ${near}?)`;
};

const expected = (e: ValueError, fallback: string): string => {
  const expects = option(e.schema, 'expects');
  return `expected ${typeof expects === 'string' ? expects : fallback}${got(e.value)}`;
};

/** Our words for the error kinds the config schema can produce. */
const DESCRIBE: Partial<Record<ValueErrorType, Describe>> = {
  [ValueErrorType.ObjectRequiredProperty]: () => 'missing (required)',
  [ValueErrorType.ObjectAdditionalProperties]: unknownField,
  [ValueErrorType.String]: e =>
    typeof e.value === 'number' || typeof e.value === 'boolean'
      ? `expected a string${got(e.value)}: ${QUOTE_HINT}`
      : `expected a string${got(e.value)}`,
  [ValueErrorType.Integer]: e => `expected a whole number${got(e.value)}`,
  [ValueErrorType.Number]: e => `expected a number${got(e.value)}`,
  [ValueErrorType.Boolean]: e => `expected yes or no${got(e.value)}`,
  [ValueErrorType.Object]: e => `expected a mapping (key: value)${got(e.value)}`,
  [ValueErrorType.Array]: e => `expected a list${got(e.value)}`,
  [ValueErrorType.Literal]: e => expected(e, JSON.stringify(option(e.schema, 'const'))),
  [ValueErrorType.Union]: e =>
    isStringEnum(e.schema) ? enumProblem(e.schema, e.value) : `no allowed form matches${got(e.value)}`,
  [ValueErrorType.StringMinLength]: e =>
    option(e.schema, 'minLength') === 1
      ? 'must not be empty'
      : `must be at least ${String(option(e.schema, 'minLength'))} characters`,
  [ValueErrorType.StringPattern]: e => expected(e, `text matching ${String(option(e.schema, 'pattern'))}`),
  [ValueErrorType.IntegerMinimum]: atLeast,
  [ValueErrorType.NumberMinimum]: atLeast,
  [ValueErrorType.IntegerMaximum]: atMost,
  [ValueErrorType.NumberMaximum]: atMost,
};

/** The problem part of one TypeBox error, in words (TypeBox's own for kinds our schema does not use). */
export const describeError = (e: ValueError): string =>
  DESCRIBE[e.type]?.(e) ?? e.message.charAt(0).toLowerCase() + e.message.slice(1);

/** All schema problems of `value`, the first one of each path only. */
export const schemaProblems = (schema: TSchema, value: unknown): SchemaProblem[] => {
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  for (const e of Value.Errors(schema, value)) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push({ pointer: e.path, path: makePath(e.path), problem: describeError(e) });
  }
  return out;
};
