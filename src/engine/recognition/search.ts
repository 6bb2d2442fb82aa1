/**
 * Explaining the sensed board from a position: which legal moves, played from `root`, lead to what
 * the sensors show, exactly or with a move half made. A breadth-first search, shortest first, over
 * moves that are *plausible*: every square a move changes must have had a sensor event since the
 * root (`touched`). That keeps the tree to a few nodes per quiet moment, and rules out explanations
 * the sensors never saw (a capture and recapture on an untouched square when a player merely holds
 * two pieces), while still finding a piece that went away and came back (Qg3 Rg8 Qf3 in blitz).
 *
 *   const found = explain(pos, sensed, touched, { maxDepth: 3, promotion: 'queen' });
 *   found.exact[0]?.path;          // [{ from: 12, to: 28 }]   (e2e4)
 *   found.partial[0]?.residual;    // e.g. { kind: 'lifted', squares, ... }
 */
import type { CastlingSide, Chess, Color, NormalMove, Position, Role, Square } from 'chessops';
import { SquareSet, kingCastlesTo, opposite, squareRank } from 'chessops';
import { rookCastlesTo } from 'chessops/util';
import { castlingSide } from 'chessops/chess';
import { type Pending, detectPending } from './pending.js';
import { type SensedBoard, diffSquares, isRemovalOnly, knownRoleAt } from './sensedBoard.js';

/** What remains unexplained once a path is played. */
export type Residual =
  /** The board shows the position after the path exactly. */
  | { readonly kind: 'none' }
  /** The position minus some pieces, which are in hand (or knocked over). */
  | { readonly kind: 'lifted'; readonly squares: SquareSet }
  /** The next move half made (castling, promotion, en passant). */
  | { readonly kind: 'pending'; readonly pending: Pending };

export interface Explanation {
  /** The moves from the root, as chessops plays them (castling king-to-rook). */
  readonly path: readonly NormalMove[];
  /** positions[i] is the position after path[i] (each its own copy). */
  readonly positions: readonly Chess[];
  readonly residual: Residual;
  /**
   * How many plies of the path are *made*: all of them, except when the pieces still missing
   * cannot all be accounted for by the side to move (its own lifted pieces and the pieces it may
   * capture) or as the last mover's pieces his last move did not touch (knocked over, no king), in
   * which case the last mover may still be handling pieces.
   */
  readonly made: number;
  /** Plies that capture on a square the sensors did not see change (occupancy-only boards). */
  readonly unseen: number;
}

export interface SearchOptions {
  /** Longest path tried. */
  readonly maxDepth: number;
  /** Role assumed for a promotion the sensors cannot identify (occupancy-only boards). */
  readonly promotion: Role;
  /**
   * The side that pressed its clock, when the search runs for a press: a capture whose target the
   * sensors cannot see change (occupancy only, direct replacement) may then end the path.
   */
  readonly pressBy?: Color;
  /** The promotable pieces of `color` the sensors saw put on `square`, the last first (from the evidence). */
  readonly promotionSeen?: (square: Square, color: Color) => readonly Role[];
  /**
   * How many times the evidence shows `square` emptied since the root. On an occupancy-only
   * square a capture is seen only if the square was emptied once more than the path's earlier
   * moves account for (the captured piece lifted, then the capturer put down).
   */
  readonly emptied?: (square: Square) => number;
  /**
   * Whether the evidence shows `to` filled after `from` was first emptied: on an occupancy-only
   * square a capturer cannot have landed before it left (a flicker on the target is not a capture).
   */
  readonly landedAfter?: (from: Square, to: Square) => boolean;
  /** Whether the evidence supports an explanation (default: always). */
  readonly consistent?: (e: Explanation, kind: 'exact' | 'partial') => boolean;
  /** Most positions examined (a board far from the game, touched all over, stays cheap). */
  readonly maxNodes?: number;
  /**
   * The board was re-read after a gap: a capture may have been made on a square that looks
   * unchanged (Bxc3 Nxc3 while nobody watched). Such a capture counts as unseen.
   */
  readonly unseenCaptures?: boolean;
  /** A Chess960 game: castlings in which the king or the rook stays on its square are looked for too. */
  readonly chess960?: boolean;
  /**
   * The order moves are tried in (lower first; absent: as generated). Where the node budget runs
   * out, the stories tried are those whose first moves come first: the caller ranks the moves the
   * evidence shows (six plies after presses forgotten, ...Rff8 Re1 ...d3 e6 ...Bd4+ Kh1, were not
   * found when the budget went to stories beginning with ...d3).
   */
  readonly order?: (pos: Chess, move: NormalMove) => number;
}

