/**
 * Revisions and stops (issue: judge only what the board proves): when the board can be read as the
 * published move kept, or as that move revised, which is the story the board tells? A piece lifted
 * again from where its move put it may be going on from a stop (f6 on the way to f5); a position
 * the board showed only as a transient (a rook touching down on e3 on its way to d3) is no move.
 *
 *   if (isReopened(st)) group = preferRevision(st, tipChoice, groups);
 *   if (revisesUnderReply(st, tipChoice, group)) group = tipChoice;   // at a quiet moment
 *   group = preferStanding(st, group, groups);
 *   if (finalizesWentOn(st, group) || restoresCaptured(st, group)) wait();   // without a clock
 */
import type { Chess, NormalMove } from 'chessops';
import { kingCastlesTo } from 'chessops';
import { castlingSide } from 'chessops/chess';
import { type Group, claimedBy, claimsStood } from './choose.js';
import { lastShownIndex, longestDwell, observedAt, replayBase, replayEvent } from './evidence.js';
import { diffSquares } from './sensedBoard.js';
import { type Explanation, changedBy } from './search.js';
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
  let replyStood: number | undefined;
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
    // A revision the board showed only after the opponent's reply to the published move had stood
    // on top of it is a ghost: Rac5 standing, ...Rh5 made (0.25 s twice, a flicker between), Rxh5
    // with the captured rook set down on h4 as it is carried off shows Rh5 from a5 for 0.17 s.
    replyStood ??= repliedAt(st, tipChoice);
    const shown = revisions.filter(e => {
      const claims = claimedBy(g.kind, e);
      const seen = observedAt(st, g.root, claims);
      return (
        claims.length > 0 &&
        seen !== undefined &&
        (seen[0] ?? -1) > afterTip &&
        (seen[0] ?? -1) < (replyStood ?? Infinity) &&
        claims.every(p => longestDwell(st, g.root, p) >= st.options.minReplyMs)
      );
    });
    if (shown.length > 0) return { ...g, members: shown };
  }
  return tipChoice;
};

/**
 * Where the board first showed, standing (`minReplyMs`), the reply every story of the tip's group
 * makes on top of the published move, something else following it (the latest of them); undefined
 * when one does not. A half-made story counts with the reply made (Bd5 standing 0.25 s, then the
 * rook lifted to take it: not ...Rxc4 for the published ...Rc5, the bishop's ghost on d5).
 */
const repliedAt = (st: RecognitionState, tipChoice: Group): number | undefined => {
  if (tipChoice.root !== st.game.length) return undefined;
  let latest = -1;
  for (const m of tipChoice.members) {
    const reply = m.positions[0];
    const followed = tipChoice.kind === 'exact' ? m.path.length >= 2 : m.made >= 1;
    if (!followed || !reply) return undefined;
    const at = observedAt(st, tipChoice.root, [reply])?.[0];
    if (at === undefined || longestDwell(st, tipChoice.root, reply) < st.options.minReplyMs) return undefined;
    latest = Math.max(latest, at);
  }
  return latest < 0 ? undefined : latest;
};

/**
 * Where the board first showed a reply to the published move standing (`minReplyMs`): any legal
 * move from the tip (...d2 made for 0.2 s on top of Kc3, the king then taking it over e3 and c1);
 * undefined when it showed none.
 */
const standingReply = (st: RecognitionState): number | undefined => {
  const tip = st.game.length;
  const pos = st.game.positionView(tip);
  if (!pos) return undefined;
  let first: number | undefined;
  for (const [from, dests] of pos.allDests())
    for (const to of dests) {
      const after = pos.clone();
      after.play({ from, to });
      if (longestDwell(st, tip, after) < st.options.minReplyMs) continue;
      const at = observedAt(st, tip, [after])?.[0];
      if (at !== undefined && (first === undefined || at < first)) first = at;
    }
  return first;
};

/**
 * Whether `picked`, a revision of a published ply taken while the tip's own stories do not stand
 * (the reply's piece set down where the tip's search cannot follow), was shown by the board only
 * after the opponent's reply on top of the published move had stood (`minReplyMs`): ...Rc5
 * standing 3.6 s, Bd5 on top (0.25 s, after stops on c6 and e5), the bishop then lifted to be
 * taken and the rook resting on c4 on its way to d5, is not ...Rxc4 with the bishop's ghost on d5.
 * Such a board waits for more evidence, as a half-made story the evidence does not support.
 */
