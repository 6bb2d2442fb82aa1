/**
 * Parsers for perft reference files: the EPD styles `FEN ;D1 n ;D2 n` and `FEN; D1 n; D2 n`,
 * and the block style (`id name` / `epd FEN` / `perft depth nodes`) used by python-chess and
 * scalachess. Pure text in, entries out; a bad line is an error value naming its line number.
 *
 *   const entries = parsePerftFile(text).unwrap();
 *   for (const { id, fen, counts } of entries) console.log(id, fen, counts.length);
 *
 * Carriage returns and NUL bytes are ignored, so CRLF files and NUL-terminated lines parse as is.
 * Blank lines and lines starting with `#` are comments in both styles.
 */
import { Result } from '@badrap/result';
import { parseFen } from 'chessops/fen';
import { dataError } from './types.js';

/** One expected perft figure: `nodes` leaf nodes at `depth` plies. */
export interface PerftCount {
  readonly depth: number;
  readonly nodes: number;
}

/** One position of a perft file with its expected counts, in increasing depth order. */
export interface PerftEntry {
  /** The block's `id` in block files; `line-<n>` in EPD files. */
  readonly id: string;
  /** The FEN as written (whitespace runs collapsed); may lack the move counters. */
  readonly fen: string;
  readonly counts: readonly PerftCount[];
  /** 1-based line of the EPD line, or of the block's `id` line. */
  readonly line: number;
}

/** Why a perft file could not be read. Every variant names the 1-based line at fault. */
export type PerftFileErrorDetail =
  /** The FEN part is malformed: `reason` is chessops' FEN error or a field-count complaint. */
  | { readonly kind: 'badFen'; readonly line: number; readonly fen: string; readonly reason: string }
  /** A `D<depth> <nodes>` field or `perft <depth> <nodes>` line that is not two whole numbers (depth ≥ 1). */
  | { readonly kind: 'badCount'; readonly line: number; readonly text: string }
  /** The same depth is given twice for one position. */
  | { readonly kind: 'duplicateDepth'; readonly line: number; readonly depth: number }
  /** A position with no counts at all (line of the EPD line or of the block's `id`). */
  | { readonly kind: 'noCounts'; readonly line: number; readonly id: string }
  /** A block without an `epd` line, or with two of them. */
  | { readonly kind: 'missingEpd'; readonly line: number; readonly id: string }
  | { readonly kind: 'duplicateEpd'; readonly line: number; readonly id: string }
  /** A block-file line whose first word is not `id`, `epd` or `perft`, or `epd`/`perft` before any `id`. */
  | {
      readonly kind: 'badLine';
      readonly line: number;
      readonly text: string;
      readonly reason: BadLineReason;
    };

/** Why a block-file line was refused. */
export type BadLineReason = 'unknownKeyword' | 'outsideBlock' | 'emptyId';

/** An expected failure: the detail's fields plus an Error whose message names line and problem. */
export type PerftFileError = PerftFileErrorDetail & Error;

const fileError = (detail: PerftFileErrorDetail): PerftFileError =>
  dataError(detail, describePerftFileError(detail));

/** The two layouts a perft file can have. */
export type PerftFileFormat = 'epd' | 'blocks';

const MIN_FEN_FIELDS = 4; // board, turn, castling, en passant: anything less is not a perft position
const INTEGER = /^\d+$/;
const EPD_COUNT = /^D(\d+)\s+(\d+)$/;

interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

/** Lines without CR/NUL bytes or surrounding blanks, numbered from 1, comments and blanks dropped. */
const meaningfulLines = (text: string): NumberedLine[] =>
  text
    .split('\n')
    .map((raw, i) => ({ line: i + 1, text: raw.replace(/[\r\0]/g, '').trim() }))
    .filter(l => l.text !== '' && !l.text.startsWith('#'));

