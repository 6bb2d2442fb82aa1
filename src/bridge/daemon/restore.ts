/**
 * Start-up: every unfinished game is rebuilt by replaying its journal through the same reducer
 * the live pipeline runs (so the same events with the same seq come out), put back on its board,
 * and its events that the broker may not have acknowledged are queued again (the ack ledger says
 * which: docs/mqtt.md, delivery guarantee). Finished games are only remembered, so their
 * pairings are not started again.
 *
 *   const report = (await journal.start()).unwrap();
 *   const summary = await restoreGames(report, { dir, games, engine, outputs, republish, config, log });
 *   // { resumed: 3, events: 412, republished: 17, finished: 9 }
 */
import type { SupervisorPort } from '../game/engine.js';
import type { GameRegistry } from './games.js';
import type { DaemonOutputs } from './outputs.js';
import type { Config } from '../config/index.js';
import { listJournals, readJournalAll, type StartReport } from '../journal/index.js';
import type { Logger } from '../logger.js';
import type { EventMessage } from '../mqtt/topics.js';
import { replayGameRun } from '../game/gameRun.js';
import { engineSettingsOf, gameInfoOf } from '../game/gameSpecs.js';
import { foldView, startView } from '../game/gameView.js';
import { makeEventMessage } from '../wire/events.js';

export interface RestoreContext {
  /** The journal folder (to list finished games). */
  readonly dir: string;
  readonly games: GameRegistry;
  readonly engine: SupervisorPort;
  readonly outputs: DaemonOutputs;
  /** Queues a game's events above the ack ledger's seq (EventPublisher.publishFrom); returns how many. */
  readonly republish: (game: string, events: readonly EventMessage[]) => number;
  readonly config: Config;
  readonly log: Logger;
}

export interface RestoreSummary {
  readonly resumed: number;
  readonly failed: number;
  readonly events: number;
  readonly republished: number;
  readonly finished: number;
}

export const restoreGames = async (report: StartReport, ctx: RestoreContext): Promise<RestoreSummary> => {
  const listed = await listJournals(ctx.dir);
  let finished = 0;
  if (listed.isOk) {
    const ids = listed.value.journals.filter(j => j.finished).map(j => j.header.game);
    ctx.games.markFinished(ids);
    finished = ids.length;
  } else ctx.log.warn(`cannot list finished games: ${listed.error.message}`);
  let resumed = 0;
  let failed = 0;
  let events = 0;
  let republished = 0;
  for (const open of report.games) {
    const { header } = open;
    const contents = await readJournalAll(open.path);
    if (contents.isErr) {
      failed += 1;
      ctx.log.error(`game ${header.game} cannot be resumed: ${contents.error.message} (left to the arbiter)`);
      continue;
    }
    const board = header.board === '' ? undefined : header.board;
    const replayed = replayGameRun(
      ctx.engine,
      engineSettingsOf(header.game, header.settings),
      { clock: false },
      contents.value.records,
    );
    const view = replayed.events.reduce(foldView, startView(gameInfoOf(header, board, ctx.config)));
    const slot = ctx.games.resume(header, replayed.run, view);
    const sent = ctx.republish(header.game, replayed.events.map(makeEventMessage));
    ctx.outputs.view(slot.view);
    resumed += 1;
    events += replayed.events.length;
    republished += sent;
    ctx.log.info(
      `game ${header.game} resumed from ${contents.value.records.length} records: ${view.record.length} plies, seq ${replayed.run.seq}` +
        `${sent > 0 ? `, ${sent} events published again` : ''}${slot.board === undefined ? ' (no board here)' : ` on board ${slot.board}`}`,
    );
  }
  return { resumed, failed, events, republished, finished };
};
