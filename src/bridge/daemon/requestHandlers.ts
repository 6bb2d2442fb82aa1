/**
 * The request API's handlers (docs/mqtt.md, actions): starting, stopping and binding games,
 * their Laws and time control, the arbiter's decisions (journaled as commands and decided by the
 * supervisor like everything else), and board requests (resync, clock text). Expected refusals are
 * `Result.err` with a message naming the problem; the request service answers them.
 *
 *   const handlers = makeRequestHandlers({ games, boards, config, log });
 *   serveRequests$({ connection, handlers, log: logger.mqtt });
 */
import { Result } from '@badrap/result';
import { isGameId } from '../journal/index.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { JsonObject, JsonValue } from '../mqtt/topics.js';
import type {
  RequestHandler,
  RequestHandlers,
  RequestMeta,
  RequestAction,
  RequestOf,
} from '../mqtt/requestSchemas.js';
import type { BoardRegistry } from './boards.js';
import type { GameRegistry } from './games.js';
import { journalSettingsOf, readableTimeControl } from './gameSpecs.js';
import { INITIAL_FEN } from 'chessops/fen';
import { Game } from '../../engine/game.js';

export interface HandlerContext {
  readonly games: GameRegistry;
  readonly boards: BoardRegistry;
  readonly config: Config;
  readonly log: Logger;
}

const fail = (message: string): Result<JsonObject, Error> => Result.err(new Error(message));

/** The request's fields without the envelope's `transaction`, as journaled params. */
const paramsOf = (req: object): JsonValue => {
  const { transaction: _t, ...rest } = req as Record<string, JsonValue>;
  return rest;
};

const sourceOf = (meta: RequestMeta): string => `mqtt:${meta.action}`;

/** A game command: journaled, decided, published; answers with the seq reached. */
const gameCommand =
  <A extends RequestAction>(ctx: HandlerContext, action: string): RequestHandler<A> =>
  async (req, meta) => {
    const { game_id: id } = req as RequestOf<A> & { game_id: string };
    const r = await ctx.games.command(id, action, paramsOf(req), sourceOf(meta));
    if (r.isErr) return fail(r.error.message);
    return Result.ok({ game_id: id, seq: r.value.run.seq, events: r.value.events.length });
  };

const player = (name: string | undefined) => ({ name: name ?? '?' });

const roundNumber = (round: string | undefined): number | undefined => {
  const n = round === undefined ? NaN : Number(round);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

export const makeRequestHandlers = (ctx: HandlerContext): RequestHandlers => ({
  start_game: async req => {
    if (!isGameId(req.game_id)) return fail('game_id: letters, digits, - and _ only (at most 128)');
    let timeControl = ctx.config.laws.timeControl;
    if (req.time_control !== undefined) {
      const tc = readableTimeControl(req.time_control);
      if (tc.isErr) return fail(tc.error.message);
      timeControl = tc.value;
    }
    if (req.fen !== undefined && Game.fromFen(req.fen).isErr)
      return fail(`fen: not a legal position: ${req.fen}`);
    const round = roundNumber(req.round);
    const settings = journalSettingsOf(ctx.config.laws, undefined, {
      timeControl,
      startFen: req.fen ?? INITIAL_FEN,
      ...(req.edition === undefined ? {} : { edition: req.edition }),
      ...(req.game_type === undefined ? {} : { gameType: req.game_type }),
      ...(round === undefined || (req.white === undefined && req.black === undefined)
        ? {}
        : { pairing: { round, board: 0, white: player(req.white), black: player(req.black) } }),
    });
    const r = await ctx.games.create(req.game_id, req.board_id, settings);
    if (r.isErr) return fail(r.error.message);
    return Result.ok({ game_id: req.game_id, board_id: req.board_id ?? null });
  },
  stop_game: req => {
    const slot = ctx.games.get(req.game_id);
    if (slot?.phase !== 'open') return Promise.resolve(fail(`no game ${req.game_id} in play`));
    ctx.games.finish(slot, '*', `stopped${req.reason === undefined ? '' : `: ${req.reason}`}`);
    return Promise.resolve(Result.ok({ game_id: req.game_id }));
  },
  bind_board: async req => {
    const board = ctx.boards.get(req.board_id);
    if (board === undefined) return fail(`no board ${req.board_id} on this daemon`);
    const existing = ctx.games.get(req.game_id);
    if (existing !== undefined) {
      if (existing.board !== undefined)
        return fail(`game ${req.game_id} is already on board ${existing.board}`);
      const r = ctx.games.attach(existing, req.board_id);
      return r.isErr ? fail(r.error.message) : Result.ok({ game_id: req.game_id, board_id: req.board_id });
    }
    if (!isGameId(req.game_id)) return fail('game_id: letters, digits, - and _ only (at most 128)');
    const round = roundNumber(req.round);
    const settings = journalSettingsOf(
      ctx.config.laws,
      undefined,
      round === undefined
        ? {}
        : { pairing: { round, board: 0, white: player(req.white), black: player(req.black) } },
    );
    const r = await ctx.games.create(req.game_id, req.board_id, settings);
    return r.isErr ? fail(r.error.message) : Result.ok({ game_id: req.game_id, board_id: req.board_id });
  },
  set_time_control: async (req, meta) => {
    const slot = ctx.games.get(req.game_id);
    if (slot === undefined) return fail(`no game ${req.game_id}`);
    if (slot.run.seq > 0) return fail(`game ${req.game_id} is under way: its time control is fixed`);
    const tc = readableTimeControl(req.time_control);
    if (tc.isErr) return fail(tc.error.message);
    const r = await ctx.games.command(
      req.game_id,
      'set_time_control',
      { time_control: tc.value },
      sourceOf(meta),
    );
    return r.isErr ? fail(r.error.message) : Result.ok({ game_id: req.game_id, time_control: tc.value });
  },
  set_edition: async (req, meta) => {
    const slot = ctx.games.get(req.game_id);
    if (slot === undefined) return fail(`no game ${req.game_id}`);
    if (slot.run.seq > 0) return fail(`game ${req.game_id} is under way: its Laws are fixed`);
    const r = await ctx.games.command(req.game_id, 'set_edition', paramsOf(req), sourceOf(meta));
    return r.isErr ? fail(r.error.message) : Result.ok({ game_id: req.game_id, edition: req.edition });
  },
  accept_claim: gameCommand(ctx, 'accept_claim'),
  reject_claim: gameCommand(ctx, 'reject_claim'),
  apply_penalty: gameCommand(ctx, 'apply_penalty'),
  restore_position: gameCommand(ctx, 'restore_position'),
  adjust_clocks: gameCommand(ctx, 'adjust_clocks'),
  set_result: gameCommand(ctx, 'set_result'),
  resync_board: req =>
    Promise.resolve(
      ctx.boards.resync(req.board_id)
        ? Result.ok({ board_id: req.board_id })
        : fail(`no board ${req.board_id} on this daemon`),
    ),
  clock_text: req => {
    const board = ctx.boards.get(req.board_id);
    if (board === undefined) return Promise.resolve(fail(`no board ${req.board_id} on this daemon`));
    if (!board.config.clock) return Promise.resolve(fail(`board ${req.board_id} has no clock`));
    ctx.boards.clockCommand(req.board_id, {
      kind: 'ascii',
      text: req.text.slice(0, 8).padEnd(8),
      beep: req.beep === true ? 1 : 0,
    });
    return Promise.resolve(Result.ok({ board_id: req.board_id }));
  },
});
