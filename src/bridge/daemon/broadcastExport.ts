/**
 * The daemon's folder export (config `broadcast.folder`): keeps the folder in step with the live
 * feed after every change, and again when the broadcast delay releases held-back moves. The
 * release timer runs on the daemon's scheduler, so a test scheduler drives it like any other time.
 * Syncs never overlap: a change during a sync asks for one more sync once it ends.
 *
 *   const out = new BroadcastExport({ dir: 'live', feed: () => outputs.feed(), scheduler, now, log });
 *   out.changed();       // after the feed changed
 *   await out.stop();    // cancels the timer, waits for the sync in flight
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import { FolderExport } from '../feed/folderExport.js';
import type { FeedState } from '../feed/feedState.js';
import { nextReleaseAt } from '../feed/visible.js';
import type { Logger } from '../logger.js';

export interface BroadcastExportOptions {
  /** The export folder (created if missing). */
  readonly dir: string;
  /** The feed as it stands. */
  readonly feed: () => FeedState;
  /** Schedules the delayed releases. */
  readonly scheduler: SchedulerLike;
  /** The feed's clock, ms since the epoch. */
  readonly now: () => number;
  readonly log: Logger;
}

export class BroadcastExport {
  private readonly folder: FolderExport;
  private timer: Subscription | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** The last sync's failure text, so a failing disk is logged once per kind of failure. */
  private lastError = '';

  constructor(private readonly opts: BroadcastExportOptions) {
    this.folder = new FolderExport({ dir: opts.dir });
  }

  /** The feed changed: sync now, or once the sync in flight has ended. */
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
    try {
      await this.folder.sync(state, now);
      if (this.lastError !== '') this.opts.log.info(`export folder ${this.opts.dir} written again`);
      this.lastError = '';
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      if (text !== this.lastError) this.opts.log.error(`export folder ${this.opts.dir}: ${text}`);
      this.lastError = text;
    }
    this.timer?.unsubscribe();
    this.timer = undefined;
    const next = nextReleaseAt(state, now);
    if (next !== undefined && !this.stopped)
      this.timer = this.opts.scheduler.schedule(() => this.changed(), Math.max(0, next - now));
  }

  /** Cancels the release timer and waits for the sync in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
    await this.running;
  }
}
