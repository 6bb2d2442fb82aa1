/**
 * "Can this side still checkmate?": a bounded search for a helpmate (both sides cooperate).
 *
 * Used for Art. 6.9 (flag fall: draw when the opponent cannot mate), E23 5.1.2 (resignation), the
 * illegal-move penalty's cannot-mate exception and dead positions (5.2.2). 'yes' comes with the
 * mating line that was found; 'no' only with a proof; 'unknown' when the budget ran out.
 *
 *   import { canCheckmate, findHelpmate } from './helpmate.js';
 *   canCheckmate(pos, 'black');                       // 'yes' | 'no' | 'unknown'
 *   findHelpmate(pos, 'black', { maxNodes: 50_000 }); // { verdict, method, line, nodes }
 */
import {
  type Board,
  type Color,
  type Context,
  type NormalMove,
  type Position,
  type Role,
  type Square,
  SquareSet,
  knightAttacks,
  opposite,
} from 'chessops';
import { hasMatingMaterial, blockadeProof } from './material.js';
import type { Verdict } from './types.js';

export interface HelpmateOptions {
  /** Longest helpmate looked for, in plies (default DEFAULT_MAX_PLIES). */
  readonly maxPlies?: number;
  /** Positions the search may create before it answers 'unknown' (default DEFAULT_MAX_NODES). */
  readonly maxNodes?: number;
}

export const DEFAULT_MAX_PLIES = 120;
export const DEFAULT_MAX_NODES = 10_000;

/**
 * How the verdict was reached: 'terminal' (the position is already mate or stalemate),
 * 'material' (hasMatingMaterial said 'no'), 'blockade' (blockadeProof), 'search' (a
 * helpmate was found), 'exhausted' (every reachable position was visited, none is mate),
 * 'budget' (nodes or plies ran out: 'unknown').
 */
export type HelpmateMethod = 'terminal' | 'material' | 'blockade' | 'search' | 'exhausted' | 'budget';

export interface HelpmateResult {
  readonly verdict: Verdict;
  readonly method: HelpmateMethod;
  /** For 'yes' by search: the moves from the given position; the last one mates. */
  readonly line: readonly NormalMove[];
  /** Positions created by the search. */
  readonly nodes: number;
}

/** Depth of the exact first phase, and the share of the node budget each phase may use up to. */
const EXACT_PLIES = 3;
const EXACT_SHARE = 0.03;
const GUIDED_SHARE = 0.7;
/** One iteration of the guided phase is cut after this share, and the next bound is tried. */
const ITERATION_SHARE = 0.3;
const PROMOTIONS: readonly Role[] = ['queen', 'knight', 'rook', 'bishop'];

/** Can `color` checkmate by some series of legal moves? 'no' only when proven. */
export const canCheckmate = (pos: Position, color: Color, opts: HelpmateOptions = {}): Verdict =>
  findHelpmate(pos, color, opts).verdict;

/** Like canCheckmate, with the method, the helpmate found and the nodes spent. */
export function findHelpmate(pos: Position, color: Color, opts: HelpmateOptions = {}): HelpmateResult {
  const maxPlies = opts.maxPlies ?? DEFAULT_MAX_PLIES;
  const maxNodes = opts.maxNodes ?? DEFAULT_MAX_NODES;
  const done = (verdict: Verdict, method: HelpmateMethod, line: readonly NormalMove[] = [], nodes = 0) => ({
    verdict,
    method,
    line,
    nodes,
  });
  if (pos.isCheckmate()) return done(pos.turn === color ? 'no' : 'yes', 'terminal');
  if (pos.isStalemate()) return done('no', 'terminal');
  if (hasMatingMaterial(pos, color) === 'no') return done('no', 'material');
  if (blockadeProof(pos)[color]) return done('no', 'blockade');

  const search = new Search(color, maxPlies);
  const phases = [
    () => search.exact(pos, Math.min(EXACT_PLIES, maxPlies), Math.floor(maxNodes * EXACT_SHARE)),
    () => search.guided(pos, Math.floor(maxNodes * GUIDED_SHARE), Math.floor(maxNodes * ITERATION_SHARE)),
    () => search.enumerate(pos, maxNodes),
  ];
  for (const phase of phases) {
    const outcome = phase();
    if (outcome === 'exhausted') return done('no', 'exhausted', [], search.nodes);
    if (outcome) return done('yes', 'search', outcome, search.nodes);
  }
  return done('unknown', 'budget', [], search.nodes);
}

