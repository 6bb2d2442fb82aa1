/**
 * Position identity for the repetition rules: two positions are "the same" (FIDE Art. 9.2;
 * E18 9.2.2, E23 9.2.3) when they have the same key. The key is the piece placement, the side to
 * move, the castling rights (by rook square, so Chess960 works) and the en-passant square, the
 * last one only when an en-passant capture is actually legal. Move counters are left out.
 *
 *   const key = makePositionKey(Chess.default());
 *   // 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w a1h1a8h8 -'
 *   const next = keyAfterMove(pos, move); // Result: the key an intended (unplayed) move would give
 *
 * Keys are plain strings so they can be stored, compared, logged and shown to an arbiter.
 */
import { Result } from '@badrap/result';
import { type Move, type Position, type Square, defined, makeSquare, makeUci } from 'chessops';
import { makeFen } from 'chessops/fen';
import { legalEnPassantSquare, makeBoardFenOf } from './notation.js';
import { dataError } from './types.js';

/** A position key as built by `makePositionKey`: equal keys mean the same position under Art. 9.2. */
export type PositionKey = string;

/**
 * Which editions' wording of the castling clause the key follows. Both give the same equality of
 * positions, and so the same key; the option exists so that the choice is stated, not implied.
 *
 * - 'permanent' (E09 and later): positions differ when a king or rook that still had the right to
 *   castle has lost it by moving (E14 9.2.b, E18 9.2.2.2, E23 9.2.3.2). A right that is only blocked
 *   for now (check, attacked square, piece in between) does not change the position.
 * - 'temporaryOrPermanent' (E97, E01, E05): positions differ when the right to castle has changed
 *   "temporarily or permanently". The temporary state is fully decided by the placement and the side
 *   to move, which are already part of the key: two positions with the same placement, side to move
 *   and permanent rights have the same temporary rights. So this adds nothing to the key.
 */
export interface KeyRules {
  readonly castling: 'permanent' | 'temporaryOrPermanent';
}

/** The key rules used when none are given: the current Laws (E09 onwards). */
export const DEFAULT_KEY_RULES: KeyRules = { castling: 'permanent' };

/** The en-passant square when an en-passant capture is legal (notation.ts, shared with the FEN). */
export { legalEnPassantSquare };

/**
 * The squares of the rooks that still carry a castling right (chessops keeps rights by rook square,
 * which is what Chess960 needs), ascending: a1 … h8.
 */
export const castlingRookSquares = (pos: Position, rules: KeyRules = DEFAULT_KEY_RULES): Square[] => {
  switch (rules.castling) {
    case 'permanent':
    case 'temporaryOrPermanent':
      // Same rights for both: see KeyRules. Temporary obstacles follow from the placement.
      return [...pos.castles.castlingRights];
  }
};

/**
 * The repetition key of a position: `<placement> <w|b> <castling rook squares or -> <e.p. square or ->`.
 * The castling field lists the rook squares with rights (e.g. `a1h1a8h8`; `b1g1` in a Chess960 game).
 */
export const makePositionKey = (pos: Position, rules: KeyRules = DEFAULT_KEY_RULES): PositionKey => {
  let castling = '-';
  if (pos.castles.castlingRights.nonEmpty()) {
    castling = '';
    for (const rook of castlingRookSquares(pos, rules)) castling += makeSquare(rook);
  }
  const ep = legalEnPassantSquare(pos);
  return `${makeBoardFenOf(pos.board)} ${pos.turn === 'white' ? 'w' : 'b'} ${castling} ${defined(ep) ? makeSquare(ep) : '-'}`;
};

/** Why an intended move (written down for a claim, not played) could not be checked. */
export type IntendedMoveErrorDetail = {
  readonly kind: 'illegalIntendedMove';
  /** The move in UCI (chessops castling form: king to rook). */
  readonly move: string;
  /** FEN of the position in which it was intended. */
  readonly fen: string;
};

export type IntendedMoveError = IntendedMoveErrorDetail & Error;

/** The position after an intended move, on a copy (the given position is not changed). */
export const playIntended = (pos: Position, move: Move): Result<Position, IntendedMoveError> => {
  if (!pos.isLegal(move)) {
    const detail: IntendedMoveErrorDetail = {
      kind: 'illegalIntendedMove',
      move: makeUci(move),
      fen: makeFen(pos.toSetup()),
    };
    return Result.err(dataError(detail, `intended move ${detail.move} is illegal in ${detail.fen}`));
  }
  const after = pos.clone();
  after.play(move);
  return Result.ok(after);
};

/** The key of the position an intended move would produce, without playing it. */
export const keyAfterMove = (
  pos: Position,
  move: Move,
  rules: KeyRules = DEFAULT_KEY_RULES,
): Result<PositionKey, IntendedMoveError> =>
  playIntended(pos, move).map(after => makePositionKey(after, rules));
