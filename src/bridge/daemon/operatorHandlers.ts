/**
 * The operator's requests (docs/mqtt.md, actions; the operator role of docs/security.md): upload
 * the pairings (TRF or CSV text, read by the same parser as the pairings file), give a board
 * another table number, and start, pause or finish a round. None of them decides a game. Each
 * one done is written, with who did it, to the venue's operations journal
 * (`<journal.dir>/operations.jsonl`, one JSON line each, synced before the answer).
 *
 * At start, `restoreOperations` does them again from that journal, so a restarted daemon keeps the
 * uploaded pairings, the tables given and the rounds' states.
 *
 *   const handlers = makeOperatorHandlers({ games, boards, config, log, sourceOf });
 *   await handlers.round_control({ round: 2, action: 'start' }, meta);   // Ok({ round: 2, state: 'started', … })
 *   await restoreOperations({ games, config, log });                     // at start: 3 operations done again
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Result } from '@badrap/result';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { JsonObject, JsonValue } from '../mqtt/topics.js';
import type { RequestHandlers, RequestMeta } from '../mqtt/requestSchemas.js';
import { fitPairings, inlinePairings, parsePairingsFile } from '../pairings/fromFile.js';
import { refused } from '../wire/refusals.js';
import type { GameRegistry, RoundState } from './games.js';

export interface OperatorContext {
  readonly games: GameRegistry;
  readonly config: Config;
  readonly log: Logger;
  /** Who acted, as the journal writes it. */
  readonly sourceOf: (meta: RequestMeta) => string;
}

type OperatorActions = 'upload_pairings' | 'rebind_board' | 'round_control';

const ROUND_STATES: { readonly [A in 'start' | 'pause' | 'finish']: RoundState } = {
  start: 'started',
  pause: 'paused',
  finish: 'finished',
};

/** Appends one line to the operations journal and syncs it. */
export const appendOperation = async (
  dir: string,
  line: { at: number; action: string; source: string; params: JsonValue; result: JsonObject },
): Promise<Result<undefined, Error>> => {
  const path = join(dir, 'operations.jsonl');
  try {
    const file = await open(path, 'a');
    try {
      await file.appendFile(`${JSON.stringify(line)}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    return Result.ok(undefined);
  } catch (e) {
    return Result.err(new Error(`${path}: ${e instanceof Error ? e.message : String(e)}`));
  }
};

export const makeOperatorHandlers = (ctx: OperatorContext): Pick<RequestHandlers, OperatorActions> => {
  /** Journals what was done; the answer waits for it (a journal that cannot be written is said). */
  const done = async (meta: RequestMeta, params: JsonValue, result: JsonObject) => {
    const written = await appendOperation(ctx.config.journal.dir, {
      at: meta.receivedAt,
      action: meta.action,
      source: ctx.sourceOf(meta),
      params,
      result,
    });
    if (written.isErr) {
      ctx.log.error(`${meta.action} done but not journaled: ${written.error.message}`);
      return Result.err(
        refused('operation_not_journaled', {}, `done, but not journaled: ${written.error.message}`),
      );
    }
    ctx.log.info(`${meta.action} by ${ctx.sourceOf(meta)}: ${JSON.stringify(result)}`);
    return Result.ok(result);
  };

  return {
    upload_pairings: async (req, meta) => {
      const name = `uploaded.${req.format}`;
      const parsed = parsePairingsFile(name, req.text);
      if (parsed.isErr) return Result.err(parsed.error);
      const fit = fitPairings(name, parsed.value, ctx.config);
      if (fit.isErr) return Result.err(fit.error);
      const rounds = [...new Set(parsed.value.map(p => p.round))].sort((a, b) => a - b);
      ctx.games.setPairings([...inlinePairings(ctx.config), ...parsed.value]);
      return done(
        meta,
        { format: req.format, text: req.text },
        { format: req.format, pairings: parsed.value.length, rounds },
      );
    },
    rebind_board: async (req, meta) => {
      const r = ctx.games.rebind(req.board_id, req.number);
      if (r.isErr) return Result.err(r.error);
      return done(
        meta,
        { board_id: req.board_id, number: req.number },
        { board_id: req.board_id, number: req.number, previous: r.value.previous ?? null },
      );
    },
    round_control: async (req, meta) => {
      const state = ROUND_STATES[req.action];
      if (req.round > ctx.config.tournament.rounds)
        return Result.err(
          refused(
            'round_beyond',
            { round: req.round, rounds: ctx.config.tournament.rounds },
            `round: ${req.round} is beyond tournament.rounds (${ctx.config.tournament.rounds})`,
          ),
        );
      ctx.games.setRound(req.round, state);
      const open = ctx.games
        .open()
        .filter(g => g.header.settings.pairing?.round === req.round)
        .map(g => g.id);
      return done(
        meta,
        { round: req.round, action: req.action },
        { round: req.round, state, games_in_play: open },
      );
    },
  };
};

/** Does the operations journal's actions again (at start, before the boards are read); says how many. */
export const restoreOperations = async (
  ctx: Pick<OperatorContext, 'games' | 'config' | 'log'>,
): Promise<number> => {
  const path = join(ctx.config.journal.dir, 'operations.jsonl');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return 0; // none yet
  }
  let done = 0;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let op: { action?: unknown; params?: Record<string, unknown> };
    try {
      op = JSON.parse(line) as typeof op;
    } catch {
      ctx.log.warn(`${path}: line ${i + 1} is not JSON (a write cut short?); left out`);
      return;
    }
    const p = op.params ?? {};
    switch (op.action) {
      case 'upload_pairings': {
        const parsed = parsePairingsFile(`uploaded.${String(p.format)}`, String(p.text));
        if (parsed.isErr) {
          ctx.log.warn(`${path}: line ${i + 1}: ${parsed.error.message}`);
          return;
        }
        ctx.games.setPairings([...inlinePairings(ctx.config), ...parsed.value]);
        break;
      }
      case 'rebind_board':
        if (typeof p.board_id !== 'string' || typeof p.number !== 'number') return;
        ctx.games.giveNumber(p.board_id, p.number);
        break;
      case 'round_control': {
        const action = String(p.action);
        if (typeof p.round !== 'number' || !(action === 'start' || action === 'pause' || action === 'finish'))
          return;
        ctx.games.setRound(p.round, ROUND_STATES[action]);
        break;
      }
      default:
        ctx.log.warn(`${path}: line ${i + 1}: unknown action ${JSON.stringify(op.action)}; left out`);
        return;
    }
    done += 1;
  });
  return done;
};
