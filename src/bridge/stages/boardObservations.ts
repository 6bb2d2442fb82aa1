/**
 * Stage: one board's observations, isolated. The driver session reconnects by itself; this stage
 * only makes sure nothing a board does can end the daemon's stream: an unexpected error (a port
 * that cannot even be configured, a bug) is logged with the board's name and the session is
 * opened again after a back-off, and a resync request re-opens it at once (the fresh dump a new
 * connection starts with is the board's full state).
 *
 *   boardObservations$(board, { open, scheduler, log }, resync$)   // Observation, Observation, …
 */
import {
  catchError,
  concat,
  defer,
  EMPTY,
  type Observable,
  type SchedulerLike,
  startWith,
  switchMap,
  timer,
  ignoreElements,
  repeat,
} from 'rxjs';
import type { ClockCommand } from '../../drivers/dgt/clockCommands.js';
import type { Observation } from '../../drivers/observation.js';
import type { BoardConfig } from '../config/index.js';
import type { Logger } from '../logger.js';

export interface BoardSessionDeps {
  readonly open: (board: BoardConfig, clock$: Observable<ClockCommand>) => Observable<Observation>;
  readonly scheduler: SchedulerLike;
  readonly log: Logger;
  /** Wait before opening a session again after it failed or ended (ms, default 2000). */
  readonly restartMs?: number;
}

export const boardObservations$ = (
  board: BoardConfig,
  deps: BoardSessionDeps,
  resync$: Observable<unknown>,
  clock$: Observable<ClockCommand>,
): Observable<Observation> => {
  const restartMs = deps.restartMs ?? 2000;
  const session$ = defer(() => deps.open(board, clock$)).pipe(
    catchError((e: unknown) => {
      deps.log.error(
        `${board.id}: session failed: ${e instanceof Error ? e.message : String(e)}; opening again in ${restartMs} ms`,
      );
      return EMPTY;
    }),
  );
  // A session that fails or ends is opened again after a pause (a replay ends; a live one never does).
  const forever$ = concat(session$, timer(restartMs, deps.scheduler).pipe(ignoreElements())).pipe(repeat());
  return resync$.pipe(
    startWith(undefined),
    switchMap((_, i) => {
      if (i > 0) deps.log.info(`${board.id}: resync requested: reconnecting for a fresh dump`);
      return forever$;
    }),
  );
};
