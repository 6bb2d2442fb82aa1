/**
 * The feed model: an immutable value holding the tournament, its rounds and live games, and for
 * every ply the time it reached the feed (what the broadcast delay counts from). Every update is a
 * pure function returning the next state; an update that changes nothing returns the same state.
 *
 *   let feed = makeFeedState({ name: 'Open 2025' }, now);
 *   feed = setRound(feed, 1, { date: '2025-03-01', delayMs: 15 * 60_000 }, now);
 *   feed = upsertGame(feed, { round: 1, board: 1, white, black, game }, now);
 *
 * A correction is an update whose moves differ from ply N on: the plies before N keep their times,
 * the replaced plies are dropped at once and the new ones count as new (never a variation).
 */
import type { MoveRecord } from '../../engine/game.js';
import {
  type PgnResult,
  type PgnTermination,
  makeResultToken,
  makeTermination,
} from '../../engine/outcome.js';
import { makeTimeControl } from '../../engine/timeControl.js';
import type { Player } from '../pairings/types.js';
import type { LiveGame, RoundSettings, TournamentInfo } from './types.js';

export interface GameEntry {
  readonly live: LiveGame;
  /** seenAt[i]: when ply i + 1 reached the feed. */
  readonly seenAt: readonly number[];
  /** When the current result reached the feed; undefined while the game goes on. */
  readonly resultAt: number | undefined;
  /** Last change shown at once: players, tags, dropped moves, clock readings, a withdrawn result. */
  readonly changedAt: number;
  /** Counts effective changes (a cache key). */
  readonly revision: number;
}

export interface RoundEntry {
  /** Games by board number, in board order. */
  readonly games: ReadonlyMap<number, GameEntry>;
  readonly settings: RoundSettings;
  /** When the settings last changed (date, delay). */
  readonly settingsAt: number;
  readonly settingsRevision: number;
  /** When a game was last added to or removed from the round. */
  readonly structureAt: number;
  readonly structureRevision: number;
}

export interface FeedState {
  readonly tournament: TournamentInfo;
  readonly tournamentAt: number;
  readonly tournamentRevision: number;
  /** Rounds by number, in round order. */
  readonly rounds: ReadonlyMap<number, RoundEntry>;
}

const checkPositive = (name: string, n: number): void => {
  if (!Number.isInteger(n) || n < 1 || n > 9999)
    throw new TypeError(`${name} must be an integer in 1..9999, got ${n}`);
};

const DATE = /^(\d{4})[-.](\d{2})[-.](\d{2})$/;

/** PGN Date value of a round date, or undefined when none is set. Throws a TypeError on a malformed date. */
export const pgnDate = (date: string | undefined): string | undefined => {
  if (date === undefined) return undefined;
  const m = DATE.exec(date);
  if (!m) throw new TypeError(`round date must be YYYY-MM-DD or YYYY.MM.DD, got '${date}'`);
  return `${m[1]}.${m[2]}.${m[3]}`;
};

export const makeFeedState = (tournament: TournamentInfo, now: number): FeedState => ({
  tournament,
  tournamentAt: now,
  tournamentRevision: 1,
  rounds: new Map(),
});

const sameTournament = (a: TournamentInfo, b: TournamentInfo): boolean =>
  a.name === b.name &&
  a.site === b.site &&
  a.location === b.location &&
  a.country === b.country &&
  a.website === b.website &&
  (a.timeControl && makeTimeControl(a.timeControl)) === (b.timeControl && makeTimeControl(b.timeControl));

export const setTournament = (state: FeedState, tournament: TournamentInfo, now: number): FeedState =>
  sameTournament(state.tournament, tournament)
    ? state
    : { ...state, tournament, tournamentAt: now, tournamentRevision: state.tournamentRevision + 1 };

const emptyRound = (now: number): RoundEntry => ({
  games: new Map(),
  settings: {},
  settingsAt: now,
  settingsRevision: 1,
  structureAt: now,
  structureRevision: 1,
});

/** Map with `key` set; a new key is put in ascending order (Map iteration follows insertion). */
const setSorted = <V>(map: ReadonlyMap<number, V>, key: number, value: V): Map<number, V> => {
  if (map.has(key)) return new Map(map).set(key, value);
  return new Map([...map, [key, value] as const].sort((a, b) => a[0] - b[0]));
};

const withRound = (state: FeedState, round: number, entry: RoundEntry): FeedState => ({
  ...state,
  rounds: setSorted(state.rounds, round, entry),
});

/** Sets a round's date and broadcast delay (creating the round if needed). */
export const setRound = (
  state: FeedState,
  round: number,
  settings: RoundSettings,
  now: number,
): FeedState => {
  checkPositive('round', round);
  pgnDate(settings.date);
  const delay = settings.delayMs ?? 0;
  if (!Number.isFinite(delay) || delay < 0) throw new TypeError(`delayMs must be >= 0, got ${delay}`);
  const prev = state.rounds.get(round);
  if (
    prev &&
    prev.settings.date === settings.date &&
    (prev.settings.delayMs ?? 0) === delay &&
    (prev.settings.delayResults ?? true) === (settings.delayResults ?? true)
  )
    return state;
  const base = prev ?? emptyRound(now);
  return withRound(state, round, {
    ...base,
    settings,
    settingsAt: now,
    settingsRevision: base.settingsRevision + 1,
  });
};

