/**
 * The record as consumers see it, folded from the supervisor's events: each `move` adds its ply,
 * each `correction` replaces the plies from `fromPly`. Nothing is recorded after the `end`: the
 * recogniser goes on tracking the board (a result ritual, pieces put away), but those plies are
 * never published. Corpus runs and tests compare this record with the original game.
 *
 *   const { events } = runSupervision(state, inputs);
 *   publishedSans(events);                                       // ['e4', 'e5', 'Nf3', ...]
 *   verifySupervision(expectedRecord(game, profile), events);    // [] when exact, with no alert
 */
import type { EditionProfile } from '../editions.js';
import type { GameEvent } from '../events.js';
import type { Game } from '../game.js';
import { evaluateGame } from '../status.js';

/** SAN of every published ply, corrections applied. */
export const publishedSans = (events: Iterable<GameEvent>): string[] => {
  const sans: string[] = [];
  for (const e of events) {
    if (e.type === 'move') {
      sans.length = e.ply - 1;
      sans.push(e.san);
    } else if (e.type === 'correction') {
      sans.length = e.fromPly - 1;
      for (const m of e.moves) sans.push(m.san);
    }
  }
  return sans;
};

/** What a supervised run of a game played without faults must publish. */
export interface ExpectedRecord {
  /** The game's moves up to the ply where the rules end it (status.ts), or all of them. */
  readonly sans: readonly string[];
  /** The outcome kind of that automatic ending, if the rules end the game. */
  readonly end: string | undefined;
}

export const expectedRecord = (game: Game, profile: EditionProfile): ExpectedRecord => {
  const ending = evaluateGame(game, profile).find(s => s.end);
  return {
    sans: game.moves.slice(0, ending?.ply ?? game.length).map(m => m.san),
    end: ending?.end?.kind,
  };
};

/**
 * What is wrong with a run, one line each (empty: exact): the published record differs, the
 * automatic ending is missing or another end was published, or an alert was raised at all (the
 * handling generator makes no breach, so every alert is a false one).
 */
export const verifySupervision = (want: ExpectedRecord, events: readonly GameEvent[]): string[] => {
  const problems: string[] = [];
  const got = publishedSans(events);
  if (got.join(' ') !== want.sans.join(' ')) {
    const split = got.findIndex((san, i) => san !== want.sans[i]);
    const ply = (split < 0 ? Math.min(got.length, want.sans.length) : split) + 1;
    problems.push(`moves differ from ply ${ply} (${got.length} of ${want.sans.length})`);
  }
  const end = events.find(e => e.type === 'end');
  if (want.end !== undefined && (end?.type !== 'end' || end.reason !== want.end))
    problems.push(`no ${want.end} end after ply ${want.sans.length}`);
  else if (want.end === undefined && end?.type === 'end') problems.push(`ended by ${end.reason}`);
  for (const e of events)
    if (e.type === 'alert') problems.push(`alert ${e.code} ${e.article.article}: ${e.detail}`);
  return problems;
};
