/**
 * The message catalogs on the daemon's side: the same files the web pages load
 * (web/shared/i18n/<lang>.json, listed in web/shared/i18n/languages.json), rendered with the
 * locale's plural rules and number formats. The wire stays English and snake_case; a person's text
 * is made here from an event's fields, never parsed out of its `detail`.
 *
 *   t('es', 'plies', { plies: 3 });                          // '3 jugadas'
 *   endText('es', 'flag');                                   // 'pérdida por tiempo'
 *   alertText('es', { code: 'touch_move', color: 'white', ply: 5, evidence: null });
 *   // 'Pieza tocada que no se movió o no se capturó · Blancas · jugada 5'
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_DIR } from '../web/paths.js';

/** A catalog entry: a text with `{param}` slots, or plural forms chosen by its first number. */
export type Message = string | Readonly<Partial<Record<Intl.LDMLPluralRule, string>>>;
export type Catalog = Readonly<Record<string, Message>>;
export type Params = Readonly<Record<string, string | number>>;

/** The folder holding the catalogs, shared with the pages (served as `shared/i18n/`). */
export const CATALOG_DIR = join(WEB_DIR, 'shared', 'i18n');

interface LanguageList {
  readonly default: string;
  readonly languages: Readonly<Record<string, string>>;
}
const LIST = JSON.parse(readFileSync(join(CATALOG_DIR, 'languages.json'), 'utf8')) as LanguageList;

/** Every language with a catalog, by code (`es`), with its own name (`Español`). */
export const LANGUAGES: Readonly<Record<string, string>> = LIST.languages;
/** The language of the wire's `detail` and of a text nobody asked a language for. */
export const DEFAULT_LANG = LIST.default;

const loaded = new Map<string, Catalog>();

/** The catalog of a language (its file read once). */
export const catalog = (lang: string): Catalog => {
  let c = loaded.get(lang);
  if (c === undefined) {
    c = JSON.parse(readFileSync(join(CATALOG_DIR, `${lang}.json`), 'utf8')) as Catalog;
    loaded.set(lang, c);
  }
  return c;
};

/** `es-ES`, `es`, `ES_es.UTF-8` → `es` when there is a catalog for it, else undefined. */
export const languageOf = (tag: string): string | undefined => {
  const base = tag.trim().toLowerCase().split(/[-_.]/)[0] ?? '';
  return Object.prototype.hasOwnProperty.call(LANGUAGES, base) ? base : undefined;
};

/** The `{name}` slots a message uses (all plural forms together). */
export const slotsOf = (m: Message): string[] => {
  const texts = typeof m === 'string' ? [m] : Object.values(m);
  return [...new Set(texts.flatMap(s => [...s.matchAll(/\{(\w+)\}/g)].map(x => x[1] as string)))];
};

/**
 * A message of `lang` with its slots filled: numbers in the locale's format, plural forms chosen by
 * the first slot's value. A key the catalog lacks falls back to the default language, then to the
 * key itself (a test keeps the catalogs complete).
 */
export const t = (lang: string, key: string, params: Params = {}): string => {
  const m = catalog(lang)[key] ?? catalog(DEFAULT_LANG)[key] ?? key;
  let text: string;
  if (typeof m === 'string') text = m;
  else {
    const first = slotsOf(m)[0];
    const n = first === undefined ? 1 : Number(params[first]);
    text = m[new Intl.PluralRules(lang).select(n)] ?? m.other ?? key;
  }
  const numbers = new Intl.NumberFormat(lang);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : typeof v === 'number' ? numbers.format(v) : v;
  });
};

/** A side, in words (`Blancas`). */
export const colorText = (lang: string, color: string): string => t(lang, `color.${color}`);

/** An `end` reason (wire value), in words. */
export const endText = (lang: string, reason: string): string => t(lang, `end.${reason}`);

/** The title of an article of the Laws (`7.5.1` → the title of article 7), in our words. */
export const articleTitle = (lang: string, article: string): string =>
  t(lang, `article.title.${article.split('.')[0] ?? article}`);

/** A clock time as the locale writes a duration of hours, minutes and seconds (`1:05:09`). */
export const clockText = (lang: string, ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = new Intl.NumberFormat(lang, { minimumIntegerDigits: 2 });
  const one = new Intl.NumberFormat(lang);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0
    ? `${one.format(h)}:${two.format(m)}:${two.format(s % 60)}`
    : `${one.format(m)}:${two.format(s % 60)}`;
};