/**
 * Exact identity of a position for transpositions (pieces, side to move, castling rights, en
 * passant square), packed as 16-bit character codes: exact, so a proof never rests on a hash.
 */
export const positionKey = (pos: Position): string => {
  const { occupied: o, white: w, pawn: p, knight: n, bishop: b, rook: r, queen: q } = pos.board;
  const c = pos.castles.castlingRights;
  // prettier-ignore
  return String.fromCharCode(
    o.lo & 0xffff, o.lo >>> 16, o.hi & 0xffff, o.hi >>> 16, w.lo & 0xffff, w.lo >>> 16, w.hi & 0xffff, w.hi >>> 16,
    p.lo & 0xffff, p.lo >>> 16, p.hi & 0xffff, p.hi >>> 16, n.lo & 0xffff, n.lo >>> 16, n.hi & 0xffff, n.hi >>> 16,
    b.lo & 0xffff, b.lo >>> 16, b.hi & 0xffff, b.hi >>> 16, r.lo & 0xffff, r.lo >>> 16, r.hi & 0xffff, r.hi >>> 16,
    q.lo & 0xffff, q.lo >>> 16, q.hi & 0xffff, q.hi >>> 16, c.lo & 0xffff, c.lo >>> 16, c.hi & 0xffff, c.hi >>> 16,
    (pos.epSquare ?? 64) + (pos.turn === 'white' ? 128 : 0),
  );
};

/** All legal moves, promotions expanded (the four promotion pieces, queen first). */
export const legalMoves = (pos: Position): NormalMove[] => legalMovesIn(pos, pos.ctx());

/** legalMoves with the position's move context already computed (the same moves, in the same order). */
export const legalMovesIn = (pos: Position, ctx: Context): NormalMove[] => {
  const moves: NormalMove[] = [];
  const pawns = pos.board.pawn;
  for (const from of pos.board[pos.turn]) {
    const pawn = pawns.has(from);
    for (const to of pos.dests(from, ctx)) {
      if (pawn && (to < 8 || to >= 56))
        for (const promotion of PROMOTIONS) moves.push({ from, to, promotion });
      else moves.push({ from, to });
    }
  }
  return moves;
};

const distance = (a: Square, b: Square): number =>
  Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));

/** Knight-move distance between two squares (a table built once by breadth-first walks). */
const KNIGHT_DISTANCE: readonly (readonly number[])[] = Array.from({ length: 64 }, (_, start) => {
  const dist = new Array<number>(64).fill(-1);
  dist[start] = 0;
  let frontier = [start];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const a of frontier) {
      for (const b of knightAttacks(a)) {
        if (dist[b] === -1) {
          dist[b] = (dist[a] ?? 0) + 1;
          next.push(b);
        }
      }
    }
    frontier = next;
  }
  return dist;
});
const knightDistance = (a: Square, b: Square): number => KNIGHT_DISTANCE[a]?.[b] ?? 0;

/**
 * The mating picture the search steers towards: the defending king in a corner on the attacker's
 * promotion side, a defending piece blocking next to it, the attacking king two squares away on
 * the edge (e.g. for White: Kh8 + a black piece on g8 + Kh6). The corner's colour follows the
 * bishops: the attacker's bishop needs its own colour, a defending bishop blocks on the other.
 */
interface Target {
  readonly corner: Square;
  readonly block: Square;
  readonly king: Square;
}

const targetFor = (board: Board, attacker: Color): Target => {
  const light = SquareSet.lightSquares();
  const own = board.pieces(attacker, 'bishop');
  const dark =
    own.diff(light).nonEmpty() ||
    (own.isEmpty() && board.pieces(opposite(attacker), 'bishop').intersects(light));
  if (attacker === 'white')
    return dark ? { corner: 63, block: 62, king: 47 } : { corner: 56, block: 57, king: 40 };
  return dark ? { corner: 0, block: 1, king: 16 } : { corner: 7, block: 6, king: 23 };
};

/**
 * True when, with its present material, the attacker could only mate after the defender promotes
 * a pawn into a blocking piece (lone knight against pawns and queens; bishops of one colour with no
 * knight and no other bishop on the board).
 */
