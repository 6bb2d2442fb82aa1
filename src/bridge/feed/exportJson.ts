/**
 * The JSON files of the folder export, in the shapes of the incumbent desktop software's local
 * export (tournament.json, round-N/index.json), so tools that mirror such a folder to broadcast
 * sites read ours unchanged. Field names follow that format (lower case, `fideid`, `fname`); the
 * fields we add (`board`, `serial`, `rating`) are extra keys such tools ignore. Shapes: docs/broadcast.md.
 *
 *   makeTournamentJson(state, now); // { name, location, country, website, timecontrol, rules, chess960, rounds: [{ count, live }], eboards }
 *   makeRoundIndexJson(state, 3, now); // { date, pairings: [{ white, black, result, live, board, serial }] }
 */
import { makeTimeControl } from '../../engine/timeControl.js';
import type { Player } from '../pairings/types.js';
import { type FeedState, roundGames } from './feedState.js';
import { viewGame } from './visible.js';

export interface ExportPlayer {
  readonly fname: string;
  readonly mname: null;
  readonly lname: string;
  readonly title: string | null;
  readonly federation: string | null;
  readonly gender: null;
  readonly fideid: number | null;
  readonly rating: number | null;
}

export interface ExportPairing {
  readonly white: ExportPlayer;
  readonly black: ExportPlayer;
  /** '1-0', '0-1', '1/2-1/2' or '*' (as shown under the broadcast delay). */
  readonly result: string;
  /** The game is in progress (no result shown yet). */
  readonly live: boolean;
  readonly board: number;
  readonly serial: string | null;
}

export interface ExportRoundIndex {
  /** 'YYYY-MM-DD' or null. */
  readonly date: string | null;
  /** In board order; pairings[i] describes game-(board).pgn. */
  readonly pairings: readonly ExportPairing[];
}

export interface ExportTournament {
  readonly name: string;
  readonly location: string | null;
  readonly country: string | null;
  readonly website: string | null;
  /** PGN TimeControl value of the tournament, or null. */
  readonly timecontrol: string | null;
  readonly rules: 'STANDARD';
  readonly chess960: 'STANDARD';
  /** rounds[i] is round i + 1: games in it and games still in progress. */
  readonly rounds: readonly { readonly count: number; readonly live: number }[];
  /** Serials of the boards the games are played on. */
  readonly eboards: readonly string[];
}

/** "Carlsen, Magnus" → lname Carlsen, fname Magnus; a name without a comma is all last name. */
export const makeExportPlayer = (p: Player): ExportPlayer => {
  const comma = p.name.indexOf(',');
  const lname = comma < 0 ? p.name.trim() : p.name.slice(0, comma).trim();
  const fname = comma < 0 ? '' : p.name.slice(comma + 1).trim();
  return {
    fname,
    mname: null,
    lname,
    title: p.title ?? null,
    federation: p.federation ?? null,
    gender: null,
    fideid: p.fideId === undefined ? null : Number(p.fideId),
    rating: p.rating ?? null,
  };
};

const isoDate = (date: string | undefined): string | null =>
  date === undefined ? null : date.replace(/\./g, '-');

export const makeRoundIndexJson = (state: FeedState, round: number, now: number): ExportRoundIndex => ({
  date: isoDate(state.rounds.get(round)?.settings.date),
  pairings: roundGames(state, round).map(entry => {
    const view = viewGame(state, entry, now);
    return {
      white: makeExportPlayer(entry.live.white),
      black: makeExportPlayer(entry.live.black),
      result: view.result,
      live: view.termination === undefined,
      board: entry.live.board,
      serial: entry.live.boardSerial ?? null,
    };
  }),
});

export const makeTournamentJson = (state: FeedState, now: number): ExportTournament => {
  const { tournament } = state;
  const last = Math.max(0, ...state.rounds.keys());
  const rounds: { count: number; live: number }[] = [];
  const eboards = new Set<string>();
  for (let r = 1; r <= last; r++) {
    const games = roundGames(state, r);
    const live = games.filter(g => viewGame(state, g, now).termination === undefined).length;
    rounds.push({ count: games.length, live });
    for (const g of games) if (g.live.boardSerial !== undefined) eboards.add(g.live.boardSerial);
  }
  return {
    name: tournament.name,
    location: tournament.location ?? tournament.site ?? null,
    country: tournament.country ?? null,
    website: tournament.website ?? null,
    timecontrol: tournament.timeControl ? makeTimeControl(tournament.timeControl) : null,
    rules: 'STANDARD',
    chess960: 'STANDARD',
    rounds,
    eboards: [...eboards].sort(),
  };
};

/** JSON text as written to files: two-space indentation and a final newline. */
export const makeJsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