/** The fields of an alert (event or `alerts` message) a person's text is made from. */
export interface AlertFields {
  readonly code: string;
  readonly color?: string | null;
  readonly ply?: number | null;
  readonly evidence?: {
    readonly squares?: readonly string[];
    readonly move?: string;
    /** The side, on an `alerts` message (the events carry it as `color`). */
    readonly color?: string;
  } | null;
}

/** An alert in words: what it is, then who, which ply, which squares or move. */
export const alertText = (lang: string, a: AlertFields): string => {
  const parts = [t(lang, `alert.${a.code}`)];
  const color = a.color ?? a.evidence?.color;
  if (color) parts.push(t(lang, 'alert.by', { color: colorText(lang, color) }));
  if (typeof a.ply === 'number') parts.push(t(lang, 'ply', { ply: a.ply }));
  const squares = a.evidence?.squares;
  if (squares && squares.length > 0) parts.push(t(lang, 'alert.squares', { squares: squares.join(', ') }));
  if (a.evidence?.move) parts.push(t(lang, 'alert.move', { move: a.evidence.move }));
  return parts.join(' · ');
};

/** A claim event in words (`Negras reclaman tablas por triple repetición; decide el árbitro`). */
export const claimText = (
  lang: string,
  c: { readonly by: 'white' | 'black'; readonly claim: string; readonly status: string },
): string =>
  t(lang, `claim.status.${c.status}`, { by: colorText(lang, c.by), claim: t(lang, `claim.${c.claim}`) });

/** An offer event in words. */
export const offerText = (
  lang: string,
  o: { readonly by: 'white' | 'black'; readonly status: string },
): string => t(lang, `offer.status.${o.status}`, { by: colorText(lang, o.by) });

/** A sentence of a detail as it comes on the wire (`text`: src/engine/texts.ts). */
export interface SentenceFields {
  readonly key: string;
  readonly params: Readonly<Record<string, unknown>>;
}

const COLOR_PARAMS = new Set(['color', 'opponent', 'claimant']);
const PIECE_PARAMS = new Set(['piece', 'first', 'chosen', 'victim']);

/** A list as the language writes one (`a2, b3 y c4`). */
const listText = (lang: string, items: readonly string[]): string =>
  new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);

/** One parameter in words: sides and pieces from the catalog, lists by locale, moves in its letters. */
const paramText = (
  lang: string,
  name: string,
  v: unknown,
  san: (move: string) => string,
): string | number => {
  if (typeof v === 'number') return v;
  if (COLOR_PARAMS.has(name)) return colorText(lang, String(v));
  if (PIECE_PARAMS.has(name)) return t(lang, `piece.${String(v)}`);
  if (name === 'moves' && Array.isArray(v)) return v.map(m => san(String(m))).join(' ');
  if (name === 'orders' && Array.isArray(v))
    return v.map(line => (line as unknown[]).map(m => san(String(m))).join(' ')).join(' / ');
  if (name === 'touched' && Array.isArray(v))
    return listText(
      lang,
      (v as { piece: string; square: string }[]).map(p =>
        t(lang, 'piece.on', { piece: t(lang, `piece.${p.piece}`), square: p.square }),
      ),
    );
  if (Array.isArray(v)) return listText(lang, v.map(String));
  return String(v);
};

/**
 * A sentence of a detail in words (`detail.<key>` with its parameters); moves as `san` writes
 * them (default: the language's piece letters).
 */
export const sentenceText = (
  lang: string,
  s: SentenceFields,
  san: (move: string) => string = m => localSan(lang, m),
): string => {
  const params: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(s.params)) params[name] = paramText(lang, name, v, san);
  return t(lang, `detail.${s.key}`, params);
};

/** A detail given as sentences (`text` on the wire), in words: the sentences one after another. */
export const detailText = (
  lang: string,
  text: readonly SentenceFields[],
  san?: (move: string) => string,
): string => text.map(s => sentenceText(lang, s, san)).join(' ');

const EN_LETTERS = 'KQRBN';

/**
 * A SAN move with the language's piece letters (`Nf3` → `Cf3` in Spanish, `e8=Q` → `e8=D`); the
 * wire, PGN and the journal keep English SAN.
 */
export const localSan = (lang: string, san: string): string => {
  const letters = t(lang, 'piece.letters');
  if (letters.length !== EN_LETTERS.length || letters === EN_LETTERS) return san;
  const swap = (l: string): string => letters[EN_LETTERS.indexOf(l)] ?? l;
  return san.replace(/^[KQRBN]/, swap).replace(/=([QRBN])/, (_, l: string) => `=${swap(l)}`);
};
