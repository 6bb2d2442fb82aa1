/**
 * The steps a judgement of the board ends in (evaluate.ts): the board synced with the game, a
 * mismatch reported, plies published (exactly, or the agreed part of half-made readings), a
 * result gesture ending the game, a wait for the board to stand; and what a press adds to each.
 *
 *   return decideExact(st, root, exact, now, trigger);
 *   return waitForConfirm(st);
 */
import type { Chess, NormalMove } from 'chessops';
import { SquareSet } from 'chessops';
import { makeSanBetween } from '../notation.js';
import { disambiguate } from './choose.js';
import { type Gesture, isGestureRisk } from './gesture.js';
import { MAX_ORDERS, type MismatchReason, type MoveOrders, type RecognitionOutput } from './outputs.js';
import { type Pending, pendingKey } from './pending.js';
import { NO_OUTPUTS, type Step, finalizeByPress, publishLine } from './publish.js';
import type { Explanation } from './search.js';
import { diffSquares, inferFrom } from './sensedBoard.js';
import { type RecognitionState, type Trigger, madeIndexOf, positionAt, squareList } from './state.js';

/** Outputs of two steps, in order. */
export const concat = (
  a: readonly RecognitionOutput[],
  b: readonly RecognitionOutput[],
): readonly RecognitionOutput[] => (a.length === 0 ? b : b.length === 0 ? a : [...a, ...b]);

/** The board shows the published tip: everything in hand is accounted for. */
export const synced = (st: RecognitionState, at: number): Step => {
  const tip = positionAt(st, st.game.length);
  const outputs: RecognitionOutput[] = st.mismatchOpen ? [{ type: 'resolved', at, ply: st.game.length }] : [];
  const state: RecognitionState = {
    ...st,
    sensed: inferFrom(st.sensed, tip.board),
    hand: [],
    status: { kind: 'synced' },
    report: undefined,
    mismatchOpen: false,
    undecided: undefined,
    awaitSetup: false,
    missedTried: false,
    beyondReach: false,
    catchUp: false,
    shown: true,
    dirty: false,
    // Set up again after an arbiter's restore (seen at a settle, after a re-read): see step.ts.
    ...(st.awaitSetup ? { evidence: [], made: [], lastChange: -1, touched: SquareSet.empty() } : {}),
  };
  return { state, outputs };
};

/** The explanations' paths in SAN from `root`: the move orders an ambiguous board leaves open. */
export const ordersOf = (st: RecognitionState, root: number, members: readonly Explanation[]): MoveOrders => {
  const start = positionAt(st, root);
  const lines = members.slice(0, MAX_ORDERS).map(e =>
    e.path.map((move, i) => {
      const before = i === 0 ? start : e.positions[i - 1];
      const after = e.positions[i];
      if (!before || !after) throw new RangeError('recognition: explanation without its positions');
      return makeSanBetween(before, move, after);
    }),
  );
  return { root, lines, total: members.length };
};

export const mismatch = (
  given: RecognitionState,
  at: number,
  reason: MismatchReason,
  trigger: Trigger,
  pending?: Pending,
  reread = given.catchUp,
): Step => {
  // A re-read board nothing explains: its revisable plies go (nobody pressed for them, and the
  // board no longer shows them: a bishop caught resting on b5 when the link went down).
  const cut =
    reason === 'unreachable' && reread && given.game.length > given.anchor
      ? publishLine(given, given.anchor, [], [], at, 'revision', true)
      : undefined;
  const st = cut?.state ?? given;
  const before = cut?.outputs ?? NO_OUTPUTS;
  const squares = diffSquares(positionAt(st, st.game.length).board, st.sensed);
  const key = `mismatch:${reason}:${squares.lo}:${squares.hi}`;
  const state: RecognitionState = {
    ...st,
    status: { kind: 'mismatch', squares, reason },
    report: key,
    mismatchOpen: true,
    dirty: false,
  };
  if (trigger.kind === 'settle' && key === st.report) return { state, outputs: before };
  const out: RecognitionOutput = {
    type: 'mismatch',
    at,
    ply: st.game.length,
    squares: squareList(squares),
    reason,
    trigger: trigger.kind,
    ...(trigger.kind === 'press' ? { side: trigger.side } : {}),
    ...(pending ? { pending } : {}),
    ...(st.undecided ? { orders: st.undecided } : {}),
  };
  return { state, outputs: concat(before, [out]) };
};