const withGames = (
  state: FeedState,
  round: number,
  games: ReadonlyMap<number, GameEntry>,
  now: number,
  structural: boolean,
): FeedState => {
  const base = state.rounds.get(round) ?? emptyRound(now);
  const structure = structural
    ? { structureAt: now, structureRevision: base.structureRevision + 1 }
    : { structureAt: base.structureAt, structureRevision: base.structureRevision };
  return withRound(state, round, { ...base, ...structure, games });
};

const samePlayer = (a: Player, b: Player): boolean =>
  a.name === b.name &&
  a.fideId === b.fideId &&
  a.title === b.title &&
  a.rating === b.rating &&
  a.federation === b.federation;

/** Everything of a live game that is written at once (not delayed): players and tags. */
const sameHeaders = (a: LiveGame, b: LiveGame): boolean =>
  samePlayer(a.white, b.white) &&
  samePlayer(a.black, b.black) &&
  a.boardSerial === b.boardSerial &&
  a.game.start.fen === b.game.start.fen &&
  a.game.start.chess960 === b.game.start.chess960 &&
  (a.timeControl && makeTimeControl(a.timeControl)) === (b.timeControl && makeTimeControl(b.timeControl));

/** The result a live game shows once visible, or undefined while it goes on. */
export const finishOf = (live: LiveGame): { result: PgnResult; termination: PgnTermination } | undefined => {
  const result = live.result ?? makeResultToken(live.outcome);
  if (live.outcome === undefined && result === '*') return undefined;
  const termination = live.termination ?? (live.outcome ? makeTermination(live.outcome).tag : 'normal');
  return { result, termination };
};

const finishKey = (live: LiveGame): string => {
  const f = finishOf(live);
  return f ? `${f.result}|${f.termination}|${live.outcome?.kind ?? ''}` : '';
};

const sameMeta = (a: MoveRecord, b: MoveRecord): boolean =>
  a.clockMs === b.clockMs && a.elapsedMs === b.elapsedMs && a.comment === b.comment;

/** Adds or updates a game; moves that differ from the stored ones from ply N on replace them. */
export const upsertGame = (state: FeedState, live: LiveGame, now: number): FeedState => {
  checkPositive('round', live.round);
  checkPositive('board', live.board);
  const roundGames = state.rounds.get(live.round)?.games ?? new Map<number, GameEntry>();
  const prev = roundGames.get(live.board);
  const moves = live.game.moves;
  const finished = finishOf(live) !== undefined;
  if (!prev) {
    const entry: GameEntry = {
      live,
      seenAt: moves.map(() => now),
      resultAt: finished ? now : undefined,
      changedAt: now,
      revision: 1,
    };
    return withGames(state, live.round, setSorted(roundGames, live.board, entry), now, true);
  }
  const old = prev.live.game.moves;
  let common = 0;
  let metaChanged = false;
  while (common < moves.length && common < old.length) {
    const a = old[common] as MoveRecord;
    const b = moves[common] as MoveRecord;
    if (a.uci !== b.uci) break;
    if (!sameMeta(a, b)) metaChanged = true;
    common++;
  }
  const dropped = old.length > common;
  const added = moves.length > common;
  const headersChanged = !sameHeaders(prev.live, live);
  const resultChanged = finishKey(prev.live) !== finishKey(live);
  const withdrawn = resultChanged && prev.resultAt !== undefined;
  if (!dropped && !added && !headersChanged && !resultChanged && !metaChanged) {
    return state;
  }
  const immediate = dropped || headersChanged || metaChanged || withdrawn;
  const entry: GameEntry = {
    live,
    seenAt: [...prev.seenAt.slice(0, common), ...moves.slice(common).map(() => now)],
    resultAt: finished ? (resultChanged ? now : prev.resultAt) : undefined,
    changedAt: immediate ? now : prev.changedAt,
    revision: prev.revision + 1,
  };
  return withGames(state, live.round, setSorted(roundGames, live.board, entry), now, false);
};

/** Removes a game (a pairing withdrawn); the round's files change at once. */
export const removeGame = (state: FeedState, round: number, board: number, now: number): FeedState => {
  const games = state.rounds.get(round)?.games;
  if (!games?.has(board)) return state;
  const rest = new Map(games);
  rest.delete(board);
  return withGames(state, round, rest, now, true);
};

/** The games of a round in board order. */
export const roundGames = (state: FeedState, round: number): GameEntry[] => [
  ...(state.rounds.get(round)?.games.values() ?? []),
];

export const gameEntry = (state: FeedState, round: number, board: number): GameEntry | undefined =>
  state.rounds.get(round)?.games.get(board);
