/**
 * Judging the board at a quiet moment (the settle window closed) or at a clock press: is it the
 * game's position, one or a few moves further, a revision of a revisable move, a move half made,
 * pieces in hand, a result gesture, an earlier position (takeback), or none of these (mismatch)?
 *
 *   const { state, outputs } = evaluate(st, 900, { kind: 'settle' });
 *   const pressed = evaluate(st, 950, { kind: 'press', side: 'white' });
 */
import type { Chess, Color, Role, Square } from 'chessops';
import { SquareSet } from 'chessops';
import { detectGesture, isGestureUnderway, isReplyKing } from './gesture.js';
import type { RecognitionOutput } from './outputs.js';
import { type Group, chooseGroup, isSupported } from './choose.js';
import { liftsSince, moveOrder, squareHistory } from './evidence.js';
import {
  finalizesWentOn,
  isReopened,
  preferRevision,
  preferStanding,
  rereadsStop,
  restoresCaptured,
  revisesAfterCapture,
  revisesUnderReply,
} from './revise.js';
import { NO_OUTPUTS, type Step } from './publish.js';
import { leavesOwnLifted, missedReading } from './missedPress.js';
import {
  capturedInHand,
  isPressedStory,
  lastLifted,
  lastSetDown,
  replyInHand,
  shownBut,
} from './pressReply.js';
import {
  afterPress,
  concat,
  decideExact,
  decidePartial,
  gestureEnd,
  mismatch,
  synced,
  waitForConfirm,
} from './decide.js';
import { resetBoard, showsReset, stayReset } from './reset.js';
import {
  DEFAULT_MAX_NODES,
  type Explanation,
  type SearchOptions,
  type SearchResult,
  explain,
} from './search.js';
import { diffSquares } from './sensedBoard.js';
import { type RecognitionState, type Trigger, positionAt } from './state.js';

export type { Trigger } from './state.js';

/**
 * Does the board show the position of an earlier ply before the anchor? Not on a board that has
 * not shown the game's line yet (moves the arbiter recorded, the pieces not set up to them): it
 * takes nothing back.
 */
const isTakeback = (st: RecognitionState): boolean => {
  if (!st.shown) return false;
  for (let ply = st.anchor - 1; ply >= 0; ply--) {
    const pos = st.game.positionView(ply);
    if (pos && diffSquares(pos.board, st.sensed).isEmpty()) return true;
  }
  return false;
};

/** The latest earlier ply (before the anchor) whose position the board shows. */
const takeback = (st: RecognitionState, now: number, trigger: Trigger): Step | undefined => {
  if (!st.shown) return undefined;
  let found = -1;
  let count = 0;
  for (let ply = st.anchor - 1; ply >= 0; ply--) {
    const pos = st.game.positionView(ply);
    if (pos && diffSquares(pos.board, st.sensed).isEmpty()) {
      if (found < 0) found = ply;
      count++;
    }
  }
  if (found < 0) return undefined;
  const game = st.game.truncate(found).unwrap();
  const out: RecognitionOutput = {
    type: 'correction',
    at: now,
    fromPly: found + 1,
    moves: [],
    reason: 'takeback',
    confidence: count === 1 ? 'unique' : 'repeated',
  };
  const state: RecognitionState = {
    ...st,
    undecided: undefined,
    game,
    anchor: found,
    pressedPly: Math.min(st.pressedPly, found),
    evidence: [],
    made: [],
    lastChange: -1,
    touched: SquareSet.empty(),
  };
  const done = synced(state, now);
  return afterPress({ state: done.state, outputs: concat(done.outputs, [out]) }, trigger, now);
};

const PROMOTABLE: ReadonlySet<Role> = new Set(['queen', 'rook', 'bishop', 'knight']);

/** The promotable pieces of `color` put on `square` according to the evidence, the last first. */
const promotionSeen = (st: RecognitionState, square: Square, color: Color): Role[] => {
  const roles: Role[] = [];
  for (let i = st.evidence.length - 1; i >= 0; i--) {
    const e = st.evidence[i];
    if (e?.kind !== 'square' || e.square !== square || typeof e.piece === 'string') continue;
    const { role } = e.piece;
    if (e.piece.color === color && PROMOTABLE.has(role) && !roles.includes(role)) roles.push(role);
  }
  return roles;
};

