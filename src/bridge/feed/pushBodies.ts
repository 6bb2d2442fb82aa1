/**
 * The bodies of a push to a Lichess broadcast round (docs/broadcast.md, "Push to Lichess"): the
 * games of one round as the feed shows them at `now` (under the broadcast delay), in board order,
 * at most `MAX_PUSH_GAMES` games a body (Lichess splits a body into at most 100 games and drops
 * the rest). Each body comes with a key made of its games' ETags, so a caller compares keys and
 * joins the text only for a body that changed; the games are rendered through `FeedFiles`, which
 * renders a game again only when what it shows changed.
 *
 *   const files = new FeedFiles();
 *   for (const body of pushBodies(files, state, 3, now)) if (body.key !== sent) post(body.text());
 */
import { makeFeedPath } from './feedFiles.js';
import type { FeedFiles } from './feedFiles.js';
import { type FeedState, roundGames } from './feedState.js';

/** Games in one push body at most. */
export const MAX_PUSH_GAMES = 100;

export interface PushBody {
  /** Changes whenever the text may. */
  readonly key: string;
  /** The PGN of the body's games, separated by a blank line. */
  text(): string;
}

export const pushBodies = (
  files: FeedFiles,
  state: FeedState,
  round: number,
  now: number,
  max = MAX_PUSH_GAMES,
): PushBody[] => {
  const games = roundGames(state, round).flatMap(entry => {
    const path = makeFeedPath({ kind: 'gamePgn', round, board: entry.live.board });
    const file = files.get(state, path, now);
    return file === undefined ? [] : [file];
  });
  const bodies: PushBody[] = [];
  for (let i = 0; i < games.length; i += max) {
    const chunk = games.slice(i, i + max);
    bodies.push({
      key: chunk.map(f => f.etag).join(','),
      text: () => chunk.map(f => f.body.toString('utf8')).join('\n'),
    });
  }
  return bodies;
};
