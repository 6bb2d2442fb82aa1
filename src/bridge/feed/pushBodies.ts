/**
 * The bodies of a push to a Lichess broadcast round (docs/broadcast.md, "Push to Lichess"): the
 * games of one round as the feed shows them at `now` (under the broadcast delay), in board order,
 * at most `MAX_PUSH_GAMES` games a body (Lichess splits a body into at most 100 games and drops
 * the rest). Pure.
 *
 *   pushBodies(state, 3, now);   // ['[Event "…"]\n…\n\n[Event "…"]…', …]: one string per 100 games
 */
import { type FeedState, roundGames } from './feedState.js';
import { makeFeedPgn } from './gamePgn.js';
import { viewGame } from './visible.js';

/** Games in one push body at most. */
export const MAX_PUSH_GAMES = 100;

export const pushBodies = (state: FeedState, round: number, now: number, max = MAX_PUSH_GAMES): string[] => {
  const texts = roundGames(state, round).map(entry => makeFeedPgn(state, viewGame(state, entry, now)));
  const bodies: string[] = [];
  for (let i = 0; i < texts.length; i += max) bodies.push(texts.slice(i, i + max).join('\n'));
  return bodies;
};
