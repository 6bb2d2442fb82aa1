/**
 * Stage: time passing for a game. After every step, the next tick the game needs (end of a settle
 * window, a gesture hold, the one-second heartbeat of a running clock: gameRun.ts) is armed as a
 * timer on the injected scheduler; a newer step re-arms it. When it fires, a wake for exactly that
 * time goes back into the lane — queued behind the records still being journaled, so live and
 * replay feed the same ticks. A timer that fires early (timers may round down) waits again.
 *
 *   runs$.pipe(wakeTimer({ scheduler, now }))   // 1747488600301 (a wake time) …
 */
import {
  EMPTY,
  distinctUntilChanged,
  map,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import { type GameRun, nextWakeAt } from '../game/gameRun.js';

export interface WakeDeps {
  readonly scheduler: SchedulerLike;
  /** The clock observations are stamped with (ms). */
  readonly now: () => number;
}

/** Waits until `now() >= at` (re-arming after an early timer); emits `at` once. */
const waitUntil = (at: number, deps: WakeDeps): Observable<number> =>
  timer(Math.max(0, at - deps.now()), deps.scheduler).pipe(
    switchMap(() => (deps.now() >= at ? [at] : waitUntil(at, deps))),
  );

export const wakeTimer =
  (deps: WakeDeps): OperatorFunction<GameRun, number> =>
  runs$ =>
    runs$.pipe(
      map(nextWakeAt),
      distinctUntilChanged(),
      switchMap(at => (at === undefined ? EMPTY : waitUntil(at, deps))),
    );
