/**
 * The JSON API's documents, built from the feed as the public sees it (under the broadcast delay):
 * the tournament with its rounds, a round's games, one game with its moves. Wire fields are
 * camelCase, as in `chessbridge replay --json`; absent values are null.
 *
 *   makeApiRounds(state, now);              // [{ round: 1, date: '2025-03-01', delayMs: 0, games: 20, live: 3 }]
 *   makeApiGame(viewGame(state, entry, now)); // { round, board, white, black, result, fen, lastMove, clocks, ... }
 *   makeApiMoves(view, 31);                 // moves from ply 31 on
 */
import type { MoveRecord } from '../../engine/game.js';
import type { Outcome, PgnResult, PgnTermination } from '../../engine/outcome.js';
import { makeTimeControl } from '../../engine/timeControl.js';
import { type FeedState, roundGames } from '../feed/feedState.js';
import type { Player } from '../pairings/types.js';
import { type GameView, delayOf, viewGame } from '../feed/visible.js';

export interface ApiRound {
  readonly round: number;
  readonly date: string | null;
  readonly delayMs: number;
  readonly games: number;
  /** Games without a result shown yet. */
  readonly live: number;
}

export interface ApiMove {
  readonly ply: number;
  readonly san: string;
  readonly uci: string;
  /** FEN after the move. */
  readonly fen: string;
  /** Remaining time of the player who moved, in ms, when the record has it. */
  readonly clockMs: number | null;
}

export interface ApiGame {
  readonly round: number;
  readonly board: number;
  readonly white: Player;
  readonly black: Player;
  readonly result: PgnResult;
  readonly termination: PgnTermination | null;
  readonly outcome: Outcome | null;
  /** Plies shown. */
  readonly plies: number;
  /** FEN of the position shown. */
  readonly fen: string;
  readonly lastMove: { readonly ply: number; readonly san: string; readonly uci: string } | null;
  /** Last clock reading of each side among the moves shown, in ms. */
  readonly clocks: { readonly white: number | null; readonly black: number | null };
  readonly timeControl: string;
  readonly boardSerial: string | null;
  /** The broadcast delay is holding moves or the result back. */
  readonly delayed: boolean;
}

export const makeApiRounds = (state: FeedState, now: number): ApiRound[] =>
  [...state.rounds].map(([round, entry]) => {
    const games = roundGames(state, round);
    return {
      round,
      date: entry.settings.date?.replace(/\./g, '-') ?? null,
      delayMs: delayOf(entry),
      games: games.length,
      live: games.filter(g => viewGame(state, g, now).termination === undefined).length,
    };
  });

export const makeApiTournament = (state: FeedState, now: number) => ({
  name: state.tournament.name,
  site: state.tournament.site ?? null,
  timeControl: state.tournament.timeControl ? makeTimeControl(state.tournament.timeControl) : null,
  rounds: makeApiRounds(state, now),
});

const makeApiMove = (m: MoveRecord): ApiMove => ({
  ply: m.ply,
  san: m.san,
  uci: m.uci,
  fen: m.fen,
  clockMs: m.clockMs ?? null,
});

const shownMoves = (view: GameView): readonly MoveRecord[] => view.entry.live.game.moves.slice(0, view.plies);

export const makeApiGame = (state: FeedState, view: GameView): ApiGame => {
  const { live } = view.entry;
  const moves = shownMoves(view);
  const last = moves.at(-1);
  const whiteFirst = live.game.start.fen.split(' ')[1] !== 'b';
  const clocks: { white: number | null; black: number | null } = { white: null, black: null };
  for (const m of moves) {
    if (m.clockMs === undefined) continue;
    const white = (m.ply % 2 === 1) === whiteFirst;
    clocks[white ? 'white' : 'black'] = m.clockMs;
  }
  const tc = live.timeControl ?? state.tournament.timeControl;
  return {
    round: live.round,
    board: live.board,
    white: live.white,
    black: live.black,
    result: view.result,
    termination: view.termination ?? null,
    outcome: view.outcome ?? null,
    plies: view.plies,
    fen: live.game.fenAt(view.plies),
    lastMove: last ? { ply: last.ply, san: last.san, uci: last.uci } : null,
    clocks,
    timeControl: tc ? makeTimeControl(tc) : '?',
    boardSerial: live.boardSerial ?? null,
    delayed: view.withholding,
  };
};

/** Moves shown, from ply `from` (1-based) on. */
export const makeApiMoves = (view: GameView, from = 1): ApiMove[] =>
  shownMoves(view)
    .slice(Math.max(0, from - 1))
    .map(makeApiMove);
