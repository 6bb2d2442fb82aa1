/**
 * The fifty-move claim (FIDE Art. 9.3) and the seventy-five-move automatic draw (E14 9.6.b, E18/E23
 * 9.6.2), both counted in half-moves since the last pawn move or capture.
 *
 *   const n = halfmovesAfter(pos, move, halfmoves);          // 0 after a pawn move or a capture
 *   fiftyMoveClaim(n, { pos: next, move: intended }).unwrap(); // { holds, basis, halfmoves }
 *   seventyFiveMoves(n, next.isCheckmate());                  // the game is drawn (mate comes first)
 *
 * The counter of a game starts from the start position's FEN halfmove clock, which need not be 0.
 * Which editions have the automatic draw (E14 and later) is the caller's business.
 */
import { Result } from '@badrap/result';
import { type Move, type Position, isDrop, opposite } from 'chessops';
import { type IntendedMoveError, playIntended } from './positionKey.js';

/** Half-moves for the fifty-move claim: 50 moves by each player (9.3). */
export const FIFTY_MOVES = 100;
/** Half-moves for the automatic draw: 75 moves by each player (E14 9.6.b, E18/E23 9.6.2). */
export const SEVENTY_FIVE_MOVES = 150;

/**
 * Does the move reset the count: a pawn move (promotion included) or a capture (en passant
 * included)? Castling is neither, also in Chess960 where chessops writes it as the king taking its
 * own rook. `move` must be legal in `pos`.
 */
export const isZeroingMove = (pos: Position, move: Move): boolean => {
  if (isDrop(move)) return move.role === 'pawn'; // not a chess move; kept consistent with chessops
  if (pos.board.pawn.has(move.from)) return true;
  return pos.board[opposite(pos.turn)].has(move.to);
};

/** The half-move count after `move`, from the count before it (by default the position's own clock). */
export const halfmovesAfter = (pos: Position, move: Move, halfmoves: number = pos.halfmoves): number =>
  isZeroingMove(pos, move) ? 0 : halfmoves + 1;

/** Answer to a fifty-move claim. */
export interface FiftyMoveCheck {
  readonly holds: boolean;
  /**
   * 'completed': the fifty moves have been made (9.3 b; E18/E23 9.3.2);
   * 'intendedMove': the written, unplayed move completes them (9.3 a; E18/E23 9.3.1);
   * undefined when the claim does not hold.
   */
  readonly basis: 'completed' | 'intendedMove' | undefined;
  /** The count the claim was judged on: the current one if already 100 or more, else the count after the intended move (if given). */
  readonly halfmoves: number;
}

/**
 * Fifty-move claim by the player having the move, with the current count `halfmoves`. It holds when
 * the count is at least 100, or when the intended move (legal in `intended.pos`, not played) is not
 * a pawn move or capture and brings it to 100. An illegal intended move is an error value even when
 * the count alone would be enough: the arbiter needs to know, since a rejected claim makes the
 * claimant play that move; call again without `intended` to judge on the count alone.
 */
export const fiftyMoveClaim = (
  halfmoves: number,
  intended?: { readonly pos: Position; readonly move: Move },
): Result<FiftyMoveCheck, IntendedMoveError> => {
  if (!intended) {
    const holds = halfmoves >= FIFTY_MOVES;
    return Result.ok({ holds, basis: holds ? 'completed' : undefined, halfmoves });
  }
  return playIntended(intended.pos, intended.move).map(() => {
    if (halfmoves >= FIFTY_MOVES) return { holds: true, basis: 'completed', halfmoves };
    const after = halfmovesAfter(intended.pos, intended.move, halfmoves);
    const holds = after >= FIFTY_MOVES;
    return { holds, basis: holds ? 'intendedMove' : undefined, halfmoves: after };
  });
};

/**
 * Is the game drawn by the seventy-five-move rule, given the count after the last move and whether
 * that move checkmated? At 150 or more the draw is automatic, but a checkmate made by that very
 * move stands (E14 9.6.b, E18/E23 9.6.2). A stalemate on that move is a draw either way.
 */
export const seventyFiveMoves = (halfmoves: number, isCheckmate: boolean): boolean =>
  halfmoves >= SEVENTY_FIVE_MOVES && !isCheckmate;
