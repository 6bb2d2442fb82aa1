/**
 * Dead position (neither side can checkmate by any series of legal moves: E18/E23 5.2.2, E09/E14
 * 5.2.b, E97/E09 9.6) and the per-side question of Art. 6.9 / 7 / E23 5.1.2 ("the opponent cannot
 * checkmate"). Combines the static proofs of material.ts with the searches of helpmate.ts.
 *
 *   import { isDeadPosition, insufficientMaterial } from './deadPosition.js';
 *   isDeadPosition(pos);                 // { verdict: 'yes', method: 'material' } for K+B v K
 *   insufficientMaterial(pos, 'white');  // verdict 'yes': White cannot mate, so Black's flag draws
 */
import { type Color, type Context, type Position, COLORS } from 'chessops';
import {
  type HelpmateMethod,
  type HelpmateOptions,
  findHelpmate,
  legalMovesIn,
  positionKey,
} from './helpmate.js';
import { blockadeProof, hasMatingMaterial } from './material.js';
import { type ArticleRef, type Edition, type Verdict, cite } from './types.js';

/**
 * How a verdict was reached: the helpmate methods (see HelpmateMethod), or 'open' when the static
 * proofs failed and the position does not look dead enough to be worth a search ('unknown').
 */
export type DeadPositionMethod = HelpmateMethod | 'open';

export interface DeadPositionResult {
  /** isDeadPosition: 'yes' = dead, 'no' = some side can mate. insufficientMaterial: 'yes' = cannot mate. */
  readonly verdict: Verdict;
  readonly method: DeadPositionMethod;
}

export interface DeadPositionOptions extends HelpmateOptions {
  /**
   * 'auto' (default, cheap enough to call after every move): static proofs, then, only for
   * positions that may be dead (at least half the pawns locked, or forced play), one small
   * walk over the reachable positions. 'always': a bigger walk, then a helpmate search for each
   * side not yet settled, so that a live position is answered 'no'. 'never': static proofs only.
   */
  readonly search?: 'auto' | 'always' | 'never';
}

/** Node budget of isDeadPosition with `search: 'always'`, shared by its searches. */
export const DEAD_POSITION_NODES = 10_000;
/** Node budget of the one breadth-first walk that `search: 'auto'` allows. */
export const AUTO_NODES = 2_000;
/** Share of the 'always' budget given to the walk; the rest goes to the helpmate searches. */
const WALK_SHARE = 0.3;

/** Where the dead-position rule lives in each edition (E09 repeats it in 9.6). */
export const deadPositionArticle = (edition: Edition): ArticleRef => {
  switch (edition) {
    case 'E97':
      return cite(edition, '9.6');
    case 'E09':
    case 'E14':
      return cite(edition, '5.2.b');
    case 'E17':
    case 'E18':
    case 'E23':
      return cite(edition, '5.2.2');
  }
};

/**
 * Sides proven unable to mate without search. The blockade proof is tried only for a side that has
 * mating material, and not at all when the caller knows it fails (`isBlockadeImpossible`).
 */
const staticProofs = (
  pos: Position,
  blockadeImpossible = false,
): { white: boolean; black: boolean; method: DeadPositionMethod } => {
  const proven = { white: false, black: false, method: 'material' as DeadPositionMethod };
  const material = { white: hasMatingMaterial(pos, 'white'), black: hasMatingMaterial(pos, 'black') };
  const skip = blockadeImpossible || (material.white === 'no' && material.black === 'no');
  const blockade = skip ? undefined : blockadeProof(pos);
  for (const color of COLORS) {
    if (material[color] === 'no') proven[color] = true;
    else if (blockade?.[color]) {
      proven[color] = true;
      proven.method = 'blockade';
    }
  }
  return proven;
};

/** Both sides proven unable to mate, the cheap proof first. */
const bothProven = (pos: Position): boolean => {
  const white = hasMatingMaterial(pos, 'white') === 'no';
  const black = hasMatingMaterial(pos, 'black') === 'no';
  if (white && black) return true;
  const blockade = blockadeProof(pos);
  return (white || blockade.white) && (black || blockade.black);
};

/** At least half of the pawns (and at least two) stand right behind another pawn. */
const isLocked = (pos: Position): boolean => {
  const b = pos.board;
  let blocked = 0;
  for (const sq of b.pawn) {
    const front = b.white.has(sq) ? sq + 8 : sq - 8;
    if (b.pawn.has(front)) blocked++;
  }
  return blocked >= 2 && 2 * blocked >= b.pawn.size();
};

/**
 * Whether the side to move has a legal move: `pos.hasDests(ctx)`, asking the other pieces before
 * the king, whose moves are the dearest to check (every square it could go to is tested for attacks).
 */
export const hasLegalMove = (pos: Position, ctx: Context): boolean => {
  const own = pos.board[pos.turn];
  for (const from of own.diff(pos.board.king)) if (pos.dests(from, ctx).nonEmpty()) return true;
  for (const from of own.intersect(pos.board.king)) if (pos.dests(from, ctx).nonEmpty()) return true;
  return false;
};

/** At most two legal moves: forced play, often into a small space worth walking. */
const isForced = (pos: Position, ctx: Context): boolean => {
  let count = 0;
  for (const from of pos.board[pos.turn]) {
    count += pos.dests(from, ctx).size();
    if (count > 2) return false;
  }
  return true;
};