const needsDefenderPromotion = (board: Board, attacker: Color): boolean => {
  const mine = board[attacker].diff(board.king);
  if (mine.intersects(board.pawn) || mine.intersects(board.rooksAndQueens())) return false;
  const theirs = board[opposite(attacker)].diff(board.king).diff(board.pawn);
  if (mine.intersects(board.knight)) return !mine.moreThanOne() && theirs.diff(board.queen).isEmpty();
  const bishops = board.bishop;
  return (
    (bishops.isDisjoint(SquareSet.lightSquares()) || bishops.isDisjoint(SquareSet.darkSquares())) &&
    board.knight.isEmpty()
  );
};

const REWARD = 0;
const NORMAL = 1;
const PUNISH = 2;
type Kind = typeof REWARD | typeof NORMAL | typeof PUNISH;

/**
 * Move ordering and cost: a move that brings the helpmate closer (an attacking pawn advancing to
 * the 6th rank or beyond, a capture by the attacker, a king or knight heading for its target
 * square, a defending pawn heading for a blocking under-promotion) is rewarded; the defender's
 * captures and, when a promotion is needed, its other moves are punished.
 */
const closer = (role: Role | undefined, move: NormalMove, goal: Square): boolean => {
  if (role === 'king') return distance(move.to, goal) < distance(move.from, goal);
  return role === 'knight' && knightDistance(move.to, goal) < knightDistance(move.from, goal);
};

const classify = (
  pos: Position,
  move: NormalMove,
  attacker: Color,
  target: Target,
  needPromotion: boolean,
): Kind => {
  const board = pos.board;
  const role = board.getRole(move.from);
  const capture = board[opposite(pos.turn)].has(move.to) || (role === 'pawn' && move.to === pos.epSquare);
  if (pos.turn === attacker) {
    const rank = attacker === 'white' ? move.to >> 3 : 7 - (move.to >> 3);
    if ((role === 'pawn' && rank >= 5) || capture) return REWARD;
    return closer(role, move, role === 'king' ? target.king : target.corner) ? REWARD : NORMAL;
  }
  if (closer(role, move, role === 'king' ? target.corner : target.block)) return REWARD;
  if (needPromotion) {
    const heavy = move.promotion === 'queen' || move.promotion === 'rook';
    return role === 'pawn' && !heavy ? REWARD : PUNISH;
  }
  return capture ? PUNISH : NORMAL;
};

/** Only captures and pawn moves change what the material and blockade proofs look at. */
const isCaptureOrPawnMove = (pos: Position, move: NormalMove): boolean =>
  pos.board[opposite(pos.turn)].has(move.to) || pos.board.pawn.has(move.from);

/** Raised inside a search when its node budget is spent. */
class OutOfNodes extends Error {}

/** The searches for one attacking colour, sharing one node budget. */
class Search {
  nodes = 0;
  private limit = 0;
  private cutoff = false;
  private readonly exactTable = new Map<string, number>();
  private readonly exactDone = new Set<string>();
  private readonly costTable = new Map<string, number>();

  constructor(
    private readonly attacker: Color,
    private readonly maxPlies: number,
  ) {}

  /**
   * What a move leads to: 'mate' (the attacker mates), 'dead' (no mate can follow: the attacker is
   * mated, stalemate, or a material or blockade proof), or the position to continue from.
   */
  private child(pos: Position, move: NormalMove): Position | 'mate' | 'dead' {
    if (this.nodes >= this.limit) throw new OutOfNodes();
    const next = pos.clone();
    const changesStructure = isCaptureOrPawnMove(pos, move);
    next.play(move);
    this.nodes++;
    if (next.isCheck()) {
      if (!next.hasDests()) return next.turn === this.attacker ? 'dead' : 'mate';
    } else if (!next.hasDests()) return 'dead';
    if (
      changesStructure &&
      (hasMatingMaterial(next, this.attacker) === 'no' || blockadeProof(next)[this.attacker])
    )
      return 'dead';
    return next;
  }

  private run<T>(limit: number, body: () => T): T | undefined {
    this.limit = limit;
    try {
      return body();
    } catch (e) {
      if (e instanceof OutOfNodes) return undefined;
      throw e;
    }
  }

  /** Phase 1: every line up to `maxDepth` plies. A helpmate, 'exhausted' (no line reaches the depth), or undefined. */
  exact(root: Position, maxDepth: number, limit: number): NormalMove[] | 'exhausted' | undefined {
    return this.run(limit, () => {
      for (let depth = 1; depth <= maxDepth; depth++) {
        this.cutoff = false;
        const line = this.dfs(root, depth);
        if (line) return line;
        if (!this.wasCut()) return 'exhausted';
      }
      return undefined;
    });
  }

