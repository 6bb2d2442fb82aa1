/**
 * The sensed board: what the sensors show now, as immutable chessops SquareSets (STYLE item 4),
 * so comparing it with a position is a handful of bitboard operations.
 *
 * Squares in `unknown` are occupied but unidentified (occupancy-only boards). Their colour and
 * role bits hold an *inferred* identity (from the game and from the piece in hand when it was put
 * down) or nothing; comparisons ignore them, gesture detection and evidence use them.
 *
 *   const s = withContent(sensedOfBoard(pos.board), 12, 'empty');  // e2 lifted
 *   diffSquares(pos.board, s);                                      // SquareSet {e2}
 *   contentAt(s, 12);                                               // 'empty'
 */
import type { Board, ByColor, ByRole, Color, Piece, Role, Square } from 'chessops';
import { ROLES, SquareSet } from 'chessops';
import type { SensedContent } from './boardEvent.js';

export interface SensedBoard extends ByColor<SquareSet>, ByRole<SquareSet> {
  readonly occupied: SquareSet;
  /** Occupied squares whose piece the sensors did not identify. */
  readonly unknown: SquareSet;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const EMPTY = SquareSet.empty();

export const EMPTY_SENSED: SensedBoard = {
  occupied: EMPTY,
  unknown: EMPTY,
  white: EMPTY,
  black: EMPTY,
  pawn: EMPTY,
  knight: EMPTY,
  bishop: EMPTY,
  rook: EMPTY,
  queen: EMPTY,
  king: EMPTY,
};

/** A sensed board showing exactly `board`, every piece identified (or every piece unknown). */
export const sensedOfBoard = (board: Board, occupancyOnly = false): SensedBoard => ({
  occupied: board.occupied,
  unknown: occupancyOnly ? board.occupied : EMPTY,
  white: board.white,
  black: board.black,
  pawn: board.pawn,
  knight: board.knight,
  bishop: board.bishop,
  rook: board.rook,
  queen: board.queen,
  king: board.king,
});

/** The identity the board shows or infers on `sq` (undefined for an empty or unidentified square). */
export const pieceAt = (s: SensedBoard, sq: Square): Piece | undefined => {
  if (!s.occupied.has(sq)) return undefined;
  const color: Color | undefined = s.white.has(sq) ? 'white' : s.black.has(sq) ? 'black' : undefined;
  if (!color) return undefined;
  for (const role of ROLES) if (s[role].has(sq)) return { color, role };
  return undefined;
};

/** What the sensors report on `sq` (an inferred identity is reported as `'occupied'`). */
export const contentAt = (s: SensedBoard, sq: Square): SensedContent => {
  if (!s.occupied.has(sq)) return 'empty';
  if (s.unknown.has(sq)) return 'occupied';
  return pieceAt(s, sq) ?? 'occupied';
};

/** Does the sensed content on `sq` agree with `expected` (undefined = empty)? Unknown squares agree with any piece. */
export const agreesAt = (s: SensedBoard, sq: Square, expected: Piece | undefined): boolean => {
  if (!expected) return !s.occupied.has(sq);
  if (!s.occupied.has(sq)) return false;
  if (s.unknown.has(sq)) return true;
  return s[expected.color].has(sq) && s[expected.role].has(sq);
};

/**
 * Puts `content` on `sq`. For an `'occupied'` report, `inferred` is the identity we believe the
 * piece has (the piece that was in hand), kept in the colour/role bits.
 */
export const withContent = (
  s: SensedBoard,
  sq: Square,
  content: SensedContent,
  inferred?: Piece,
): SensedBoard => {
  const next: Mutable<SensedBoard> = { ...s };
  if (s.occupied.has(sq)) {
    next.occupied = s.occupied.without(sq);
    if (s.unknown.has(sq)) next.unknown = s.unknown.without(sq);
    if (s.white.has(sq)) next.white = s.white.without(sq);
    else if (s.black.has(sq)) next.black = s.black.without(sq);
    for (const role of ROLES) {
      if (s[role].has(sq)) {
        next[role] = s[role].without(sq);
        break;
      }
    }
  }
  if (content === 'empty') return next;
  next.occupied = next.occupied.with(sq);
  const piece = content === 'occupied' ? inferred : content;
  if (content === 'occupied') next.unknown = next.unknown.with(sq);
  if (piece) {
    next[piece.color] = next[piece.color].with(sq);
    next[piece.role] = next[piece.role].with(sq);
  }
  return next;
};

/** A sensed board from 64 square contents; unknown squares take their inferred identity from `guess`. */
export const sensedOfContents = (contents: readonly SensedContent[], guess?: Board): SensedBoard => {
  let s = EMPTY_SENSED;
  for (let sq = 0; sq < 64; sq++) {
    const c = contents[sq] ?? 'empty';
    if (c !== 'empty') s = withContent(s, sq, c, c === 'occupied' ? guess?.get(sq) : undefined);
  }
  return s;
};

/**
 * Squares where the sensed board and `board` disagree: occupancy everywhere, identity where the
 * sensors identify the piece.
 */
export const diffSquares = (board: Board, s: SensedBoard): SquareSet => {
  const occ = board.occupied.xor(s.occupied);
  const both = board.occupied.intersect(s.occupied).diff(s.unknown);
  if (both.isEmpty()) return occ;
  const identity = board.white
    .xor(s.white)
    .union(board.pawn.xor(s.pawn))
    .union(board.knight.xor(s.knight))
    .union(board.bishop.xor(s.bishop))
    .union(board.rook.xor(s.rook))
    .union(board.queen.xor(s.queen))
    .union(board.king.xor(s.king));
  return occ.union(identity.intersect(both));
};

/** Squares whose sensed content (or identity knowledge) differs between two sensed boards. */
export const changedBetween = (a: SensedBoard, b: SensedBoard): SquareSet =>
  a.occupied
    .xor(b.occupied)
    .union(a.unknown.xor(b.unknown))
    .union(a.white.xor(b.white).diff(a.unknown.union(b.unknown)))
    .union(
      a.pawn
        .xor(b.pawn)
        .union(a.knight.xor(b.knight))
        .union(a.bishop.xor(b.bishop))
        .union(a.rook.xor(b.rook))
        .union(a.queen.xor(b.queen))
        .union(a.king.xor(b.king))
        .diff(a.unknown.union(b.unknown)),
    );

/** True when every differing square only lacks a piece the position has (pieces lifted, nothing added). */
export const isRemovalOnly = (board: Board, s: SensedBoard, diff: SquareSet): boolean =>
  diff.subsetOf(board.occupied) && !diff.intersects(s.occupied);

/** Re-infers the identity of unknown squares from `board` (after the board matched it). */
export const inferFrom = (s: SensedBoard, board: Board): SensedBoard => {
  if (s.unknown.isEmpty()) return s;
  const keep = s.occupied.diff(s.unknown);
  const take = (ours: SquareSet, theirs: SquareSet): SquareSet =>
    ours.intersect(keep).union(theirs.intersect(s.unknown));
  return {
    occupied: s.occupied,
    unknown: s.unknown,
    white: take(s.white, board.white),
    black: take(s.black, board.black),
    pawn: take(s.pawn, board.pawn),
    knight: take(s.knight, board.knight),
    bishop: take(s.bishop, board.bishop),
    rook: take(s.rook, board.rook),
    queen: take(s.queen, board.queen),
    king: take(s.king, board.king),
  };
};

/** The squares holding (or believed to hold) a king of `color`. */
export const kingsOf = (s: SensedBoard, color: Color): SquareSet => s.king.intersect(s[color]);

/** The role shown on a square when the sensors identify it. */
export const knownRoleAt = (s: SensedBoard, sq: Square): Role | undefined =>
  s.unknown.has(sq) ? undefined : pieceAt(s, sq)?.role;
