/**
 * The delayed public snapshots (config `broadcast.delayMinutes` above 0): after every feed change
 * and at every release of the broadcast delay, each game's public snapshot (game/publicView.ts) is
 * retained on `<base>/public/games/<game>` when what it shows changed. The public display pages
 * read these topics (over MQTT, or over `/events/public`) while a delay is set; the arbiter console
 * keeps reading the live `games/<game>` topics. A game that leaves the feed (another game took its
 * round and board, or its board left the round) has its public copy cleared (`clear`): an empty
 * retained payload, and the publisher no longer re-publishes it after a reconnect.
 *
 *   const pub = new PublicGames({ feed: () => outputs.feed(), live: (r, b) => outputs.liveSnapshot(r, b),
 *                                 publish: s => publisher.retain(topics.publicGame(s.game), s),
 *                                 clear: g => publisher.clearRetained(topics.publicGame(g)), scheduler, now });
 *   pub.changed();        // after the feed changed
 *   await pub.stop();
 */
import type { SchedulerLike } from 'rxjs';
import { delayOf, viewGame } from '../feed/visible.js';
import { publicSnapshot } from '../game/publicView.js';
import type { WebGameSnapshot } from '../web/contract.js';
import { FeedFollower } from './feedFollower.js';
import type { FeedState } from '../feed/feedState.js';

export interface PublicGamesOptions {
  readonly feed: () => FeedState;
  /** The live snapshot of the game on a round's board, if the daemon has one. */
  readonly live: (round: number, board: number) => WebGameSnapshot | undefined;
  /** Retains a public snapshot. */
  readonly publish: (snapshot: WebGameSnapshot) => void;
  /** Clears the retained public snapshot of a game that left the feed. */
  readonly clear: (game: string) => void;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
}

export class PublicGames {
  private readonly follower: FeedFollower;
  /** Per game: the feed view key, the live snapshot and the content (without seq and at) published last. */
  private readonly published = new Map<string, { key: string; live: WebGameSnapshot; content: string }>();

  constructor(private readonly opts: PublicGamesOptions) {
    this.follower = new FeedFollower({
      feed: opts.feed,
      scheduler: opts.scheduler,
      now: opts.now,
      sync: (state, now) => {
        this.sync(state, now);
        return Promise.resolve(undefined);
      },
    });
  }

  private sync(state: FeedState, now: number): void {
    const inFeed = new Set<string>();
    for (const [number, round] of state.rounds) {
      const delayMs = delayOf(round);
      for (const [board, entry] of round.games) {
        const live = this.opts.live(number, board);
        if (live === undefined) continue;
        inFeed.add(live.game);
        const view = viewGame(state, entry, now);
        const last = this.published.get(live.game);
        if (last !== undefined && last.key === view.key && sameHeaders(last.live, live)) continue;
        // A new move still withheld changes the view's key but nothing the public sees.
        const snapshot = publicSnapshot(live, view, delayMs, now);
        const content = JSON.stringify({ ...snapshot, seq: 0, at: 0 });
        this.published.set(live.game, { key: view.key, live, content });
        if (last?.content !== content) this.opts.publish(snapshot);
      }
    }
    for (const game of this.published.keys()) {
      if (inFeed.has(game)) continue;
      this.published.delete(game);
      this.opts.clear(game);
    }
  }

  /** The feed changed: publish what changed, now or once the pass in flight has ended. */
  changed(): void {
    this.follower.changed();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
  }
}

/** What a public snapshot takes from the live one besides the moves and result. */
const sameHeaders = (a: WebGameSnapshot, b: WebGameSnapshot): boolean =>
  a.board === b.board && a.event === b.event && a.status === b.status;