  /** Whether the last exact iteration stopped any line at its depth (read after the search mutated it). */
  private wasCut(): boolean {
    return this.cutoff;
  }

  private dfs(pos: Position, depth: number): NormalMove[] | undefined {
    const key = positionKey(pos);
    if (this.exactDone.has(key)) return undefined;
    // Already searched this deep; with one ply left only the attacker's move can mate.
    if ((this.exactTable.get(key) ?? 0) >= depth || (depth === 1 && pos.turn !== this.attacker)) {
      this.cutoff = true;
      return undefined;
    }
    const outer = this.cutoff;
    this.cutoff = false;
    const children: [NormalMove, Position][] = [];
    for (const move of legalMoves(pos)) {
      const next = this.child(pos, move);
      if (next === 'mate') return [move];
      if (next === 'dead') continue;
      if (depth === 1) this.cutoff = true;
      else children.push([move, next]);
    }
    for (const [move, next] of children) {
      const line = this.dfs(next, depth - 1);
      if (line) return [move, ...line];
    }
    this.exactTable.set(key, depth);
    if (!this.cutoff) this.exactDone.add(key);
    this.cutoff ||= outer;
    return undefined;
  }

  /**
   * Phase 2: iterative deepening on a move cost instead of plies. Rewarded moves are free, a
   * normal move is free right after a rewarded one and costs 1 otherwise, a punished move costs 3,
   * so lines heading for the target picture are searched far deeper than the others. Lines stop
   * at `maxPlies`.
   */
  guided(root: Position, limit: number, perIteration: number): NormalMove[] | undefined {
    for (let bound = 1; bound <= 3 * this.maxPlies && this.nodes < limit; bound++) {
      const line = this.run(Math.min(limit, this.nodes + perIteration), () =>
        this.costed(root, bound, 0, false),
      );
      if (line) return line;
    }
    return undefined;
  }

  private costed(pos: Position, remaining: number, ply: number, progress: boolean): NormalMove[] | undefined {
    if (ply >= this.maxPlies) return undefined;
    const key = positionKey(pos);
    const value = 2 * remaining + (progress ? 1 : 0);
    if ((this.costTable.get(key) ?? -1) >= value) return undefined;
    this.costTable.set(key, value);
    const target = targetFor(pos.board, this.attacker);
    const needPromotion = needsDefenderPromotion(pos.board, this.attacker);
    const moves = legalMoves(pos).map(move => ({
      move,
      kind: classify(pos, move, this.attacker, target, needPromotion),
    }));
    moves.sort((a, b) => a.kind - b.kind);
    for (const { move, kind } of moves) {
      const cost = kind === REWARD || (kind === NORMAL && progress) ? 0 : kind === PUNISH ? 3 : 1;
      if (cost > remaining) continue;
      const next = this.child(pos, move);
      if (next === 'mate') return [move];
      if (next === 'dead') continue;
      const line = this.costed(next, remaining - cost, ply + 1, kind === REWARD);
      if (line) return [move, ...line];
    }
    return undefined;
  }

  /**
   * Phase 3: breadth-first enumeration of every reachable position (no ply limit). Finds a
   * helpmate if one is reachable within the budget; 'exhausted' proves there is none.
   */
  enumerate(root: Position, limit: number): NormalMove[] | 'exhausted' | undefined {
    return this.run(limit, () => {
      const seen = new Set<string>([positionKey(root)]);
      const parents: number[] = [-1];
      const moves: NormalMove[] = [{ from: 0, to: 0 }];
      const queue: (Position | undefined)[] = [root];
      const ids: number[] = [0];
      const lineTo = (id: number, last: NormalMove): NormalMove[] => {
        const line = [last];
        for (let i = id; i > 0; i = parents[i] ?? 0) line.unshift(moves[i] ?? last);
        return line;
      };
      for (let head = 0; head < queue.length; head++) {
        const pos = queue[head];
        const id = ids[head] ?? 0;
        queue[head] = undefined;
        if (!pos) continue;
        for (const move of legalMoves(pos)) {
          const next = this.child(pos, move);
          if (next === 'mate') return lineTo(id, move);
          if (next === 'dead') continue;
          const key = positionKey(next);
          if (seen.has(key)) continue;
          seen.add(key);
          ids.push(parents.length);
          parents.push(id);
          moves.push(move);
          queue.push(next);
        }
      }
      return 'exhausted';
    });
  }
}
