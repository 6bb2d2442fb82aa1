/**
 * What consumers see of a game, folded from its events: the record (moves with clock readings,
 * corrections applied, never a branch), the clocks, the result. From it come the retained MQTT
 * snapshot (`games/<game>`, the shape of docs/web.md), the retained PGN (`games/<game>/pgn`) and
 * the live feed's game (docs/broadcast.md).
 *
 *   let view = startView({ game: 'r1-b3', board: 'b-03', round: 1, boardNumber: 3, white, black });
 *   view = foldView(view, event);                  // every event, in seq order
 *   publisher.retain(topics.game('r1-b3'), makeSnapshot(view));
 *   makeGamePgn(view);                             // '[Event "…"] … 1. e4 e5 *'
 */
import type { GameEvent, MoveEventBody } from '../../engine/events.js';
import { chess960Game } from '../../engine/chess960.js';
import { Game } from '../../engine/game.js';
import { makePgn } from '../../engine/pgnWrite.js';
import type { LiveGame } from '../feed/types.js';
import type { Player } from '../pairings/types.js';
import type { WebClocks, WebGameSnapshot, WebPlayer, WebResult } from '../web/contract.js';
import { moveClocks, turnOf, wireClocks } from '../wire/events.js';
import { endReason } from '../wire/words.js';

/** What is known of a game besides its events (pairing, board, event). */
export interface GameInfo {
  readonly game: string;
  readonly board: string | undefined;
  readonly round?: number;
  /** Board (table) number of the pairing. */
  readonly boardNumber?: number;
  readonly white?: Player;
  readonly black?: Player;
  readonly event?: string;
  readonly site?: string;
  /** PGN TimeControl form. */
  readonly timeControl?: string;
  /** Start position (FEN) when not the standard one. */
  readonly startFen?: string;
  /** A Chess960 game (PGN `Variant "Chess960"`, castling by the Chess960 rules). */
  readonly chess960?: boolean;
}

export interface GameView {
  readonly info: GameInfo;
  readonly record: Game;
  readonly seq: number;
  readonly at: number;
  readonly clocks: WebClocks | null;
  readonly result: '1-0' | '0-1' | '1/2-1/2' | '0-0' | '*';
  readonly reason: string | undefined;
}

export const startView = (info: GameInfo, at = 0): GameView => {
  const fromFen =
    info.chess960 === true
      ? chess960Game(info.startFen === undefined ? {} : { fen: info.startFen })
      : info.startFen === undefined
        ? undefined
        : Game.fromFen(info.startFen);
  return {
    info,
    record: fromFen?.isOk === true ? fromFen.value : Game.standard(),
    seq: 0,
    at,
    clocks: null,
    result: '*',
    reason: undefined,
  };
};

/** `record` with plies from `fromPly` replaced by `moves` (each with its clock reading). */
const replaceFrom = (record: Game, fromPly: number, moves: readonly MoveEventBody[], at: number): Game => {
  const cut = record.truncate(Math.max(0, Math.min(record.length, fromPly - 1)));
  let game = cut.isOk ? cut.value : record;
  for (const m of moves) {
    const mover = turnOf(m.fen) === 'white' ? 'black' : 'white';
    const clockMs =
      m.clocks === undefined ? undefined : mover === 'white' ? m.clocks.whiteMs : m.clocks.blackMs;
    const next = game.playUci(m.uci, {
      at,
      ...(clockMs === undefined ? {} : { clockMs }),
      ...(m.elapsedMs === undefined ? {} : { elapsedMs: m.elapsedMs }),
    });
    if (next.isErr) break;
    game = next.value;
  }
  return game;
};

