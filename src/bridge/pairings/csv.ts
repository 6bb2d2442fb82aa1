/**
 * Reads pairings from a simple CSV file: a header row naming the columns, then one game a row.
 * Columns: round, board, white, black (required), white_fide_id, black_fide_id, board_serial,
 * chess960 (optional), in any order. `chess960` makes the game Chess960: a position number
 * (0-959), a FEN, or `board` (the start is read off the board); empty = as the config says. Fields may be quoted ("Carlsen, Magnus"); the delimiter is a comma,
 * or a semicolon or tab when the header uses one (spreadsheets in many locales export so).
 *
 *   const r = parseCsvPairings('round,board,white,black\n1,1,"Ju, Wenjun","Lei, Tingjie"\n');
 *   r.unwrap()[0]?.white.name; // 'Ju, Wenjun'
 *   // errors name the line and the column: "line 3, field 'board': 'x' is not a board number (1, 2, ...)"
 */
import { Result } from '@badrap/result';
import { chess960Game } from '../../engine/chess960.js';
import {
  type Pairing,
  type PairingsError,
  type PairingsProblem,
  type Player,
  isFideId,
  normalizeName,
  pairingsError,
} from './types.js';

export const CSV_COLUMNS = [
  'round',
  'board',
  'white',
  'black',
  'white_fide_id',
  'black_fide_id',
  'board_serial',
  'chess960',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
const REQUIRED: readonly CsvColumn[] = ['round', 'board', 'white', 'black'];

/** A row of fields with the 1-based line it starts on. */
export interface CsvRow {
  readonly line: number;
  readonly fields: readonly string[];
}

/** The delimiter used most often outside quotes on the first line: ',' unless ';' or a tab wins. */
const detectDelimiter = (text: string): string => {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const outside = first.replace(/"[^"]*"/g, '');
  const count = (c: string): number => outside.split(c).length - 1;
  const best = [',', ';', '\t'].reduce((a, b) => (count(b) > count(a) ? b : a));
  return best;
};

/** Splits CSV text into rows (RFC 4180 quoting: "" inside quotes is a quote; quoted fields may span lines). */
export const splitCsv = (
  text: string,
  delimiter: string,
): { rows: CsvRow[]; problems: PairingsProblem[] } => {
  const rows: CsvRow[] = [];
  const problems: PairingsProblem[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let i = 0;
  let quoted = false;
  const endField = (): void => {
    fields.push(field);
    field = '';
  };
  const endRow = (): void => {
    endField();
    rows.push({ line: rowLine, fields });
    fields = [];
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i++;
        while ((text[i] === ' ' || text[i] === '\t') && text[i] !== delimiter) i++;
        const next = text[i];
        if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
          const value = text.slice(i).split(/\r?\n/, 1)[0] ?? '';
          const f = `column ${fields.length + 1}`;
          problems.push({
            kind: 'badField',
            line,
            field: f,
            value,
            expected: 'a delimiter after the closing quote',
          });
          while (i < text.length && text[i] !== delimiter && text[i] !== '\n') i++;
        }
        continue;
      }
      if (c === '\n') line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
      i++;
    } else if (c === delimiter) {
      endField();
      i++;
    } else if (c === '\n' || c === '\r') {
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      rowLine = line;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) {
    problems.push({
      kind: 'badField',
      line: rowLine,
      field: `column ${fields.length + 1}`,
      value: field.slice(0, 20),
      expected: 'a closed quote',
    });
  }
  if (field !== '' || fields.length > 0) endRow();
  return { rows, problems };
};

const normalizeColumn = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

const isColumn = (name: string): name is CsvColumn => (CSV_COLUMNS as readonly string[]).includes(name);

/** Maps column names to their index; reports unknown, duplicate and missing columns on the header line. */
const readHeader = (row: CsvRow, problems: PairingsProblem[]): Map<CsvColumn, number> => {
  const index = new Map<CsvColumn, number>();
  for (const [i, raw] of row.fields.entries()) {
    const name = normalizeColumn(raw);
    if (!isColumn(name)) {
      problems.push({ kind: 'unknownColumn', line: row.line, field: raw.trim() });
      continue;
    }
    if (index.has(name)) {
      problems.push({ kind: 'duplicate', line: row.line, field: name, value: name, firstLine: row.line });
      continue;
    }
    index.set(name, i);
  }
  for (const name of REQUIRED) {
    if (!index.has(name)) problems.push({ kind: 'missingColumn', line: row.line, field: name });
  }
  return index;
};

const POSITIVE = /^[1-9]\d{0,5}$/;

/** The same person: same FIDE id when both have one, else the same name. */
const samePerson = (a: Player, b: Player): boolean =>
  a.fideId !== undefined && b.fideId !== undefined
    ? a.fideId === b.fideId
    : a.name.toLowerCase() === b.name.toLowerCase();

interface RoundSeen {
  readonly boards: Map<number, number>;
  readonly players: { readonly player: Player; readonly line: number }[];
  readonly serials: Map<string, number>;
}

