/**
 * Keeps one public output in step with the live feed under the broadcast delay: runs `sync` after
 * every change and again whenever the delay releases a held-back move or result, or when the sync
 * asks to be run again (a retry). The timer runs on the daemon's scheduler, so a test scheduler
 * drives it like any other time. Syncs never overlap: a change during a sync asks for one more
 * sync once it ends.
 *
 *   const out = new FeedFollower({ feed: () => outputs.feed(), scheduler, now,
 *                                  sync: async (state, now) => { await write(state, now); return undefined; } });
 *   out.changed();       // after the feed changed
 *   await out.stop();    // cancels the timer, waits for the sync in flight
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import type { FeedState } from '../feed/feedState.js';
import { nextReleaseAt } from '../feed/visible.js';

/** One pass over the feed; resolves with a time to run again at (a retry), if any. Must not reject. */
export type FeedSync = (state: FeedState, now: number) => Promise<number | undefined>;

export interface FeedFollowerOptions {
  /** The feed as it stands. */
  readonly feed: () => FeedState;
  readonly sync: FeedSync;
  /** Schedules the delayed releases and retries. */
  readonly scheduler: SchedulerLike;
  /** The feed's clock, ms since the epoch. */
  readonly now: () => number;
}

export class FeedFollower {
  private timer: Subscription | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly opts: FeedFollowerOptions) {}

  /** The feed changed (or a timer fired): sync now, or once the sync in flight has ended. */
  changed(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    });
  }

  private async run(): Promise<void> {
    const state = this.opts.feed();
    const now = this.opts.now();
    const retryAt = await this.opts.sync(state, now);
    this.timer?.unsubscribe();
    this.timer = undefined;
    const release = nextReleaseAt(state, now);
    const next =
      release === undefined ? retryAt : retryAt === undefined ? release : Math.min(release, retryAt);
    if (next !== undefined && !this.stopped)
      this.timer = this.opts.scheduler.schedule(() => this.changed(), Math.max(0, next - now));
  }

  /** Cancels the timer and waits for the sync in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
    await this.running;
  }
}
