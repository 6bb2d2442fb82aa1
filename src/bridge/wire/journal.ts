/**
 * The journal's spelling (format 2): the daemon's journal entries and game headers turned into
 * the wire's snake_case on the way to disk, and back into the daemon's names when read. Both
 * directions are plain JSON transforms: keys are respelled everywhere in an observation and a
 * header, values only where they are enumerated words (`type`, `kind`, `tag`, `source`, `reply`);
 * free text (a link's detail, a board's serial) and a command's params (already the request's
 * snake_case fields) pass unchanged. Reading accepts format 1 too: its camelCase keys and
 * kebab-case words have no underscore, so reading them back changes nothing.
 *
 *   observationToWire({ type: 'protocol-error', reason: { kind: 'bad-length' }, … });   // { type: 'protocol_error', reason: { kind: 'bad_length' }, … }
 *   observationFromWire({ type: 'clock', left: { flag_fallen: true, … }, … });       // { type: 'clock', left: { flagFallen: true, … }, … }
 */
import { endDetail, endReason, wireWord } from './words.js';

/** The keys whose values are enumerated words (respelled); every other value is data. */
const WORD_KEYS: ReadonlySet<string> = new Set(['type', 'kind', 'tag', 'source', 'reply']);

const camelWord = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const kebabWord = (word: string): string => word.replace(/_/g, '-');

type Spell = (word: string) => string;

const respell = (value: unknown, key: Spell, word: Spell | undefined, seen: Set<object>): unknown => {
  if (typeof value !== 'object' || value === null) return value;
  // A cycle cannot be journaled: the same TypeError JSON.stringify would give.
  if (seen.has(value)) throw new TypeError('journal entry holds a cycle');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map(v => respell(v, key, word, seen));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[key(k)] =
        word !== undefined && WORD_KEYS.has(k) && typeof v === 'string'
          ? word(v)
          : respell(v, key, word, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
};

/** A driver observation as journaled. */
export const observationToWire = (observation: unknown): unknown =>
  respell(observation, wireWord, wireWord, new Set());

/** A journaled observation (format 1 or 2) in the drivers' own names. */
export const observationFromWire = (observation: unknown): unknown =>
  respell(observation, camelWord, kebabWord, new Set());

/** A game header as journaled (its keys; its values are data). */
export const headerToWire = (header: unknown): unknown => respell(header, wireWord, undefined, new Set());

/** A journaled header of format 2 in the daemon's names. */
export const headerFromWire = (header: unknown): unknown => respell(header, camelWord, undefined, new Set());

/** A finish record's reason as journaled: the wire's end reason, and the arbiter's words apart. */
export const finishToWire = (reason: string): { reason: string; detail?: string } => {
  const detail = endDetail(reason);
  return { reason: endReason(reason).reason, ...(detail === undefined ? {} : { detail }) };
};
