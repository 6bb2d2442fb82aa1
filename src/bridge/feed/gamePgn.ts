/**
 * PGN of one game as broadcast sites ingest it: the Seven Tag Roster with Round "r.b", then Board,
 * TimeControl, WhiteFideId/BlackFideId, titles and ratings when known, Termination once the result
 * is shown; the moves shown by the delay with [%clk] on every move that has a clock reading.
 *
 *   const view = viewGame(state, entry, now);
 *   makeFeedTags(state, view);  // { Event, Site, Date, Round: '3.12', Board: '12', ... }
 *   makeFeedPgn(state, view);   // the PGN text, ending with a newline
 *
 * Lines are at most 80 characters (PGN export format) and a clock comment is never split.
 */
import { makeMovetextTokens, makeTags } from '../../engine/pgnWrite.js';
import { makeTimeControl } from '../../engine/timeControl.js';
import type { Player } from '../pairings/types.js';
import { type FeedState, pgnDate } from './feedState.js';
import { type GameView, visibleGame } from './visible.js';

const playerTags = (side: 'White' | 'Black', p: Player): Record<string, string | undefined> => ({
  [side]: p.name,
  [`${side}FideId`]: p.fideId,
  [`${side}Title`]: p.title,
  [`${side}Elo`]: p.rating === undefined ? undefined : String(p.rating),
  [`${side}Fed`]: p.federation,
});

/** Tag values of a game in the feed (undefined = tag left out). */
export const makeFeedTags = (state: FeedState, view: GameView): Record<string, string | undefined> => {
  const { live } = view.entry;
  const round = state.rounds.get(live.round);
  const tc = live.timeControl ?? state.tournament.timeControl;
  return {
    Event: state.tournament.name,
    Site: state.tournament.site,
    Date: pgnDate(round?.settings.date),
    Round: `${live.round}.${live.board}`,
    Board: String(live.board),
    ...playerTags('White', live.white),
    ...playerTags('Black', live.black),
    TimeControl: tc ? makeTimeControl(tc) : '?',
    Termination: view.termination,
  };
};

/**
 * Joins movetext tokens into lines of at most `max` characters without ever breaking a token: a
 * clock comment stays `{ [%clk 1:29:55] }` on one line, which line-oriented readers of broadcast
 * feeds expect (the general writer may break a comment at a space).
 */
export const wrapWholeTokens = (tokens: readonly string[], max = 80): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line === '') line = token;
    else if (line.length + 1 + token.length <= max) line += ` ${token}`;
    else {
      lines.push(line);
      line = token;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
};

/** The PGN text of a game as shown at the view's time, ending with a newline. */
export const makeFeedPgn = (state: FeedState, view: GameView): string => {
  const game = visibleGame(view);
  const opts = { tags: makeFeedTags(state, view), result: view.result, comments: false };
  return [...makeTags(game, opts), '', ...wrapWholeTokens(makeMovetextTokens(game, opts)), ''].join('\n');
};
