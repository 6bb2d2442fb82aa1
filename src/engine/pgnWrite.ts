/**
 * Writes a game record as PGN export format: the Seven Tag Roster first, then the other tags
 * (TimeControl, Termination, FEN/SetUp ...), SAN with check and mate marks, `{ [%clk h:mm:ss] }`
 * when the record holds clock readings, a FIDE result symbol, and lines of at most 80 characters.
 *
 *   const text = makePgn(game, { tags: { White: 'Carlsen, Magnus', Black: 'Niemann, Hans' }, result: '1-0' });
 *
 * Tag values are escaped (backslash and quote) and stripped of control characters.
 */
import type { Game, MoveRecord } from './game.js';

/** The Seven Tag Roster, in the order the PGN standard requires. */
export const SEVEN_TAG_ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'] as const;

/** PGN game termination markers. */
export const RESULT_TOKENS = ['1-0', '0-1', '1/2-1/2', '*'] as const;
export type ResultToken = (typeof RESULT_TOKENS)[number];

export interface PgnWriteOptions {
  /** Tag values by name; Seven Tag Roster tags missing here get the PGN "unknown" value. */
  readonly tags?: Readonly<Record<string, string | undefined>>;
  /** The result; written as the Result tag and the termination marker. Default '*'. */
  readonly result?: ResultToken;
  /** Write [%clk] from the moves' clock readings (default true). */
  readonly clocks?: boolean;
  /** Write [%emt] from the moves' elapsed times (default false). */
  readonly elapsed?: boolean;
  /** Write the moves' text comments (default true). */
  readonly comments?: boolean;
  /** Maximum line length of the movetext (default 80, the PGN export limit). */
  readonly maxLineLength?: number;
}

const ROSTER_DEFAULTS: Record<(typeof SEVEN_TAG_ROSTER)[number], string> = {
  Event: '?',
  Site: '?',
  Date: '????.??.??',
  Round: '?',
  White: '?',
  Black: '?',
  Result: '*',
};

/** Escapes a tag value: backslash and double quote are backslash-escaped, control characters become spaces. */
export const escapeTagValue = (value: string): string =>
  value

    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"');

/** A tag name must be letters, digits and underscores, starting with a letter (PGN 8.1.1). */
const isTagName = (name: string): boolean => /^[A-Za-z][A-Za-z0-9_]*$/.test(name);

/** h:mm:ss for [%clk]; ms are rounded down to whole seconds, as clocks display them. */
export const makeClock = (ms: number): string => {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
};

/** Comment text may not contain '}' (it would end the comment). */
const sanitizeComment = (text: string): string => text.replace(/[{}]/g, ' ').replace(/\s+/g, ' ').trim();

const makeMoveComment = (rec: MoveRecord, opts: PgnWriteOptions): string | undefined => {
  const parts: string[] = [];
  if ((opts.clocks ?? true) && rec.clockMs !== undefined) parts.push(`[%clk ${makeClock(rec.clockMs)}]`);
  if ((opts.elapsed ?? false) && rec.elapsedMs !== undefined)
    parts.push(`[%emt ${makeClock(rec.elapsedMs)}]`);
  if ((opts.comments ?? true) && rec.comment !== undefined) {
    const text = sanitizeComment(rec.comment);
    if (text) parts.push(text);
  }
  return parts.length > 0 ? `{ ${parts.join(' ')} }` : undefined;
};

/** The tag section: roster first in order, then the others sorted by name (PGN export format). */
export const makeTags = (game: Game, opts: PgnWriteOptions = {}): string[] => {
  const given = opts.tags ?? {};
  const result = opts.result ?? '*';
  const lines: string[] = [];
  for (const name of SEVEN_TAG_ROSTER) {
    const value = name === 'Result' ? result : (given[name] ?? ROSTER_DEFAULTS[name]);
    lines.push(`[${name} "${escapeTagValue(value)}"]`);
  }
  const extra = new Map<string, string>();
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || (SEVEN_TAG_ROSTER as readonly string[]).includes(name)) continue;
    if (!isTagName(name)) throw new TypeError(`makePgn: invalid tag name "${name}"`);
    extra.set(name, value);
  }
  const standardStart = game.start.fen === 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  if (!standardStart || game.start.chess960) {
    extra.set('SetUp', '1');
    extra.set('FEN', game.start.fen);
  } else {
    extra.delete('SetUp');
    extra.delete('FEN');
  }
  if (game.start.chess960) extra.set('Variant', 'Chess960');
  for (const name of [...extra.keys()].sort()) {
    lines.push(`[${name} "${escapeTagValue(extra.get(name) ?? '')}"]`);
  }
  return lines;
};

/** The movetext tokens: move numbers, SAN, comments, then the result. */
export const makeMovetextTokens = (game: Game, opts: PgnWriteOptions = {}): string[] => {
  const tokens: string[] = [];
  const start = game.positionAt(0);
  let fullmoves = start.fullmoves;
  let turn = start.turn;
  let needNumber = true;
  for (const rec of game.moves) {
    if (turn === 'white') tokens.push(`${fullmoves}.`);
    else if (needNumber) tokens.push(`${fullmoves}...`);
    tokens.push(rec.san);
    const comment = makeMoveComment(rec, opts);
    needNumber = false;
    if (comment) {
      tokens.push(comment);
      needNumber = true;
    }
    if (turn === 'black') fullmoves++;
    turn = turn === 'white' ? 'black' : 'white';
  }
  tokens.push(opts.result ?? '*');
  return tokens;
};

/** Joins tokens into lines of at most `max` characters. A comment may be split at spaces, but a
 *  command such as `[%clk 1:00:01]` stays on one line, for readers that take it line by line. */
export const wrapTokens = (tokens: readonly string[], max = 80): string[] => {
  const words = tokens.flatMap(t => (t.startsWith('{') ? (t.match(/\[%[^\]]*\]|\S+/g) ?? [t]) : [t]));
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= max) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
};

/** The whole game as PGN, ending with a newline. */
export const makePgn = (game: Game, opts: PgnWriteOptions = {}): string =>
  [
    ...makeTags(game, opts),
    '',
    ...wrapTokens(makeMovetextTokens(game, opts), opts.maxLineLength ?? 80),
    '',
  ].join('\n');
