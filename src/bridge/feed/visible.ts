/**
 * What the public sees of a game at time `now` under its round's broadcast delay: the plies older
 * than the delay, the result once every ply and the result itself are older than the delay, when
 * that view last changed (Last-Modified), and a key that changes whenever the view's bytes may.
 *
 *   const v = viewGame(state, entry, now);
 *   v.plies;          // plies shown; entry.live.game.length - v.plies are withheld
 *   visibleGame(v);   // the game record cut to the shown plies
 *   nextReleaseAt(state, now); // when a withheld ply or result is next due (to schedule a refresh)
 *
 * With no delay everything is shown at once. Changes that only remove or relabel (a correction
 * dropping moves, a player name, a clock reading) are shown at once; only new moves and results wait.
 */
import type { Game } from '../../engine/game.js';
import type { Outcome, PgnResult, PgnTermination } from '../../engine/outcome.js';
import { type FeedState, type GameEntry, type RoundEntry, finishOf } from './feedState.js';

export interface GameView {
  readonly entry: GameEntry;
  /** Plies shown. */
  readonly plies: number;
  /** Result shown: '*' while the game goes on or its result is withheld. */
  readonly result: PgnResult;
  /** Set once the finished game's result is shown. */
  readonly termination: PgnTermination | undefined;
  readonly outcome: Outcome | undefined;
  /** Plies or a result are being withheld by the delay. */
  readonly withholding: boolean;
  readonly lastModified: number;
  /** Changes whenever the rendered bytes may change (revision and visible extent). */
  readonly key: string;
}

export const delayOf = (round: RoundEntry | undefined): number => round?.settings.delayMs ?? 0;

/** The delay a result waits for: the round's delay, or 0 when results are shown at once. */
export const resultDelayOf = (round: RoundEntry | undefined): number =>
  round?.settings.delayResults === false ? 0 : delayOf(round);

/** Number of plies whose seen time is at most `cutoff` (seen times never decrease along the game). */
const countUpTo = (seenAt: readonly number[], cutoff: number): number => {
  let lo = 0;
  let hi = seenAt.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((seenAt[mid] as number) <= cutoff) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

export const viewGame = (state: FeedState, entry: GameEntry, now: number): GameView => {
  const round = state.rounds.get(entry.live.round);
  const delay = delayOf(round);
  const total = entry.seenAt.length;
  const plies = delay === 0 ? total : countUpTo(entry.seenAt, now - delay);
  const finish = finishOf(entry.live);
  const resultDelay = resultDelayOf(round);
  // A delayed result also waits for every move; a result shown at once does not.
  const resultShown =
    finish !== undefined &&
    (plies === total || resultDelay === 0) &&
    entry.resultAt !== undefined &&
    (resultDelay === 0 || entry.resultAt + resultDelay <= now);
  const lastPly = plies > 0 ? (entry.seenAt[plies - 1] as number) + delay : 0;
  const lastModified = Math.max(
    entry.changedAt,
    state.tournamentAt,
    round?.settingsAt ?? 0,
    lastPly,
    resultShown ? entry.resultAt + resultDelay : 0,
  );
  return {
    entry,
    plies,
    result: resultShown ? finish.result : '*',
    termination: resultShown ? finish.termination : undefined,
    outcome: resultShown ? entry.live.outcome : undefined,
    withholding: plies < total || (finish !== undefined && !resultShown),
    lastModified,
    key: `${state.tournamentRevision}.${round?.settingsRevision ?? 0}.${entry.revision}:${plies}:${resultShown ? 1 : 0}`,
  };
};

/** The game record cut to the plies shown. */
export const visibleGame = (view: GameView): Game => {
  const game = view.entry.live.game;
  return view.plies === game.length ? game : game.truncate(view.plies).unwrap();
};

/** When the next withheld ply or the withheld result of one game becomes visible, if anything is withheld. */
export const gameReleaseAt = (state: FeedState, entry: GameEntry, now: number): number | undefined => {
  const round = state.rounds.get(entry.live.round);
  const delay = delayOf(round);
  if (delay === 0) return undefined;
  const shown = countUpTo(entry.seenAt, now - delay);
  if (shown < entry.seenAt.length) return (entry.seenAt[shown] as number) + delay;
  const resultDelay = resultDelayOf(round);
  return entry.resultAt !== undefined && resultDelay > 0 && entry.resultAt + resultDelay > now
    ? entry.resultAt + resultDelay
    : undefined;
};

const earliest = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** The earliest release time of the games of one round, if the round withholds anything. */
export const roundReleaseAt = (state: FeedState, round: number, now: number): number | undefined => {
  const entry = state.rounds.get(round);
  if (!entry || delayOf(entry) === 0) return undefined;
  let next: number | undefined;
  for (const game of entry.games.values()) next = earliest(next, gameReleaseAt(state, game, now));
  return next;
};

/** The earliest time after `now` at which a withheld ply or result becomes visible, if any. */
export const nextReleaseAt = (state: FeedState, now: number): number | undefined => {
  let next: number | undefined;
  for (const round of state.rounds.keys()) next = earliest(next, roundReleaseAt(state, round, now));
  return next;
};
