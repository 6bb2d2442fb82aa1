/**
 * Stage: the game's reducer inside the stream (STYLE 15). Every journaled record and every wake
 * goes through `stepGameRun` (input mapping, ticks, supervisor) in a `scan`; out come the game as
 * it now stands and the events it published, in seq order. Pure: no I/O happens here.
 *
 *   journaled$.pipe(superviseGame({ engine, initial: run }))
 *   // { run, events: [{ type: 'move', seq: 12, … }], record }
 */
import { type OperatorFunction, scan } from 'rxjs';
import type { SupervisorPort } from '../game/engine.js';
import { type GameRun, stepGameRun } from '../game/gameRun.js';
import type { Journaled, Stepped } from './types.js';

export interface SuperviseDeps {
  readonly engine: SupervisorPort;
  /** The game as it stands before the first input (fresh, or rebuilt from its journal). */
  readonly initial: GameRun;
}

const stepOnce = (engine: SupervisorPort, run: GameRun, j: Journaled): Stepped => {
  switch (j.kind) {
    case 'record': {
      const r = stepGameRun(engine, run, { kind: 'record', record: j.record });
      return {
        run: r.run,
        events: r.events,
        record: j.record,
        ...(j.done === undefined ? {} : { done: j.done }),
      };
    }
    case 'wake': {
      const r = stepGameRun(engine, run, { kind: 'wake', at: j.at });
      return { run: r.run, events: r.events, record: undefined };
    }
    case 'refused':
      return {
        run,
        events: [],
        record: undefined,
        refused: j.error,
        ...(j.done === undefined ? {} : { done: j.done }),
      };
  }
};

export const superviseGame =
  (deps: SuperviseDeps): OperatorFunction<Journaled, Stepped> =>
  source$ =>
    source$.pipe(
      scan<Journaled, Stepped, undefined>(
        (prev, j) => stepOnce(deps.engine, prev?.run ?? deps.initial, j),
        undefined,
      ),
    );
