/**
 * The daemon's folder export (config `broadcast.folder`): keeps the folder in step with the live
 * feed after every change, and again when the broadcast delay releases held-back moves (a
 * FeedFollower). A failing disk is logged once per kind of failure.
 *
 *   const out = new BroadcastExport({ dir: 'live', feed: () => outputs.feed(), scheduler, now, log });
 *   out.changed();       // after the feed changed
 *   await out.stop();    // cancels the timer, waits for the sync in flight
 */
import type { SchedulerLike } from 'rxjs';
import { FolderExport } from '../feed/folderExport.js';
import type { FeedState } from '../feed/feedState.js';
import type { Logger } from '../logger.js';
import { FeedFollower } from './feedFollower.js';

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
  private readonly follower: FeedFollower;
  /** The last sync's failure text, so a failing disk is logged once per kind of failure. */
  private lastError = '';

  constructor(opts: BroadcastExportOptions) {
    const folder = new FolderExport({ dir: opts.dir });
    this.follower = new FeedFollower({
      feed: opts.feed,
      scheduler: opts.scheduler,
      now: opts.now,
      sync: async (state, now) => {
        try {
          await folder.sync(state, now);
          if (this.lastError !== '') opts.log.info(`export folder ${opts.dir} written again`);
          this.lastError = '';
        } catch (err) {
          const text = err instanceof Error ? err.message : String(err);
          if (text !== this.lastError) opts.log.error(`export folder ${opts.dir}: ${text}`);
          this.lastError = text;
        }
        return undefined;
      },
    });
  }

  /** The feed changed: sync now, or once the sync in flight has ended. */
  changed(): void {
    this.follower.changed();
  }

  /** Cancels the release timer and waits for the sync in flight. */
  async stop(): Promise<void> {
    await this.follower.stop();
  }
}
