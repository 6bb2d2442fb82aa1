/**
 * Vocabulary of the live PGN feed: the tournament, per-round settings (date, broadcast delay) and
 * the live games handed to the feed by the daemon, plus the files the feed renders.
 *
 *   const live: LiveGame = { round: 1, board: 4, white, black, game, timeControl };
 *   const file: FeedFile = files.get(state, 'round-1/game-4.pgn', now); // body, etag, lastModified
 *
 * Times are milliseconds since the Unix epoch, always passed in (`now`): the feed never reads a clock.
 */
import type { Game } from '../../engine/game.js';
import type { Outcome, PgnResult, PgnTermination } from '../../engine/outcome.js';
import type { TimeControl } from '../../engine/timeControl.js';
import type { Player } from '../pairings/types.js';

export type { Player } from '../pairings/types.js';

/** The event as broadcast headers and tournament.json describe it. */
export interface TournamentInfo {
  /** PGN Event. */
  readonly name: string;
  /** PGN Site, e.g. "New York, United States". */
  readonly site?: string;
  /** City for tournament.json (defaults to the site). */
  readonly location?: string;
  /** Country or federation code for tournament.json. */
  readonly country?: string;
  /** Web site of the event for tournament.json. */
  readonly website?: string;
  /** Time control of games that give none of their own. */
  readonly timeControl?: TimeControl;
}

/** Settings of one round. */
export interface RoundSettings {
  /** Date of the round: 'YYYY-MM-DD' or 'YYYY.MM.DD' (PGN Date). */
  readonly date?: string;
  /** Broadcast delay in ms: moves (and the result) younger than this are withheld. 0 = none. */
  readonly delayMs?: number;
  /**
   * Whether a result waits for the delay too (default true). False: a result is shown as soon as
   * it is known, even while the last moves are still withheld.
   */
  readonly delayResults?: boolean;
}

/** A game as the daemon hands it to the feed (keyed by round and board). */
export interface LiveGame {
  readonly round: number;
  readonly board: number;
  readonly white: Player;
  readonly black: Player;
  /** The game record; a game not started yet is `Game.standard()`. */
  readonly game: Game;
  /** How the game ended, once it has. */
  readonly outcome?: Outcome;
  /** A result given without an outcome (arbiter entry, forfeit); overrides the outcome's token. */
  readonly result?: PgnResult;
  /** PGN Termination; defaults to the outcome's, or 'normal' for a bare result. */
  readonly termination?: PgnTermination;
  /** The game's time control; defaults to the tournament's. */
  readonly timeControl?: TimeControl;
  /** Serial of the board the game is played on (written to round-N/index.json). */
  readonly boardSerial?: string;
}

/** One rendered file of the feed. */
export interface FeedFile {
  /** Path under the feed root, e.g. 'round-3/game-12.pgn'. */
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** Strong entity tag: a hash of the bytes, quoted. */
  readonly etag: string;
  /** When the bytes last changed (ms since the epoch). */
  readonly lastModified: number;
  /**
   * Another version of this file had a Last-Modified in the same second, so an If-Modified-Since
   * naming that second cannot tell them apart (HTTP dates have one-second resolution).
   */
  readonly lastModifiedShared: boolean;
}
