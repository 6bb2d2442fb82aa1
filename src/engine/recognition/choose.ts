/**
 * Choosing between explanations of the board. In order of preference: exact from the published
 * tip, half made from the tip, then the same from each earlier revisable ply (a revision), taking
 * the first group the evidence supports; if none is supported, the first non-empty group (a
 * snapshot after a reconnect shows no intermediate positions at all). Several exact explanations
 * the evidence supports equally (h2h3 g4xh3 against h2h4 g4xh3 e.p. when a ghost or a touch-down
 * showed the other pawn square) are told apart by how long the board showed each claimed
 * position: a made move stands until the opponent reacts, a transient does not.
 *
 *   const choice = chooseGroup(groups);
 *   if (choice?.kind === 'exact') publish(choice.members[0]);
 */
import type { NormalMove } from 'chessops';
import { SquareSet, kingCastlesTo } from 'chessops';
import { castlingSide } from 'chessops/chess';
import { longestDwell, observedAt } from './evidence.js';
import type { Explanation } from './search.js';
import { type RecognitionState, madeIndexOf } from './state.js';

export interface Group {
  /** The ply the explanations start from. */
  readonly root: number;
  readonly kind: 'exact' | 'partial';
  readonly members: readonly Explanation[];
  /** The evidence supports the members (see explain's `consistent`). */
  readonly consistent: boolean;
}

/** The positions an explanation claims the board showed before now: the made ones but the last. */
export const claimedBy = (
  kind: Group['kind'],
  e: Explanation,
): readonly Explanation['positions'][number][] =>
  kind === 'exact' ? e.positions.slice(0, -1) : e.positions.slice(0, e.made);

/**
 * Did every position the story claims (`claimedBy`: an exact story's all but the last, which the
 * board shows now; a half-made one's after each ply it made) stand at least a settle window: a
 * position, not a piece passing over a square (a rook sliding over f7 on its way to f8)?
 */
export const claimsStood = (
  st: RecognitionState,
  root: number,
  kind: 'exact' | 'partial',
  e: Explanation,
): boolean => claimedBy(kind, e).every(p => longestDwell(st, root, p) >= st.options.settleMs);

/**
 * Squares whose emptiness only a snapshot vouches for: empty in the last snapshot of the evidence
 * and not reported by a sensor event since. A snapshot (a dump after a reconnection or a restart)
 * shows no hands: a piece it no longer shows was moved or captured meanwhile, as far as anyone can
 * tell, not seen lifted.
 */
const emptiedBySnapshot = (st: RecognitionState): SquareSet => {
  let squares = SquareSet.empty();
  for (const e of st.evidence) {
    if (e.kind === 'snapshot') {
      squares = SquareSet.empty();
      e.board.forEach((c, sq) => {
        if (c === 'empty') squares = squares.with(sq);
      });
    } else if (e.kind === 'square') squares = squares.without(e.square);
  }
  return squares;
};

/**
 * Does the evidence show the board passing through the positions the explanation claims were made?
 * A half-made explanation's pieces in hand must also have been seen lifted: after a snapshot that
 * shows them gone, "Qd7 with two bishops in hand" claims nothing the board showed, and must not
 * beat the exact history it shows (Bd7 Bxd7+ Qxd7).
 */
export const isSupported = (
  st: RecognitionState,
  root: number,
  kind: Group['kind'],
  e: Explanation,
): boolean =>
  observedAt(st, root, claimedBy(kind, e)) !== undefined &&
  (e.residual.kind !== 'lifted' || !e.residual.squares.intersects(emptiedBySnapshot(st)));

const sameMoves = (a: readonly NormalMove[], b: readonly NormalMove[]): boolean =>
  a.length === b.length &&
  a.every((m, i) => {
    const o = b[i];
    return o !== undefined && m.from === o.from && m.to === o.to && m.promotion === o.promotion;
  });

