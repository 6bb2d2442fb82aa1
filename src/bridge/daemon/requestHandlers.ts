/**
 * The request API's handlers (docs/mqtt.md, actions): starting, stopping and binding games,
 * their Laws and time control, the arbiter's decisions (journaled as commands and decided by the
 * supervisor like everything else), and board requests (resync, clock text; journaled into the
 * board's game when it has one). Expected refusals are `Result.err` with a message naming the
 * problem; the request service answers them. The same handlers serve the HTTP arbiter route
 * (`POST /api/arbiter/<action-with-hyphens>`), with the same schemas, authorised by the caller's
 * role and journaled with who acted and from where.
 *
 *   const handlers = makeRequestHandlers({ games, boards, config, log });
 *   serveRequests$({ connection, handlers, log: logger.mqtt });
 *   new HttpServer({ arbiter: { token, actions: makeArbiterActions({ games, boards, config, log }) }, … });
 */
import { Result } from '@badrap/result';
import type { ArbiterAction, ArbiterRequest } from '../http/arbiterRoutes.js';
import { isGameId } from '../journal/index.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { JsonObject, JsonValue } from '../mqtt/topics.js';
import { describeValueErrors, invalidFields } from '../mqtt/requests.js';
import { type RefusalCode, type RefusalParams, refused } from '../wire/refusals.js';
import {
  REQUEST_ACTIONS,
  REQUEST_SCHEMAS,
  type RequestHandler,
  type RequestHandlers,
  type RequestMeta,
  type RequestAction,
  type RequestOf,
} from '../mqtt/requestSchemas.js';
import type { BoardRegistry } from './boards.js';
import type { GameRegistry } from './games.js';
import { journalSettingsOf, readableTimeControl } from '../game/gameSpecs.js';
import { INITIAL_FEN } from 'chessops/fen';
import { Game } from '../../engine/game.js';
import { describeActor, refusalOf } from '../security/roles.js';
import { makeOperatorHandlers } from './operatorHandlers.js';

export interface HandlerContext {
  readonly games: GameRegistry;
  readonly boards: BoardRegistry;
  readonly config: Config;
  readonly log: Logger;
  /** The journal's `source` of a command (default `mqtt:<action>`). */
  readonly sourceOf?: (meta: RequestMeta) => string;
}

const refuse = (code: RefusalCode, params: RefusalParams, message: string): Result<JsonObject, Error> =>
  Result.err(refused(code, params, message));

/** The request's fields without the envelope's `transaction`, as journaled params. */
const paramsOf = (req: object): JsonValue => {
  const { transaction: _t, ...rest } = req as Record<string, JsonValue>;
  return rest;
};

/** The journal's source of a command: the context's, else who acted (`mqtt role=… user=…`). */
const sourceOf = (ctx: HandlerContext, meta: RequestMeta): string =>
  ctx.sourceOf !== undefined
    ? ctx.sourceOf(meta)
    : meta.actor === undefined
      ? `mqtt:${meta.action}`
      : describeActor(meta.actor);

/** A game command: journaled, decided, published; answers with the seq reached. */
const gameCommand =
  <A extends RequestAction>(ctx: HandlerContext, action: string): RequestHandler<A> =>
  async (req, meta) => {
    const { game_id: id } = req as RequestOf<A> & { game_id: string };
    const r = await ctx.games.command(id, action, paramsOf(req), sourceOf(ctx, meta));
    if (r.isErr) return Result.err(r.error); // the registry's errors carry their refusal
    return Result.ok({ game_id: id, seq: r.value.run.seq, events: r.value.events.length });
  };

/**
 * A board request, recorded in the journal of the game on that board (when there is one) before
 * it is carried out, so the game's record shows when the arbiter resynchronised or wrote to the
 * clock. The supervisor takes such records as no input.
 */
const journalBoardRequest = async (
  ctx: HandlerContext,
  boardId: string,
  req: object,
  meta: RequestMeta,
): Promise<Result<undefined, Error>> => {
  const game = ctx.boards.get(boardId)?.status.game;
  if (game === undefined) return Result.ok(undefined);
  const r = await ctx.games.command(game, meta.action, paramsOf(req), sourceOf(ctx, meta));
  return r.isErr
    ? Result.err(Object.assign(new Error(`${game}: ${r.error.message}`), { refusal: r.error.refusal }))
    : Result.ok(undefined);
};

/** The request's game id is not one a journal file can be named by (the schema says so first). */
const badGameId = (): Result<JsonObject, Error> =>
  refuse('invalid_fields', { fields: 'game_id' }, 'game_id: letters, digits, - and _ only (at most 128)');