export interface SearchResult {
  /** Exact explanations: the shallowest consistent ones, else the shallowest ones (empty when none). */
  readonly exact: readonly Explanation[];
  readonly exactConsistent: boolean;
  /** Half-made explanations, chosen the same way. */
  readonly partial: readonly Explanation[];
  readonly partialConsistent: boolean;
  /** The node budget ran out before every path to `maxDepth` was tried: a longer one may exist. */
  readonly cut: boolean;
}

interface Node {
  readonly pos: Chess;
  readonly path: readonly NormalMove[];
  readonly positions: readonly Chess[];
  /** The last move captured on a square whose change the sensors could not see. */
  readonly unseen: boolean;
  /** How many moves of the path did. */
  readonly unseenCount: number;
  /** Squares the path's moves surely emptied (once per time), for counting against the evidence. */
  readonly emptiedBy: readonly Square[];
}

/** Nodes examined per search at most, unless the caller says otherwise. */
export const DEFAULT_MAX_NODES = 4000;

const PROMOTABLE: readonly Role[] = ['queen', 'rook', 'bishop', 'knight'];

/** The four squares of a castling: where king and rook stand and where they go. */
const castlingSquares = (pos: Chess, move: NormalMove, side: CastlingSide) => ({
  king: move.from,
  rook: pos.castles.rook[pos.turn][side] ?? move.to,
  kingTo: kingCastlesTo(pos.turn, side),
  rookTo: rookCastlesTo(pos.turn, side),
});

/**
 * Every square a legal move changes (both castling pieces' squares, the en passant victim). In
 * Chess960 a castling king or rook may already stand on its end square: that square is unchanged.
 */
export const changedBy = (pos: Chess, move: NormalMove): SquareSet => {
  const side = castlingSide(pos, move);
  if (side) {
    const c = castlingSquares(pos, move, side);
    let set = SquareSet.empty();
    if (c.king !== c.kingTo) set = set.with(c.king).with(c.kingTo);
    if (c.rook !== c.rookTo) set = set.with(c.rook).with(c.rookTo);
    return set;
  }
  const set = SquareSet.fromSquare(move.from).with(move.to);
  if (move.to === pos.epSquare && pos.board.pawn.has(move.from)) {
    return set.with(move.to + (pos.turn === 'white' ? -8 : 8));
  }
  return set;
};

/**
 * Chess960 castlings the sensors saw: those whose changed squares were all touched. In Chess960
 * the king may stay on its square (only the rook's two squares change) or the rook may (only the
 * king's), so the loop over touched pieces and reachable squares would miss them.
 */
const castlings960 = (pos: Chess, touched: SquareSet): Candidate[] => {
  const king = pos.board.kingOf(pos.turn);
  if (king === undefined) return [];
  const out: Candidate[] = [];
  for (const side of ['a', 'h'] as const) {
    const rook = pos.castles.rook[pos.turn][side];
    if (rook === undefined) continue;
    const move: NormalMove = { from: king, to: rook };
    if (!pos.isLegal(move)) continue;
    const squares = changedBy(pos, move);
    if (squares.subsetOf(touched)) out.push({ move, unseen: false, squares });
  }
  return out;
};

/**
 * The promotion roles: the piece of the mover's colour the board shows on the promotion square;
 * when it shows none (the promoted piece was captured since, or the board cannot identify it),
 * the last such piece the sensors saw put there, else the default. Where it shows one, the others
 * the sensors saw put there too: a later ply may have captured on the square with another piece
 * of the mover's (a8=Q ...Nxa8 Bxa8, the board showing a bishop on a8, the queen seen there).
 */
const promotionRoles = (s: SensedBoard, to: Square, color: Color, opts: SearchOptions): readonly Role[] => {
  const seen = opts.promotionSeen?.(to, color) ?? [];
  const role = s.occupied.has(to) && s[color].has(to) ? knownRoleAt(s, to) : undefined;
  if (role) return PROMOTABLE.includes(role) ? [role, ...seen.filter(r => r !== role)] : [];
  return [seen[0] ?? opts.promotion];
};

interface Candidate {
  readonly move: NormalMove;
  readonly unseen: boolean;
  /** The squares the move changes. */
  readonly squares: SquareSet;
}

/**
 * The squares a move surely shows emptied: where pieces leave (and an en passant victim's square).
 * A capture target is not counted: on an occupancy-only board a swap may never show it empty.
 */
const emptiedByMove = (pos: Chess, c: Candidate): Square[] => {
  // Castling is king-to-rook in chessops: the start squares of the pieces that move are emptied.
  const side = castlingSide(pos, c.move);
  if (side) {
    const q = castlingSquares(pos, c.move, side);
    return [...(q.king !== q.kingTo ? [q.king] : []), ...(q.rook !== q.rookTo ? [q.rook] : [])];
  }
  return [...c.squares.without(c.move.to)];
};