/** After a press: the presser's plies become final; a press with his move unfinished is reported. */
export const afterPress = (step: Step, trigger: Trigger, now: number, pending?: Pending): Step => {
  if (trigger.kind !== 'press') return step;
  const fin = finalizeByPress(step.state, trigger.side, now);
  const outputs = concat(step.outputs, fin.outputs);
  const kind = fin.state.status.kind;
  // Pieces in hand after the presser's move is final: the opponent has started (reference §1.1).
  // Made final by this press, or by the reply published with it (a late press message).
  const presserFinal = outputs.some(
    o => o.type === 'final' && fin.state.game.positionView(o.ply - 1)?.turn === trigger.side,
  );
  if (kind === 'synced' || kind === 'ended' || (kind === 'inProgress' && presserFinal)) {
    return { state: fin.state, outputs };
  }
  const reason =
    fin.state.status.kind === 'mismatch'
      ? fin.state.status.reason
      : fin.state.beyondReach
        ? 'beyondReach'
        : 'unreachable';
  const m = mismatch(fin.state, now, reason, trigger, pending);
  return { state: m.state, outputs: concat(outputs, m.outputs) };
};

/**
 * How many of the last plies were the gesture's way, never moves: revisable king moves with no
 * clock press since they were made (the first king set down on the centre; a king set down on its
 * way there, on a square it could go to: Ke2 on the way from e1 to e4, then ...Kd7 on the way to
 * d5). Any other last move (a queen to e4 that the gesture then takes off) was made and stays; so
 * does a king move followed by a press, whichever side the press is read as (the mover completed
 * it), and every ply before it.
 */
export const gesturePlies = (st: RecognitionState): number => {
  const tip = st.game.length;
  // With a clock, a king's way made final by the other king's way on top (Ke2, then ...Kd7) was
  // never pressed for either.
  const floor = st.pressSeen ? Math.min(st.anchor, st.pressedPly) : st.anchor;
  let count = 0;
  for (let ply = tip; ply > floor; ply--) {
    const last = st.game.moveAt(ply);
    if (!last || !('from' in last.move)) break;
    if (positionAt(st, ply - 1).board.get(last.move.from)?.role !== 'king') break;
    if (st.evidence.slice(madeIndexOf(st, ply) + 1).some(e => e.kind === 'press')) break;
    count++;
  }
  return count;
};

export const gestureEnd = (st: RecognitionState, gesture: Gesture, at: number): Step => {
  const way = gesturePlies(st);
  const root = st.game.length - way;
  const cut = way > 0 ? publishLine(st, root, [], [], at, 'gesture') : undefined;
  const base: Step = cut
    ? { state: { ...cut.state, anchor: Math.min(cut.state.anchor, root) }, outputs: cut.outputs }
    : { state: st, outputs: NO_OUTPUTS };
  const out: RecognitionOutput = { type: 'result', at, ply: base.state.game.length, ...gesture };
  const state: RecognitionState = {
    ...base.state,
    result: gesture,
    status: { kind: 'ended', gesture },
    dirty: false,
  };
  return { state, outputs: concat(base.outputs, [out]) };
};

/**
 * Publishes `path` from `root`, except a last ply that may be the first half of a result gesture:
 * that one is held back (the plies before it are published) until the board shows something else
 * going on, or stays quiet for `gestureHoldMs`. `held` says whether something was held back.
 */
export const publish = (
  st: RecognitionState,
  root: number,
  path: readonly NormalMove[],
  positions: readonly Chess[],
  now: number,
  trigger: Trigger,
  complete: boolean,
): { step: Step; held: boolean } => {
  const { settleMs, gestureHoldMs } = st.options;
  let publishedAt = trigger.kind === 'press' ? now : Math.min(now, st.lastChangeAt + settleMs);
  const last = path[path.length - 1];
  const after = positions[positions.length - 1];
  if (trigger.kind === 'settle' && last && after && isGestureRisk(after, last, st.sensed)) {
    if (trigger.release) publishedAt = st.now;
    else if (st.now >= st.lastChangeAt + gestureHoldMs) publishedAt = st.lastChangeAt + gestureHoldMs;
    else {
      const n = path.length - 1;
      const step =
        n > 0
          ? publishLine(st, root, path.slice(0, n), positions.slice(0, n), publishedAt, 'revision', false)
          : undefined;
      const base = step ?? { state: st, outputs: NO_OUTPUTS };
      return {
        step: {
          state: { ...base.state, dirty: true, status: { kind: 'unsettled', held: true } },
          outputs: base.outputs,
        },
        held: true,
      };
    }
  }
  return { step: publishLine(st, root, path, positions, publishedAt, 'revision', complete), held: false };
};