/** Lexicographic order of observation indices: the story whose positions appeared first. */
const earlier = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/**
 * Of several exact explanations from `root`, the one to publish, or undefined when they cannot be
 * told apart (moves are never guessed): the ones keeping the published moves; then those whose
 * every claimed position stood at least `minReplyMs`; then, when they all start with the same
 * piece, the one whose first position was shown last (the piece went on from a stop); then the one
 * whose positions appeared first and whose last move was finished first.
 */
export const disambiguate = (
  st: RecognitionState,
  root: number,
  exact: readonly Explanation[],
): Explanation | undefined => {
  if (exact.length <= 1) return exact[0];
  const published = st.game.moves.slice(root).map(r => r.move as NormalMove);
  const keeping = exact.filter(e => sameMoves(e.path.slice(0, published.length), published));
  let pool = keeping.length > 0 ? keeping : exact;
  if (pool.length === 1) return pool[0];
  const standing = pool.filter(e =>
    claimedBy('exact', e).every(p => longestDwell(st, root, p) >= st.options.minReplyMs),
  );
  if (standing.length > 0) pool = standing;
  if (pool.length === 1) return pool[0];
  // One piece set down on two squares its move could reach, each long enough to stand (a pawn
  // resting on f6, then put on f5 and taken en passant): where it went last is the move.
  const firstFrom = pool[0]?.path[0]?.from;
  if (firstFrom !== undefined && pool.every(e => e.path[0]?.from === firstFrom)) {
    const shown = pool.flatMap(e => {
      const at = observedAt(st, root, claimedBy('exact', e));
      return at?.[0] === undefined ? [] : [{ e, at: at[0] }];
    });
    shown.sort((a, b) => b.at - a.at);
    const last = shown[0];
    if (last && shown.length === pool.length && (shown[1]?.at ?? -1) < last.at) return last.e;
  }
  const seen = pool.flatMap(e => {
    const at = observedAt(st, root, claimedBy('exact', e));
    return at ? [{ e, at: [...at, landedAt(st, root, e)] }] : [];
  });
  seen.sort((a, b) => earlier(a.at, b.at));
  const first = seen[0];
  const second = seen[1];
  if (!first || (second && earlier(first.at, second.at) === 0)) return undefined;
  return first.e;
};

/**
 * Index of the last event putting a piece on the last move's destination: when the move was
 * finished. A move ends its player's activity, so of two stories the one finished first leaves
 * the later events to the opponent (on an occupancy-only board a piece adjusted just after a
 * capture looks like a capture on its square).
 */
const landedAt = (st: RecognitionState, root: number, e: Explanation): number => {
  const last = e.path[e.path.length - 1];
  const before = e.positions[e.positions.length - 2] ?? st.game.positionView(root);
  if (!last || !before) return -1;
  const side = castlingSide(before, last);
  const to = side ? kingCastlesTo(before.turn, side) : last.to;
  let found = -1;
  for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
    const ev = st.evidence[j];
    if (ev?.kind === 'square' && ev.square === to && ev.piece !== 'empty') found = j;
  }
  return found;
};

const shortest = (g: Group): number => Math.min(...g.members.map(e => e.path.length));

/**
 * The group to act on (see the module comment), or undefined when every group is empty. After a
 * re-read (`reread`: a snapshot, nothing seen in between) no group is supported by intermediate
 * positions; of the exact ones (the board shows a position) the one needing the fewest plies goes
 * first: a bishop caught resting on b5 when the link went down, found on a4 with two more moves
 * made, is Ba4 and the two moves, not Bb5 and four moves of which two put a rook back and forth.
 */
export const chooseGroup = (groups: readonly Group[], reread = false): Group | undefined => {
  const supported = groups.find(g => g.consistent && g.members.length > 0);
  if (supported) return supported;
  const any = groups.filter(g => g.members.length > 0);
  const exact = any.filter(g => g.kind === 'exact');
  if (!reread || exact.length === 0) return any[0];
  let best = exact[0];
  for (const g of exact) if (best && shortest(g) < shortest(best)) best = g;
  return best;
};
