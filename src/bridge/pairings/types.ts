/**
 * Vocabulary of pairings: players, who plays whom on which board, and the located problems an
 * import reports. The TRF and CSV readers produce these; the feed and board binding consume them.
 *
 *   const p: Pairing = { round: 1, board: 3, white: { name: 'Ju, Wenjun' }, black: { name: 'Lei, Tingjie' }, line: 4 };
 *   describePairingsProblem({ kind: 'missingField', line: 7, field: 'white' }); // "line 7, field 'white': missing"
 *   pairingsError('csv', problems).message; // one line per problem
 */
import type { FideResult } from '../../engine/outcome.js';
import { dataError } from '../../engine/types.js';

/** A player as pairing programs and broadcast headers know them. */
export interface Player {
  /** "Lastname, Firstname", the PGN convention. */
  readonly name: string;
  /** FIDE id, digits only (PGN WhiteFideId / BlackFideId). */
  readonly fideId?: string;
  /** FIDE title in PGN form: GM, IM, FM, CM, WGM, WIM, WFM, WCM. */
  readonly title?: string;
  /** FIDE rating (PGN WhiteElo / BlackElo). */
  readonly rating?: number;
  /** Three-letter FIDE federation code. */
  readonly federation?: string;
}

/** One game of a round: the players with their colours, on a board. */
export interface Pairing {
  /** Round number, from 1. */
  readonly round: number;
  /** Board number, from 1, in the order the round is laid out in the hall. */
  readonly board: number;
  readonly white: Player;
  readonly black: Player;
  /** Serial number of the electronic board this game is played on, when the pairing names one. */
  readonly boardSerial?: string;
  /** A Chess960 game (CSV column `chess960`): from a number, a FEN, or (neither) the board. */
  readonly chess960?: { readonly position?: number; readonly fen?: string };
  /** Result already known (a finished round in a TRF file, a forfeit): '+/-' and '-/+' are forfeits. */
  readonly result?: FideResult;
  /** 1-based line of the source file the pairing came from (for messages). */
  readonly line: number;
}

/** A player without an opponent in a round (bye, absence) as a TRF file records it. */
export interface Bye {
  readonly round: number;
  readonly player: Player;
  /** The TRF result code: H (half-point bye), F (full-point bye), U (pairing-allocated bye), Z (zero-point bye), - or + (forfeit). */
  readonly code: string;
  readonly line: number;
}

/** What went wrong where: every problem names the 1-based line and the field (column) involved. */
export type PairingsProblem =
  | {
      readonly kind: 'badField';
      readonly line: number;
      readonly field: string;
      readonly value: string;
      readonly expected: string;
    }
  | { readonly kind: 'missingField'; readonly line: number; readonly field: string }
  | { readonly kind: 'unknownColumn'; readonly line: number; readonly field: string }
  | { readonly kind: 'missingColumn'; readonly line: number; readonly field: string }
  | {
      readonly kind: 'duplicate';
      readonly line: number;
      readonly field: string;
      readonly value: string;
      readonly firstLine: number;
    }
  | { readonly kind: 'unknownPlayer'; readonly line: number; readonly field: string; readonly value: string }
  | {
      readonly kind: 'inconsistent';
      readonly line: number;
      readonly field: string;
      readonly value: string;
      readonly otherLine: number;
      readonly reason: string;
    }
  | { readonly kind: 'empty'; readonly line: number; readonly field: string };

export type PairingsFormat = 'trf' | 'csv';

/** The failure of an import: every problem found, not just the first. */
export interface PairingsErrorDetail {
  readonly kind: 'invalidPairings';
  readonly format: PairingsFormat;
  readonly problems: readonly PairingsProblem[];
}
export type PairingsError = PairingsErrorDetail & Error;

/** "line 7, field 'white_fide_id': '12a' is not digits only" style text. */
export const describePairingsProblem = (p: PairingsProblem): string => {
  const where = `line ${p.line}, field '${p.field}'`;
  switch (p.kind) {
    case 'badField':
      return `${where}: '${p.value}' is not ${p.expected}`;
    case 'missingField':
      return `${where}: missing`;
    case 'unknownColumn':
      return `${where}: unknown column (expected round, board, white, black, white_fide_id, black_fide_id, board_serial)`;
    case 'missingColumn':
      return `${where}: required column is missing from the header`;
    case 'duplicate':
      return `${where}: '${p.value}' already given on line ${p.firstLine}`;
    case 'unknownPlayer':
      return `${where}: no player with starting rank ${p.value}`;
    case 'inconsistent':
      return `${where}: '${p.value}' ${p.reason} (line ${p.otherLine})`;
    case 'empty':
      return `${where}: the file holds no pairings`;
  }
};

/** How many problems the error message lists before "and N more". */
const MESSAGE_PROBLEMS = 20;

export const pairingsError = (
  format: PairingsFormat,
  problems: readonly PairingsProblem[],
): PairingsError => {
  const shown = problems.slice(0, MESSAGE_PROBLEMS).map(describePairingsProblem);
  const more = problems.length > MESSAGE_PROBLEMS ? [`and ${problems.length - MESSAGE_PROBLEMS} more`] : [];
  const head = `invalid ${format === 'trf' ? 'TRF' : 'CSV'} pairings (${problems.length} problem${problems.length === 1 ? '' : 's'})`;
  return dataError({ kind: 'invalidPairings', format, problems }, [head, ...shown, ...more].join('\n  '));
};

/** FIDE ids are positive integers; we keep them as digit strings. */
export const isFideId = (s: string): boolean => /^[1-9]\d{0,11}$/.test(s);

/** Normalises "Last,First" to "Last, First" and collapses runs of spaces. */
export const normalizeName = (name: string): string =>
  name
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ');

/** Round, board: the key of a game within a tournament. */
export const pairingKey = (round: number, board: number): string => `${round}.${board}`;
