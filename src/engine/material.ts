/**
 * Static proofs that a side cannot checkmate: material rules and permanent pawn blockades.
 *
 * Both proofs are fast (no search) and sound: a 'no' / `true` answer is a proof. The search in
 * helpmate.ts and the dead-position test in deadPosition.ts build on them.
 *
 *   import { blockadeProof, hasMatingMaterial } from './material.js';
 *   hasMatingMaterial(pos, 'white'); // 'no' for a lone king, K+N against K(+Q…), same-colour bishops
 *   blockadeProof(pos);              // { white: true, black: true }: locked pawns, a dead position
 */
import {
  type ByColor,
  type Color,
  type Piece,
  type Position,
  type Square,
  COLORS,
  SquareSet,
  attacks,
  between,
  defined,
  kingAttacks,
  opposite,
  pawnAttacks,
} from 'chessops';
import type { Verdict } from './types.js';

/**
 * Does `color`'s material allow a checkmate against the opponent's material in at least one
 * placement? This is a question about material only (the "mating material" / "mating potential"
 * of E97 Appendix C4), not about the position: blocked pawns or a finished game are ignored.
 *
 * 'no' is a proof that no sequence of moves can ever let `color` mate (material only shrinks,
 * except by promotion, and the cases below have no pawns of `color`):
 * - a lone king never gives check;
 * - king + one knight against king + queens (any number): take the knight two ranks above and one
 *   file right of the mated king. A queen on the square above or up-right of the king would take
 *   the knight, so both must be empty and covered by the mating king, which is possible only from
 *   two squares above the mated king; from there the square right of the king is not covered and
 *   a queen there would take the knight through the empty up-right square (nothing of ours can
 *   pin or block);
 * - king + bishops, every bishop on the board on one square colour, no knight and no pawn on the
 *   board: the mated king stands on the bishops' colour; the two orthogonal neighbours beside the
 *   checking diagonal are of the other colour, so no bishop covers them. The mating king cannot
 *   cover both (their only common neighbours are the mated king's square and the diagonal
 *   square), and a defending rook or queen on one of them can capture or interpose on the
 *   diagonal square. Two bishops of one colour never give double check (a bishop cannot discover
 *   a check from another bishop), and with no pawns nothing else can.
 * 'yes' for everything else: each such material has a legal checkmate position (for example
 * K+N against K+N, K+B against K+N, K+B against K+B of opposite colours, K+N against K+P).
 * The classification equals chessops' `hasInsufficientMaterial` (see docs/dead-position.md).
 */
export function hasMatingMaterial(pos: Position, color: Color): Verdict {
  const board = pos.board;
  const mine = board[color].diff(board.king);
  if (mine.isEmpty()) return 'no';
  if (mine.intersects(board.pawn) || mine.intersects(board.rook) || mine.intersects(board.queen))
    return 'yes';
  if (mine.intersects(board.knight)) {
    if (mine.moreThanOne()) return 'yes';
    const blockers = board[opposite(color)].diff(board.king).diff(board.queen);
    return blockers.isEmpty() ? 'no' : 'yes';
  }
  // Only bishops.
  const bishops = board.bishop;
  const oneColour =
    bishops.isDisjoint(SquareSet.lightSquares()) || bishops.isDisjoint(SquareSet.darkSquares());
  return oneColour && board.pawn.isEmpty() && board.knight.isEmpty() ? 'no' : 'yes';
}

const NONE: ByColor<boolean> = { white: false, black: false };

/** Squares next to (or in) `region`. */
const neighbourhood = (region: SquareSet): SquareSet => {
  let out = region;
  for (const sq of region) out = out.union(kingAttacks(sq));
  return out;
};

/** Flood fill of a king from `start` over squares outside `walls`. */
const kingRegion = (start: Square, walls: SquareSet): SquareSet => {
  let region = SquareSet.fromSquare(start);
  let frontier = region;
  while (frontier.nonEmpty()) {
    let next = SquareSet.empty();
    for (const sq of frontier) next = next.union(kingAttacks(sq));
    frontier = next.diff(walls).diff(region);
    region = region.union(frontier);
  }
  return region;
};

/** Squares a piece may ever stand on and attack, when only `walls` (pawns that never move) block it. */
const pieceReach = (
  piece: Piece,
  start: Square,
  walls: SquareSet,
): { region: SquareSet; attacked: SquareSet } => {
  let region = SquareSet.fromSquare(start);
  let attacked = SquareSet.empty();
  let frontier = region;
  while (frontier.nonEmpty()) {
    let next = SquareSet.empty();
    for (const sq of frontier) {
      const att = attacks(piece, sq, walls);
      attacked = attacked.union(att);
      next = next.union(att);
    }
    frontier = next.diff(walls).diff(region);
    region = region.union(frontier);
  }
  return { region, attacked };
};

/** The squares a pawn may ever occupy, or 'promotes' when it might reach the last rank. */
type PawnPath = SquareSet | 'promotes';

/**
 * Where each pawn may ever stand, assuming no pawn ever captures and the pawns in `loose` may
 * disappear (a king or piece could take them). A pawn never passes the nearest enemy pawn ahead on
 * its file that cannot disappear, nor gets ahead of a pawn of its own colour that cannot.
 */
