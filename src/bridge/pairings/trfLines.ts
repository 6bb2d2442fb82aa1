/**
 * Reads the lines of a FIDE TRF file column by column: the header lines (012 name, 022 city,
 * 032 federation, 042/052 dates, 122 time control, 132 round dates) and the player lines `001`
 * with their round blocks. Cross-checking the games and ordering the boards is trf.ts's job.
 *
 *   const problems: PairingsProblem[] = [];
 *   const p = readPlayerLine({ problems, line: 14 }, text); // TrfPlayer | undefined, problems located by column
 *   readHeaderLine('012', '012 Spring Swiss', header);     // header.name = 'Spring Swiss'
 */
import { type PairingsProblem, type Player, isFideId, normalizeName } from './types.js';

/** Tournament data from the header lines; every field is the text as written, trimmed. */
export interface TrfHeader {
  readonly name?: string;
  readonly city?: string;
  readonly federation?: string;
  readonly startDate?: string;
  readonly endDate?: string;
  readonly timeControl?: string;
  /** Round dates from line 132, index 0 = round 1. */
  readonly roundDates: readonly (string | undefined)[];
}

export type TrfColor = 'white' | 'black' | undefined;

/** One round block of a player line. */
export interface TrfRound {
  readonly round: number;
  /** Opponent's starting rank; 0 = no opponent (bye, absence). Rounds a player was not paired in have no block. */
  readonly opponent: number;
  readonly color: TrfColor;
  /** Result code as written; ' ' when the game has no result yet. */
  readonly code: string;
}

export interface TrfPlayer {
  readonly startRank: number;
  readonly player: Player;
  readonly line: number;
  readonly rounds: readonly TrfRound[];
}

/** TRF title codes to PGN titles (the PGN forms are accepted too). */
const TITLES: Readonly<Record<string, string>> = {
  g: 'GM',
  m: 'IM',
  f: 'FM',
  c: 'CM',
  wg: 'WGM',
  wm: 'WIM',
  wf: 'WFM',
  wc: 'WCM',
};
const PGN_TITLES = new Set(Object.values(TITLES));