const readRow = (
  row: CsvRow,
  columns: Map<CsvColumn, number>,
  width: number,
  problems: PairingsProblem[],
): Pairing | undefined => {
  const before = problems.length;
  const get = (name: CsvColumn): string => {
    const i = columns.get(name);
    return i === undefined ? '' : (row.fields[i] ?? '').trim();
  };
  if (row.fields.length > width) {
    const extra = row.fields.slice(width).join(',');
    problems.push({
      kind: 'badField',
      line: row.line,
      field: `column ${width + 1}`,
      value: extra,
      expected: `within the header's ${width} columns`,
    });
  }
  const number = (name: 'round' | 'board'): number => {
    const text = get(name);
    if (text === '') problems.push({ kind: 'missingField', line: row.line, field: name });
    else if (!POSITIVE.test(text))
      problems.push({
        kind: 'badField',
        line: row.line,
        field: name,
        value: text,
        expected: `a ${name} number (1, 2, ...)`,
      });
    return Number(text);
  };
  const player = (color: 'white' | 'black'): Player => {
    const name = normalizeName(get(color));
    if (name === '') problems.push({ kind: 'missingField', line: row.line, field: color });
    const idField = color === 'white' ? 'white_fide_id' : 'black_fide_id';
    const id = get(idField);
    if (id !== '' && !isFideId(id))
      problems.push({
        kind: 'badField',
        line: row.line,
        field: idField,
        value: id,
        expected: 'a FIDE id (digits only)',
      });
    return { name, ...(isFideId(id) ? { fideId: id } : {}) };
  };
  const round = number('round');
  const board = number('board');
  const white = player('white');
  const black = player('black');
  const serial = get('board_serial');
  const chess960 = chess960Of(get('chess960'));
  if (chess960 === 'bad')
    problems.push({
      kind: 'badField',
      line: row.line,
      field: 'chess960',
      value: get('chess960'),
      expected: 'a Chess960 position number (0-959), a FEN, or "board"',
    });
  if (problems.length > before || chess960 === 'bad') return undefined;
  return {
    round,
    board,
    white,
    black,
    ...(serial !== '' ? { boardSerial: serial } : {}),
    ...(chess960 !== undefined ? { chess960 } : {}),
    line: row.line,
  };
};

/** The `chess960` field: nothing said, a start (number or FEN, or neither: from the board), or bad. */
const chess960Of = (text: string): Pairing['chess960'] | 'bad' => {
  if (text === '') return undefined;
  if (text.toLowerCase() === 'board') return {};
  if (/^\d{1,3}$/.test(text)) return Number(text) <= 959 ? { position: Number(text) } : 'bad';
  return chess960Game({ fen: text }).isOk ? { fen: text } : 'bad';
};

/** Same board, same player or same board serial twice in one round. */
const checkDuplicates = (p: Pairing, seen: Map<number, RoundSeen>, problems: PairingsProblem[]): boolean => {
  let round = seen.get(p.round);
  if (!round) {
    round = { boards: new Map(), players: [], serials: new Map() };
    seen.set(p.round, round);
  }
  const before = problems.length;
  const once = <K>(map: Map<K, number>, key: K, field: string, value: string): void => {
    const first = map.get(key);
    if (first !== undefined)
      problems.push({ kind: 'duplicate', line: p.line, field, value, firstLine: first });
    else map.set(key, p.line);
  };
  once(round.boards, p.board, 'board', String(p.board));
  for (const [field, player] of [
    ['white', p.white],
    ['black', p.black],
  ] as const) {
    const first = round.players.find(x => samePerson(x.player, player));
    if (first)
      problems.push({ kind: 'duplicate', line: p.line, field, value: player.name, firstLine: first.line });
    else round.players.push({ player, line: p.line });
  }
  if (p.boardSerial !== undefined) once(round.serials, p.boardSerial, 'board_serial', p.boardSerial);
  return problems.length === before;
};

/** Parses CSV pairings, sorted by round then board; every problem is reported with its line and column. */
export const parseCsvPairings = (text: string): Result<Pairing[], PairingsError> => {
  const body = text.replace(/^\uFEFF/, '');
  const { rows, problems } = splitCsv(body, detectDelimiter(body));
  const nonEmpty = rows.filter(r => r.fields.some(f => f.trim() !== ''));
  const [head, ...data] = nonEmpty;
  if (!head) return Result.err(pairingsError('csv', [{ kind: 'empty', line: 1, field: 'round' }]));
  const columns = readHeader(head, problems);
  if (problems.length > 0) return Result.err(pairingsError('csv', problems));
  const pairings: Pairing[] = [];
  const seen = new Map<number, RoundSeen>();
  for (const row of data) {
    const p = readRow(row, columns, head.fields.length, problems);
    if (p && checkDuplicates(p, seen, problems)) pairings.push(p);
  }
  if (problems.length === 0 && pairings.length === 0)
    problems.push({ kind: 'empty', line: head.line, field: 'round' });
  if (problems.length > 0) return Result.err(pairingsError('csv', problems));
  return Result.ok(pairings.sort((a, b) => a.round - b.round || a.board - b.board));
};