/** Does the evidence since the anchor hold a snapshot (a re-read board, no intermediate positions)? */
const hasSnapshot = (st: RecognitionState): boolean => st.evidence.some(e => e.kind === 'snapshot');

/**
 * Has `presser` a move to press for: the last published ply is his and not pressed for yet, or his
 * pieces on the board differ from the game's?
 */
const hasMoveToPress = (st: RecognitionState, tipPos: Chess, presser: Color): boolean =>
  (tipPos.turn !== presser && st.game.length > st.pressedPly) ||
  diffSquares(tipPos.board, st.sensed).intersects(tipPos.board[presser].union(st.sensed[presser]));

/** Stories from `root` with every ply made, shown in order but for pieces none of them moves (`shownBut`). */
const chasedBut = (st: RecognitionState, root: number, stories: readonly Explanation[]): Explanation[] => {
  const rootPos = positionAt(st, root);
  return stories.filter(e => e.made > 0 && e.made === e.path.length && shownBut(st, root, rootPos, e));
};

/** Judges the board (see the module comment) at `when`: the press, or the event that ended a quiet spell. */
export const evaluate = (st: RecognitionState, when: number, trigger: Trigger): Step => {
  // Outputs carry the time the judgement could first be made: the end of the settle window.
  const now = trigger.kind === 'press' ? when : Math.min(when, st.lastChangeAt + st.options.settleMs);
  // The pieces were set up again after the game: nothing on the board is the game's any more.
  if (st.reset) return stayReset(st);
  const tip = st.game.length;
  const tipPos = positionAt(st, tip);
  if (diffSquares(tipPos.board, st.sensed).isEmpty()) return afterPress(synced(st, now), trigger, now);
  if (showsReset(st)) return resetBoard(st, now, trigger);
  // What pieces passing through could also show is acted on only once it stands (`confirmMs`).
  const confirmed = trigger.kind === 'settle' && when - st.lastChangeAt >= st.options.confirmMs;
  const confirmAt = st.lastChangeAt + st.options.confirmMs;
  const gesture = detectGesture(st.sensed);
  // At a press a gesture ends the game at once, unless the presser has a move to press for (made
  // since his last press, published or on the board) and his opponent's king left its square, his
  // own standing or moved there by a legal king move: the reply begun before the press was
  // reported, the king set down on the centre next to the other on its way (...Bxf5 pressed with
  // White's king passing over d4, Black's on d5; ...Kxd5 pressed with White's passing over e4).
  // That board is read as any other at a press; a gesture made so must stand, as without a press
  // (step.ts looks at it again once quiet).
  const replyKing =
    gesture !== undefined &&
    trigger.kind === 'press' &&
    isReplyKing(gesture, tipPos, trigger.side) &&
    hasMoveToPress(st, tipPos, trigger.side);
  if (gesture && !replyKing) {
    if (trigger.kind === 'press') return gestureEnd(st, gesture, now);
    return confirmed ? gestureEnd(st, gesture, confirmAt) : waitForConfirm(st);
  }
  // After an arbiter's restore the board must show the restored position first.
  if (st.awaitSetup) return afterPress(mismatch(st, now, 'unreachable', trigger), trigger, now);
  const groups: Group[] = [];
  const occupancy = st.sensed.unknown.nonEmpty();
  const pressBy = trigger.kind === 'press' ? trigger.side : undefined;
  const promotionSeenAt = (square: Square, color: Color): readonly Role[] => promotionSeen(st, square, color);
  // Supported: the board went through the claimed positions, and every capture was seen (an
  // invisible capture is a last resort: it explains a lifted piece too easily), unless the
  // mover says by pressing his clock that his move is complete.
  const seenEnough = (e: Explanation): boolean => e.unseen === 0 || trigger.kind === 'press';
  // How deep to look: after a re-read (a snapshot) as far as the moves made meanwhile may go; in
  // play, with a clock, no further than two plies past the last one its mover pressed for (a blitz
  // reply may come before the press), until the board has stood confirmMs.
  const reread = st.catchUp;
  const bounded = st.pressSeen && !reread && !confirmed;
  const depthFrom = (root: number, unbounded = false): number =>
    reread
      ? st.options.catchUpPlies
      : bounded && !unbounded
        ? Math.max(0, Math.min(st.options.maxPlies, st.pressedPly + 2 - root))
        : st.options.maxPlies;
  const maxNodes = reread ? st.options.catchUpNodes : DEFAULT_MAX_NODES;
  const chess960 = st.game.start.chess960;
  // Options built field by field (no spreads): one object shape for every search.
  const from = (
    root: number,
    unbounded = false,
    depth = depthFrom(root, unbounded),
    nodes = maxNodes,
  ): SearchOptions => {
    const consistent = (e: Explanation, kind: 'exact' | 'partial'): boolean =>
      seenEnough(e) && isSupported(st, root, kind, e);
    const h = squareHistory(st, root);
    // Live play only: a re-read board's catch-up is not ordered by the events (what happened
    // while nobody watched is not in them; ordered, the downtime sweep left one more wrong record).
    const order = reread ? undefined : moveOrder(h, st.sensed);
    if (!occupancy) {
      return {
        maxDepth: depth,
        promotion: st.options.promotion,
        promotionSeen: promotionSeenAt,
        pressBy,
        consistent,
        maxNodes: nodes,
        unseenCaptures: reread,
        chess960,
        order,
      };
    }
    return {
      maxDepth: depth,
      maxNodes: nodes,
      promotion: st.options.promotion,
      promotionSeen: promotionSeenAt,
      pressBy,
      consistent,
      emptied: (sq: Square) => h.emptied[sq] ?? 0,
      landedAfter: (f: Square, t: Square) => (h.lastFilled[t] ?? -1) > (h.firstEmptied[f] ?? -1),
      chess960,
      order,
    };
  };
  // The search from the tip past the presses' bound: made once at most per judgement.
  let pastBound: SearchResult | undefined;
  const beyondBound = (): SearchResult =>
    (pastBound ??= explain(tipPos, st.sensed, st.touched, from(tip, true)));
  const fromTip = explain(tipPos, st.sensed, st.touched, from(tip));
  groups.push(
    { root: tip, kind: 'exact', members: fromTip.exact, consistent: fromTip.exactConsistent },
    { root: tip, kind: 'partial', members: fromTip.partial, consistent: fromTip.partialConsistent },
  );
  const tipChoice = chooseGroup(groups);
  const reopened = isReopened(st);
  // After a re-read, a ply seen made is not read away because the search from the tip ran out of
  // nodes before the board's own history was found (a rook seen on c1 read as gone from d1 to a1):
  // with nothing exact from the tip, such a board is the arbiter's (a mismatch below).
  const tipCut = reread && fromTip.cut && fromTip.exact.length === 0;
  if ((!tipChoice?.consistent || reopened) && !tipCut) {
    // Maybe a revisable move was revised (d3 became d4, Rf1 became O-O).
    for (let root = tip - 1; root >= st.anchor; root--) {
      const found = explain(positionAt(st, root), st.sensed, st.touched, from(root));
      const made = found.partial.filter(p => p.made > 0);
      groups.push(
        { root, kind: 'exact', members: found.exact, consistent: found.exactConsistent },
        { root, kind: 'partial', members: made, consistent: found.partialConsistent },
      );
    }
  }
  const chosen =
    reopened && tipChoice?.consistent ? preferRevision(st, tipChoice, groups) : chooseGroup(groups, reread);
  const picked =
    chosen && trigger.kind === 'settle' && !reread && revisesUnderReply(st, tipChoice, chosen)
      ? tipChoice
      : chosen;
  const found = picked ? preferStanding(st, picked, groups) : undefined;
  // Presses stopped coming and the presses' bound used up: a board read only as pieces in hand, or
  // by a story the evidence does not support, that a story beyond the bound stands as exactly
  // (...Bxd4+ Qxd4 made, read as Black's bishop and White's queen lifted) waits to stand
  // `confirmMs`, then is read without the bound (below).
  if (
    bounded &&
    trigger.kind === 'settle' &&
    tip >= st.pressedPly + 2 &&
    (!found?.consistent || found.members.every(e => e.made === 0)) &&
    beyondBound().exactConsistent &&
    beyondBound().exact.length > 0
  )
    return waitForConfirm(st);
  // A revision reading the published move back to a stop its piece went on from waits (revise.ts).
  if (found?.consistent && trigger.kind === 'settle' && !confirmed && !reread && rereadsStop(st, found))
    return waitForConfirm(st);
  // Without a clock, a story making final a ply whose piece went on from its square before the
  // next ply was made, or a revision reading the reply's capture of the published move's piece as
  // that piece's own move (a ghost), waits for the board to stand (revise.ts).
  if (
    found?.consistent &&
    trigger.kind === 'settle' &&
    !confirmed &&
    !reread &&
    !st.pressSeen &&
    (finalizesWentOn(st, found) || restoresCaptured(st, found))
  )
    return waitForConfirm(st);
  // Without a clock, a game played faster than the settle window (moves a quarter of a second
  // apart, no quiet moment for four plies) leaves the board beyond the tracker's reach while every
  // position it went through was seen: it is followed further, a story the board showed step by
  // step only (never an unsupported one, never after a re-read). So is a game whose presses stopped
  // coming (a player forgot, and his opponent's presses on the lever already down report nothing),
  // once the board has stood `confirmMs`: ...e5 Nf5 ...Nc6 Bc4, a second or two apart.
  if (
    !found?.consistent &&
    trigger.kind === 'settle' &&
    !reread &&
    (!st.pressSeen || confirmed) &&
    !st.undecided &&
    st.options.chasePlies > st.options.maxPlies
  ) {
    // From the tip first (the published plies kept), then from each revisable ply before it.
    for (let root = tip; root >= st.anchor; root--) {
      const chase = explain(
        positionAt(st, root),
        st.sensed,
        st.touched,
        from(root, true, st.options.chasePlies),
      );
      const made = chase.partial.filter(p => p.made > 0);
      const followed = chooseGroup([
        { root, kind: 'exact', members: chase.exact, consistent: chase.exactConsistent },
        { root, kind: 'partial', members: made, consistent: chase.partialConsistent },
      ]);
      if (followed && revisesUnderReply(st, tipChoice, followed)) break;
      if (followed?.consistent && followed.kind === 'exact')
        return decideExact(st, root, followed.members, now, trigger);
      if (followed?.consistent && followed.kind === 'partial')
        return decidePartial(st, root, followed.members, now, trigger);
      // Where presses stopped coming, a piece knocked over and lying since is not compared (the
      // positions after it fell were never shown with it standing), as after a missed press.
      const lying = st.pressSeen ? chasedBut(st, root, made) : [];
      if (lying.length > 0) return decidePartial(st, root, lying, now, trigger);
    }
  }
  // An explanation the evidence does not support is taken only where the board was re-read (a
  // snapshot shows where it got to, not how) or at a press. In live play it would invent moves from
  // pieces in the air: a capturer resting on f6 with the captured bishop already off e7 is not
  // ...Bf6 Bxf6. The board then shows a move under way, and waits for more evidence.
  // After a re-read only a board that stands as a position is taken so: a half-made move on top
  // of moves nobody saw is a guess, and the piece in hand is put down soon enough.
  const snapshot = hasSnapshot(st);
  const unsupported = found !== undefined && !found.consistent && !st.undecided;
  if (unsupported && trigger.kind === 'settle' && (!snapshot || found.kind === 'partial')) {
    // Unless the board shows an earlier position of the game: left standing, that is a takeback
    // (the rooks put back after the reply had begun and made the move final, see below).
    if (isTakeback(st)) {
      if (!confirmed) return waitForConfirm(st);
      const back = takeback(st, confirmAt, trigger);
      if (back) return back;
    }
    // A re-read board read as a move under way is one only until it has stood confirmMs (a game
    // ended meanwhile, a piece taken off): then it is the arbiter's, like a board beyond reach.
    const stood = snapshot && st.catchUp && found.kind === 'partial';
    if (stood && !confirmed) return waitForConfirm(st);
    if (!stood) {
      const missing = diffSquares(tipPos.board, st.sensed);
      return { state: { ...st, dirty: false, status: { kind: 'inProgress', missing } }, outputs: NO_OUTPUTS };
    }
  }
  // Pressed with such a board, or left so: it does not show the game yet (the arbiter's, never an
  // illegal move); the plies nobody pressed for are withdrawn (mismatch).
  if (unsupported && snapshot && found.kind === 'partial' && (trigger.kind === 'press' || confirmed))
    return afterPress(
      mismatch(
        { ...st, catchUp: false },
        trigger.kind === 'press' ? now : confirmAt,
        'unreachable',
        trigger,
        undefined,
        st.catchUp,
      ),
      trigger,
      now,
    );
  // After an undecided catch-up an explanation the evidence does not support is not taken: it
  // would guess the order (publish one of the orders, or a half-made move continuing one). Nor is
  // a half-made one: the plies its orders agree on would be published before the arbiter ordered.
  // Nor, at a press, on a board left beyond reach after missed presses (`beyondReach`): the plies
  // made meanwhile are not known, and a reading the evidence does not support would guess them
  // (...Rd8 published for ...Nb4 Qd2 ...Rd8, the next press then judged an illegal move).
  const choice =
    (st.undecided && found && (!found.consistent || found.kind === 'partial')) ||
    (st.beyondReach && found && !found.consistent)
      ? undefined
      : found;
  // At a press nothing explains: maybe the presser's move is complete and the reply had begun
  // before the press was reported (a king set down on d7 on its way to e8). The opponent's pieces
  // off the game's squares are the reply in hand, never part of the presser's move.
  if (trigger.kind === 'press' && !reread && !st.undecided && !st.beyondReach) {
    if (!choice) {
      const reply = replyInHand(st, trigger.side, from);
      if (reply) return decidePartial(st, reply.root, reply.members, now, trigger);
    }
    // A story the board never showed on its way (Qf4 ...Qg5; or f5 with the reply's pawn lifted
    // from d6) loses to the presser's move with the reply capturing, the captured piece carried
    // off over a square next to it as the press arrives (Qg5 ...Qxg5, the white queen's ghost on
    // f4; fxe5 ...dxe5, the white pawn's on f5), when the board showed that one.
    // So does a press with nothing of the presser's made, his opponent's piece in hand (...dxe4
    // fxe4 made before Black's press, the captured pawn set down on d5 as it arrives: the board
    // shows the position before ...dxe4 with White's f-pawn lifted).
    const nothingMade =
      choice?.kind === 'partial' &&
      choice.root === tip &&
      tipPos.turn === trigger.side &&
      choice.members.every(e => e.made === 0);
    // And a revision of the presser's published move the board showed only after the reply was
    // set down on that move's square (Nxe5 ...fxe5, the knight set down on f6 as the press arrives:
    // Nxf6+ exactly).
    if (choice && (!choice.consistent || nothingMade || revisesAfterCapture(st, choice))) {
      const ghost = capturedInHand(st, trigger.side, from);
      if (ghost) return decidePartial(st, ghost.root, ghost.members, now, trigger);
    }
    // Or a press was missed: more plies made than pressed for, the presser's the last of them
    // (where the presses allow, the board reads only as the presser's move unfinished; not as a
    // revision of his published move the evidence does not support: ...Qg6 for ...Ng6, with the
    // knights of e7 and h4 lifted, never shown so, against ...Ng6, Nxg6 and ...Qxg6 each seen,
    // White's press never reported). Not on a board re-read since (a link back, a restart: what
    // happened meanwhile was not seen), and once only until the board shows the game again: on a
    // board left to the arbiter the deep search would be repeated at every press (measured: nine
    // times the CPU of the downtime sweep).
    const pressedChoice =
      choice !== undefined &&
      choice.members.some(e => isPressedStory(e, trigger.side)) &&
      (choice.consistent || choice.root >= tip);
    // Or it is, with a piece of the presser's own missing (knocked over?): a missed press whose
    // story moved that piece is taken instead (`missedReading`).
    const ownLying = pressedChoice && choice.members.every(e => leavesOwnLifted(e, trigger.side));
    if (bounded && !snapshot && !st.missedTried && (!pressedChoice || ownLying)) {
      // As deep as the chase, with the catch-up's budget (the plies since the last press).
      const further = (root: number): SearchOptions =>
        from(root, true, Math.max(st.options.maxPlies, st.options.chasePlies), st.options.catchUpNodes);
      const missed = missedReading(st, trigger.side, further, ownLying);
      if (missed?.kind === 'exact') return decideExact(st, missed.root, missed.members, now, trigger);
      if (missed) return decidePartial(st, missed.root, missed.members, now, trigger);
      st = { ...st, missedTried: true };
    }
  }
  if (choice?.kind === 'exact') return decideExact(st, choice.root, choice.members, now, trigger);
  if (choice?.kind === 'partial') {
    // At a press, stories of the presser's move complete and the reply begun that differ in where
    // his piece went (a rook resting on e7, then on e8 and taken off by the reply): where it was
    // set down last; or in which of two like pieces made it, the other knocked over: the one that
    // left its square last before the move's square was filled.
    const members =
      trigger.kind === 'press' && choice.members.every(e => isPressedStory(e, trigger.side))
        ? lastLifted(st, choice.root, lastSetDown(st, choice.root, choice.members))
        : choice.members;
    return decidePartial(st, choice.root, members, now, trigger);
  }
  // A reading the presses do not allow yet (more plies than were pressed for) waits: for a press,
  // or for the board to stand. It is never published before.
  if (bounded && trigger.kind === 'settle') {
    const beyond = beyondBound();
    if (
      (beyond.exactConsistent && beyond.exact.length > 0) ||
      (beyond.partialConsistent && beyond.partial.length > 0)
    )
      return waitForConfirm(st);
    // Or only as deep as the chase, every position seen (presses forgotten, plies a second or two
    // apart): followed once the board stands (above).
    if (st.options.chasePlies > st.options.maxPlies) {
      const chased = explain(tipPos, st.sensed, st.touched, from(tip, true, st.options.chasePlies));
      if (chased.exactConsistent && chased.exact.length > 0) return waitForConfirm(st);
      if (chasedBut(st, tip, chased.partial).length > 0) return waitForConfirm(st);
    }
  }
  if (trigger.kind === 'settle' && isTakeback(st)) {
    if (!confirmed) return waitForConfirm(st);
    const back = takeback(st, confirmAt, trigger);
    if (back) return back;
  }
  // A king on a centre square is the first half of a result gesture: the other king is awaited.
  // Not on a re-read board that has stood beyond reach: the game got there while nobody watched (a
  // king walked to e4 in an endgame), the arbiter's like any other such board, not a gesture. Until
  // it has stood, it waits as unsettled: a board taken as in progress is not looked at again.
  if (isGestureUnderway(st.sensed, tipPos.board) && reread && !confirmed && trigger.kind === 'settle')
    return waitForConfirm(st);
  if (isGestureUnderway(st.sensed, tipPos.board) && !(reread && confirmed)) {
    const missing = diffSquares(tipPos.board, st.sensed);
    return afterPress(
      { state: { ...st, dirty: false, status: { kind: 'inProgress', missing } }, outputs: NO_OUTPUTS },
      trigger,
      now,
    );
  }
  // A re-read board the catch-up could not reach: the deep search is not repeated at every change
  // after it (the mismatch goes to the arbiter, who sets the record right).
  const searched = reread ? { ...st, catchUp: false } : st;
  // A press whose move lies beyond the presses' bound (presses were missed) on a board no story
  // within reach explains proves an illegal move only when every story was in reach: each ply
  // lifts a piece, so no more lifts since the last final ply than the search's depth. With more,
  // further plies may have been made (three presses forgotten in a row): the arbiter's.
  // So is what the board shows after that, until it shows the game again.
  const beyond =
    !reread &&
    (st.beyondReach ||
      (trigger.kind === 'press' &&
        bounded &&
        !snapshot &&
        tip >= st.pressedPly + 2 &&
        liftsSince(st) > st.options.chasePlies));
  const judged = beyond ? { ...searched, beyondReach: true } : searched;
  const reason = beyond ? 'beyondReach' : 'unreachable';
  return afterPress(mismatch(judged, now, reason, trigger, undefined, reread), trigger, now);
};