/** The view after one more event (events of a game must come in seq order; older ones are ignored). */
export const foldView = (view: GameView, e: GameEvent): GameView => {
  if (e.seq <= view.seq) return view;
  const base = { ...view, seq: e.seq, at: e.at };
  switch (e.type) {
    case 'move': {
      const clocks = moveClocks(e, e.at) ?? view.clocks;
      return { ...base, record: replaceFrom(view.record, e.ply, [e], e.at), clocks };
    }
    case 'correction':
      return { ...base, record: replaceFrom(view.record, e.fromPly, e.moves, e.at) };
    case 'clock':
      return {
        ...base,
        clocks: wireClocks(e.whiteMs, e.blackMs, e.running ?? null, e.at),
      };
    case 'end':
      return {
        ...base,
        result: e.result,
        reason: e.reason,
        clocks: view.clocks === null ? null : { ...view.clocks, running: null },
      };
    case 'alert':
    case 'alert-withdrawn':
    case 'finding':
    case 'claim':
    case 'offer':
      return base;
  }
};

const webPlayer = (p: Player | undefined): WebPlayer | null =>
  p === undefined
    ? null
    : { name: p.name, title: p.title ?? null, rating: p.rating ?? null, federation: p.federation ?? null };

const webResult = (r: GameView['result']): WebResult => (r === '0-0' ? '*' : r);

/** The retained snapshot (docs/web.md): every optional value null, never absent. */
export const makeSnapshot = (view: GameView): WebGameSnapshot => {
  const last = view.record.moves.at(-1);
  const finished = view.result !== '*';
  const started = view.record.length > 0 || (view.clocks !== null && view.clocks.running !== null);
  return {
    game: view.info.game,
    seq: view.seq,
    at: view.at,
    board: view.info.board ?? null,
    board_number: view.info.boardNumber ?? null,
    round: view.info.round === undefined ? null : String(view.info.round),
    event: view.info.event ?? null,
    white: webPlayer(view.info.white),
    black: webPlayer(view.info.black),
    variant: view.record.start.chess960 ? 'chess960' : 'standard',
    start_fen: view.record.start.fen,
    fen: view.record.fenAt(view.record.length),
    moves: view.record.moves.map(m => m.san),
    last_move: last === undefined ? null : { ply: last.ply, san: last.san, uci: last.uci },
    clocks: view.clocks,
    result: webResult(view.result),
    reason: view.reason === undefined ? null : endReason(view.reason).reason,
    reason_text: view.reason === undefined ? null : endReason(view.reason).text,
    termination: view.reason === undefined ? null : endReason(view.reason).termination,
    status: finished
      ? 'finished'
      : !started
        ? 'not_started'
        : view.clocks !== null && view.clocks.running === null
          ? 'paused'
          : 'playing',
  };
};

/** PGN tags of the game. */
const tagsOf = (view: GameView): Record<string, string | undefined> => {
  const { info } = view;
  return {
    Event: info.event,
    Site: info.site,
    Round:
      info.round === undefined
        ? undefined
        : `${info.round}${info.boardNumber === undefined ? '' : `.${info.boardNumber}`}`,
    White: info.white?.name,
    Black: info.black?.name,
    Board: info.boardNumber === undefined ? undefined : String(info.boardNumber),
    TimeControl: info.timeControl,
    Termination: view.reason === undefined ? undefined : endReason(view.reason).termination,
    GameId: info.game,
  };
};

/** The game as PGN text (the retained `games/<game>/pgn`). */
export const makeGamePgn = (view: GameView): string =>
  makePgn(view.record, { tags: tagsOf(view), result: webResult(view.result) });

/** The game for the live feed, when it has a pairing (round and board number). */
export const liveGameOf = (view: GameView): LiveGame | undefined => {
  const { info } = view;
  if (info.round === undefined || info.boardNumber === undefined) return undefined;
  const result = webResult(view.result);
  return {
    round: info.round,
    board: info.boardNumber,
    white: info.white ?? { name: '?' },
    black: info.black ?? { name: '?' },
    game: view.record,
    ...(result === '*'
      ? {}
      : { result, termination: view.reason === undefined ? 'normal' : endReason(view.reason).termination }),
  };
};
