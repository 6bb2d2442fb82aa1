/**
 * Every public output that runs behind the broadcast delay, built from `broadcast` of the config:
 * the folder export (`folder`), the delayed public snapshots on `<base>/public/games/<game>` (when
 * `delayMinutes` is above 0; the public display pages read them) and the push to Lichess
 * (`lichess`). The live PGN over HTTP reads the same feed on each request. One `changed()` after
 * every feed change keeps them all in step; `info()` is what `/api/broadcast` answers.
 *
 *   const token = await readPushToken(config.broadcast.lichess);   // Result; the token is never logged
 *   const pub = new PublicOutputs({ config, outputs, publishPublic, token: token.value, scheduler, now, log });
 *   pub.changed();                 // after the feed changed
 *   pub.info();                    // { delay_ms, delay_results, public_base, public_events, push }
 *   pub.problems();                // for /healthz
 *   await pub.stop();
 */
import { readFile } from 'node:fs/promises';
import { Result } from '@badrap/result';
import type { SchedulerLike } from 'rxjs';
import type { BroadcastConfig, Config } from '../config/index.js';
import type { FeedState } from '../feed/feedState.js';
import { parseSecretFile } from '../http/credentials.js';
import type { Logger } from '../logger.js';
import type { WebGameSnapshot } from '../web/contract.js';
import { BroadcastExport } from './broadcastExport.js';
import { LichessPush, type PushRoundStatus } from './lichessPush.js';
import { PublicGames } from './publicGames.js';

/** The path of the delayed event stream the public pages read while a delay is set. */
export const PUBLIC_EVENTS_PATH = '/events/public';

/** The token of `broadcast.lichess`: its file, else the value (config or environment). */
export const readPushToken = async (
  lichess: BroadcastConfig['lichess'],
  read: (path: string) => Promise<string> = path => readFile(path, 'utf8'),
): Promise<Result<string | undefined, Error>> => {
  if (lichess === undefined) return Result.ok(undefined);
  if (lichess.tokenFile !== undefined) {
    let text: string;
    try {
      text = await read(lichess.tokenFile);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return Result.err(new Error(`broadcast.lichess.tokenFile: cannot read ${lichess.tokenFile} (${why})`));
    }
    const token = parseSecretFile(text);
    if (token === '')
      return Result.err(new Error(`broadcast.lichess.tokenFile: ${lichess.tokenFile} is empty`));
    return Result.ok(token);
  }
  if (lichess.token === undefined)
    return Result.err(
      new Error(
        'broadcast.lichess: no token (set tokenFile, token, or the environment variable CHESSBRIDGE_BROADCAST_LICHESS_TOKEN)',
      ),
    );
  return Result.ok(lichess.token);
};

/** What `/api/broadcast` answers (snake_case like the rest of the wire). */
export interface BroadcastInfo {
  readonly delay_ms: number;
  readonly delay_results: boolean;
  /** Topic base of the delayed snapshots (`<base>/public`), null without a delay. */
  readonly public_base: string | null;
  /** The delayed event stream's path, null without a delay. */
  readonly public_events: string | null;
  readonly push: readonly PushRoundStatus[] | null;
}

export interface PublicOutputsOptions {
  readonly config: Config;
  readonly outputs: {
    feed(): FeedState;
    liveSnapshot(round: number, board: number): WebGameSnapshot | undefined;
  };
  /** Retains a delayed public snapshot on `<base>/public/games/<game>`. */
  readonly publishPublic: (snapshot: WebGameSnapshot) => void;
  /** Clears `<base>/public/games/<game>` of a game that left the feed. */
  readonly clearPublic: (game: string) => void;
  /** The push token, when `broadcast.lichess` is set (readPushToken). */
  readonly token: string | undefined;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly log: (suffix: string) => Logger;
}

export class PublicOutputs {
  private readonly exporter: BroadcastExport | undefined;
  private readonly publicGames: PublicGames | undefined;
  private readonly push: LichessPush | undefined;

  constructor(private readonly opts: PublicOutputsOptions) {
    const { broadcast, mqtt } = opts.config;
    const feed = (): FeedState => opts.outputs.feed();
    const timing = { scheduler: opts.scheduler, now: opts.now };
    const log = opts.log('bridge:broadcast');
    if (broadcast.folder !== '')
      this.exporter = new BroadcastExport({
        dir: broadcast.folder,
        feed,
        ...timing,
        log: opts.log('bridge:export'),
      });
    if (broadcast.delayMinutes > 0)
      this.publicGames = new PublicGames({
        feed,
        live: (round, board) => opts.outputs.liveSnapshot(round, board),
        publish: opts.publishPublic,
        clear: opts.clearPublic,
        ...timing,
      });
    if (broadcast.lichess !== undefined && opts.token !== undefined)
      this.push = new LichessPush({
        url: broadcast.lichess.url,
        rounds: broadcast.lichess.rounds,
        token: opts.token,
        feed,
        ...timing,
        log: opts.log('bridge:push'),
      });
    log.info(
      [
        `broadcast delay ${broadcast.delayMinutes} min` +
          (broadcast.delayMinutes > 0
            ? ` (results ${broadcast.delayResults ? 'delayed' : 'at once'}; public topics under ${mqtt.baseTopic}/public/)`
            : ''),
        broadcast.folder === '' ? undefined : `export folder ${broadcast.folder}`,
        broadcast.lichess === undefined
          ? undefined
          : `push to ${broadcast.lichess.url}: ${broadcast.lichess.rounds.map(r => `round ${r.round} to ${r.id}`).join(', ')}`,
      ]
        .filter(s => s !== undefined)
        .join(', '),
    );
  }

  /** The feed changed: every output follows. */
  changed(): void {
    this.exporter?.changed();
    this.publicGames?.changed();
    this.push?.changed();
  }

  info(): BroadcastInfo {
    const { broadcast, mqtt } = this.opts.config;
    const delayed = broadcast.delayMinutes > 0;
    return {
      delay_ms: broadcast.delayMinutes * 60_000,
      delay_results: broadcast.delayResults,
      public_base: delayed ? `${mqtt.baseTopic}/public` : null,
      public_events: delayed ? PUBLIC_EVENTS_PATH : null,
      push: this.push?.status() ?? null,
    };
  }

  /** What is wrong with the public outputs (for /healthz). */
  problems(): string[] {
    return this.push?.problems() ?? [];
  }

  async stop(): Promise<void> {
    await Promise.all([this.exporter?.stop(), this.publicGames?.stop(), this.push?.stop()]);
  }
}
