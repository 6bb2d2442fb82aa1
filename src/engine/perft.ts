/**
 * Perft: counts the leaf nodes of the legal-move tree to a fixed depth, the standard check of a
 * move generator against published figures. Moves come from chessops (`allDests`), never from
 * our own code; a promotion counts as four moves (queen, rook, bishop, knight).
 *
 *   const pos = parsePosition('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').unwrap();
 *   perft(pos, 1); // 26
 *   perftDivide(pos, 2).get('e1h1'); // nodes below the king-side castling move
 *
 * Castling: chessops lists a castling move once, as the king "taking" its own rook (e1h1,
 * e1a1), with the rook on any file when the FEN's castling field named it (Chess960 / X-FEN /
 * Shredder-FEN). That destination holds one of our own pieces, so it can never coincide with an
 * ordinary king move: each castling is counted exactly once, for standard chess and Chess960.
 */
import { type Move, type Position, type Role, SquareSet, makeUci } from 'chessops';

const PROMOTION_ROLES: readonly Role[] = ['queen', 'rook', 'bishop', 'knight'];
const BACKRANKS = SquareSet.backranks();

const checkDepth = (depth: number): void => {
  if (!Number.isInteger(depth) || depth < 0)
    throw new RangeError(`perft: depth must be a whole number >= 0, got ${depth}`);
};

/** Calls `visit` once per legal move of `pos` (promotions expanded to the four pieces). */
const forEachMove = (pos: Position, visit: (move: Move) => void): void => {
  for (const [from, dests] of pos.allDests()) {
    const promotes = pos.board.pawn.has(from) ? dests.intersect(BACKRANKS) : SquareSet.empty();
    for (const to of dests) {
      if (promotes.has(to)) for (const promotion of PROMOTION_ROLES) visit({ from, to, promotion });
      else visit({ from, to });
    }
  }
};

/** Number of legal moves of `pos`, counted from the destination sets without playing them. */
const countMoves = (pos: Position): number => {
  let n = 0;
  for (const [from, dests] of pos.allDests()) {
    n += dests.size();
    if (pos.board.pawn.has(from)) n += 3 * dests.intersect(BACKRANKS).size();
  }
  return n;
};

const walk = (pos: Position, depth: number): number => {
  if (depth === 0) return 1;
  if (depth === 1) return countMoves(pos);
  let nodes = 0;
  forEachMove(pos, move => {
    const child = pos.clone();
    child.play(move);
    nodes += walk(child, depth - 1);
  });
  return nodes;
};

/**
 * Leaf nodes of the legal-move tree of `pos` at `depth` plies (depth 0 = 1). `pos` is not
 * changed. Throws a RangeError for a negative or fractional depth (a programming error).
 */
export const perft = (pos: Position, depth: number): number => {
  checkDepth(depth);
  return walk(pos, depth);
};

/**
 * Perft split by first move, keyed by UCI in chessops' king-takes-rook castling form
 * (`e1h1`): the usual way to find which move a mismatch hides under. Depth must be >= 1.
 */
export const perftDivide = (pos: Position, depth: number): Map<string, number> => {
  checkDepth(depth);
  if (depth === 0) throw new RangeError('perftDivide: depth must be >= 1');
  const out = new Map<string, number>();
  forEachMove(pos, move => {
    const child = pos.clone();
    child.play(move);
    out.set(makeUci(move), walk(child, depth - 1));
  });
  return out;
};

/**
 * Whether `pos` has a castling right that standard chess cannot express: a king off the e-file,
 * or a castling rook off the a- and h-files. Such positions need Chess960 castling rules (which
 * chessops applies whenever the FEN named the rooks).
 */
export const hasChess960Castling = (pos: Position): boolean => {
  const rights = pos.castles.castlingRights;
  if (rights.isEmpty()) return false;
  if (rights.diff(SquareSet.corners()).nonEmpty()) return true;
  return (['white', 'black'] as const).some(color => {
    const king = pos.board.kingOf(color);
    const home = color === 'white' ? 4 : 60;
    return rights.intersect(SquareSet.backrank(color)).nonEmpty() && king !== home;
  });
};
