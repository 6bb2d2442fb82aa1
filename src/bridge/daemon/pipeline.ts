/**
 * The daemon's pipeline, in one place (STYLE 14): per board, the driver session's observations
 * are tracked and routed into the board's game; per game, a lane journals every input (synced)
 * before the supervisor decides anything from it, then publishes what it decided. Boards and
 * games are isolated: each runs in its own inner stream, and an error in one is caught there.
 * `src/main.ts` holds the only subscription, with `takeUntil(shutdown$)` last.
 *
 *   board:  session ─▶ boardObservations$ ─▶ trackBoard ─▶ (journal entry into its game) ─▶ board state
 *   game:   inbox + wakes ─▶ journalEntries ─▶ superviseGame ─▶ publishGame ─▶ (wakeTimer ↺)
 *
 *   makePipeline$(deps).pipe(takeUntil(shutdown$)).subscribe();   // in main.ts
 */
import {
  auditTime,
  catchError,
  defer,
  EMPTY,
  endWith,
  filter,
  finalize,
  ignoreElements,
  map,
  merge,
  mergeMap,
  type Observable,
  type SchedulerLike,
  startWith,
  connect,
  Subject,
  takeUntil,
  tap,
} from 'rxjs';
import type { ClockCommand } from '../../drivers/dgt/clockCommands.js';
import type { BoardRegistry, BoardSlot } from './boards.js';
import type { BoardOpener } from './drivers.js';
import type { SupervisorPort } from '../game/engine.js';
import type { GameLane, GameRegistry, JournalPort } from './games.js';
import type { DaemonOutputs } from './outputs.js';
import type { Logger } from '../logger.js';
import { boardObservations$ } from '../stages/boardObservations.js';
import { journalEntries } from '../stages/journalEntries.js';
import { publishGame } from '../stages/publishGame.js';
import { superviseGame } from '../stages/superviseGame.js';
import { trackBoard } from '../stages/trackBoard.js';
import type { LaneItem } from '../stages/types.js';
import { wakeTimer } from '../stages/wakeTimer.js';

export interface PipelineDeps {
  readonly boards: BoardRegistry;
  readonly games: GameRegistry;
  readonly engine: SupervisorPort;
  readonly journal: JournalPort;
  readonly outputs: DaemonOutputs;
  readonly openBoard: BoardOpener;
  readonly scheduler: SchedulerLike;
  /** The daemon's clock: observations and wakes share it. */
  readonly now: () => number;
  readonly log: Logger;
  /** The language of the log's sentences (the venue's, `http.language`; default English). */
  readonly language?: string;
  /** How long a board's state is held back to gather changes before it is published (ms, default 250). */
  readonly boardStateMs?: number;
  /** Other long-lived work sharing the subscription (requests, health, watchdog). */
  readonly extras?: readonly Observable<unknown>[];
}

/** One board: its session, tracked and routed, its retained state kept current. Never errors. */
export const boardLane$ = (slot: BoardSlot, deps: PipelineDeps): Observable<unknown> =>
  defer(() => {
    const id = slot.config.id;
    const log = deps.log.child(`board:${id}`);
    const resync = new Subject<void>();
    const clock = new Subject<ClockCommand>();
    // The board's state version last published: observations that changed nothing of it (clock
    // readings, mostly) do not make and publish it again.
    let published = -1;
    deps.boards.setControls(id, { resync: () => resync.next(), clock: c => clock.next(c) });
    return boardObservations$(
      slot.config,
      { open: deps.openBoard, scheduler: deps.scheduler, log },
      resync,
      clock,
    ).pipe(
      trackBoard({
        id,
        boards: deps.boards,
        route: (board, o) => deps.games.route(board, o),
        consider: board => deps.games.considerBoard(board),
        log,
      }),
      filter(() => deps.boards.stateVersion(id) !== published),
      auditTime(deps.boardStateMs ?? 250, deps.scheduler),
      tap(() => {
        published = deps.boards.stateVersion(id);
        deps.outputs.boardState(id);
      }),
      catchError((e: unknown) => {
        log.error(`board lane stopped: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return EMPTY;
      }),
    );
  });

/** One game: journal, decide, publish, and wake itself when time must pass. Never errors. */
export const gameLane$ = (lane: GameLane, deps: PipelineDeps): Observable<unknown> =>
  defer(() => {
    const { slot } = lane;
    const log = deps.log.child(`game:${slot.id}`);
    const wakes = new Subject<number>();
    const items$: Observable<LaneItem> = merge(
      slot.inbox.items$.pipe(finalize(() => wakes.complete())),
      wakes.pipe(map((at): LaneItem => ({ kind: 'wake', at }))),
    );
    return items$.pipe(
      journalEntries({ append: entry => deps.journal.append(slot.id, entry), log }),
      superviseGame({ engine: deps.engine, initial: lane.initialRun }),
      connect(steps$ =>
        merge(
          steps$.pipe(
            publishGame({
              initial: lane.initialView,
              outputs: deps.outputs.forGame(),
              log,
              ...(deps.language === undefined ? {} : { language: deps.language }),
            }),
            tap(p => deps.games.stepped(slot, p.stepped.run, p.view)),
          ),
          steps$.pipe(
            map(s => s.run),
            startWith(lane.initialRun),
            wakeTimer({ scheduler: deps.scheduler, now: deps.now }),
            tap(at => wakes.next(at)),
            takeUntil(steps$.pipe(ignoreElements(), endWith(true))),
            ignoreElements(),
          ),
        ),
      ),
      catchError((e: unknown) => {
        log.error(`game lane stopped: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return EMPTY;
      }),
      finalize(() => deps.games.closed(slot)),
    );
  });

/** Everything the daemon runs, merged: boards, games (as they come), and the extras. */
export const makePipeline$ = (deps: PipelineDeps): Observable<unknown> =>
  merge(
    ...deps.boards.all().map(slot => boardLane$(slot, deps)),
    deps.games.lanes$.pipe(mergeMap(lane => gameLane$(lane, deps))),
    ...(deps.extras ?? []),
  );