/** Result codes of TRF-16, plus '*' that some programs write for a game not yet finished. */
const RESULT_CODES = new Set(['1', '0', '=', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z', ' ', '*']);
/** First column of round 1's block; each round takes 10 columns. */
const ROUND_COLUMN = 92;
const ROUND_WIDTH = 10;

/** Columns from..to (1-based, inclusive) of a line; shorter lines give shorter text. */
const columns = (line: string, from: number, to: number): string => line.slice(from - 1, to);

export interface Reader {
  readonly problems: PairingsProblem[];
  readonly line: number;
}

const readInt = (r: Reader, text: string, field: string, required: boolean): number | undefined => {
  const t = text.trim();
  if (t === '') {
    if (required) r.problems.push({ kind: 'missingField', line: r.line, field });
    return undefined;
  }
  if (!/^\d+$/.test(t)) {
    r.problems.push({ kind: 'badField', line: r.line, field, value: t, expected: 'a whole number' });
    return undefined;
  }
  return Number(t);
};

const readTitle = (r: Reader, text: string): string | undefined => {
  const t = text.trim();
  if (t === '') return undefined;
  const title = TITLES[t.toLowerCase()] ?? (PGN_TITLES.has(t.toUpperCase()) ? t.toUpperCase() : undefined);
  if (title === undefined) {
    r.problems.push({
      kind: 'badField',
      line: r.line,
      field: 'title (columns 11-13)',
      value: t,
      expected: 'a FIDE title code (g, m, f, c, wg, wm, wf, wc)',
    });
  }
  return title;
};

const readRound = (r: Reader, line: string, round: number): TrfRound | undefined => {
  const at = ROUND_COLUMN + ROUND_WIDTH * (round - 1);
  const oppText = columns(line, at, at + 3).trim();
  const colorText = columns(line, at + 5, at + 5) || ' ';
  const code = columns(line, at + 7, at + 7) || ' ';
  const cols = (from: number, to: number): string => `columns ${from}-${to}`;
  if (oppText === '' && colorText.trim() === '' && code === ' ') return undefined;
  const opponent =
    oppText === '' ? 0 : readInt(r, oppText, `round ${round} opponent (${cols(at, at + 3)})`, true);
  if (opponent === undefined) return undefined;
  let color: TrfColor;
  if (colorText === 'w' || colorText === 'W') color = 'white';
  else if (colorText === 'b' || colorText === 'B') color = 'black';
  else if (colorText === '-' || colorText === ' ') color = undefined;
  else {
    const field = `round ${round} colour (column ${at + 5})`;
    r.problems.push({ kind: 'badField', line: r.line, field, value: colorText, expected: "'w', 'b' or '-'" });
    return undefined;
  }
  if (!RESULT_CODES.has(code)) {
    const field = `round ${round} result (column ${at + 7})`;
    const expected = 'a TRF result code (1 0 = + - W D L H F U Z)';
    r.problems.push({ kind: 'badField', line: r.line, field, value: code, expected });
    return undefined;
  }
  return { round, opponent, color, code };
};

export const readPlayerLine = (r: Reader, line: string): TrfPlayer | undefined => {
  const startRank = readInt(r, columns(line, 5, 8), 'starting rank (columns 5-8)', true);
  const title = readTitle(r, columns(line, 11, 13));
  const name = normalizeName(columns(line, 15, 47));
  if (name === '') r.problems.push({ kind: 'missingField', line: r.line, field: 'name (columns 15-47)' });
  const rating = readInt(r, columns(line, 49, 52), 'rating (columns 49-52)', false);
  const fed = columns(line, 54, 56).trim();
  if (fed !== '' && !/^[A-Za-z]{3}$/.test(fed)) {
    const field = 'federation (columns 54-56)';
    r.problems.push({ kind: 'badField', line: r.line, field, value: fed, expected: 'a three-letter code' });
  }
  const id = columns(line, 58, 68).trim();
  if (id !== '' && id !== '0' && !isFideId(id)) {
    const field = 'FIDE id (columns 58-68)';
    r.problems.push({
      kind: 'badField',
      line: r.line,
      field,
      value: id,
      expected: 'a FIDE id (digits only)',
    });
  }
  const rounds: TrfRound[] = [];
  const lastRound = Math.ceil((line.trimEnd().length - ROUND_COLUMN + 1) / ROUND_WIDTH);
  for (let round = 1; round <= lastRound; round++) {
    const block = readRound(r, line, round);
    if (block) rounds.push(block);
  }
  // A player whose rank is readable takes part in the cross-checks even when another field is bad,
  // so one bad rating does not turn into "unknown player" on every opponent's line.
  if (startRank === undefined) return undefined;
  const player: Player = {
    name,
    ...(isFideId(id) ? { fideId: id } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(rating !== undefined && rating > 0 ? { rating } : {}),
    ...(fed !== '' ? { federation: fed.toUpperCase() } : {}),
  };
  return { startRank, player, line: r.line, rounds };
};

export const readHeaderLine = (code: string, line: string, header: Mutable<TrfHeader>): void => {
  const value = line.slice(4).trim();
  const text = value === '' ? undefined : value;
  switch (code) {
    case '012':
      header.name = text;
      return;
    case '022':
      header.city = text;
      return;
    case '032':
      header.federation = text;
      return;
    case '042':
      header.startDate = text;
      return;
    case '052':
      header.endDate = text;
      return;
    case '122':
      header.timeControl = text;
      return;
    case '132': {
      const dates: (string | undefined)[] = [];
      for (let at = ROUND_COLUMN; at <= line.length; at += ROUND_WIDTH) {
        const d = columns(line, at, at + 7).trim();
        dates.push(d === '' ? undefined : d);
      }
      header.roundDates = dates;
      return;
    }
    default:
      return;
  }
};

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
