/**
 * Vocabulary of the engine: the words every other module uses.
 *
 * Squares, colours, roles and moves are chessops' own (0 = a1 … 63 = h8); we only add the
 * FIDE-specific vocabulary: editions of the Laws, game types and article references.
 *
 *   import { EDITIONS, type Edition, cite } from './types.js';
 *   const ref = cite('E23', '9.6.1'); // { edition: 'E23', article: '9.6.1' }
 */
export type { ByColor, Color, Move, NormalMove, Piece, Role, Square, SquareName } from 'chessops';
export { Result } from '@badrap/result';

/**
 * Editions of the FIDE Laws of Chess we implement, by the year they came into force
 * (see docs/glossary.md and the reference §0.1). E97 = 1 July 1997, E09 = 1 July 2009,
 * E14 = 1 July 2014, E17 = 1 July 2017, E18 = 1 January 2018, E23 = 1 January 2023.
 */
export const EDITIONS = ['E97', 'E09', 'E14', 'E17', 'E18', 'E23'] as const;
export type Edition = (typeof EDITIONS)[number];

/** The edition used when a venue says nothing. */
export const DEFAULT_EDITION: Edition = 'E23';

/** Game types of the Laws: the Competition Rules, Appendix A (rapid) and Appendix B (blitz). */
export const GAME_TYPES = ['standard', 'rapid', 'blitz'] as const;
export type GameType = (typeof GAME_TYPES)[number];

/** Supervision regime for rapid and blitz (adequate = Competition Rules apply; reduced = appendix rules). */
export const SUPERVISIONS = ['full', 'reduced'] as const;
export type Supervision = (typeof SUPERVISIONS)[number];

/** Where a rule decided something: the article number of the edition in force. */
export interface ArticleRef {
  readonly edition: Edition;
  /** Article number as printed in that edition, e.g. '9.6.1', '5.2.b', 'A.4.b'. */
  readonly article: string;
}

export const cite = (edition: Edition, article: string): ArticleRef => ({ edition, article });

export const isEdition = (s: string): s is Edition => (EDITIONS as readonly string[]).includes(s);
export const isGameType = (s: string): s is GameType => (GAME_TYPES as readonly string[]).includes(s);

/** Three-valued answer for questions the engine cannot always settle (dead position, can-still-mate). */
export type Verdict = 'yes' | 'no' | 'unknown';

/**
 * How a flag fall is treated under one edition, game type and supervision regime. The edition
 * profiles (editions.ts) hold one per combination; the clock's flag decision (Art. 6) reads it.
 */
export interface FlagRules {
  /** A flag counts only when the opponent validly claims it (E97/E01 rapid and blitz; E09 rapid/blitz with reduced supervision). */
  readonly claimOnly: boolean;
  /** The flag is a draw, not a loss, when the opponent cannot checkmate (E97 6.9 "even with the most unskilled counterplay", E09+ 6.9 "any possible series of legal moves"); see `cannotMateTest`. */
  readonly drawIfOpponentCannotMate: boolean;
  /** Which test decides "cannot mate": 'anyLegalSeries' (helpmate: E09+ 6.9), 'mostUnskilledCounterplay' (E97 6.9, the same helpmate test in practice), 'matingPotential' (E97 blitz C4). */
  readonly cannotMateTest: 'anyLegalSeries' | 'mostUnskilledCounterplay' | 'matingPotential';
  /** Both flags fallen: 'draw' always, or 'drawInLastPeriod' (earlier periods: the game continues). */
  readonly bothFlags: 'draw' | 'drawInLastPeriod';
  /** Article numbers in the edition in force for: the flag itself, both flags, the cannot-mate exception. */
  readonly articles: { readonly flag: string; readonly bothFlags: string; readonly cannotMate: string };
}

/**
 * Builds a typed error value for `Result.err`: @badrap/result requires an `Error`, and we want a
 * discriminated union with data. The result is both: `e.kind` discriminates, `e.message` reads.
 *
 *   return Result.err(dataError({ kind: 'illegalSan', san, ply }, `illegal move ${san}`));
 */
export const dataError = <T extends { readonly kind: string }>(detail: T, message: string): T & Error =>
  Object.assign(new Error(message), detail);
