/**
 * Revisions and stops (issue: judge only what the board proves): when the board can be read as the
 * published move kept, or as that move revised, which is the story the board tells? A piece lifted
 * again from where its move put it may be going on from a stop (f6 on the way to f5); a position
 * the board showed only as a transient (a rook touching down on e3 on its way to d3) is no move.
 *
 *   if (isReopened(st)) group = preferRevision(st, tipChoice, groups);
 *   group = preferStanding(st, group, groups);
 */
import type { Chess } from 'chessops';
import { kingCastlesTo } from 'chessops';
import { castlingSide } from 'chessops/chess';
import { type Group, claimedBy, claimsStood } from './choose.js';
import { lastShownIndex, longestDwell, observedAt } from './evidence.js';
import type { Explanation } from './search.js';
import { type RecognitionState, madeIndexOf } from './state.js';

/**
 * Was the last move's piece lifted again from where the move put it, after it was made? Then its
 * mover may be revising it (f7-f6 taken on to f5), and the revisions are weighed against the
 * stories that keep it.
 */
export const isReopened = (st: RecognitionState): boolean => {
  const tip = st.game.length;
  if (tip <= st.anchor) return false;
  const last = st.game.moveAt(tip)?.move;
  const before = st.game.positionView(tip - 1);
  if (!last || !before || !('from' in last)) return false;
  const side = castlingSide(before, last);
  const to = side ? kingCastlesTo(before.turn, side) : last.to;
  for (let j = madeIndexOf(st, tip) + 1; j < st.evidence.length; j++) {
    const e = st.evidence[j];
    if (e?.kind === 'square' && e.square === to && e.piece === 'empty') return true;
  }
  return false;
};

/**
 * The last move's piece was lifted again: a revision the evidence supports wins over the story
 * that keeps the move when that story has nothing made since (the piece only in hand, while the
 * board shows the revised move complete: a capture an occupancy board sees as a refilled square),
 * or when the board showed the revision's positions after the move was made, each standing long
 * enough to be a position and not a transient: f6 published, the pawn then set on f5 and taken en
 * passant is not f6 and exf6; ...Re3 published, the rook then set on d3, White's Re3 played and
 * the rook on d3 lifted is not ...Re3 Rxe3.
 */
export const preferRevision = (st: RecognitionState, tipChoice: Group, groups: readonly Group[]): Group => {
  const tip = st.game.length;
  const afterTip = madeIndexOf(st, tip);
  for (const g of groups) {
    if (g.root >= tip || !g.consistent || g.members.length === 0) continue;
    const published = st.game.moveAt(g.root + 1)?.move;
    // A story keeping the published move is the tip's own, not a revision; a half-made one counts
    // only with every ply of it made (the side to move has started).
    const revisions = g.members.filter(e => {
      const first = e.path[0];
      return (
        first !== undefined &&
        published !== undefined &&
        'from' in published &&
        !(
          first.from === published.from &&
          first.to === published.to &&
          first.promotion === published.promotion
        ) &&
        (g.kind === 'exact' || e.made === e.path.length)
      );
    });
    if (revisions.length === 0) continue;
    if (g.kind === 'exact' && tipChoice.kind === 'partial' && tipChoice.members.every(m => m.made === 0))
      return { ...g, members: revisions };
    // The tip's story keeps the move with nothing made since (pieces only in hand: the reply
    // taking the moved piece off first), or with what it made shown only in passing (the captured
    // rook carried off over d7, where the published move had rested: Rd7 ...Rd8 for Rd8+ ...Rxd8),
    // weighs like an exact one against a revision the board showed.
    const passed = (m: Explanation): boolean => m.made === 0 || !claimsStood(st, tip, 'partial', m);
    if (tipChoice.kind !== 'exact' && !tipChoice.members.every(passed)) continue;
    const shown = revisions.filter(e => {
      const claims = claimedBy(g.kind, e);
      const seen = observedAt(st, g.root, claims);
      return (
        claims.length > 0 &&
        seen !== undefined &&
        (seen[0] ?? -1) > afterTip &&
        claims.every(p => longestDwell(st, g.root, p) >= st.options.minReplyMs)
      );
    });
    if (shown.length > 0) return { ...g, members: shown };
  }
  return tipChoice;
};

/**
 * An exact story that needs a position the board showed only as a transient (a rook touching down
 * on e3 for 0.1 s on its way to d3) is weaker than a half-made story from the same root whose
 * every ply the board showed standing (...Rd3, White's Re3, then the rook on d3 lifted again to be
 * adjusted): that one is taken, not ...Re3 Rxe3.
 */
export const preferStanding = (st: RecognitionState, picked: Group, groups: readonly Group[]): Group => {
  if (picked.kind !== 'exact' || !picked.consistent) return picked;
  const stands = (p: Chess): boolean => longestDwell(st, picked.root, p) >= st.options.minReplyMs;
  const weak = picked.members.every(e => claimedBy('exact', e).some(p => !stands(p)));
  if (!weak) return picked;
  const partial = groups.find(g => g.root === picked.root && g.kind === 'partial' && g.consistent);
  const standing = (partial?.members ?? []).filter(
    e => e.made === e.path.length && e.path.length > 0 && claimedBy('partial', e).every(stands),
  );
  return partial && standing.length > 0 ? { ...partial, members: standing } : picked;
};

/**
 * Does the chosen revision read the published move back to a stop its piece went on from? The
 * board showed the revised ply's position only before the published move was made, then the
 * published move standing (a made move, not a transient): the story needs the published move's
 * piece, standing there, to have been a ghost of a captured piece, and a piece of the opponent's,
 * resting on its way to capture it, to have made a move. A capture read at the capturer's stop
 * (without a clock: ...Re8-e4 resting, then ...Rxe1+ standing, White's rook from b1 taking it and
 * resting on c1 is not ...Re4 Rbc1; ...Nc5-d3-f5-e4 standing, then Bc2 resting on d3 on its way
 * to e4 is not ...Nd3 Bxd3). Such a reading waits: the capturer goes on, or the board stands
 * `confirmMs` (then it is the story the board tells).
 */
export const rereadsStop = (st: RecognitionState, g: Group): boolean => {
  const tip = st.game.length;
  if (g.root >= tip || g.members.length === 0) return false;
  const afterTip = madeIndexOf(st, tip);
  const tipPos = st.game.positionView(tip);
  if (afterTip < 0 || !tipPos || longestDwell(st, g.root, tipPos) < st.options.minReplyMs) return false;
  return g.members.every(e => {
    const claims = claimedBy(g.kind, e);
    let i = 0;
    for (; i < e.path.length; i++) {
      const m = e.path[i];
      const p = st.game.moveAt(g.root + 1 + i)?.move;
      if (!m || !p || !('from' in p) || m.from !== p.from || m.to !== p.to || m.promotion !== p.promotion)
        break;
    }
    const revised = claims[i];
    return revised !== undefined && lastShownIndex(st, g.root, revised.board) <= afterTip;
  });
};
