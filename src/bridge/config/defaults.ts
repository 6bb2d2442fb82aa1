/**
 * Fills the schema's defaults into a raw config and reads yes/no words in boolean fields.
 *
 * Written here rather than with TypeBox's `Value.Default`, which merges a section's default into
 * whatever stands there (a list written where a mapping belongs would pass as a mapping with
 * keys `0`, `1`, …): this walker fills only what is absent and leaves wrong shapes for the
 * schema to report. YAML 1.2 reads `clock: yes` as the text "yes"; only boolean fields turn such
 * words into booleans, so `name: NO` stays text.
 *
 *   withDefaults(ConfigSchema, { boards: [{ id: 'b1', driver: 'dgt', clock: 'yes' }] });
 *   // → { version: 1, tournament: { … }, boards: [{ id: 'b1', driver: 'dgt', clock: true, orientation: 'auto' }], … }
 */
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { parseBooleanWord } from './env.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `value` with defaults filled in where the schema has them and the value is absent. */
export const withDefaults = (schema: TSchema, value: unknown): unknown => {
  const present: unknown = value === undefined ? structuredClone(schema.default as unknown) : value;
  if (present === undefined) return undefined;
  if (KindGuard.IsBoolean(schema) && typeof present === 'string') return parseBooleanWord(present) ?? present;
  if (KindGuard.IsObject(schema) && isRecord(present)) {
    const out: Record<string, unknown> = { ...present };
    for (const [key, child] of Object.entries(schema.properties)) {
      const v = withDefaults(child, present[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  if (KindGuard.IsArray(schema) && Array.isArray(present)) {
    return present.map((item: unknown) => withDefaults(schema.items, item));
  }
  return present;
};
