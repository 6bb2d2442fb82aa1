/**
 * The daemon's boards and games as the LiveChess API shows them (docs/livechess-api.md): each
 * board an e-board (its serial number, state, pieces, clock), its feed's `san` the published moves
 * of its game, and `setup` carried out with the requests of the request API, under the caller's
 * role: a board without a game starts a free game from the position (`start_game`), a free game
 * started here is replaced by a new one (`stop_game`, `start_game`), a game that reached that
 * position is taken back to it (`restore_position`), and the board is read again (`resync_board`).
 *
 *   const port = new LiveChessBoards({ games, boards, config, log, now });
 *   port.eboards();                                     // [{ serialnr: '24100', state: 'ACTIVE', … }]
 *   await port.setup('b-01', fen, actor);               // a free game on b-01, starting from fen
 *   port.viewed(view);                                  // a game's view changed (the outputs call it)
 *   const api = makeLiveChessApi({ config, games, boards, users, log, requestLog }); await api.start();
 */
import { Result } from '@badrap/result';
import { Game } from '../../engine/game.js';
import type { Config } from '../config/index.js';
import type { BoardEvent, BoardStateWord, EBoard, LcClock, Source } from '../livechess/protocol.js';
import { LIVECHESS_PATH, LiveChessServer, type LiveChessPort } from '../livechess/server.js';
import type { UserDirectory } from '../security/users.js';
import type { Logger } from '../logger.js';
import type { RequestAction } from '../mqtt/requestSchemas.js';
import type { JsonObject } from '../mqtt/topics.js';
import { type Actor, describeActor, LIVE_ROLES, refusalOf } from '../security/roles.js';
import type { GameView } from '../game/gameView.js';
import { type BoardRegistry, type BoardSlot, placementOf } from './boards.js';
import type { GameRegistry } from './games.js';
import { makeRequestHandlers } from './requestHandlers.js';

/** Games started by `setup` on a board without one carry this prefix (and may be replaced by the next). */
export const FREE_GAME_PREFIX = 'livechess-';

export interface LiveChessBoardsContext {
  readonly games: GameRegistry;
  readonly boards: BoardRegistry;
  readonly config: Config;
  readonly log: Logger;
  /** Wall clock, ms since the epoch (free games' ids). */
  readonly now: () => number;
}

const STATE: { readonly [L in BoardSlot['status']['link']]: BoardStateWord } = {
  connected: 'ACTIVE',
  resynchronising: 'DELAYED',
  lost: 'NOTRESPONDING',
};

/** Placement, side to move and castling: a position as `setup` names it. */
const positionOf = (fen: string): string => fen.split(' ').slice(0, 3).join(' ');

/** A full FEN from `setup`'s: a piece field alone gets White to move (castling where the pieces allow it). */
const fullFen = (fen: string): Result<Game, Error> => {
  const trimmed = fen.trim();
  const tries = trimmed.includes(' ') ? [trimmed] : [`${trimmed} w KQkq - 0 1`, `${trimmed} w - - 0 1`];
  for (const f of tries) {
    const g = Game.fromFen(f);
    if (g.isOk) return Result.ok(g.value);
  }
  return Result.err(new Error(`param.param.fen: not a legal position: ${fen}`));
};

const clockOf = (view: GameView | undefined): LcClock | null => {
  const c = view?.clocks;
  if (c === null || c === undefined) return null;
  return {
    white: Math.floor(c.white_ms / 1000),
    black: Math.floor(c.black_ms / 1000),
    run: c.running === null ? null : c.running === 'white',
    time: Math.round(c.at),
  };
};

export class LiveChessBoards implements LiveChessPort {
  private readonly flipped = new Set<string>();
  /** Each board's latest game view (kept after the game ends, until the next one). */
  private readonly views = new Map<string, GameView>();
  private count = 0;

  constructor(private readonly ctx: LiveChessBoardsContext) {}

  private serialOf(slot: BoardSlot): string {
    return slot.status.serial ?? slot.config.serial ?? slot.config.id;
  }

  /** A game's view as published: its board's feed shows it, also once the game is over. */
  viewed(view: GameView): void {
    if (view.info.board !== undefined) this.views.set(view.info.board, view);
  }

  private viewOf(board: string): GameView | undefined {
    const game = this.ctx.boards.get(board)?.status.game;
    const slot = game === undefined ? undefined : this.ctx.games.get(game);
    const last = this.views.get(board);
    // The outputs hand a step's view over before the registry keeps it: the newer of the two.
    if (slot === undefined) return last;
    return last !== undefined && last.info.game === slot.id && last.seq >= slot.view.seq ? last : slot.view;
  }

  eboards(): EBoard[] {
    return this.ctx.boards.all().map(slot => ({
      serialnr: this.serialOf(slot),
      source: slot.config.port ?? slot.config.driver,
      state: STATE[slot.status.link],
      battery: null,
      comment: slot.config.id,
      board: slot.status.squares === undefined ? null : placementOf(slot.status.squares),
      flipped: this.flipped.has(slot.config.id),
      clock: clockOf(this.viewOf(slot.config.id)),
    }));
  }

  sources(): Source[] {
    return this.ctx.boards.all().map(slot => ({
      type: slot.config.driver,
      device: slot.config.port ?? '',
      name: slot.config.id,
      present: slot.status.link !== 'lost',
      active: slot.status.link === 'connected',
      status: slot.status.link,
    }));
  }

