/**
 * What a board that matches no position within reach shows, when it is more than an illegal move
 * in progress: the colours reversed (E97/E09 7.2, E14+ 7.3), the board turned round (7.1.b /
 * 7.2.2), pieces swapped on the back rank (a wrong initial position, 7.1.a / 7.2.1), the
 * opponent's pieces displaced (7.3 / 7.4.1), or a king gone (a king capture). Pure comparisons of
 * the sensed board with the game's position.
 *
 *   classifyBoard(tipPosition, startPosition, sensed, 'white');
 *   // { kind: 'coloursReversed' } for the start position with the white pieces on ranks 7 and 8
 */
import type { Board, Color, Piece, Position, Square } from 'chessops';
import { opposite } from 'chessops';
import { type SensedBoard, pieceAt } from '../recognition/sensedBoard.js';

export type BoardIrregularity =
  | { readonly kind: 'kingMissing'; readonly color: Color }
  | { readonly kind: 'coloursReversed' }
  | { readonly kind: 'orientation' }
  | { readonly kind: 'wrongInitialPosition'; readonly squares: readonly Square[] }
  | { readonly kind: 'displaced'; readonly squares: readonly Square[] };

const samePiece = (a: Piece | undefined, b: Piece | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.color === b.color && a.role === b.role;

/** Does the sensed board show `board` with every square mapped by `map` and colours by `swap`? */
const showsMapped = (board: Board, s: SensedBoard, map: (sq: Square) => Square, swap: boolean): boolean => {
  if (s.unknown.nonEmpty()) return false;
  for (let sq = 0; sq < 64; sq++) {
    const p = board.get(sq);
    const expected = p && swap ? { color: opposite(p.color), role: p.role } : p;
    if (!samePiece(expected, pieceAt(s, map(sq)))) return false;
  }
  return true;
};

const pieceKey = (p: Piece): string => `${p.color}${p.role}`;

/** The pieces of a board as a multiset key. */
const multiset = (pieces: Iterable<Piece>): string => [...pieces].map(pieceKey).sort().join(',');

const boardPieces = (board: Board): Piece[] => [...board].map(([, p]) => p);

const sensedPieces = (s: SensedBoard): Piece[] => {
  const out: Piece[] = [];
  for (const sq of s.occupied) {
    const p = pieceAt(s, sq);
    if (p) out.push(p);
  }
  return out;
};

const BACK_RANKS = (sq: Square): boolean => sq < 8 || sq >= 56;

/**
 * The irregularity the board shows against `pos` (the game's position, `toMove` having the move),
 * or undefined when it looks like an (illegal) move in progress. `start` is the game's start position.
 */
export const classifyBoard = (
  pos: Position,
  start: Position,
  s: SensedBoard,
): BoardIrregularity | undefined => {
  for (const color of ['white', 'black'] as const) {
    if (pos.board.kingOf(color) !== undefined && s.king.intersect(s[color]).isEmpty() && s.unknown.isEmpty())
      return { kind: 'kingMissing', color };
  }
  if (showsMapped(pos.board, s, sq => sq, true)) return { kind: 'coloursReversed' };
  if (showsMapped(pos.board, s, sq => 63 - sq, false)) return { kind: 'orientation' };
  if (s.unknown.nonEmpty() || multiset(boardPieces(pos.board)) !== multiset(sensedPieces(s)))
    return undefined;
  const differ: Square[] = [];
  for (let sq = 0; sq < 64; sq++) if (!samePiece(pos.board.get(sq), pieceAt(s, sq))) differ.push(sq);
  const unmoved = (sq: Square): boolean => samePiece(start.board.get(sq), pos.board.get(sq));
  const sameColour = (sq: Square): boolean => pos.board.get(sq)?.color === pieceAt(s, sq)?.color;
  if (differ.length >= 2 && differ.every(sq => BACK_RANKS(sq) && unmoved(sq) && sameColour(sq))) {
    return { kind: 'wrongInitialPosition', squares: differ };
  }
  // Only the opponent's pieces (of the side not to move) are off their squares: displaced, not a move.
  const mine = (sq: Square): boolean =>
    pos.board.get(sq)?.color === pos.turn || pieceAt(s, sq)?.color === pos.turn;
  if (differ.length >= 2 && !differ.some(mine)) return { kind: 'displaced', squares: differ };
  return undefined;
};
