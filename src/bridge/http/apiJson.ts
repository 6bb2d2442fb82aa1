/**
 * The JSON API's documents, built from the feed as the public sees it (under the broadcast delay):
 * the tournament with its rounds, a round's games, one game with its moves. They are documents of
 * the wire (src/bridge/wire/schema.ts, docs/wire.md): snake_case keys and values, absent values null.
 *
 *   makeApiRounds(state, now);              // [{ round: 1, date: '2025-03-01', delay_ms: 0, games: 20, live: 3 }]
 *   makeApiGame(viewGame(state, entry, now)); // { round, board, white, black, result, fen, last_move, clocks, ... }
 *   makeApiMoves(view, 31);                 // moves from ply 31 on
 */
import type { MoveRecord } from '../../engine/game.js';
import { makeTimeControl } from '../../engine/timeControl.js';
import { type FeedState, roundGames } from '../feed/feedState.js';
import type { Player } from '../pairings/types.js';
import { type GameView, delayOf, viewGame } from '../feed/visible.js';
import type { ApiGame, ApiMove, ApiPlayer, ApiRound, ApiTournament } from '../wire/schema.js';
import { endReason, wholeMs } from '../wire/words.js';

export const makeApiRounds = (state: FeedState, now: number): ApiRound[] =>
  [...state.rounds].map(([round, entry]) => {
    const games = roundGames(state, round);
    return {
      round,
      date: entry.settings.date?.replace(/\./g, '-') ?? null,
      delay_ms: delayOf(entry),
      games: games.length,
      live: games.filter(g => viewGame(state, g, now).termination === undefined).length,
    };
  });

export const makeApiTournament = (state: FeedState, now: number): ApiTournament => ({
  name: state.tournament.name,
  site: state.tournament.site ?? null,
  time_control: state.tournament.timeControl ? makeTimeControl(state.tournament.timeControl) : null,
  rounds: makeApiRounds(state, now),
});

const apiPlayer = (p: Player): ApiPlayer => ({
  name: p.name,
  fide_id: p.fideId ?? null,
  title: p.title ?? null,
  rating: p.rating ?? null,
  federation: p.federation ?? null,
});

const makeApiMove = (m: MoveRecord): ApiMove => ({
  ply: m.ply,
  san: m.san,
  uci: m.uci,
  fen: m.fen,
  clock_ms: m.clockMs === undefined ? null : wholeMs(m.clockMs),
});

const shownMoves = (view: GameView): readonly MoveRecord[] => view.entry.live.game.moves.slice(0, view.plies);

export const makeApiGame = (state: FeedState, view: GameView): ApiGame => {
  const { live } = view.entry;
  const moves = shownMoves(view);
  const last = moves.at(-1);
  const whiteFirst = live.game.start.fen.split(' ')[1] !== 'b';
  const clocks: { white_ms: number | null; black_ms: number | null } = { white_ms: null, black_ms: null };
  for (const m of moves) {
    if (m.clockMs === undefined) continue;
    const white = (m.ply % 2 === 1) === whiteFirst;
    clocks[white ? 'white_ms' : 'black_ms'] = wholeMs(m.clockMs);
  }
  const ended = view.outcome ? endReason(view.outcome.kind) : undefined;
  const tc = live.timeControl ?? state.tournament.timeControl;
  return {
    round: live.round,
    board: live.board,
    white: apiPlayer(live.white),
    black: apiPlayer(live.black),
    result: view.result,
    reason: ended?.reason ?? null,
    reason_text: ended?.text ?? null,
    termination: view.termination ?? null,
    plies: view.plies,
    fen: live.game.fenAt(view.plies),
    last_move: last ? { ply: last.ply, san: last.san, uci: last.uci } : null,
    clocks,
    time_control: tc ? makeTimeControl(tc) : '?',
    board_serial: live.boardSerial ?? null,
    delayed: view.withholding,
  };
};

/** Moves shown, from ply `from` (1-based) on. */
export const makeApiMoves = (view: GameView, from = 1): ApiMove[] =>
  shownMoves(view)
    .slice(Math.max(0, from - 1))
    .map(makeApiMove);
