/**
 * The supervisor as the bridge sees it: a pure reducer over `SupervisorInput`s producing
 * `GameEvent`s with the per-game `seq` (the contract of src/engine/events.ts). The bridge never
 * looks inside the state, and is handed one `SupervisorPort`, so tests can inject a small one.
 *
 *   const engine = engineSupervisor();
 *   let { state } = engine.start({ game: 'r1-b1', edition: 'E23', gameType: 'standard', supervision: 'full' });
 *   const { state: next, events } = engine.step(state, { kind: 'square', at: 0, square: 12, piece: 'empty' });
 *
 * `settleMs` and `holdMs` tell the bridge when time must pass for the recogniser to judge a quiet
 * board (it has no timers: docs/recognition.md); the bridge then feeds a `tick` (gameRun.ts).
 */
import type { GameEvent, GameSettings, SupervisorInput } from '../../engine/events.js';
import { DEFAULT_RECOGNITION } from '../../engine/recognition/state.js';
import { type SupervisorState, startSupervision, superviseStep } from '../../engine/supervisor/index.js';

export interface SupervisorStep<S> {
  readonly state: S;
  readonly events: readonly GameEvent[];
}

/** A supervisor: `start` builds the state of a new game, `step` feeds it one input. Both pure. */
export interface SupervisorPort<S = unknown> {
  start(settings: GameSettings): SupervisorStep<S>;
  step(state: S, input: SupervisorInput): SupervisorStep<S>;
  /** The recogniser's settle window (ms): a tick is due once sensor events have been quiet this long. */
  readonly settleMs: number;
  /** The longer hold of a possible result gesture (ms): a second tick then. */
  readonly holdMs: number;
}

export interface EngineOptions {
  /** Settle window of the recogniser (ms, default the recogniser's). */
  readonly settleMs?: number;
}

/** The engine's supervisor (src/engine/supervisor/). */
export const engineSupervisor = (options: EngineOptions = {}): SupervisorPort<SupervisorState> => {
  const settleMs = options.settleMs ?? DEFAULT_RECOGNITION.settleMs;
  return {
    settleMs,
    holdMs: DEFAULT_RECOGNITION.gestureHoldMs,
    start: settings => startSupervision(settings, { recognition: { settleMs } }),
    step: superviseStep,
  };
};