/** A time control that does not parse, with the parser's English reason. */
const badTimeControl = (text: string, e: Error): Result<JsonObject, Error> =>
  refuse('bad_time_control', { time_control: text }, e.message);

const player = (name: string | undefined) => ({ name: name ?? '?' });

const roundNumber = (round: string | undefined): number | undefined => {
  const n = round === undefined ? NaN : Number(round);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

export const makeRequestHandlers = (ctx: HandlerContext): RequestHandlers => ({
  ...makeOperatorHandlers({ ...ctx, sourceOf: meta => sourceOf(ctx, meta) }),
  start_game: async req => {
    if (!isGameId(req.game_id)) return badGameId();
    let timeControl = ctx.config.laws.timeControl;
    if (req.time_control !== undefined) {
      const tc = readableTimeControl(req.time_control);
      if (tc.isErr) return badTimeControl(req.time_control, tc.error);
      timeControl = tc.value;
    }
    if (req.fen !== undefined && Game.fromFen(req.fen).isErr)
      return refuse('bad_fen', { fen: req.fen }, `fen: not a legal position: ${req.fen}`);
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
    if (r.isErr) return Result.err(r.error);
    return Result.ok({ game_id: req.game_id, board_id: req.board_id ?? null });
  },
  stop_game: req => {
    const slot = ctx.games.get(req.game_id);
    if (slot?.phase !== 'open')
      return Promise.resolve(
        refuse('game_not_in_play', { game: req.game_id }, `no game ${req.game_id} in play`),
      );
    ctx.games.finish(slot, '*', `stopped${req.reason === undefined ? '' : `: ${req.reason}`}`);
    return Promise.resolve(Result.ok({ game_id: req.game_id }));
  },
  bind_board: async req => {
    const board = ctx.boards.get(req.board_id);
    if (board === undefined)
      return refuse('no_board', { board: req.board_id }, `no board ${req.board_id} on this daemon`);
    const existing = ctx.games.get(req.game_id);
    if (existing !== undefined) {
      if (existing.board !== undefined)
        return refuse(
          'game_on_board',
          { game: req.game_id, board: existing.board },
          `game ${req.game_id} is already on board ${existing.board}`,
        );
      const r = ctx.games.attach(existing, req.board_id);
      return r.isErr ? Result.err(r.error) : Result.ok({ game_id: req.game_id, board_id: req.board_id });
    }
    if (!isGameId(req.game_id)) return badGameId();
    const round = roundNumber(req.round);
    const settings = journalSettingsOf(
      ctx.config.laws,
      undefined,
      round === undefined
        ? {}
        : { pairing: { round, board: 0, white: player(req.white), black: player(req.black) } },
    );
    const r = await ctx.games.create(req.game_id, req.board_id, settings);
    return r.isErr ? Result.err(r.error) : Result.ok({ game_id: req.game_id, board_id: req.board_id });
  },
  set_time_control: async (req, meta) => {
    const slot = ctx.games.get(req.game_id);
    if (slot === undefined) return refuse('no_game', { game: req.game_id }, `no game ${req.game_id}`);
    if (slot.run.seq > 0)
      return refuse(
        'game_under_way',
        { game: req.game_id },
        `game ${req.game_id} is under way: its time control is fixed`,
      );
    const tc = readableTimeControl(req.time_control);
    if (tc.isErr) return badTimeControl(req.time_control, tc.error);
    const r = await ctx.games.command(
      req.game_id,
      'set_time_control',
      { time_control: tc.value },
      sourceOf(ctx, meta),
    );
    return r.isErr ? Result.err(r.error) : Result.ok({ game_id: req.game_id, time_control: tc.value });
  },
  set_edition: async (req, meta) => {
    const slot = ctx.games.get(req.game_id);
    if (slot === undefined) return refuse('no_game', { game: req.game_id }, `no game ${req.game_id}`);
    if (slot.run.seq > 0)
      return refuse(
        'game_under_way',
        { game: req.game_id },
        `game ${req.game_id} is under way: its Laws are fixed`,
      );
    const r = await ctx.games.command(req.game_id, 'set_edition', paramsOf(req), sourceOf(ctx, meta));
    return r.isErr ? Result.err(r.error) : Result.ok({ game_id: req.game_id, edition: req.edition });
  },
  accept_claim: gameCommand(ctx, 'accept_claim'),
  reject_claim: gameCommand(ctx, 'reject_claim'),
  apply_penalty: gameCommand(ctx, 'apply_penalty'),
  restore_position: (req, meta) => {
    // The supervisor ignores a ply the game has not reached; the arbiter is told instead.
    const plies = ctx.games.get(req.game_id)?.view.record.length;
    if (plies !== undefined && req.ply > plies)
      return Promise.resolve(
        refuse(
          'ply_beyond',
          { game: req.game_id, ply: req.ply, plies },
          `game ${req.game_id} has ${plies} plies: there is no ply ${req.ply} to restore`,
        ),
      );
    return gameCommand<'restore_position'>(ctx, 'restore_position')(req, meta);
  },
  adjust_clocks: gameCommand(ctx, 'adjust_clocks'),
  set_result: gameCommand(ctx, 'set_result'),
  claim: gameCommand(ctx, 'claim'),
  set_moves: gameCommand(ctx, 'set_moves'),
  resync_board: async (req, meta) => {
    if (ctx.boards.get(req.board_id) === undefined)
      return refuse('no_board', { board: req.board_id }, `no board ${req.board_id} on this daemon`);
    const journaled = await journalBoardRequest(ctx, req.board_id, req, meta);
    if (journaled.isErr) return Result.err(journaled.error);
    if (!ctx.boards.resync(req.board_id))
      return refuse('board_not_connected', { board: req.board_id }, `board ${req.board_id} is not connected`);
    return Result.ok({ board_id: req.board_id });
  },
  clock_text: async (req, meta) => {
    const board = ctx.boards.get(req.board_id);
    if (board === undefined)
      return refuse('no_board', { board: req.board_id }, `no board ${req.board_id} on this daemon`);
    if (!board.config.clock)
      return refuse('no_clock', { board: req.board_id }, `board ${req.board_id} has no clock`);
    const journaled = await journalBoardRequest(ctx, req.board_id, req, meta);
    if (journaled.isErr) return Result.err(journaled.error);
    const sent = ctx.boards.clockCommand(req.board_id, {
      kind: 'ascii',
      text: req.text.slice(0, 8).padEnd(8),
      beep: req.beep === true ? 1 : 0,
    });
    return sent
      ? Result.ok({ board_id: req.board_id })
      : refuse('board_not_connected', { board: req.board_id }, `board ${req.board_id} is not connected`);
  },
});

/** The HTTP route name of a request action: `restore_position` → `restore-position` (docs/web.md). */
export const httpActionName = (action: RequestAction): string => action.replace(/_/g, '-');

/** The journal's source of an HTTP action: who acted, their role, and from where. */
export const httpSource = (req: Pick<ArbiterRequest, 'actor'>): string => describeActor(req.actor);

/** Hands a validated request to its own handler (keeps action and request correlated). */
const dispatch = <A extends RequestAction>(
  handlers: RequestHandlers,
  action: A,
  request: unknown,
  meta: RequestMeta,
): Promise<Result<JsonObject, Error>> => handlers[action](request as RequestOf<A>, meta);

/**
 * Every request action as an HTTP arbiter action (`restore-position`, `apply-penalty`, …): the body
 * is checked against the action's schema as an MQTT request would be (a refusal names the fields),
 * then handled and journaled like one, with the source `http role=<role> user=<user> address=<address>`;
 * an action the user's role may not make is refused (403).
 */
export const makeArbiterActions = (ctx: HandlerContext): Readonly<Record<string, ArbiterAction>> => {
  const act =
    (action: RequestAction): ArbiterAction =>
    async req => {
      const problems = describeValueErrors(REQUEST_SCHEMAS[action], req.body);
      const meta: RequestMeta = {
        action,
        topic: `/api/arbiter/${req.action}`,
        receivedAt: Date.now(),
        actor: req.actor,
      };
      const refusal = refusalOf(req.actor, action);
      const result =
        refusal !== undefined
          ? Result.err(
              Object.assign(
                refused('not_allowed', { user: req.actor.user, role: req.actor.role, action }, refusal),
                { kind: 'notAllowed' },
              ),
            )
          : problems === undefined
            ? await dispatch(
                makeRequestHandlers({ ...ctx, sourceOf: () => httpSource(req) }),
                action,
                req.body,
                meta,
              )
            : Result.err(
                Object.assign(new Error(problems), {
                  refusal: invalidFields(REQUEST_SCHEMAS[action], req.body),
                }),
              );
      const who = `${req.actor.user}, ${req.actor.role}, from ${req.remote ?? 'unknown'}`;
      if (result.isOk) ctx.log.info(`${action} over HTTP (${who}): ok`);
      else ctx.log.warn(`${action} over HTTP (${who}): ${result.error.message}`);
      return result;
    };
  return Object.fromEntries(REQUEST_ACTIONS.map(action => [httpActionName(action), act(action)]));
};
