/**
 * The recognition reducer: `step(state, event) -> { state, outputs }`, pure, with time taken only
 * from event timestamps, so it runs inside RxJS `scan` and replays identically from a journal.
 *
 * Timing rules (docs/recognition.md): a board change only updates the sensed board and the hand;
 * the board is judged when it has been quiet for `settleMs` (noticed at the next event or tick)
 * or at once on a clock press. A move is *made* when the board shows it with nothing in hand,
 * *published* at that judgement, *revisable* until its mover presses the clock or the opponent's
 * reply is made on top of it (then `final`).
 *
 *   let st = startRecognition(Game.standard());
 *   const outs = [];
 *   for (const e of events) { const r = step(st, e); st = r.state; outs.push(...r.outputs); }
 */
import { SquareSet } from 'chessops';
import { type Step, NO_OUTPUTS } from './publish.js';
import { type BoardEvent, sameContent } from './boardEvent.js';
import { evaluate } from './evaluate.js';
import { CENTRE, detectGesture } from './gesture.js';
import { liftOrPlace } from './hand.js';
import type { RecognitionOutput } from './outputs.js';
import {
  changedBetween,
  contentAt,
  diffSquares,
  pieceAt,
  sensedOfContents,
  withContent,
} from './sensedBoard.js';
import type { RecognitionState } from './state.js';

export type { Step } from './publish.js';

const SETTLE = { kind: 'settle' } as const;
const RELEASE = { kind: 'settle', release: true } as const;

/**
 * Does `e` continue a possible result gesture (a piece lifted from the centre, or a king lifted)?
 * Anything else shows a king move held back as a gesture start was a move after all.
 */
const continuesGesture = (st: RecognitionState, e: BoardEvent): boolean => {
  switch (e.kind) {
    case 'square':
      return e.piece !== 'empty' || CENTRE.has(e.square) || st.sensed.king.has(e.square);
    case 'snapshot':
      return false;
    case 'press':
    case 'adjust':
    case 'tick':
      return true;
  }
};

/** The evidence with `e` appended, dropping the oldest half when the cap is reached. */
const withEvidence = (
  st: RecognitionState,
  e: BoardEvent,
): Pick<RecognitionState, 'evidence' | 'made' | 'lastChange'> => {
  if (st.evidence.length < st.options.evidenceCap) {
    return { evidence: [...st.evidence, e], made: st.made, lastChange: st.lastChange };
  }
  const cut = Math.ceil(st.evidence.length / 2);
  const shift = (i: number): number => (i - cut >= 0 ? i - cut : -1);
  return {
    evidence: [...st.evidence.slice(cut), e],
    made: st.made.map(shift),
    lastChange: shift(st.lastChange),
  };
};

const UNSETTLED = { kind: 'unsettled' } as const;

const applySquare = (
  st: RecognitionState,
  e: Extract<BoardEvent, { kind: 'square' }>,
  at: number,
): RecognitionState => {
  const { sensed } = st;
  if (sameContent(contentAt(sensed, e.square), e.piece)) return st.now === at ? st : { ...st, now: at };
  const wasOccupied = sensed.occupied.has(e.square);
  const change = liftOrPlace(st.hand, e.square, pieceAt(sensed, e.square), e.piece, at, wasOccupied);
  const ev = withEvidence(st, e);
  const next: RecognitionState = {
    ...st,
    ...ev,
    now: at,
    lastChange: ev.evidence.length - 1,
    lastChangeAt: at,
    dirty: true,
    status: UNSETTLED,
    sensed: withContent(sensed, e.square, e.piece, change.inferred),
    hand: change.hand,
    touched: st.touched.with(e.square),
  };
  return st.awaitSetup ? setUp(next) : next;
};

/**
 * After an arbiter's restore: once the board shows the restored position, the setting up is over.
 * The pieces moved until then were the arbiter's or the players' hands putting the position back,
 * not a turn: the evidence starts again from here (the touch trace of the next move begins now).
 */
