/**
 * What a move means for the hands that make it: which piece travels where, what is captured and
 * where it stands (en passant: not on the destination), the rook of a castling, the promotion
 * role, and the squares a slider or a double-stepping pawn passes (with those that are legal
 * stops, like d3 on the way to d4).
 *
 *   const f = factsOf(Chess.default(), { from: 11, to: 27 });   // d2d4
 *   f.kind;         // 'quiet'
 *   f.legalStops;   // [19]  (d3)
 */
import type { Chess, Color, NormalMove, Piece, Role, Square } from 'chessops';
import { SquareSet, between, kingCastlesTo, squareFile, squareRank } from 'chessops';
import { castlingSide } from 'chessops/chess';
import { rookCastlesTo } from 'chessops/util';

export type MoveKind = 'quiet' | 'capture' | 'castling' | 'enPassant';

export interface MoveFacts {
  readonly move: NormalMove;
  readonly color: Color;
  /** The moving piece before the move (the pawn, for a promotion). */
  readonly piece: Piece;
  readonly from: Square;
  /** Where the moving piece ends (the king's square for castling). */
  readonly to: Square;
  readonly kind: MoveKind;
  readonly captured?: { readonly square: Square; readonly piece: Piece };
  readonly promotion?: Role;
  readonly rook?: { readonly from: Square; readonly to: Square };
  /** Squares strictly between `from` and `to`, nearest first (sliders and pawn double steps). */
  readonly passing: readonly Square[];
  /** Passing squares the piece could legally move to. */
  readonly legalStops: readonly Square[];
  /** Every square the piece could legally move to (a stop beside the destination may be one). */
  readonly dests: SquareSet;
}

const distance = (a: Square, b: Square): number =>
  Math.max(Math.abs(squareFile(a) - squareFile(b)), Math.abs(squareRank(a) - squareRank(b)));

/** Facts of a legal move in `pos`; throws a RangeError when no piece stands on `from` (a programmer error). */
export const factsOf = (pos: Chess, move: NormalMove): MoveFacts => {
  const piece = pos.board.get(move.from);
  if (!piece) throw new RangeError(`factsOf: no piece on square ${move.from}`);
  const color = piece.color;
  const side = castlingSide(pos, move);
  if (side) {
    const rookFrom = pos.castles.rook[color][side] ?? move.to;
    return {
      move,
      color,
      piece,
      from: move.from,
      to: kingCastlesTo(color, side),
      kind: 'castling',
      rook: { from: rookFrom, to: rookCastlesTo(color, side) },
      passing: [],
      legalStops: [],
      dests: SquareSet.empty(),
    };
  }
  const passing = [...between(move.from, move.to)].sort(
    (a, b) => distance(move.from, a) - distance(move.from, b),
  );
  const dests = pos.dests(move.from);
  const legalStops = passing.filter(sq => dests.has(sq));
  const promotion = move.promotion ? { promotion: move.promotion } : {};
  const victim = pos.board.get(move.to);
  if (victim) {
    return {
      move,
      color,
      piece,
      from: move.from,
      to: move.to,
      kind: 'capture',
      captured: { square: move.to, piece: victim },
      ...promotion,
      passing,
      legalStops,
      dests,
    };
  }
  if (piece.role === 'pawn' && move.to === pos.epSquare && squareFile(move.from) !== squareFile(move.to)) {
    const square = move.to + (color === 'white' ? -8 : 8);
    const captured = pos.board.get(square) ?? { color: color === 'white' ? 'black' : 'white', role: 'pawn' };
    return {
      move,
      color,
      piece,
      from: move.from,
      to: move.to,
      kind: 'enPassant',
      captured: { square, piece: captured },
      passing,
      legalStops,
      dests,
    };
  }
  return {
    move,
    color,
    piece,
    from: move.from,
    to: move.to,
    kind: 'quiet',
    ...promotion,
    passing,
    legalStops,
    dests,
  };
};
