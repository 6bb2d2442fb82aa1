/**
 * What a move asks of the hands, read from the position before it: which piece goes where, what
 * is captured and on which square (en passant), the king's and rook's squares of a castling, the
 * promoted piece; and the squares a piece could rest on during the move (on its line, next to the
 * destination).
 *
 *   const shape = shapeOf(pos, move); // { kind: 'capture', from, to, piece, captured, ... }
 */
import type { Chess } from 'chessops/chess';
import type { NormalMove, Piece, Square } from 'chessops';
import { kingCastlesTo, rookCastlesTo, squareFile, squareRank, squareFromCoords } from 'chessops/util';

export type MoveShape =
  | { readonly kind: 'quiet'; readonly from: Square; readonly to: Square; readonly piece: Piece }
  | {
      readonly kind: 'capture';
      readonly from: Square;
      readonly to: Square;
      readonly piece: Piece;
      readonly captured: Piece;
    }
  | {
      readonly kind: 'enPassant';
      readonly from: Square;
      readonly to: Square;
      readonly piece: Piece;
      /** Where the captured pawn stands. */
      readonly capturedOn: Square;
    }
  | {
      readonly kind: 'castle';
      readonly kingFrom: Square;
      readonly kingTo: Square;
      readonly rookFrom: Square;
      readonly rookTo: Square;
      readonly king: Piece;
      readonly rook: Piece;
    }
  | {
      readonly kind: 'promotion';
      readonly from: Square;
      readonly to: Square;
      readonly pawn: Piece;
      readonly promoted: Piece;
      readonly captured: Piece | undefined;
    };

/** The shape of a legal move in `pos`, or undefined for a move the position cannot make. */
export const shapeOf = (pos: Chess, move: NormalMove): MoveShape | undefined => {
  const piece = pos.board.get(move.from);
  if (!piece) return undefined;
  const target = pos.board.get(move.to);
  const { from, to } = move;
  if (
    piece.role === 'king' &&
    (target?.color === piece.color || Math.abs(squareFile(to) - squareFile(from)) > 1)
  ) {
    const side = squareFile(to) > squareFile(from) ? 'h' : 'a';
    const rookFrom = target?.color === piece.color ? to : pos.castles.rook[piece.color][side];
    if (rookFrom === undefined) return undefined;
    const rook = pos.board.get(rookFrom);
    if (!rook) return undefined;
    return {
      kind: 'castle',
      kingFrom: from,
      kingTo: kingCastlesTo(piece.color, side),
      rookFrom,
      rookTo: rookCastlesTo(piece.color, side),
      king: piece,
      rook,
    };
  }
  if (move.promotion)
    return {
      kind: 'promotion',
      from,
      to,
      pawn: piece,
      promoted: { color: piece.color, role: move.promotion },
      captured: target,
    };
  if (piece.role === 'pawn' && !target && squareFile(to) !== squareFile(from)) {
    const capturedOn = squareFromCoords(squareFile(to), squareRank(from));
    if (capturedOn === undefined) return undefined;
    return { kind: 'enPassant', from, to, piece, capturedOn };
  }
  if (target) return { kind: 'capture', from, to, piece, captured: target };
  return { kind: 'quiet', from, to, piece };
};

/** The squares strictly between `from` and `to` when they share a rank, file or diagonal (else none). */
export const lineBetween = (from: Square, to: Square): Square[] => {
  const df = squareFile(to) - squareFile(from);
  const dr = squareRank(to) - squareRank(from);
  if (!(df === 0 || dr === 0 || Math.abs(df) === Math.abs(dr))) return [];
  const steps = Math.max(Math.abs(df), Math.abs(dr));
  const out: Square[] = [];
  for (let i = 1; i < steps; i++) {
    const sq = squareFromCoords(squareFile(from) + i * Math.sign(df), squareRank(from) + i * Math.sign(dr));
    if (sq !== undefined) out.push(sq);
  }
  return out;
};

/** The up to 8 squares touching `sq`. */
export const neighbours = (sq: Square): Square[] => {
  const out: Square[] = [];
  for (let df = -1; df <= 1; df++)
    for (let dr = -1; dr <= 1; dr++) {
      if (df === 0 && dr === 0) continue;
      const n = squareFromCoords(squareFile(sq) + df, squareRank(sq) + dr);
      if (n !== undefined) out.push(n);
    }
  return out;
};

/** Position of a square in a DGT board's scan (a8 first, h1 last): which of two lifts is reported first. */
export const scanIndex = (sq: Square): number => (7 - squareRank(sq)) * 8 + squareFile(sq);