/** Plausible moves from `node` towards the sensed board. */
const candidates = (node: Node, s: SensedBoard, touched: SquareSet, opts: SearchOptions): Candidate[] => {
  const pos = node.pos;
  const turn = pos.turn;
  const own = pos.board[turn].intersect(touched);
  if (own.isEmpty()) return [];
  const chess960 = opts.chess960 === true;
  const out: Candidate[] = chess960 ? castlings960(pos, touched) : [];
  // Captures the sensors cannot see: the target stays occupied on an occupancy-only board.
  const hidden = opts.unseenCaptures
    ? pos.board[opposite(turn)].intersect(s.occupied)
    : pos.board[opposite(turn)].intersect(s.unknown);
  const reach = touched.union(hidden);
  const ctx = pos.ctx();
  for (const from of own) {
    const dests = pos.dests(from, ctx).intersect(reach);
    if (dests.isEmpty()) continue;
    const isPawn = pos.board.pawn.has(from);
    for (const to of dests) {
      const base: NormalMove = { from, to };
      // Chess960 castlings are found apart (castlings960).
      if (chess960 && !isPawn && pos.board[turn].has(to)) continue;
      const squares = changedBy(pos, base);
      const untouched = squares.diff(touched);
      // Only a capture target may be unseen, and only on an occupancy-only square; there a
      // capture shows only if the square was emptied (the captured piece lifted) at some point.
      if (untouched.nonEmpty() && !(untouched.singleSquare() === to && hidden.has(to))) continue;
      const needed = node.emptiedBy.filter(sq => sq === to).length + 1;
      const unseen =
        untouched.nonEmpty() ||
        (hidden.has(to) &&
          ((opts.emptied !== undefined && opts.emptied(to) < needed) ||
            opts.landedAfter?.(from, to) === false));
      if (isPawn && squareRank(to) === (turn === 'white' ? 7 : 0)) {
        for (const promotion of promotionRoles(s, to, turn, opts))
          out.push({ move: { from, to, promotion }, unseen, squares });
      } else {
        out.push({ move: base, unseen, squares });
      }
    }
  }
  const order = opts.order;
  if (order === undefined) return out;
  // Stable: moves ranked alike keep the order they were generated in.
  const ranked = out.map(c => ({ c, rank: order(pos, c.move) }));
  ranked.sort((x, y) => x.rank - y.rank);
  return ranked.map(r => r.c);
};

/** Explanations the sensors saw best: those with the fewest captures on squares that did not change. */
const fewestUnseen = (list: Explanation[]): Explanation[] => {
  const least = Math.min(...list.map(e => e.unseen));
  return list.filter(e => e.unseen === least);
};

/**
 * The squares the side to move at `pos` can capture on (or move to). En passant takes the pawn
 * beside the square the capturer lands on: that pawn's square counts (lifted first, §5.5).
 */
export const captureReach = (pos: Position): SquareSet => {
  const ctx = pos.ctx();
  let reach = SquareSet.empty();
  for (const from of pos.board[pos.turn]) {
    const dests = pos.dests(from, ctx);
    reach = reach.union(dests);
    if (pos.epSquare !== undefined && pos.board.pawn.has(from) && dests.has(pos.epSquare))
      reach = reach.with(pos.epSquare + (pos.turn === 'white' ? -8 : 8));
  }
  return reach;
};

const capturable = (pos: Chess, squares: SquareSet): boolean =>
  squares.isEmpty() || squares.subsetOf(captureReach(pos));

/**
 * The path's last mover's pieces missing that his last move did not touch (a pawn beside the
 * knight's square knocked over by the withdrawing hand, lying unsensed), kings apart. They do not
 * make the move unfinished: the board shows it made and pieces displaced (7.4), whether his press
 * comes now, later or never. His moved piece missing (a rook in hand after the king's castling
 * step, a promotion piece not yet set down, a capturer still in hand) still does.
 */
const displaced = (root: Chess, node: Node, missing: SquareSet): SquareSet => {
  const last = node.path[node.path.length - 1];
  if (!last) return SquareSet.empty();
  const before = node.positions.length >= 2 ? node.positions[node.positions.length - 2] : root;
  return missing.intersect(bystanders(before ?? root, last, node.pos));
};

/** The pieces of `move`'s mover that it leaves untouched (`after`: the position it makes), kings apart. */
export const bystanders = (before: Chess, move: NormalMove, after: Chess): SquareSet =>
  after.board[opposite(after.turn)].diff(after.board.king).diff(changedBy(before, move));

const madePlies = (root: Chess, node: Node, missing: SquareSet): number => {
  const depth = node.path.length;
  if (depth === 0) return 0;
  const ownLifted = missing.intersect(node.pos.board[node.pos.turn]);
  const lying = displaced(root, node, missing);
  return capturable(node.pos, missing.diff(ownLifted).diff(lying)) ? depth : depth - 1;
};

