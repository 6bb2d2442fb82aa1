/**
 * Result gestures: players and arbiters signal a result by putting both kings on the centre
 * squares d4, e4, d5, e5 (both on light squares: White won; both on dark: Black won; one of each:
 * a draw). Two kings on the centre always stand next to each other, so the position is never legal
 * and never a move. A king that stood next to the centre may get there by a legal move first; a
 * move like that is held back a little (`isGestureRisk`) so that it is not published as a move.
 *
 *   const g = detectGesture(sensed);
 *   if (g) console.log(g.result);        // '1/2-1/2' for kings on e4 and e5
 */
import type { Board, Chess, Color, NormalMove, Square } from 'chessops';
import { SquareSet, opposite } from 'chessops';
import { type SensedBoard, kingsOf } from './sensedBoard.js';

export type GestureResult = '1-0' | '0-1' | '1/2-1/2';

export interface Gesture {
  readonly result: GestureResult;
  readonly whiteKing: Square;
  readonly blackKing: Square;
}

/** d4, e4, d5, e5. */
export const CENTRE = SquareSet.center();

/** The centre and the squares next to it (c3–f6). */
export const NEAR_CENTRE = new SquareSet(0x3c3c0000, 0x3c3c);

const LIGHT = SquareSet.lightSquares();

/** The result shown by the kings, if both stand on the centre squares. */
export const detectGesture = (s: SensedBoard): Gesture | undefined => {
  const whiteKing = kingsOf(s, 'white').singleSquare();
  const blackKing = kingsOf(s, 'black').singleSquare();
  if (whiteKing === undefined || blackKing === undefined) return undefined;
  if (!CENTRE.has(whiteKing) || !CENTRE.has(blackKing)) return undefined;
  const light = (LIGHT.has(whiteKing) ? 1 : 0) + (LIGHT.has(blackKing) ? 1 : 0);
  const result: GestureResult = light === 2 ? '1-0' : light === 0 ? '0-1' : '1/2-1/2';
  return { result, whiteKing, blackKing };
};

/**
 * True when `move` (just played, giving `after`) took a king onto a centre square while the other
 * king stands next to the centre or is off the board (in hand): the first half of a gesture.
 */
export const isGestureRisk = (after: Chess, move: NormalMove, s: SensedBoard): boolean => {
  const mover = opposite(after.turn);
  if (after.board.kingOf(mover) !== move.to || !CENTRE.has(move.to)) return false;
  const other = kingsOf(s, after.turn).singleSquare();
  return other === undefined || NEAR_CENTRE.has(other);
};

/**
 * True when the board may be half way through a gesture: a king was put on a centre square it
 * did not stand on in the game's position. Such a board is not reported as a mismatch at a quiet
 * moment (a clock press still is).
 */
export const isGestureUnderway = (s: SensedBoard, game: Board): boolean => {
  for (const color of ['white', 'black'] as const) {
    const king = kingsOf(s, color).singleSquare();
    if (king !== undefined && CENTRE.has(king) && game.kingOf(color) !== king) return true;
  }
  return false;
};

/**
 * Whether the gesture's kings are, at `presser`'s press, his move and the opponent's reply begun:
 * the opponent's king left its square in `game` (passing over the centre), and `presser`'s stands
 * on its square or where a legal king move of his took it (...Kxd5 pressed with White's king set
 * down on e4 on its way to d3; all four centre squares touch, so the opponent's king cannot have
 * stood in the centre before such a move).
 */
export const isReplyKing = (g: Gesture, game: Chess, presser: Color): boolean => {
  const at = (color: Color): Square => (color === 'white' ? g.whiteKing : g.blackKing);
  const opponent = opposite(presser);
  if (game.board.kingOf(opponent) === at(opponent)) return false;
  const king = game.board.kingOf(presser);
  if (king === at(presser)) return true;
  return king !== undefined && game.turn === presser && game.dests(king).has(at(presser));
};