const setUp = (st: RecognitionState): RecognitionState => {
  const tip = st.game.positionView(st.game.length)?.board;
  if (!tip || !diffSquares(tip, st.sensed).isEmpty()) return st;
  return {
    ...st,
    awaitSetup: false,
    hand: [],
    evidence: [],
    made: [],
    lastChange: -1,
    touched: SquareSet.empty(),
  };
};

const applySnapshot = (
  st: RecognitionState,
  e: Extract<BoardEvent, { kind: 'snapshot' }>,
  at: number,
): RecognitionState => {
  const guess = st.game.positionView(st.game.length)?.board;
  const sensed = sensedOfContents(e.board, guess);
  const diff = changedBetween(st.sensed, sensed);
  if (diff.isEmpty()) return st.now === at ? st : { ...st, now: at };
  const ev = withEvidence(st, e);
  return {
    ...st,
    ...ev,
    now: at,
    lastChange: ev.evidence.length - 1,
    lastChangeAt: at,
    dirty: true,
    status: UNSETTLED,
    sensed,
    hand: [],
    touched: st.touched.union(diff),
    catchUp: true,
  };
};

/** Tracks the board only, once a result gesture has ended the game. */
const afterEnd = (st: RecognitionState, e: BoardEvent): RecognitionState => {
  switch (e.kind) {
    case 'square':
      return { ...st, sensed: withContent(st.sensed, e.square, e.piece) };
    case 'snapshot':
      return { ...st, sensed: sensedOfContents(e.board) };
    case 'press':
    case 'adjust':
    case 'tick':
      return st;
  }
};

/** Advances recognition by one event. */
export const step = (st: RecognitionState, e: BoardEvent): Step => {
  const at = Math.max(e.at, st.now);
  if (st.result) return { state: afterEnd(st, e), outputs: NO_OUTPUTS };
  let state = st;
  let outputs: readonly RecognitionOutput[] = NO_OUTPUTS;
  if (state.dirty && at - state.lastChangeAt >= state.options.settleMs) {
    // A king move held back as a possible gesture start is published once the event ending the
    // quiet spell shows something else going on.
    const release = !continuesGesture(state, e);
    const quiet = evaluate(at === state.now ? state : { ...state, now: at }, at, release ? RELEASE : SETTLE);
    state = quiet.state;
    outputs = quiet.outputs;
    if (state.result) return { state: afterEnd(state, e), outputs };
  }
  switch (e.kind) {
    case 'square':
      return { state: applySquare(state, e, at), outputs };
    case 'snapshot':
      return { state: applySnapshot(state, e, at), outputs };
    case 'press': {
      const pressed = evaluate({ ...state, ...withEvidence(state, e), now: at }, at, {
        kind: 'press',
        side: e.side,
      });
      // Kings left on the centre at a press read as the reply begun (evaluate.ts): the board is
      // looked at again once quiet, so a result gesture that stands is one, as without a press.
      const gestureLeft = !pressed.state.result && detectGesture(pressed.state.sensed) !== undefined;
      return {
        state: gestureLeft ? { ...pressed.state, dirty: true } : pressed.state,
        outputs: outputs.length === 0 ? pressed.outputs : [...outputs, ...pressed.outputs],
      };
    }
    case 'adjust':
      return { state: { ...state, ...withEvidence(state, e), now: at }, outputs };
    case 'tick':
      return { state: at === state.now ? state : { ...state, now: at }, outputs };
  }
};

/** Runs a whole stream; returns the final state and every output in order. */
export const runRecognition = (
  st: RecognitionState,
  events: Iterable<BoardEvent>,
): { state: RecognitionState; outputs: RecognitionOutput[] } => {
  let state = st;
  const outputs: RecognitionOutput[] = [];
  for (const e of events) {
    const r = step(state, e);
    state = r.state;
    for (const o of r.outputs) outputs.push(o);
  }
  return { state, outputs };
};
