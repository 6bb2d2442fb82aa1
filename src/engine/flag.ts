/**
 * The flag decision (FIDE Art. 6.8, 6.9, 6.11; rapid/blitz appendices): what a fallen flag means
 * under the edition's `FlagRules`. The "can the opponent still checkmate" answer comes from the
 * helpmate module as a Verdict; 'unknown' is handed to the arbiter, never guessed.
 *
 *   const d = decideFlag({ flaggedSide: 'white', bothFlags: false, lastPeriod: true,
 *     gameAlreadyOver: false, opponentCanMate: 'no', rules });
 *   // { kind: 'draw', reason: 'opponentCannotMate', article: rules.articles.cannotMate }
 */
import { opposite } from 'chessops/util';
import type { Color, FlagRules, Verdict } from './types.js';

export interface FlagInput {
  /** The side whose flag fell (the first one, when the order is known). */
  readonly flaggedSide: Color;
  /** Both flags are down at the moment of the decision. */
  readonly bothFlags: boolean;
  /** Which flag fell first is known (true for the daemon's own clock and for clocks showing it); default true. */
  readonly orderKnown?: boolean;
  /** The flagged side is in a sudden-death period (all remaining moves in limited time). */
  readonly lastPeriod: boolean;
  /** The game already ended before the flag (mate, stalemate, dead position, agreement, automatic draw): 6.9 exceptions. */
  readonly gameAlreadyOver: boolean;
  /** Can the flagged side's opponent still checkmate by some series of legal moves (helpmate search, per `rules.cannotMateTest`)? */
  readonly opponentCanMate: Verdict;
  /** In claim-only regimes: the opponent has validly claimed the flag. Default false. */
  readonly claimed?: boolean;
  readonly rules: FlagRules;
}

export type FlagDecision =
  /** The opponent wins on time (6.9). */
  | { readonly kind: 'win'; readonly winner: Color; readonly article: string }
  /** Drawn: the opponent cannot mate (6.9), or both flags are down where that is a draw (6.11 / appendices). */
  | { readonly kind: 'draw'; readonly reason: 'opponentCannotMate' | 'bothFlags'; readonly article: string }
  /** Both flags down outside the last period, order unknown: the game goes on (E97 6.11, E09 6.11.a). */
  | { readonly kind: 'continue'; readonly reason: 'bothFlagsEarlierPeriod'; readonly article: string }
  /** The game had already ended: the flag changes nothing. */
  | { readonly kind: 'nothing'; readonly reason: 'gameAlreadyOver'; readonly article: string }
  /** Claim-only regime: the flag counts only when `claimant` claims it (the arbiter stays silent). */
  | { readonly kind: 'awaitingClaim'; readonly claimant: Color; readonly article: string }
  /** The cannot-mate question is undecided: the arbiter rules (win for `winnerIfMate`, or a draw). */
  | {
      readonly kind: 'arbiter';
      readonly reason: 'cannotMateUnknown';
      readonly winnerIfMate: Color;
      readonly test: FlagRules['cannotMateTest'];
      readonly article: string;
    };

/** Win or draw for a single flag (6.9), given who can still mate. */
const singleFlag = (input: FlagInput): FlagDecision => {
  const winner = opposite(input.flaggedSide);
  const { rules } = input;
  if (!rules.drawIfOpponentCannotMate) return { kind: 'win', winner, article: rules.articles.flag };
  switch (input.opponentCanMate) {
    case 'yes':
      return { kind: 'win', winner, article: rules.articles.flag };
    case 'no':
      return { kind: 'draw', reason: 'opponentCannotMate', article: rules.articles.cannotMate };
    case 'unknown':
      return {
        kind: 'arbiter',
        reason: 'cannotMateUnknown',
        winnerIfMate: winner,
        test: rules.cannotMateTest,
        article: rules.articles.cannotMate,
      };
  }
};

/** What the flag decides. Pure: the caller supplies the edition's rules and the helpmate verdict. */
export const decideFlag = (input: FlagInput): FlagDecision => {
  const { rules } = input;
  if (input.gameAlreadyOver)
    return { kind: 'nothing', reason: 'gameAlreadyOver', article: rules.articles.flag };
  if (rules.claimOnly) {
    // E97/E01 App. B–C, E09 A.4.d: both down → draw (the claimant must still have time); otherwise only a valid claim counts.
    if (input.bothFlags) return { kind: 'draw', reason: 'bothFlags', article: rules.articles.bothFlags };
    if (!(input.claimed ?? false))
      return { kind: 'awaitingClaim', claimant: opposite(input.flaggedSide), article: rules.articles.flag };
    return singleFlag(input);
  }
  if (input.bothFlags && !(input.orderKnown ?? true)) {
    switch (rules.bothFlags) {
      case 'draw':
        return { kind: 'draw', reason: 'bothFlags', article: rules.articles.bothFlags };
      case 'drawInLastPeriod':
        return input.lastPeriod
          ? { kind: 'draw', reason: 'bothFlags', article: rules.articles.bothFlags }
          : { kind: 'continue', reason: 'bothFlagsEarlierPeriod', article: rules.articles.bothFlags };
    }
  }
  return singleFlag(input);
};
