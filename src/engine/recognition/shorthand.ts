/**
 * A compact text form of board events for tests, examples and bug reports (not the board-script
 * language: no directives, one event per entry). Each entry is `TIME WHAT`:
 *
 *   `120 e2 -`  e2 emptied          `300 e4 P`  white pawn on e4 (FEN letters; `?` = occupied)
 *   `900 press w` / `press b`       `950 adjust w`      `1500 tick`
 *   `2000 snapshot rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR`   (FEN board field)
 *
 *   const events = parseShorthand('0 e2 -; 250 e4 P; 900 press w');
 *   events[1];   // { kind: 'square', at: 250, square: 28, piece: { color: 'white', role: 'pawn' } }
 */
import type { Color } from 'chessops';
import { parseSquare } from 'chessops';
import { parsePiece } from 'chessops/fen';
import { type BoardEvent, type SensedContent, contentsOfBoardFen } from './boardEvent.js';

const COLORS: Record<string, Color> = { w: 'white', b: 'black', white: 'white', black: 'black' };

const contentOf = (text: string): SensedContent | undefined => {
  if (text === '-') return 'empty';
  if (text === '?') return 'occupied';
  return parsePiece(text);
};

/** One entry; throws a TypeError naming the entry when it is malformed (a programmer error in a test). */
export const parseShorthandEntry = (entry: string): BoardEvent => {
  const [time, what, arg] = entry.trim().split(/\s+/);
  const at = Number(time);
  const fail = (): never => {
    throw new TypeError(`bad board event shorthand: "${entry.trim()}"`);
  };
  if (!Number.isFinite(at) || what === undefined) return fail();
  switch (what) {
    case 'press':
    case 'adjust': {
      const side = COLORS[arg ?? ''];
      return side ? { kind: what, at, side } : fail();
    }
    case 'tick':
      return { kind: 'tick', at };
    case 'snapshot': {
      const board = contentsOfBoardFen(arg ?? '');
      return board ? { kind: 'snapshot', at, board } : fail();
    }
    default: {
      const square = parseSquare(what);
      const piece = contentOf(arg ?? '');
      return square !== undefined && piece !== undefined ? { kind: 'square', at, square, piece } : fail();
    }
  }
};

/** Entries separated by `;` or new lines; blank entries and `#` comments are skipped. */
export const parseShorthand = (text: string): BoardEvent[] =>
  text
    .split(/[;\n]/)
    .map(s => s.replace(/#.*$/, '').trim())
    .filter(s => s.length > 0)
    .map(parseShorthandEntry);
