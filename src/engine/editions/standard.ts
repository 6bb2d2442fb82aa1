/**
 * Rules for standard chess (the Competition Rules) in each edition, apart from article numbers
 * (concordance.ts). Each edition is written out in full so that a reader can check one column of
 * the reference against one object; appendices.ts then adjusts rapid and blitz.
 *
 *   import { STANDARD } from './standard.js';
 *   STANDARD.E09.rules.illegalMoves.losingCount; // 3
 *   STANDARD.E14.unverified;                     // ['draws.fivefold', ...]
 *
 * Sources: the reference's edition tables (§3-§10) with its errata applied.
 */
import type { Edition, FlagRules } from '../types.js';
import type { ProfileBody } from './model.js';

/** Standard-chess rules of one edition, without articles (flag articles are derived from them). */
export type StandardRules = Omit<ProfileBody, 'articles' | 'flag'> & {
  readonly flag: Omit<FlagRules, 'articles'>;
};

/** One edition's standard rules and the paths the reference leaves UNVERIFIED. */
export interface StandardEntry {
  readonly rules: StandardRules;
  readonly unverified: readonly string[];
}

const SCORING = { win: 1, draw: 0.5, loss: 0 } as const;

/** Unverified in every edition: reference §15.9-§15.16 (handling questions the Laws leave open). */
const OPEN_EVERYWHERE = [
  'moving.rookFirstCastlingCompleted',
  'moving.unremovedEnPassantVictim',
  'moving.upsideDownRook',
  'illegalMoves.kingCaptureAfterIllegal',
] as const;

const E97: StandardEntry = {
  rules: {
    moving: {
      touchIntent: 'deliberate',
      touchMoveEnforcement: 'arbiter',
      rookFirstBarsCastling: true,
      rookFirstCastlingCompleted: 'art4Violation',
      simultaneousKingRookTouch: 'kingFirst', // 4.4.c names "king and rook at the same time"
      kingOnCastlingSquareCommits: true,
      gameEndRequiresArticle4: false,
      nextMoveCompletesPrevious: false,
      unremovedEnPassantVictim: 'illegalMove',
      upsideDownRook: 'rook',
      promotion: {
        choiceFinalOnTouch: false,
        pawnNeedNotBePlaced: true,
        anyOrder: true,
        pawnOnLastRankLocks: false,
      },
    },
    illegalMoves: {
      detection: 'arbiter',
      claimDeadline: 'none',
      completedAt: 'press',
      scope: 'quickplayFinish', // 10.3 only; normal play: position restored, arbiter discretion (13.4)
      losingCount: 3,
      minutesToOpponent: 2,
      drawIfOpponentCannotMate: false, // the exception was added in 2009 (errata 3)
      cannotMateTest: 'mostUnskilledCounterplay',
      pressWithoutMoveCounts: false,
      twoHandsCounts: false,
      twoHandedMoveReverted: false,
      unfinishedPromotion: 'reinstate',
      claimAfterOwnTouch: true,
      kingCaptureAfterIllegal: 'askArbiter',
    },
    irregularities: {
      setupClaimDeadlineMoves: undefined,
      coloursReversedNewGameBeforeMoves: undefined,
      illegalPosition: 'arbiterCorrects',
    },
    draws: {
      fivefold: 'none',
      seventyFiveMoves: false,
      incorrectClaim: { minutesToOpponent: 3, claimantHalfTimeCapMinutes: 3 }, // 9.5.b
      agreementEarliest: 'anyTime',
      regulationsMayForbidAgreement: false,
      claimRightLostBy: 'makingMove',
      offerLapsesBy: 'makingMove',
      claimCountsAsOffer: false,
      castlingKey: 'temporaryOrPermanent',
      quickplayFinish: 'always',
      quickplayRejectedClaimMinutes: undefined,
    },
    flag: {
      claimOnly: false,
      drawIfOpponentCannotMate: true, // 6.9 "even with the most unskilled counterplay"
      cannotMateTest: 'mostUnskilledCounterplay',
      bothFlags: 'drawInLastPeriod', // 6.11 continue; 10.4 draw in the quickplay finish (errata 10)
    },
    time: {
      defaultTimeSeconds: 3600,
      classification: {
        blitzLimitSeconds: 900,
        blitzLimitInclusive: false,
        standardFromSeconds: 3600,
        incrementMoves: 60,
      },
    },
    resignation: { drawIfOpponentCannotMate: false },
    scoring: SCORING,
  },
  unverified: [
    ...OPEN_EVERYWHERE,
    'illegalMoves.scope', // §15.2
    'illegalMoves.completedAt', // §15.3
    'illegalMoves.unfinishedPromotion', // §3.6
    'moving.kingOnCastlingSquareCommits', // §3.4
    'moving.nextMoveCompletesPrevious',
    'moving.promotion.pawnNeedNotBePlaced',
    'moving.promotion.anyOrder',
    'draws.offerLapsesBy', // S89
    'time.classification.incrementMoves', // E05 introduced base + 60 x increment
    'time.classification.standardFromSeconds', // "between 15 and 60 minutes"
  ],
};

