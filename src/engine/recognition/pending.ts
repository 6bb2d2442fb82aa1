/**
 * Moves caught half way that the Laws name (reference §1.3): the king released on its castling
 * square with the rook not yet moved (E09 4.6.b, E14+ 4.7.b / 4.7.2), the pawn released on the last
 * rank before the exchange (E09 4.6.c, E14+ 4.7.c / 4.7.3), and en passant with the captured pawn
 * still standing (§13.4 S27). The board then matches no position, yet nothing is wrong.
 *
 *   const p = detectPending(pos, sensed, diffSquares(pos.board, sensed), touched);
 *   if (p?.kind === 'castling') console.log(p.side, p.legal);   // 'h', true
 */
import type { CastlingSide, Color, Position, Square } from 'chessops';
import { SquareSet, kingCastlesTo, squareRank } from 'chessops';
import { rookCastlesTo } from 'chessops/util';
import { type SensedBoard, agreesAt, knownRoleAt } from './sensedBoard.js';

export type Pending =
  | {
      readonly kind: 'castling';
      readonly color: Color;
      readonly side: CastlingSide;
      readonly kingFrom: Square;
      /** Where the king now stands (its castling square). */
      readonly king: Square;
      /** The rook's original square. */
      readonly rook: Square;
      /** Whether castling on that side is legal now (if not: 4.4.c / 4.7.2 for the supervisor). */
      readonly legal: boolean;
    }
  | {
      readonly kind: 'promotion';
      readonly color: Color;
      readonly from: Square;
      /** The promotion square, where the pawn now stands. */
      readonly to: Square;
      readonly legal: boolean;
    }
  | {
      readonly kind: 'enPassant';
      readonly color: Color;
      readonly from: Square;
      readonly to: Square;
      /** The square of the pawn still to be removed. */
      readonly victim: Square;
    };

export type PendingKind = Pending['kind'];

const CASTLING_SIDES: readonly CastlingSide[] = ['a', 'h'];

const castlingPending = (
  pos: Position,
  s: SensedBoard,
  diff: SquareSet,
  touched: SquareSet,
): Pending | undefined => {
  const color = pos.turn;
  const kingFrom = pos.board.kingOf(color);
  if (kingFrom === undefined || !diff.has(kingFrom) || !touched.has(kingFrom)) return undefined;
  for (const side of CASTLING_SIDES) {
    const rook = pos.castles.rook[color][side];
    if (rook === undefined) continue;
    const king = kingCastlesTo(color, side);
    const rookTo = rookCastlesTo(color, side);
    const squares = SquareSet.fromSquare(kingFrom).with(king).with(rook).with(rookTo);
    if (!diff.subsetOf(squares) || !diff.has(king)) continue;
    if (!agreesAt(s, king, { color, role: 'king' }) || s.occupied.has(kingFrom)) continue;
    // The rook is still on its square or in hand; the square the king crossed is still empty.
    if (rookTo !== kingFrom && s.occupied.has(rookTo)) continue;
    const legal = pos.isLegal({ from: kingFrom, to: rook });
    return { kind: 'castling', color, side, kingFrom, king, rook, legal };
  }
  return undefined;
};

const promotionPending = (pos: Position, s: SensedBoard, diff: SquareSet): Pending | undefined => {
  if (diff.size() !== 2) return undefined;
  const color = pos.turn;
  const lastRank = color === 'white' ? 7 : 0;
  const pawns = pos.board.pieces(color, 'pawn').intersect(diff);
  const from = pawns.singleSquare();
  if (from === undefined || squareRank(from) !== (color === 'white' ? 6 : 1)) return undefined;
  const to = diff.without(from).singleSquare();
  if (to === undefined || squareRank(to) !== lastRank || s.occupied.has(from)) return undefined;
  if (knownRoleAt(s, to) !== 'pawn' || !s[color].has(to)) return undefined;
  const legal = pos.isLegal({ from, to, promotion: 'queen' });
  return { kind: 'promotion', color, from, to, legal };
};

const enPassantPending = (pos: Position, s: SensedBoard, diff: SquareSet): Pending | undefined => {
  const to = pos.epSquare;
  if (to === undefined || diff.size() !== 2 || !diff.has(to)) return undefined;
  const color = pos.turn;
  const from = diff.without(to).singleSquare();
  if (from === undefined || !pos.board.pieces(color, 'pawn').has(from) || s.occupied.has(from))
    return undefined;
  if (!agreesAt(s, to, { color, role: 'pawn' }) || !pos.isLegal({ from, to })) return undefined;
  const victim = to + (color === 'white' ? -8 : 8);
  return { kind: 'enPassant', color, from, to, victim };
};

/** The half-made move the board shows from `pos`, if any (`diff` = diffSquares(pos.board, sensed)). */
export const detectPending = (
  pos: Position,
  s: SensedBoard,
  diff: SquareSet,
  touched: SquareSet,
): Pending | undefined =>
  castlingPending(pos, s, diff, touched) ?? promotionPending(pos, s, diff) ?? enPassantPending(pos, s, diff);

/** A stable key for reporting a pending state once. */
export const pendingKey = (p: Pending): string => {
  switch (p.kind) {
    case 'castling':
      return `castling:${p.kingFrom}:${p.king}`;
    case 'promotion':
      return `promotion:${p.from}:${p.to}`;
    case 'enPassant':
      return `enPassant:${p.from}:${p.to}`;
  }
};
