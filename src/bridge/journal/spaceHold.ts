/**
 * Records held in memory while the log's disk is full (`fullDisk: 'hold'`, store.ts): since when,
 * the error of the last try, how many tries, and the pause before the next one. Said when it
 * starts, then about once a minute, and once more when there is space again.
 */
import type { JournalError } from './errors.js';
import type { JournalProblem } from './recover.js';

export class SpaceHold {
  private held: { readonly since: number; error: JournalError; retries: number } | undefined;
  /** Ends the wait before the next retry at once (stop). */
  private wake: (() => void) | undefined;

  constructor(
    private readonly retryMs: number,
    private readonly report: (problem: JournalProblem) => void,
  ) {}

  /** The error of the last try while records are held, else undefined. */
  get error(): JournalError | undefined {
    return this.held?.error;
  }

  /** One more try failed for want of space, with `heldRecords` records waiting. */
  note(error: JournalError, now: number, heldRecords: number): void {
    if (this.held === undefined) this.held = { since: now, error, retries: 0 };
    const held = this.held;
    held.error = error;
    if (held.retries % Math.max(1, Math.round(60_000 / this.retryMs)) === 0)
      this.report({ kind: 'disk-full', error, heldRecords, heldMs: now - held.since });
    held.retries++;
  }

  /** A write went through: if records were held, says that there is space again. */
  end(now: number, records: number): void {
    if (this.held === undefined) return;
    this.report({ kind: 'disk-space-back', records, heldMs: now - this.held.since });
    this.held = undefined;
  }

  /** The pause before a retry; `wakeNow` ends it at once. */
  async pause(): Promise<void> {
    await new Promise<void>(resolve => {
      const timer = setTimeout(resolve, this.retryMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  wakeNow(): void {
    this.wake?.();
  }
}