/**
 * Explains the sensed board from `root`, shortest first. Exact explanations end the search at the
 * first depth where one is `consistent` with the evidence (the caller's judgement, e.g. the board
 * was seen showing each intermediate position); otherwise it goes on to `maxDepth`, so that a
 * longer true history (Ke4 Rd4+ Ke3) beats a shorter one the events contradict (Ke3 Rd4+).
 * Half-made explanations are kept the same way: the shallowest consistent ones, else the
 * shallowest ones.
 */
export const explain = (
  root: Chess,
  s: SensedBoard,
  touched: SquareSet,
  opts: SearchOptions,
): SearchResult => {
  const consistent = opts.consistent ?? (() => true);
  let level: Node[] = [{ pos: root, path: [], positions: [], unseen: false, unseenCount: 0, emptiedBy: [] }];
  let exactFirst: Explanation[] = [];
  let partialFirst: Explanation[] = [];
  let partialOk: Explanation[] = [];
  // At a press: half-made explanations in which the presser's move is complete and the reply has
  // begun (pieces lifted by the opponent before the press was reported: a blitz reply taking the
  // captured piece first). Preferred to a shallower reading of the presser's move as unfinished,
  // which would judge an illegal move the board cannot prove.
  let pressedOk: Explanation[] = [];
  let budget = opts.maxNodes ?? DEFAULT_MAX_NODES;
  for (let depth = 0; level.length > 0; depth++) {
    const exact: Explanation[] = [];
    const partial: Explanation[] = [];
    const next: Node[] = [];
    // The side to move at this depth is not the presser's: the presser's move is made.
    const toMove = depth % 2 === 0 ? root.turn : opposite(root.turn);
    const afterPresser = opts.pressBy !== undefined && depth > 0 && toMove !== opts.pressBy;
    for (const node of level) {
      const diff = diffSquares(node.pos.board, s);
      const unseenOk =
        !node.unseen || (opts.pressBy !== undefined && opts.pressBy === opposite(node.pos.turn));
      if (diff.isEmpty()) {
        if (unseenOk) {
          exact.push({
            path: node.path,
            positions: node.positions,
            residual: { kind: 'none' },
            made: depth,
            unseen: node.unseenCount,
          });
        }
        continue;
      }
      if (unseenOk && (partialOk.length === 0 || (afterPresser && pressedOk.length === 0))) {
        if (isRemovalOnly(node.pos.board, s, diff)) {
          const residual: Residual = { kind: 'lifted', squares: diff };
          partial.push({
            path: node.path,
            positions: node.positions,
            residual,
            made: madePlies(root, node, diff),
            unseen: node.unseenCount,
          });
        } else {
          const pending = detectPending(node.pos, s, diff, touched);
          if (pending) {
            partial.push({
              path: node.path,
              positions: node.positions,
              residual: { kind: 'pending', pending },
              made: depth,
              unseen: node.unseenCount,
            });
          }
        }
      }
      if (depth >= opts.maxDepth || budget <= 0) continue;
      for (const c of candidates(node, s, touched, opts)) {
        if (--budget < 0) break;
        const pos = node.pos.clone();
        pos.play(c.move);
        next.push({
          pos,
          path: [...node.path, c.move],
          positions: [...node.positions, pos],
          unseen: c.unseen,
          unseenCount: node.unseenCount + (c.unseen ? 1 : 0),
          emptiedBy: opts.emptied ? [...node.emptiedBy, ...emptiedByMove(node.pos, c)] : node.emptiedBy,
        });
      }
    }
    if (exactFirst.length === 0) exactFirst = fewestUnseen(exact);
    const exactOk = fewestUnseen(exact.filter(e => consistent(e, 'exact')));
    if (partialFirst.length === 0) partialFirst = partial;
    const partialConsistent = partial.filter(e => consistent(e, 'partial'));
    if (afterPresser && pressedOk.length === 0) pressedOk = partialConsistent.filter(e => e.made === depth);
    if (partialOk.length === 0) partialOk = partialConsistent;
    if (exactOk.length > 0) {
      return {
        exact: exactOk,
        exactConsistent: true,
        partial: pressedOk.length > 0 ? pressedOk : partialOk.length > 0 ? partialOk : partialFirst,
        partialConsistent: pressedOk.length > 0 || partialOk.length > 0,
        cut: false,
      };
    }
    level = next;
  }
  return {
    exact: exactFirst,
    exactConsistent: false,
    partial: pressedOk.length > 0 ? pressedOk : partialOk.length > 0 ? partialOk : partialFirst,
    partialConsistent: pressedOk.length > 0 || partialOk.length > 0,
    cut: budget <= 0,
  };
};
