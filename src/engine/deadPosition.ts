/**
 * Dead position (neither side can checkmate by any series of legal moves: E18/E23 5.2.2, E09/E14
 * 5.2.b, E97/E09 9.6) and the per-side question of Art. 6.9 / 7 / E23 5.1.2 ("the opponent cannot
 * checkmate"). Combines the static proofs of material.ts with the searches of helpmate.ts.
 *
 *   import { isDeadPosition, insufficientMaterial } from './deadPosition.js';
 *   isDeadPosition(pos);                 // { verdict: 'yes', method: 'material' } for K+B v K
 *   insufficientMaterial(pos, 'white');  // verdict 'yes': White cannot mate, so Black's flag draws
 */
import { type Color, type Position, COLORS } from 'chessops';
import {
  type HelpmateMethod,
  type HelpmateOptions,
  findHelpmate,
  legalMoves,
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

/** Sides proven unable to mate without search. */
const staticProofs = (pos: Position): { white: boolean; black: boolean; method: DeadPositionMethod } => {
  const blockade = blockadeProof(pos);
  const proven = { white: false, black: false, method: 'material' as DeadPositionMethod };
  for (const color of COLORS) {
    if (hasMatingMaterial(pos, color) === 'no') proven[color] = true;
    else if (blockade[color]) {
      proven[color] = true;
      proven.method = 'blockade';
    }
  }
  return proven;
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

/** At most two legal moves: forced play, often into a small space worth walking. */
const isForced = (pos: Position): boolean => {
  let count = 0;
  for (const dests of pos.allDests().values()) count += dests.size();
  return count <= 2;
};

/**
 * Breadth-first walk over every position reachable from `root`. 'mate' as soon as either side
 * can be mated; 'exhausted' when the whole (finite) space was seen without a mate; undefined
 * when the budget ran out. Positions where both sides are proven unable to mate are not expanded.
 */
const enumerate = (root: Position, maxNodes: number): 'mate' | 'exhausted' | undefined => {
  const seen = new Set<string>([positionKey(root)]);
  const queue: (Position | undefined)[] = [root];
  let nodes = 0;
  for (let head = 0; head < queue.length; head++) {
    const pos = queue[head];
    queue[head] = undefined;
    if (!pos) continue;
    for (const move of legalMoves(pos)) {
      if (++nodes > maxNodes) return undefined;
      const structural = pos.board.occupied.has(move.to) || pos.board.pawn.has(move.from);
      const next = pos.clone();
      next.play(move);
      if (next.isCheckmate()) return 'mate';
      const key = positionKey(next);
      if (seen.has(key) || next.isStalemate()) continue;
      seen.add(key);
      if (structural) {
        const proofs = staticProofs(next);
        if (proofs.white && proofs.black) continue;
      }
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
  if (pos.isCheckmate()) return { verdict: 'no', method: 'terminal' };
  if (pos.isStalemate()) return { verdict: 'yes', method: 'terminal' };
  const proofs = staticProofs(pos);
  if (proofs.white && proofs.black) return { verdict: 'yes', method: proofs.method };
  const mode = opts.search ?? 'auto';
  if (mode === 'never' || (mode === 'auto' && !isLocked(pos) && !isForced(pos))) {
    return { verdict: 'unknown', method: 'open' };
  }

  const maxNodes = opts.maxNodes ?? (mode === 'auto' ? AUTO_NODES : DEAD_POSITION_NODES);
  const walked = enumerate(pos, mode === 'auto' ? maxNodes : Math.floor(maxNodes * WALK_SHARE));
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