export const revisesUnderReply = (
  st: RecognitionState,
  tipChoice: Group | undefined,
  picked: Group,
): boolean => {
  if (tipChoice?.consistent || picked.root >= st.game.length) return false;
  const stood = (tipChoice && repliedAt(st, tipChoice)) ?? standingReply(st);
  if (stood === undefined) return false;
  // Where the board first showed the revision: its claimed positions, or, claiming none (one
  // exact ply, or none: the published plies put back), the board as it stands since its last change.
  return picked.members.every(e => {
    const claims = claimedBy(picked.kind, e);
    if (claims.length === 0) return picked.kind === 'exact' && st.lastChange > stood;
    return (observedAt(st, picked.root, claims)?.[0] ?? -1) > stood;
  });
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

/**
 * Did the piece of `move` (played from `before`, its position first shown after evidence event
 * `madeAt`) go on before the next ply was made (event `nextAt`): lifted again, set down on
 * another square it could have moved to and the board showing that revision standing
 * (`minReplyMs`), and not set back on the move's square before the next ply? A piece back only as
 * the next ply completes the board is a captured piece carried off over that square (a ghost);
 * so is one shown elsewhere only after an opponent's piece was set down on the move's square.
 */
const wentOn = (
  st: RecognitionState,
  before: Chess,
  move: NormalMove,
  madeAt: number,
  nextAt: number,
): boolean => {
  const mover = before.board.get(move.from);
  if (!mover || castlingSide(before, move)) return false;
  const revisions: Chess[] = [];
  for (const to of before.dests(move.from)) {
    if (to === move.to) continue;
    const pos = before.clone();
    pos.play({ from: move.from, to, promotion: move.promotion });
    revisions.push(pos);
  }
  if (revisions.length === 0) return false;
  const made = before.clone();
  made.play(move);
  let s = replayBase(st, made.board);
  let since: number | undefined;
  let left = false;
  for (let j = madeAt + 1; j < nextAt && j < st.evidence.length; j++) {
    const e = st.evidence[j];
    if (!e || e.kind === 'press' || e.kind === 'adjust' || e.kind === 'tick') continue;
    if (e.kind === 'snapshot') return false;
    if (since !== undefined && e.at - since >= st.options.minReplyMs) left = true;
    // An opponent's piece set down on the move's square: the reply captured the piece there. A
    // revision shown after that is the captured piece carried off (a ghost), not the move going on.
    if (e.square === move.to && typeof e.piece !== 'string' && e.piece.color !== mover.color) return left;
    s = replayEvent(s, e);
    since = revisions.some(p => diffSquares(p.board, s).isEmpty()) ? e.at : undefined;
    // Back on its square (or a piece the board cannot tell from it): the revision was a stop.
    const back =
      e.square === move.to &&
      e.piece !== 'empty' &&
      (e.piece === 'occupied' || (e.piece.color === mover.color && e.piece.role === mover.role));
    if (back) left = false;
  }
  return left;
};

/**
 * Did the published, revisable last move's piece go on from its square (`wentOn`) before event
 * `nextAt` (by default, up to now)? Then a reply seen under way does not prove that move finished.
 */
export const tipWentOn = (st: RecognitionState, nextAt = st.evidence.length): boolean => {
  const tip = st.game.length;
  const last = st.game.moveAt(tip)?.move;
  const before = st.game.positionView(tip - 1);
  return (
    tip > st.anchor &&
    last !== undefined &&
    before !== undefined &&
    'from' in last &&
    wentOn(st, before, last, madeIndexOf(st, tip), nextAt)
  );
};

/**
 * Does the story make final, by a later ply, a move whose piece went on from its square before
 * that ply was made (`wentOn`)? Without a clock: ...Qe6 published (the queen resting there on its
 * way from g6), the queen set down on d6 for 0.3 s, taken off by White (captured first) and
 * White's queen resting on e6 on its way from e5: the board shows ...Qe6 Qxe6 for a moment. Or
 * Rd7 (the rook resting on its way to d8), Rd8+ standing, the rook taken off by Black's Rxd8 and
 * carried off over d7: the board shows Rd7 ...Rd8 for a moment. Such a story waits for the board
 * to stand (the capturer goes on, the ghost is lifted).
 */
export const finalizesWentOn = (st: RecognitionState, g: Group): boolean => {
  const tip = st.game.length;
  if (g.root !== tip || g.members.length === 0) return false;
  return g.members.every(e => {
    const claims = claimedBy(g.kind, e);
    const plies = g.kind === 'exact' ? e.path.length : e.made;
    if (plies === 0) return false;
    const seen = observedAt(st, g.root, claims);
    if (!seen) return false;
    const before = (i: number): Chess | undefined =>
      i === 0 ? st.game.positionView(g.root) : e.positions[i - 1];
    // When ply i was made: the last change of its own squares before the board first showed its
    // position (h6 played while the bishop stood on g5, the board showing Be3 h6 only once the
    // bishop came back to e3 on a later ply: h6 was made when its pawn landed).
    const nextOf = (i: number): number => {
      const shown = seen[i] ?? st.lastChange;
      const m = e.path[i];
      const pre = before(i);
      if (!m || !pre) return shown;
      const own = changedBy(pre, m);
      for (let j = shown; j > madeIndexOf(st, g.root); j--) {
        const ev = st.evidence[j];
        if (ev?.kind === 'square' && own.has(ev.square)) return j;
      }
      return shown;
    };
    // The published tip, made final by the story's first ply.
    if (tipWentOn(st, nextOf(0))) return true;
    // A ply of the story made final by the next one.
    for (let i = 0; i + 1 < plies; i++) {
      const m = e.path[i];
      const from = before(i);
      const at = seen[i];
      if (m && from && at !== undefined && wentOn(st, from, m, at, nextOf(i + 1))) return true;
    }
    return false;
  });
};

/**
 * Does the revision put back on the published move's square the piece that move captured, while
 * the board showed a piece of that colour set down there after the move was made? That is the
 * reply capturing the move's piece, the captured piece set down (a ghost) on the square the
 * capturer came from: Nxh6+ standing, ...gxh6 with the knight set down on g7 as it is carried off
 * reads as Nxg7 with the h6 pawn never taken; ...Nxc4+ standing, dxc4 with the knight set down on
 * d3 reads as ...Nxd3. Such a revision waits for the board to stand (the ghost is lifted).
 */
export const restoresCaptured = (st: RecognitionState, g: Group): boolean => {
  const tip = st.game.length;
  if (g.root >= tip || tip <= st.anchor || g.members.length === 0) return false;
  const last = st.game.moveAt(tip)?.move;
  const before = st.game.positionView(tip - 1);
  if (!last || !before || !('from' in last)) return false;
  const victim = before.board.get(last.to);
  if (!victim || victim.color === before.turn) return false;
  let recaptured = false;
  for (let j = madeIndexOf(st, tip) + 1; j < st.evidence.length && !recaptured; j++) {
    const e = st.evidence[j];
    recaptured =
      e?.kind === 'square' &&
      e.square === last.to &&
      typeof e.piece !== 'string' &&
      e.piece.color === victim.color;
  }
  return (
    recaptured &&
    g.members.every(e => {
      const on = e.positions[e.positions.length - 1]?.board.get(last.to);
      return on?.color === victim.color && on.role === victim.role;
    })
  );
};

/**
 * Was the revision `g` (of the published last move) first shown after a piece of the opponent's
 * was set down on that move's square: the reply capturing the move's piece, the captured piece
 * then carried off over the revision's square? Nxe5 standing, ...fxe5 with the knight set down on
 * f6 as White's press arrives shows Nxf6+ exactly. At a press the reply's capture is read instead
 * (pressReply.ts `capturedInHand`).
 */
export const revisesAfterCapture = (st: RecognitionState, g: Group): boolean => {
  const tip = st.game.length;
  if (g.root >= tip || tip <= st.anchor || g.members.length === 0) return false;
  const last = st.game.moveAt(tip)?.move;
  const before = st.game.positionView(tip - 1);
  if (!last || !before || !('from' in last) || castlingSide(before, last)) return false;
  let captured = -1;
  for (let j = madeIndexOf(st, tip) + 1; j < st.evidence.length && captured < 0; j++) {
    const e = st.evidence[j];
    if (
      e?.kind === 'square' &&
      e.square === last.to &&
      typeof e.piece !== 'string' &&
      e.piece.color !== before.turn
    )
      captured = j;
  }
  if (captured < 0) return false;
  return g.members.every(e => {
    const claims = claimedBy(g.kind, e);
    if (claims.length === 0) return st.lastChange > captured;
    return (observedAt(st, g.root, claims)?.[0] ?? -1) > captured;
  });
};