const E09: StandardEntry = {
  rules: {
    moving: {
      touchIntent: 'deliberate',
      touchMoveEnforcement: 'arbiter',
      rookFirstBarsCastling: true,
      rookFirstCastlingCompleted: 'art4Violation',
      simultaneousKingRookTouch: 'kingFirst', // 4.4.c
      kingOnCastlingSquareCommits: true, // 4.6.b
      gameEndRequiresArticle4: false, // 5.1.a: a legal move suffices (§15.15)
      nextMoveCompletesPrevious: false, // not stated (S02)
      unremovedEnPassantVictim: 'illegalMove',
      upsideDownRook: 'rook',
      promotion: {
        choiceFinalOnTouch: true,
        pawnNeedNotBePlaced: true,
        anyOrder: true,
        pawnOnLastRankLocks: true,
      },
    },
    illegalMoves: {
      detection: 'arbiter',
      claimDeadline: 'none',
      completedAt: 'press',
      scope: 'always',
      losingCount: 3, // 7.4.b
      minutesToOpponent: 2,
      drawIfOpponentCannotMate: true,
      cannotMateTest: 'anyLegalSeries',
      pressWithoutMoveCounts: false,
      twoHandsCounts: false,
      twoHandedMoveReverted: false,
      unfinishedPromotion: 'reinstate',
      claimAfterOwnTouch: true,
      kingCaptureAfterIllegal: 'askArbiter',
    },
    irregularities: {
      setupClaimDeadlineMoves: undefined,
      coloursReversedNewGameBeforeMoves: undefined,
      illegalPosition: 'arbiterCorrects',
    },
    draws: {
      fivefold: 'none',
      seventyFiveMoves: false,
      incorrectClaim: { minutesToOpponent: 3, claimantHalfTimeCapMinutes: undefined },
      agreementEarliest: 'anyTime',
      regulationsMayForbidAgreement: true,
      claimRightLostBy: 'touchingPiece',
      offerLapsesBy: 'touchingPiece',
      claimCountsAsOffer: true,
      castlingKey: 'permanent', // the text says "same possible moves": an interpretation
      quickplayFinish: 'always',
      quickplayRejectedClaimMinutes: 2, // 10.2.c
    },
    flag: {
      claimOnly: false,
      drawIfOpponentCannotMate: true,
      cannotMateTest: 'anyLegalSeries',
      bothFlags: 'drawInLastPeriod',
    },
    time: {
      defaultTimeSeconds: 0, // 6.6.a zero tolerance unless the competition rules differ
      classification: {
        blitzLimitSeconds: 900,
        blitzLimitInclusive: false,
        standardFromSeconds: 3600,
        incrementMoves: 60,
      },
    },
    resignation: { drawIfOpponentCannotMate: false },
    scoring: SCORING,
  },
  unverified: [
    ...OPEN_EVERYWHERE,
    'moving.gameEndRequiresArticle4',
    'moving.nextMoveCompletesPrevious',
    'moving.promotion.pawnNeedNotBePlaced', // S33
    'moving.promotion.anyOrder',
    'draws.castlingKey', // errata 11
  ],
};

const E14: StandardEntry = {
  rules: {
    ...E09.rules,
    moving: {
      ...E09.rules.moving,
      touchIntent: 'intentionToMoveOrCapture',
      gameEndRequiresArticle4: true, // 5.1.a / 5.2: Art. 3 and Arts. 4.2-4.7
      nextMoveCompletesPrevious: true, // 6.2.a
    },
    illegalMoves: {
      ...E09.rules.illegalMoves,
      losingCount: 2, // 7.5.b
      pressWithoutMoveCounts: false, // improper handling (6.2.d), arbiter discretion
      unfinishedPromotion: 'queen', // 7.5.a
    },
    draws: {
      ...E09.rules.draws,
      fivefold: 'consecutiveAlternate', // 9.6.a
      seventyFiveMoves: true, // 9.6.b
      incorrectClaim: { minutesToOpponent: 2, claimantHalfTimeCapMinutes: undefined },
      quickplayFinish: 'ifAnnounced', // App. G.2
    },
    time: {
      defaultTimeSeconds: 0, // 6.7.a: regulations shall state it; zero if they do not
      classification: {
        blitzLimitSeconds: 600,
        blitzLimitInclusive: true,
        standardFromSeconds: 3600,
        incrementMoves: 60,
      },
    },
  },
  unverified: [
    ...OPEN_EVERYWHERE,
    'moving.simultaneousKingRookTouch', // §15.9: 4.4.c speaks of king then rook only
    'illegalMoves.pressWithoutMoveCounts', // S46
    'draws.fivefold', // §15.6
    'flag.bothFlags', // §15.5: where E14 keeps the rule
  ],
};

const E17: StandardEntry = {
  rules: {
    ...E14.rules,
    moving: { ...E14.rules.moving, touchIntent: 'anyContactExceptAccidental' }, // 4.2.2
    illegalMoves: {
      ...E14.rules.illegalMoves,
      pressWithoutMoveCounts: true, // 7.8.1, one combined count with 7.5 (errata 5)
      twoHandsCounts: true, // 7.7.1
    },
    irregularities: { ...E14.rules.irregularities, coloursReversedNewGameBeforeMoves: 10 }, // 7.3 (errata 6)
    draws: {
      ...E14.rules.draws,
      fivefold: 'anyFive', // 9.6.1 "at least five times" (errata 9)
      agreementEarliest: 'afterBothMoved', // 5.2.3
    },
  },
  unverified: [
    ...OPEN_EVERYWHERE,
    'moving.simultaneousKingRookTouch',
    'illegalMoves.twoHandedMoveReverted', // §15.11
  ],
};

const E18: StandardEntry = { rules: E17.rules, unverified: E17.unverified };

const E23: StandardEntry = {
  rules: { ...E18.rules, resignation: { drawIfOpponentCannotMate: true } }, // 5.1.2
  unverified: E18.unverified,
};

/** Standard-chess rules per edition. */
export const STANDARD: { readonly [E in Edition]: StandardEntry } = { E97, E09, E14, E17, E18, E23 };
