/**
 * A press that comes after a missed one (a player forgot to press; the opponent's press on a lever
 * already down reports nothing), read further than the presses allow: `missedPress`, the stories
 * the board showed in order ending with the presser's move; `missedPressReplyInHand`, the same
 * with the reply's piece set down off its square; `missedPressKnocked`, with a piece knocked over
 * put back; and `missedReading`, which chooses between them.
 *
 *   const missed = missedReading(st, 'white', root => searchOptionsFrom(root), false);
 *   if (missed?.kind === 'exact') decideExact(st, missed.root, missed.members, now, trigger);
 */
import type { Chess, Color, Piece, Square } from 'chessops';
import { opposite } from 'chessops';
import { claimsStood } from './choose.js';
import { type Trail, liftsSince, trailsFrom } from './evidence.js';
import {
  type ReplyReading,
  isPressedStory,
  lastLifted,
  lastSetDown,
  leavesTheirsLifted,
  shownBut,
} from './pressReply.js';
import { finalizesWentOn, rereadsStop } from './revise.js';
import { type Explanation, type SearchOptions, explain } from './search.js';
import { diffSquares, withContent } from './sensedBoard.js';
import { type RecognitionState, positionAt } from './state.js';

/** A press's reading whose members stand as the board (exact) or leave the reply begun (partial). */
export interface PressReading extends ReplyReading {
  readonly kind: 'exact' | 'partial';
}

/**
 * At `presser`'s press, the board explained by more plies than the presses allow: a press
 * missed (a player who forgot to press; the opponent's press on a lever already down reports
 * nothing), the presser's move the last of them. Only stories the board showed position by
 * position, every ply legal and seen, so nothing is invented and an illegal move is never
 * excused: ending as the board stands, or with the reply begun before the press was reported
 * (as the search reads a press: the reply's piece lifted or on its way, a piece it captures
 * lifted). From the tip first, then from each revisable ply. `from(root)` gives the search's
 * options for a root without the bound of the presses.
 */
const missedPress = (
  st: RecognitionState,
  presser: Color,
  from: (root: number) => SearchOptions,
): PressReading | undefined => {
  const pressed = (e: Explanation): boolean => isPressedStory(e, presser);
  const deep = liftsSince(st) > st.options.chasePlies;
  // Presses were missed (the published plies two or more past the last press).
  const missed = st.game.length >= st.pressedPly + 2;
  for (let root = st.game.length; root >= st.anchor; root--) {
    const rootPos = positionAt(st, root);
    // Where presses were missed, a half-made story leaving a piece of the reply's missing from
    // where it puts it, where the hands show no piece lifted from there (Black's king "lifted
    // from e8" where it was set down on d7 and stood: Qxg6 ...fxg6 Rh7 for Qxg6 ...fxg6 Rh8+
    // ...Kd7 Rh7+, the king lifted for ...Kd6; White's rook and king "in hand" for ...Rc6, the
    // rook resting there on its way, for ...Rcc1 Rxd1 ...Rxd1+ with the king lifted for Kf2),
    // does not stop the search short of one that needs no such piece. Held for the presser's
    // pieces too, or everywhere, the rule broke readings of the reply's capture begun (more runs
    // failed than it fixed) or made more plies published and corrected.
    const base = from(root);
    const trails = missed ? trailsFrom(st, root) : undefined;
    const opts: SearchOptions = missed
      ? {
          ...base,
          consistent: (e, kind) =>
            (base.consistent?.(e, kind) ?? true) &&
            (kind === 'exact' || liftedShown(e, opposite(presser), trails)),
        }
      : base;
    const found = explain(rootPos, st.sensed, st.touched, opts);
    // Not a story making final a ply whose piece went on from its square before the next ply
    // (...Qc2 Rfxc2 when the queen had gone on to b1 and stood 3 s before the rook came to c2).
    const exact = found.exactConsistent
      ? found.exact.filter(
          e => pressed(e) && !finalizesWentOn(st, { root, kind: 'exact', members: [e], consistent: true }),
        )
      : [];
    if (exact.length > 0)
      return { root, members: longerStood(st, root, rootPos, opts, exact, pressed), kind: 'exact' };
    // Where more pieces were lifted than the search follows plies, a piece lying (`shownBut`) may
    // as well have been captured in plies beyond it (Bd4 ...Bxd4 Rxd4 ...e5 Rd6 read as Rd6 with
    // the bishops of e3 and f6 lying): one at most is read so.
    const shown = found.partialConsistent
      ? found.partial.filter(pressed)
      : found.partial.filter(e => pressed(e) && shownBut(st, root, rootPos, e, deep));
    const partial = lastLifted(st, root, lastSetDown(st, root, shown));
    if (partial.length > 0) return { root, members: partial, kind: 'partial' };
  }
  return undefined;
};

/**
 * Of the shortest stories after a missed press, each needing a position the board showed for less
 * than a settle window (a rook passing over g5 on its way to f5): a longer story every position of
 * which but the last stood at least that long, when there is one (Rf5 ...Nd6 and the reply's rook
 * set down on g5 on its way to h5, not Rg5 ...Nd6 with White's rook resting on f5 while Black
 * moved). Else the shortest.
 */
const longerStood = (
  st: RecognitionState,
  root: number,
  rootPos: Chess,
  opts: SearchOptions,
  shortest: readonly Explanation[],
  pressed: (e: Explanation) => boolean,
): readonly Explanation[] => {
  const stood = (e: Explanation): boolean => claimsStood(st, root, 'exact', e);
  if (shortest.some(stood)) return shortest;
  const base = opts.consistent;
  const deeper = explain(rootPos, st.sensed, st.touched, {
    ...opts,
    consistent: (e, kind) => (base?.(e, kind) ?? true) && (kind !== 'exact' || (pressed(e) && stood(e))),
  });
  const longer = deeper.exactConsistent ? deeper.exact.filter(e => pressed(e) && stood(e)) : [];
  return longer.length > 0 ? longer : shortest;
};