const pawnPaths = (pos: Position, loose: SquareSet): Map<Square, PawnPath> => {
  const board = pos.board;
  const paths = new Map<Square, PawnPath>();
  const path = (color: Color, sq: Square): PawnPath => {
    const known = paths.get(sq);
    if (known) return known;
    const step = color === 'white' ? 8 : -8;
    let squares = SquareSet.fromSquare(sq);
    let result: PawnPath | undefined;
    for (let at = sq; !result;) {
      const next = at + step;
      if (board.pawn.has(next) && !loose.has(next)) {
        if (board[opposite(color)].has(next)) result = squares;
        else {
          // Stay behind a pawn of our own colour that cannot disappear.
          const ahead = path(color, next);
          const front = ahead === 'promotes' ? undefined : color === 'white' ? ahead.last() : ahead.first();
          result =
            ahead === 'promotes' ? ahead : squares.union(between(sq, front ?? next)).without(front ?? next);
        }
      } else if (next < 8 || next >= 56) result = 'promotes';
      else {
        squares = squares.with(next);
        at = next;
      }
    }
    paths.set(sq, result);
    return result;
  };
  for (const color of COLORS) for (const sq of board.pieces(color, 'pawn')) path(color, sq);
  return paths;
};

/**
 * Whether `blockadeProof` fails whatever the pieces other than pawns do: there are no pawns, or a
 * pawn may reach the last rank (its first test). It depends on the pawns alone, so it holds for as
 * long as no pawn moves or is captured.
 */
export function isBlockadeImpossible(pos: Position): boolean {
  if (pos.board.pawn.isEmpty()) return true;
  for (const path of pawnPaths(pos, SquareSet.empty()).values()) if (path === 'promotes') return true;
  return false;
}

/**
 * Proof by pawn structure that a side can never checkmate, whatever both sides play.
 *
 * A fixpoint over the pawns that may disappear (a king can reach them undefended, or a piece can
 * attack them): every pawn's future squares follow from the pawns that stay on its file; a king
 * is confined by a flood fill around pawns that never move or disappear and the squares they
 * attack; pieces (even rooks and queens) by the same walls. The proof fails (no side proven) when
 * a pawn might capture or promote, when a piece might step where a pawn could take it, or when a
 * king is in check now. A side is then proven unable to mate when, for every square where the
 * enemy king could ever be checked by it, some neighbouring square can never be attacked by it
 * nor occupied by the enemy's own men: the king always has an escape. Without any possible check
 * this holds trivially. `true` is a proof; `false` means "not proven", never "can mate".
 */
export function blockadeProof(pos: Position): ByColor<boolean> {
  const board = pos.board;
  const kings = { white: board.kingOf('white'), black: board.kingOf('black') };
  if (board.pawn.isEmpty() || pos.isCheck() || !defined(kings.white) || !defined(kings.black)) return NONE;
  if (
    defined(pos.epSquare) &&
    board.pieces(pos.turn, 'pawn').intersects(pawnAttacks(opposite(pos.turn), pos.epSquare))
  ) {
    return NONE; // an en passant capture is available now
  }
  let loose = SquareSet.empty();
  for (;;) {
    const paths = pawnPaths(pos, loose);
    const reach = { white: SquareSet.empty(), black: SquareSet.empty() }; // squares pawns may stand on
    const threat = { white: SquareSet.empty(), black: SquareSet.empty() }; // squares pawns may attack
    const cover = { white: SquareSet.empty(), black: SquareSet.empty() }; // attacked for ever
    let walls = SquareSet.empty(); // pawns that never move and never disappear
    for (const [sq, path] of paths) {
      if (path === 'promotes') return NONE;
      const color: Color = board.white.has(sq) ? 'white' : 'black';
      reach[color] = reach[color].union(path);
      for (const s of path) threat[color] = threat[color].union(pawnAttacks(color, s));
      if (!loose.has(sq) && !path.moreThanOne()) {
        walls = walls.with(sq);
        cover[color] = cover[color].union(pawnAttacks(color, sq));
      }
    }
    if (threat.white.intersects(reach.black) || threat.black.intersects(reach.white)) return NONE; // a pawn capture
    const region = {
      white: kingRegion(kings.white, walls.union(cover.black)),
      black: kingRegion(kings.black, walls.union(cover.white)),
    };
    const pieceAttacks = { white: SquareSet.empty(), black: SquareSet.empty() };
    const pieceRegions = { white: SquareSet.empty(), black: SquareSet.empty() };
    for (const [sq, piece] of board) {
      if (piece.role === 'pawn' || piece.role === 'king') continue;
      const r = pieceReach(piece, sq, walls);
      if (r.region.intersects(threat[opposite(piece.color)])) return NONE; // a pawn could take it
      pieceAttacks[piece.color] = pieceAttacks[piece.color].union(r.attacked);
      pieceRegions[piece.color] = pieceRegions[piece.color].union(r.region);
    }
    let next = loose;
    for (const [sq, path] of paths) {
      const color: Color = board.white.has(sq) ? 'white' : 'black';
      const enemy = opposite(color);
      const takers = neighbourhood(region[enemy]).diff(cover[color]).union(pieceAttacks[enemy]);
      if (path !== 'promotes' && path.intersects(takers)) next = next.with(sq);
    }
    if (!next.equals(loose)) {
      loose = next;
      continue;
    }
    const proven = (attacker: Color): boolean => {
      const defender = opposite(attacker);
      const hits = threat[attacker].union(pieceAttacks[attacker]);
      const covered = hits.union(neighbourhood(region[attacker]));
      const blocked = reach[defender].union(pieceRegions[defender]);
      for (const sq of hits.intersect(region[defender])) {
        if (kingAttacks(sq).diff(covered).diff(blocked).isEmpty()) return false;
      }
      return true;
    };
    return { white: proven('white'), black: proven('black') };
  }
}
