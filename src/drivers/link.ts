/**
 * What every board session shares about its link, whatever the board: the error a silent link
 * ends in, and the clock a session stamps its observations with (injected: a test's scheduler,
 * replay's capture time, or the monotonic clock live).
 *
 *   const now = sessionNow(options);            // options.now, else the scheduler's, else monotonic
 *   throwError(() => new LinkSilentError(3000)); // "no bytes from the board for 3000 ms"
 */
import type { SchedulerLike } from 'rxjs';
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