/**
 * Breadth-first walk over every position reachable from `root`. 'mate' as soon as either side
 * can be mated; 'exhausted' when the whole (finite) space was seen without a mate; undefined
 * when the budget ran out. Positions where both sides are proven unable to mate are not expanded.
 */
const enumerate = (root: Position, rootCtx: Context, maxNodes: number): 'mate' | 'exhausted' | undefined => {
  const seen = new Set<string>([positionKey(root)]);
  const queue: (Position | undefined)[] = [root];
  let nodes = 0;
  for (let head = 0; head < queue.length; head++) {
    const pos = queue[head];
    queue[head] = undefined;
    if (!pos) continue;
    // Contexts are not kept in the queue: recomputing one is cheaper than the garbage collector
    // copying thousands of them.
    for (const move of legalMovesIn(pos, head === 0 ? rootCtx : pos.ctx())) {
      if (++nodes > maxNodes) return undefined;
      const structural = pos.board.occupied.has(move.to) || pos.board.pawn.has(move.from);
      const next = pos.clone();
      next.play(move);
      // A position seen before is not mate (the walk would have stopped there), so it is skipped
      // before anything is computed about it.
      const key = positionKey(next);
      if (seen.has(key)) continue;
      const ctx = next.ctx();
      const check = ctx.checkers.nonEmpty();
      if (!hasLegalMove(next, ctx)) {
        if (check) return 'mate';
        continue; // stalemate
      }
      seen.add(key);
      if (structural && bothProven(next)) continue;
      queue.push(next);
    }
  }
  return 'exhausted';
};

/**
 * Is the position dead? 'yes' only with a proof (material, pawn blockade, or a search that saw
 * every reachable position); 'no' when a helpmate was found for either side; otherwise 'unknown'.
 * A checkmate on the board answers 'no' (a side has mated), a stalemate 'yes'.
 */
export function isDeadPosition(pos: Position, opts: DeadPositionOptions = {}): DeadPositionResult {
  const ctx = pos.ctx();
  return deadPositionIn(pos, { ctx, hasMoves: hasLegalMove(pos, ctx) }, opts);
}

/** What a caller of `deadPositionIn` already knows about the position. */
export interface KnownFacts {
  /** The position's move context (`pos.ctx()`). */
  readonly ctx: Context;
  /** Whether the side to move has a legal move. */
  readonly hasMoves: boolean;
  /** `isBlockadeImpossible(pos)` is known to hold (material.ts): the blockade proof is skipped. */
  readonly blockadeImpossible?: boolean;
}

/**
 * isDeadPosition for a caller that already knows some facts about the position (the per-ply status
 * computes the context and the legal-move test once for every rule it checks); the same verdict.
 */
export function deadPositionIn(
  pos: Position,
  known: KnownFacts,
  opts: DeadPositionOptions = {},
): DeadPositionResult {
  const { ctx } = known;
  if (!known.hasMoves) return { verdict: ctx.checkers.nonEmpty() ? 'no' : 'yes', method: 'terminal' };
  const proofs = staticProofs(pos, known.blockadeImpossible);
  if (proofs.white && proofs.black) return { verdict: 'yes', method: proofs.method };
  const mode = opts.search ?? 'auto';
  if (mode === 'never' || (mode === 'auto' && !isLocked(pos) && !isForced(pos, ctx))) {
    return { verdict: 'unknown', method: 'open' };
  }

  const maxNodes = opts.maxNodes ?? (mode === 'auto' ? AUTO_NODES : DEAD_POSITION_NODES);
  const walked = enumerate(pos, ctx, mode === 'auto' ? maxNodes : Math.floor(maxNodes * WALK_SHARE));
  if (walked === 'mate') return { verdict: 'no', method: 'search' };
  if (walked === 'exhausted') return { verdict: 'yes', method: 'exhausted' };
  if (mode === 'auto') return { verdict: 'unknown', method: 'budget' };
  const open = COLORS.filter(color => !proofs[color]);
  let method: DeadPositionMethod = proofs.method;
  let unknown = false;
  for (const color of open) {
    const result = findHelpmate(pos, color, {
      ...opts,
      maxNodes: Math.floor((maxNodes * (1 - WALK_SHARE)) / open.length),
    });
    if (result.verdict === 'yes') return { verdict: 'no', method: result.method };
    if (result.verdict === 'unknown') unknown = true;
    else method = result.method;
  }
  return unknown ? { verdict: 'unknown', method: 'budget' } : { verdict: 'yes', method };
}

/**
 * Can `color` NOT checkmate by any series of legal moves (Art. 6.9 on the opponent's flag, the
 * cannot-mate exception of Art. 7, E23 5.1.2 on the opponent's resignation)? Despite the
 * traditional name it judges the whole position, not only the material: 'yes' = proven unable to
 * mate (a draw), 'no' = a helpmate exists, 'unknown' = not settled within the budget.
 */
export function insufficientMaterial(
  pos: Position,
  color: Color,
  opts: HelpmateOptions = {},
): DeadPositionResult {
  const result = findHelpmate(pos, color, opts);
  const verdict: Verdict = result.verdict === 'yes' ? 'no' : result.verdict === 'no' ? 'yes' : 'unknown';
  return { verdict, method: result.method };
}