  boardOf(serialnr: string): string | undefined {
    const all = this.ctx.boards.all();
    return (all.find(s => this.serialOf(s) === serialnr) ?? all.find(s => s.config.id === serialnr))?.config
      .id;
  }

  event(board: string): BoardEvent | undefined {
    const slot = this.ctx.boards.get(board);
    if (slot === undefined) return undefined;
    const view = this.viewOf(board);
    const record = view?.record;
    const placement = slot.status.squares === undefined ? null : placementOf(slot.status.squares);
    return {
      serialnr: this.serialOf(slot),
      flipped: this.flipped.has(board),
      board: placement,
      clock: clockOf(view),
      start: record?.fenAt(0),
      san: record?.moves.map(m => m.san) ?? [],
      match: record !== undefined && placement === record.fenAt(record.length).split(' ')[0],
      ...(view === undefined ? {} : { game: view.info.game }),
    };
  }

  flip(board: string, flipped: boolean, actor: Actor): Result<unknown, Error> {
    const refusal = refusalOf(actor, 'resync_board');
    if (refusal !== undefined) return Result.err(new Error(refusal));
    if (flipped) this.flipped.add(board);
    else this.flipped.delete(board);
    return Result.ok(undefined);
  }

  /** Runs one request of the request API as `actor` (refused when the role may not make it). */
  private async request(
    actor: Actor,
    action: RequestAction,
    body: JsonObject,
  ): Promise<Result<JsonObject, Error>> {
    const refusal = refusalOf(actor, action);
    if (refusal !== undefined) return Result.err(new Error(refusal));
    const handlers = makeRequestHandlers({ ...this.ctx, sourceOf: () => describeActor(actor) });
    const meta = { action, topic: 'livechess', receivedAt: this.ctx.now(), actor };
    // Each action's body is built here to its schema; the handlers take them as the request API would.
    const handler = handlers[action] as (
      req: JsonObject,
      m: typeof meta,
    ) => Promise<Result<JsonObject, Error>>;
    return handler(body, meta);
  }

  async setup(board: string, fen: string, actor: Actor): Promise<Result<unknown, Error>> {
    const start = fullFen(fen);
    if (start.isErr) return start;
    const position = positionOf(start.value.fenAt(0));
    const gameId = this.ctx.boards.get(board)?.status.game;
    const slot = gameId === undefined ? undefined : this.ctx.games.get(gameId);
    if (gameId !== undefined && slot !== undefined) {
      const record = slot.view.record;
      let ply: number | undefined;
      for (let p = record.length; p >= 0 && ply === undefined; p--)
        if (positionOf(record.fenAt(p)) === position) ply = p;
      if (ply === record.length) return this.request(actor, 'resync_board', { board_id: board });
      if (!gameId.startsWith(FREE_GAME_PREFIX)) {
        if (ply === undefined)
          return Result.err(
            new Error(
              `board ${board} plays ${gameId}, which never reached that position: stop the game first`,
            ),
          );
        const restored = await this.request(actor, 'restore_position', { game_id: gameId, ply });
        if (restored.isErr) return restored;
        return this.request(actor, 'resync_board', { board_id: board });
      }
      const stopped = await this.request(actor, 'stop_game', {
        game_id: gameId,
        reason: 'a new setup over the LiveChess API',
      });
      if (stopped.isErr) return stopped;
    }
    const id = `${FREE_GAME_PREFIX}${board}-${this.ctx.now().toString(36)}${(this.count++).toString(36)}`;
    const created = await this.request(actor, 'start_game', {
      game_id: id,
      board_id: board,
      fen: start.value.fenAt(0),
    });
    if (created.isErr) return created;
    this.views.delete(board);
    this.ctx.log.info(`LiveChess setup on ${board} by ${actor.user}: free game ${id}`);
    // Read the board again: its game compares the pieces with the new start.
    await this.request(actor, 'resync_board', { board_id: board });
    return Result.ok(undefined);
  }
}

/** The listener and the boards it shows, from the configuration (`livechess.*`). */
export const makeLiveChessApi = (ctx: {
  readonly config: Config;
  readonly games: GameRegistry;
  readonly boards: BoardRegistry;
  readonly users: UserDirectory | undefined;
  readonly log: Logger;
  /** Where setup's requests are logged. */
  readonly requestLog: Logger;
  /** Any free port (tests); default livechess.port. */
  readonly port?: number;
}): { boards: LiveChessBoards; server: LiveChessServer; start: () => Promise<string> } => {
  const lc = ctx.config.livechess;
  const now = (): number => Date.now();
  const boards = new LiveChessBoards({ ...ctx, log: ctx.requestLog, now });
  const server = new LiveChessServer({
    host: lc.host,
    port: ctx.port ?? lc.port,
    home: lc.home,
    origins: lc.origins,
    maxMessageBytes: lc.maxMessageBytes,
    messagesPerSecond: lc.messagesPerSecond,
    burst: lc.burst,
    users: ctx.users,
    // The feed is live: with a broadcast delay it is the arbiters' and operators' only.
    ...(ctx.config.broadcast.delayMinutes > 0 ? { roles: LIVE_ROLES } : {}),
    boards,
    log: ctx.log,
    now,
  });
  const start = async (): Promise<string> => {
    const where = await server.start();
    const host = where.address.includes(':') ? `[${where.address}]` : where.address;
    const address = `ws://${host}:${where.port}${LIVECHESS_PATH}`;
    ctx.log.info(
      `LiveChess API on ${address}${lc.home ? ' (home use: no credentials needed on this machine)' : ' (users log in)'}`,
    );
    return address;
  };
  return { boards, server, start };
};
