/**
 * What every board session shares about its link, whatever the board: the error a silent link
 * ends in, and the clock a session stamps its observations with (injected: a test's scheduler,
 * replay's capture time, or the monotonic clock live).
 *
 *   const now = sessionNow(options);            // options.now, else the scheduler's, else monotonic
 *   throwError(() => new LinkSilentError(3000)); // "no bytes from the board for 3000 ms"
 *   awakeTimer$(80, scheduler);                  // emits once 80 ms have passed with the daemon awake
 */
import { concatMap, defer, type Observable, of, type SchedulerLike, timer } from 'rxjs';
import { monotonicNow } from './transport/transport.js';

/** The link was silent for too long. */
export class LinkSilentError extends Error {
  constructor(readonly silentMs: number) {
    super(`no bytes from the board for ${silentMs} ms`);
    this.name = 'LinkSilentError';
  }
}

export const sessionNow = (o: { readonly scheduler?: SchedulerLike; readonly now?: () => number }) => {
  const scheduler = o.scheduler;
  return o.now ?? (scheduler !== undefined ? () => scheduler.now() : monotonicNow);
};

/** Waits an awake timer takes again, at most, after waits that ended late. */
const STALLED_WAITS = 10;

/**
 * A timer for deciding that a board said nothing: emits once after `ms`, unless the wait ended
 * late by more than a quarter of its length. Such a wait measured the daemon, not the board: the
 * process was stalled (a busy machine), and what the board sent may be in its input unread (Node
 * runs due timers before it reads), so it waits again, up to STALLED_WAITS times.
 */
export const awakeTimer$ = (ms: number, scheduler: SchedulerLike): Observable<0> => {
  const wait$ = (stalls: number): Observable<0> =>
    defer(() => {
      const due = scheduler.now() + ms;
      return timer(ms, scheduler).pipe(
        concatMap(() =>
          scheduler.now() - due > ms / 4 && stalls < STALLED_WAITS ? wait$(stalls + 1) : of(0 as const),
        ),
      );
    });
  return wait$(0);
};
