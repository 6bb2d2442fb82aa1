/**
 * Where White sits at the clock is learned at the first change of the clock seen in the game,
 * never from a reading alone: a new game on a board starts with the previous game's clock still
 * running on the side of whoever was to move when it ended.
 */
import { describe, expect, it } from 'vitest';
import {
  gameStartOf,
  learnWhiteSide,
  startSideLearning,
  withSquare,
} from '../../../src/bridge/game/clockSide.js';
import { type InputMapState, mapObservation, startInputMap } from '../../../src/bridge/game/inputs.js';
import { START_SQUARES, type ClockSide, type Observation } from '../../../src/drivers/observation.js';
import type { SupervisorInput } from '../../../src/engine/events.js';
import { face } from './support.js';

const reading = (
  at: number,
  running: ClockSide | undefined,
  left: number,
  right: number,
  lever?: ClockSide,
): Observation => ({
  type: 'clock',
  at,
  connected: true,
  left: face(left),
  right: face(right),
  running,
  lever: lever ?? running ?? 'left',
  batteryLow: false,
  status: 0,
});

const square = (
  at: number,
  sq: number,
  piece?: { color: 'white' | 'black'; role: 'pawn' | 'knight' },
): Observation => ({
  type: 'square',
  at,
  square: sq,
  content: piece === undefined ? { kind: 'empty' } : { kind: 'piece', ...piece },
});

const feed = (
  state: InputMapState,
  observations: readonly Observation[],
): { state: InputMapState; inputs: SupervisorInput[] } => {
  const inputs: SupervisorInput[] = [];
  let st = state;
  for (const o of observations) {
    const r = mapObservation(st, o);
    st = r.state;
    inputs.push(...r.inputs);
  }
  return { state: st, inputs };
};

const clockInputs = (inputs: readonly SupervisorInput[]) =>
  inputs.filter(i => i.kind !== 'snapshot' && i.kind !== 'square');

const snapshot: Observation = { type: 'snapshot', at: 1, squares: START_SQUARES };
const MIN15 = 15 * 60_000;
// The previous game ended with Black (right) to move: his clock still runs; the flag of White's fell earlier.
const stale = [reading(2, 'right', 212_000, 41_000), reading(1002, 'right', 212_000, 40_000)];

describe("learning White's side at the clock", () => {
  it('does not learn from the previous game still running: set and stopped, then started for White', () => {
    const { state, inputs } = feed(startInputMap({ clock: true }), [
      snapshot,
      ...stale,
      reading(1500, undefined, MIN15, MIN15, 'right'), // the arbiter sets the clock: it stops
      reading(3000, 'left', MIN15, MIN15, 'left'), // Black presses his lever: White's clock starts
      square(4000, 12), // e2
      square(4100, 28, { color: 'white', role: 'pawn' }), // e4
      reading(4500, 'right', MIN15 - 1000, MIN15, 'right'), // White presses
    ]);
    expect(state.whiteSide).toBe('left');
    expect(clockInputs(inputs)).toEqual([
      { kind: 'press', at: 3000, side: 'black' }, // the lever Black pressed to start the game: no move of his
      { kind: 'clock', at: 3000, whiteMs: MIN15, blackMs: MIN15, running: 'white' },
      { kind: 'press', at: 4500, side: 'white' },
      { kind: 'clock', at: 4500, whiteMs: MIN15 - 1000, blackMs: MIN15, running: 'black' },
    ]);
  });

  it('learns from a set-and-run straight from the stale clock (the simulator sets the clock so)', () => {
    const { state, inputs } = feed(startInputMap({ clock: true }), [
      snapshot,
      ...stale,
      reading(1500, 'left', MIN15, MIN15), // set for White and running, the lever over to the left
    ]);
    expect(state.whiteSide).toBe('left');
    expect(clockInputs(inputs)).toEqual([
      { kind: 'press', at: 1500, side: 'black' },
      { kind: 'clock', at: 1500, whiteMs: MIN15, blackMs: MIN15, running: 'white' },
    ]);
  });

  it("learns from White's first press when the clock already ran for White as the game began", () => {
    const { state, inputs } = feed(startInputMap({ clock: true }), [
      snapshot,
      reading(2, 'right', MIN15, MIN15), // White sits on the right; his clock runs
      square(500, 12),
      square(600, 28, { color: 'white', role: 'pawn' }),
      reading(700, 'left', MIN15, MIN15 - 1000),
    ]);
    expect(state.whiteSide).toBe('right');
    expect(clockInputs(inputs)).toEqual([
      { kind: 'press', at: 700, side: 'white' },
      { kind: 'clock', at: 700, whiteMs: MIN15 - 1000, blackMs: MIN15, running: 'black' },
    ]);
  });

  it('passes on no reading of a clock not yet seen to change in the game, even with the side configured', () => {
    // A fallen flag of the previous game is not this game's flag.
    const flagged = [reading(2, undefined, 0, 41_000), reading(900, undefined, 0, 41_000)];
    const configured = startInputMap({ clock: true, whiteSide: 'left' });
    expect(clockInputs(feed(configured, [snapshot, ...flagged]).inputs)).toEqual([]);
    expect(clockInputs(feed(configured, [snapshot, ...stale]).inputs)).toEqual([]);
  });

  it('does not guess when moves were made before the first change seen (a game joined under way)', () => {
    const { state, inputs } = feed(startInputMap({ clock: true }), [
      snapshot,
      square(10, 12),
      square(11, 28, { color: 'white', role: 'pawn' }),
      square(20, 52),
      square(21, 36, { color: 'black', role: 'pawn' }),
      reading(30, 'left', MIN15, MIN15),
      reading(40, 'right', MIN15, MIN15),
    ]);
    expect(state.whiteSide).toBeUndefined();
    expect(clockInputs(inputs)).toEqual([]);
  });

  it("takes the side to move and the position from the game's start (FEN)", () => {
    // Black to move after 1. e4: Black sits on the left and moves e5, then presses.
    const start = gameStartOf('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    let l = startSideLearning(start);
    expect(learnWhiteSide(l, 'left')).toBe('right'); // nothing played: Black's clock started
    l = withSquare(l, 52, 'empty');
    l = withSquare(l, 36, { color: 'black', role: 'pawn' });
    expect(learnWhiteSide(l, 'right')).toBe('right'); // Black moved and pressed: White's runs
    // A white piece moving first is not the move of the player to move: no answer.
    let w = startSideLearning(start);
    w = withSquare(w, 11, 'empty');
    w = withSquare(w, 27, { color: 'white', role: 'pawn' });
    expect(learnWhiteSide(w, 'right')).toBeUndefined();
  });
});