const parseWhole = (s: string): number | undefined => {
  if (!INTEGER.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
};

const parseCount = (
  line: number,
  text: string,
  depthText: string,
  nodesText: string,
): Result<PerftCount, PerftFileError> => {
  const depth = parseWhole(depthText);
  const nodes = parseWhole(nodesText);
  if (depth === undefined || depth < 1 || nodes === undefined)
    return Result.err(fileError({ kind: 'badCount', line, text }));
  return Result.ok({ depth, nodes });
};

const checkFen = (line: number, raw: string): Result<string, PerftFileError> => {
  const fields = raw.split(/\s+/).filter(f => f !== '');
  const fen = fields.join(' ');
  if (fields.length < MIN_FEN_FIELDS) {
    return Result.err(
      fileError({
        kind: 'badFen',
        line,
        fen,
        reason: `expected at least ${MIN_FEN_FIELDS} fields, got ${fields.length}`,
      }),
    );
  }
  const parsed = parseFen(fen);
  if (parsed.isErr) return Result.err(fileError({ kind: 'badFen', line, fen, reason: parsed.error.message }));
  return Result.ok(fen);
};

/** Adds `count` to `counts` unless its depth is already there; keeps the list sorted by depth. */
const addCount = (
  counts: PerftCount[],
  count: PerftCount,
  line: number,
): Result<PerftCount[], PerftFileError> => {
  if (counts.some(c => c.depth === count.depth))
    return Result.err(fileError({ kind: 'duplicateDepth', line, depth: count.depth }));
  return Result.ok([...counts, count].sort((a, b) => a.depth - b.depth));
};

const parseEpdLine = ({ line, text }: NumberedLine): Result<PerftEntry, PerftFileError> => {
  const [fenPart = '', ...fields] = text.split(';');
  const id = `line-${line}`;
  const fen = checkFen(line, fenPart);
  if (fen.isErr) return Result.err(fen.error);
  let counts: PerftCount[] = [];
  for (const field of fields.map(f => f.trim()).filter(f => f !== '')) {
    const m = EPD_COUNT.exec(field);
    const count = parseCount(line, field, m?.[1] ?? '', m?.[2] ?? '');
    if (count.isErr) return Result.err(count.error);
    const added = addCount(counts, count.value, line);
    if (added.isErr) return Result.err(added.error);
    counts = added.value;
  }
  if (counts.length === 0) return Result.err(fileError({ kind: 'noCounts', line, id }));
  return Result.ok({ id, fen: fen.value, counts, line });
};

/** Parses an EPD perft file (`FEN ;D1 n ;D2 n` or `FEN; D1 n; D2 n`), one position per line. */
export const parseEpdPerft = (text: string): Result<PerftEntry[], PerftFileError> => {
  const entries: PerftEntry[] = [];
  for (const l of meaningfulLines(text)) {
    const entry = parseEpdLine(l);
    if (entry.isErr) return Result.err(entry.error);
    entries.push(entry.value);
  }
  return Result.ok(entries);
};

interface OpenBlock {
  readonly id: string;
  readonly line: number;
  fen: string | undefined;
  counts: PerftCount[];
}

const closeBlock = (block: OpenBlock): Result<PerftEntry, PerftFileError> => {
  const { id, line, fen, counts } = block;
  if (fen === undefined) return Result.err(fileError({ kind: 'missingEpd', line, id }));
  if (counts.length === 0) return Result.err(fileError({ kind: 'noCounts', line, id }));
  return Result.ok({ id, fen, counts, line });
};

/** Reads one non-`id` line into the open block. */
const extendBlock = (
  block: OpenBlock,
  { line, text }: NumberedLine,
  keyword: string,
  rest: string,
): Result<undefined, PerftFileError> => {
  if (keyword === 'epd') {
    if (block.fen !== undefined) return Result.err(fileError({ kind: 'duplicateEpd', line, id: block.id }));
    const fen = checkFen(line, rest);
    if (fen.isErr) return Result.err(fen.error);
    block.fen = fen.value;
    return Result.ok(undefined);
  }
  const [depthText = '', nodesText = '', ...extra] = rest.split(/\s+/);
  const count =
    extra.length > 0
      ? Result.err(fileError({ kind: 'badCount', line, text }))
      : parseCount(line, text, depthText, nodesText);
  if (count.isErr) return Result.err(count.error);
  const added = addCount(block.counts, count.value, line);
  if (added.isErr) return Result.err(added.error);
  block.counts = added.value;
  return Result.ok(undefined);
};

/** Parses a block perft file: `id <name>`, then `epd <FEN>`, then `perft <depth> <nodes>` lines. */
export const parseBlockPerft = (text: string): Result<PerftEntry[], PerftFileError> => {
  const entries: PerftEntry[] = [];
  let block: OpenBlock | undefined;
  for (const l of meaningfulLines(text)) {
    const [keyword = '', ...restWords] = l.text.split(/\s+/);
    const rest = restWords.join(' ');
    if (keyword === 'id') {
      if (rest === '')
        return Result.err(fileError({ kind: 'badLine', line: l.line, text: l.text, reason: 'emptyId' }));
      if (block) {
        const done = closeBlock(block);
        if (done.isErr) return Result.err(done.error);
        entries.push(done.value);
      }
      block = { id: rest, line: l.line, fen: undefined, counts: [] };
    } else if (keyword !== 'epd' && keyword !== 'perft') {
      return Result.err(fileError({ kind: 'badLine', line: l.line, text: l.text, reason: 'unknownKeyword' }));
    } else if (!block) {
      return Result.err(fileError({ kind: 'badLine', line: l.line, text: l.text, reason: 'outsideBlock' }));
    } else {
      const extended = extendBlock(block, l, keyword, rest);
      if (extended.isErr) return Result.err(extended.error);
    }
  }
  if (block) {
    const done = closeBlock(block);
    if (done.isErr) return Result.err(done.error);
    entries.push(done.value);
  }
  return Result.ok(entries);
};

/** Which layout `text` uses: block files start (after comments) with an `id` line. */
export const detectPerftFormat = (text: string): PerftFileFormat => {
  const first = meaningfulLines(text)[0];
  return first !== undefined && /^id(\s|$)/.test(first.text) ? 'blocks' : 'epd';
};

/** Parses either layout, choosing with `detectPerftFormat`. */
export const parsePerftFile = (text: string): Result<PerftEntry[], PerftFileError> => {
  const format = detectPerftFormat(text);
  switch (format) {
    case 'epd':
      return parseEpdPerft(text);
    case 'blocks':
      return parseBlockPerft(text);
  }
};

const BAD_LINE_TEXT: Record<BadLineReason, string> = {
  unknownKeyword: 'expected an id, epd or perft line',
  outsideBlock: 'epd or perft line before any id line',
  emptyId: 'id line without a name',
};

/** One-line description of an error naming the line and the problem (the error's message). */
export const describePerftFileError = (e: PerftFileErrorDetail): string => {
  switch (e.kind) {
    case 'badFen':
      return `line ${e.line}: bad FEN "${e.fen}": ${e.reason}`;
    case 'badCount':
      return `line ${e.line}: bad count "${e.text}"`;
    case 'duplicateDepth':
      return `line ${e.line}: depth ${e.depth} given twice`;
    case 'noCounts':
      return `line ${e.line}: position ${e.id} has no counts`;
    case 'missingEpd':
      return `line ${e.line}: block ${e.id} has no epd line`;
    case 'duplicateEpd':
      return `line ${e.line}: block ${e.id} has a second epd line`;
    case 'badLine':
      return `line ${e.line}: ${BAD_LINE_TEXT[e.reason]}: "${e.text}"`;
  }
};