export const decideExact = (
  st: RecognitionState,
  root: number,
  exact: readonly Explanation[],
  now: number,
  trigger: Trigger,
): Step => {
  const chosen = disambiguate(st, root, exact);
  if (!chosen) {
    // The position is legal and reachable, only the order is unknown: kept until decided. The
    // orders start before the tip when its revisable plies are not in them (a bishop caught
    // resting on b5 when the link went down, found on a4 two moves later): those plies are
    // withdrawn, so that the record holds nothing the candidates contradict.
    // Only after a re-read: in play such a board is pieces moving, and the plies stand as they were.
    const cut =
      st.catchUp && root < st.game.length ? publishLine(st, root, [], [], now, 'revision', true) : undefined;
    const base = cut?.state ?? st;
    const undecided = ordersOf(base, root, exact);
    const judged = mismatch({ ...base, undecided }, now, 'ambiguous', trigger);
    const outputs = concat(cut?.outputs ?? NO_OUTPUTS, judged.outputs);
    // At a press the mismatch is reported once, after the presser's plies are final.
    if (trigger.kind === 'settle') return { state: judged.state, outputs };
    return afterPress({ state: judged.state, outputs: cut?.outputs ?? NO_OUTPUTS }, trigger, now);
  }
  const pub = publish(st, root, chosen.path, chosen.positions, now, trigger, true);
  if (pub.held) return pub.step;
  const done = synced(pub.step.state, now);
  return afterPress({ state: done.state, outputs: concat(pub.step.outputs, done.outputs) }, trigger, now);
};

/** The moves all half-made explanations agree were made. */
export const agreedMade = (partials: readonly Explanation[]): { path: NormalMove[]; positions: Chess[] } => {
  const first = partials[0];
  if (!first) return { path: [], positions: [] };
  let n = first.made;
  for (const p of partials) {
    n = Math.min(n, p.made);
    for (let i = 0; i < n; i++) {
      const a = p.path[i];
      const b = first.path[i];
      if (!a || !b || a.from !== b.from || a.to !== b.to || a.promotion !== b.promotion) n = i;
    }
  }
  return { path: first.path.slice(0, n), positions: first.positions.slice(0, n) };
};

export const decidePartial = (
  st: RecognitionState,
  root: number,
  partials: readonly Explanation[],
  now: number,
  trigger: Trigger,
): Step => {
  const { path, positions } = agreedMade(partials);
  let step: Step = { state: st, outputs: NO_OUTPUTS };
  if (path.length > 0) {
    const pub = publish(st, root, path, positions, now, trigger, false);
    if (pub.held) return pub.step;
    step = pub.step;
  }
  const residual = partials.length === 1 ? partials[0]?.residual : undefined;
  const tipBoard = positionAt(step.state, step.state.game.length).board;
  let state: RecognitionState = {
    ...step.state,
    sensed: inferFrom(step.state.sensed, tipBoard),
    dirty: false,
  };
  let outputs = step.outputs;
  let pending: Pending | undefined;
  if (residual?.kind === 'pending') {
    pending = residual.pending;
    const key = pendingKey(pending);
    if (key !== st.report) {
      outputs = concat(outputs, [{ type: 'pending', at: now, ply: state.game.length, pending }]);
    }
    state = { ...state, status: { kind: 'pending', pending }, report: key };
  } else {
    const missing = diffSquares(tipBoard, state.sensed);
    const hand = state.hand.filter(h => missing.has(h.square));
    state = { ...state, hand, status: { kind: 'inProgress', missing } };
  }
  return afterPress({ state, outputs }, trigger, now, pending);
};

/** The board is judged again at the next event or tick, until it has stood `confirmMs`. */
export const waitForConfirm = (st: RecognitionState): Step => ({
  state: { ...st, dirty: true, status: { kind: 'unsettled', held: true } },
  outputs: NO_OUTPUTS,
});