/**
 * `missedPress` with the reply's piece set down where no piece of the opponent's stood (a knight
 * set down next to its square on its way, a pawn set on its square before it is lifted from the
 * one behind): each such piece in turn taken as in hand, the stories from the tip and from each
 * revisable ply that end with the presser's move and leave only the opponent's pieces lifted.
 * One piece at a time: over several plies the opponent's other pieces moved as the record says.
 */
const missedPressReplyInHand = (
  st: RecognitionState,
  presser: Color,
  from: (root: number) => SearchOptions,
): ReplyReading | undefined => {
  const opponent = opposite(presser);
  const theirs = st.sensed[opponent].diff(st.sensed.unknown);
  for (let root = st.game.length; root >= st.anchor; root--) {
    const rootPos = positionAt(st, root);
    for (const sq of theirs.intersect(diffSquares(rootPos.board, st.sensed))) {
      const found = explain(rootPos, withContent(st.sensed, sq, 'empty'), st.touched, from(root));
      const fits = (e: Explanation): boolean =>
        e.unseen === 0 &&
        e.made === e.path.length &&
        e.positions[e.positions.length - 1]?.turn === opponent &&
        leavesTheirsLifted(e, opponent, rootPos);
      const exact = found.exactConsistent ? found.exact.filter(fits) : [];
      const partial = found.partialConsistent ? found.partial.filter(fits) : [];
      const members = exact.length > 0 ? exact : partial;
      if (members.length > 0) return { root, members };
    }
  }
  return undefined;
};

/**
 * Whether each piece of `color`'s the story leaves missing from where it puts it was lifted from
 * there last, as the hands show it (followed from the story's root; true where they cannot be).
 */
const liftedShown = (e: Explanation, color: Color, trails: Map<Square, Trail> | undefined): boolean => {
  const after = e.positions[e.positions.length - 1];
  if (!trails || e.residual.kind !== 'lifted' || after === undefined) return true;
  const missing = e.residual.squares.intersect(after.board[color]);
  if (missing.isEmpty()) return true;
  const lifted = [...trails.values()].filter(t => t.piece.color === color && t.inHand);
  return [...missing].every(sq => lifted.some(t => t.last === sq));
};

/** Whether the story leaves pieces of `color`'s missing from where it puts them (knocked over?). */
export const leavesOwnLifted = (e: Explanation, color: Color): boolean => {
  const after = e.positions[e.positions.length - 1];
  return (
    e.residual.kind === 'lifted' && after !== undefined && e.residual.squares.intersects(after.board[color])
  );
};

/**
 * Pieces that left their squares since the anchor and were never set down since (knocked over,
 * lying unsensed), as far as the hands can be followed: each with the square it was last on, at
 * most `max`.
 */
const knockedSince = (st: RecognitionState, max: number): Map<Square, Piece> => {
  const knocked = new Map<Square, Piece>();
  for (const t of trailsFrom(st, st.anchor)?.values() ?? []) {
    if (t.inHand && !t.taken && !t.unsure && !st.sensed.occupied.has(t.last)) knocked.set(t.last, t.piece);
  }
  return knocked.size <= max ? knocked : new Map<Square, Piece>();
};

/**
 * `missedPress` with a piece knocked over put back where it was last (Rg4 ...Rh3+ Kd2, White's
 * rook knocked off g4 by the reply's hand: the story with the rook on g4, the board showing each
 * of its positions until it fell; d5 cxd5 Bxd5 with Black's rook knocked off e5 by White's hand). Only a story standing as the board with that piece, so every ply was seen; the piece is
 * left missing (displaced, for the players to set up again).
 */
const missedPressKnocked = (
  st: RecognitionState,
  presser: Color,
  from: (root: number) => SearchOptions,
): PressReading | undefined => {
  for (const [sq, piece] of knockedSince(st, 2)) {
    const found = missedPress({ ...st, sensed: withContent(st.sensed, sq, piece) }, presser, from);
    if (found?.kind === 'exact') return { ...found, kind: 'partial' };
  }
  return undefined;
};

/**
 * A press after a missed one read, or undefined: `missedPress`, else `missedPressReplyInHand`,
 * else `missedPressKnocked`. With `ownLying` (the presser's move read only with a piece of his own
 * missing) only a story of three plies or more that leaves none of his pieces missing: one that
 * moved that piece (Nxd6 ...Rxc1 Rxc1, not Nxd6 with the f1 rook knocked over). A story reading
 * the published move back to a stop its piece went on from loses to the reply in hand (Ne1
 * standing 13 s after a stop on d2, ...Nd7 pressed with White's knight set down on d2 on its way
 * from e1 to d3: Ne1 ...Nd7, not Nd2 ...Nd7).
 */
export const missedReading = (
  st: RecognitionState,
  presser: Color,
  further: (root: number) => SearchOptions,
  ownLying: boolean,
): PressReading | undefined => {
  const missed = missedPress(st, presser, further);
  if (ownLying)
    return missed?.members.every(e => e.path.length >= 3 && !leavesOwnLifted(e, presser))
      ? missed
      : undefined;
  const stop =
    missed !== undefined &&
    missed.root < st.game.length &&
    rereadsStop(st, { root: missed.root, kind: missed.kind, members: missed.members, consistent: true });
  const reply = !missed || stop ? missedPressReplyInHand(st, presser, further) : undefined;
  if (reply) return { ...reply, kind: 'partial' };
  return missed ?? missedPressKnocked(st, presser, further);
};
