/**
 * Whether a board is set up for a Chess960 game: the pawns on their ranks and a Chess960 back
 * rank, Black mirroring White (a DGT board tags this "four rows" start in its log, reference
 * dgt-protocol.md §7). With a position given, the board must show that one; without, the position
 * the board shows is the game's (the arbiter sets up the drawn position on every board).
 *
 *   chess960StartShown(squares, undefined);  // 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'
 *   chess960StartShown(squares, otherFen);   // undefined: not the position the round plays
 */
import { Board } from 'chessops';
import { chess960Fen, chess960NumberOfBoard } from '../../engine/chess960.js';
import type { SquareContent } from '../../drivers/observation.js';

/** The start FEN the board shows for a Chess960 game starting from `fen` (undefined: any), else undefined. */
export const chess960StartShown = (
  squares: readonly SquareContent[] | undefined,
  fen: string | undefined,
): string | undefined => {
  if (squares === undefined || squares.length !== 64) return undefined;
  const board = Board.empty();
  for (const [sq, c] of squares.entries()) {
    if (c.kind === 'piece') board.set(sq, { color: c.color, role: c.role });
    else if (c.kind !== 'empty') return undefined;
  }
  const n = chess960NumberOfBoard(board);
  const shown = n === undefined ? undefined : chess960Fen(n);
  if (shown === undefined) return undefined;
  if (fen === undefined) return shown;
  return fen.split(' ')[0] === shown.split(' ')[0] ? fen : undefined;
};
