/**
 * Start-up: every unfinished game is rebuilt by replaying its journal through the same reducer
 * the live pipeline runs (so the same events with the same seq come out), put back on its board,
 * and its events that the broker may not have acknowledged are queued again (the ack ledger says
 * which: docs/mqtt.md, delivery guarantee). Finished games are only remembered, so their
 * pairings are not started again. A damaged journal is salvaged: the game resumes from every
 * record that checks out and the arbiter gets one alert saying what was lost (journalDamage.ts).
 *
 *   const report = (await journal.start()).unwrap();
 *   const summary = await restoreGames(report, { dir, games, engine, outputs, republish, config, log, now });
 *   // { resumed: 3, events: 412, republished: 17, finished: 9, damaged: 0 }
 */
import { basename } from 'node:path';
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
import { damageAlert, damageNote, damageReport, describeReport } from './journalDamage.js';

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
  /** Wall clock, ms since the epoch (the alerts' `at`). */
  readonly now: () => number;
}

export interface RestoreSummary {
  readonly resumed: number;
  readonly failed: number;
  readonly events: number;
  readonly republished: number;
  readonly finished: number;
  /** Games resumed from a damaged journal (each with a `journal_damaged` alert). */
  readonly damaged: number;
}

export const restoreGames = async (report: StartReport, ctx: RestoreContext): Promise<RestoreSummary> => {
  const listed = await listJournals(ctx.dir);
  let finished = 0;
  if (listed.isOk) {
    const ids = listed.value.journals.filter(j => j.finished).map(j => j.header.game);
    ctx.games.markFinished(ids);
    finished = ids.length;
    // A file that is not a readable journal (its header damaged) is left to the arbiter; its
    // pairing counts as played, so the board goes on to its next one.
    for (const p of listed.value.problems) {
      const id = 'file' in p ? basename(p.file, '.jsonl') : undefined;
      if (id === undefined) continue;
      ctx.games.markFinished([id]);
      ctx.log.error(`game ${id} cannot be read: ${p.message} (left to the arbiter; the board goes on)`);
    }
  } else ctx.log.warn(`cannot list finished games: ${listed.error.message}`);
  let resumed = 0;
  let failed = 0;
  let events = 0;
  let republished = 0;
  let damaged = 0;
  for (const open of report.games) {
    const { header } = open;
    // Damage inside the file does not stop the game: every record that checks out is kept.
    const contents = await readJournalAll(open.path, { salvage: true });
    if (contents.isErr) {
      failed += 1;
      ctx.games.markFinished([header.game]);
      ctx.log.error(
        `game ${header.game} cannot be resumed: ${contents.error.message} (left to the arbiter; the board goes on)`,
      );
      continue;
    }
    const { records } = contents.value;
    const board = header.board === '' ? undefined : header.board;
    const replayed = replayGameRun(
      ctx.engine,
      engineSettingsOf(header.game, header.settings),
      { clock: false },
      records,
    );
    const view = replayed.events.reduce(foldView, startView(gameInfoOf(header, board, ctx.config)));
    const damage = damageReport(
      header.game,
      contents.value.damage,
      report.cutTails.get(header.game),
      records,
    );
    const notes = damage === undefined ? [] : [damageNote(damage, replayed.run.lastAt ?? ctx.now())];
    const slot = ctx.games.resume(header, replayed.run, view, notes);
    const sent = ctx.republish(header.game, replayed.events.map(makeEventMessage));
    ctx.outputs.view(slot.view);
    if (damage !== undefined) {
      const text = describeReport(damage, records.length);
      ctx.log.error(text);
      ctx.outputs.forGame().alert(
        damageAlert(damage, {
          text,
          kept: records.length,
          at: ctx.now(),
          seq: replayed.run.seq,
          ply: view.record.length,
          board: slot.board,
        }),
      );
      damaged += 1;
    }
    resumed += 1;
    events += replayed.events.length;
    republished += sent;
    ctx.log.info(
      `game ${header.game} resumed from ${records.length} records: ${view.record.length} plies, seq ${replayed.run.seq}` +
        `${sent > 0 ? `, ${sent} events published again` : ''}${slot.board === undefined ? ' (no board here)' : ` on board ${slot.board}`}`,
    );
  }
  return { resumed, failed, events, republished, finished, damaged };
};
