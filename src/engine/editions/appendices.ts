/**
 * Rapid and blitz (Appendices A, B and, in E97, B and C): the layers applied on top of an edition's
 * standard rules for each game type and supervision regime. A layer sets only what differs.
 *
 *   import { APPENDICES } from './appendices.js';
 *   APPENDICES.E14.blitz.reduced; // layers: blitz definition, first illegal move loses, ...
 *
 * "full" supervision is the regime where the Competition Rules apply (one arbiter for at most three
 * rapid games / one blitz game, E14+ each game recorded); "reduced" is every other case. E97 has no
 * such split: both regimes get the same layers. Sources: reference §6.4, §11 and errata 1, 2, 3, 7.
 */
import type { Edition, Supervision } from '../types.js';
import type { ProfileLayer } from './model.js';

type ByRegime = { readonly [S in Supervision]: readonly ProfileLayer[] };
type AppendixTable = { readonly [E in Edition]: { readonly rapid: ByRegime; readonly blitz: ByRegime } };

// ---- E97: Appendix B (Rapidplay) and C (Blitz). Letters from a public translation of the 1997 text.

const E97_RAPID: ProfileLayer = {
  set: {
    articles: {
      gameTypeDefinition: 'B1',
      gameTypeRules: 'App. B',
      setupClaimDeadline: 'B4',
      flag: 'B6',
      flagClaim: 'B7',
      bothFlags: 'B8',
    },
    moving: { touchMoveEnforcement: 'onRequest' }, // B5: Arts. 4 and 10 only on request
    illegalMoves: { detection: 'claimOnly', scope: 'always' }, // every rapid game is a quickplay finish (errata 3)
    irregularities: { setupClaimDeadlineMoves: 3, illegalPosition: 'onClaimOnly' },
    flag: { claimOnly: true, bothFlags: 'draw' }, // errata 2
  },
  // §15.1: the letters were read in public translations of the 1997 appendices, not in an English copy.
  unverified: [
    'articles.gameTypeDefinition',
    'articles.gameTypeRules',
    'articles.setupClaimDeadline',
    'articles.flag',
    'articles.flagClaim',
    'articles.bothFlags',
    'illegalMoves.detection',
    'illegalMoves.scope',
    'irregularities.illegalPosition',
  ],
};

const E97_BLITZ: ProfileLayer = {
  set: {
    articles: {
      gameTypeDefinition: 'C1',
      gameTypeRules: 'App. C',
      illegalMoveRegime: 'C3',
      illegalMovePenalty: 'C3',
      flagCannotMate: 'C4',
      quickplayFinish: 'C5',
    },
    illegalMoves: {
      claimDeadline: 'beforeOpponentMoves',
      losingCount: 1, // C3: the opponent may claim a win before making his own move
      minutesToOpponent: 0,
      drawIfOpponentCannotMate: true, // C4: to win, a player needs mating potential
      cannotMateTest: 'matingPotential',
    },
    flag: { cannotMateTest: 'matingPotential' },
    draws: { quickplayFinish: 'never' },
  },
  unverified: [
    'articles.gameTypeDefinition',
    'articles.illegalMoveRegime',
    'articles.illegalMovePenalty',
    'articles.quickplayFinish',
    'illegalMoves.drawIfOpponentCannotMate',
  ],
};

// ---- E09: A.3/B.2 full supervision, A.4/B.3 reduced.

const E09_RAPID: ProfileLayer = { set: { articles: { gameTypeDefinition: 'A.1', gameTypeRules: 'A.3' } } };
const E09_BLITZ: ProfileLayer = { set: { articles: { gameTypeDefinition: 'B.1', gameTypeRules: 'B.2' } } };

const E09_REDUCED: ProfileLayer = {
  set: {
    articles: {
      gameTypeRules: 'A.4',
      setupClaimDeadline: 'A.4.a',
      illegalMoveRegime: 'A.4.c',
      illegalPosition: 'A.4.c',
      flag: 'A.4.d.1',
      flagClaim: 'A.4.d.2',
      bothFlags: 'A.4.d.3',
    },
    moving: { touchMoveEnforcement: 'onRequest' }, // A.4.b
    illegalMoves: { detection: 'claimOnly', claimDeadline: 'beforeOpponentMoves' }, // A.4.c; then 7.4 applies
    irregularities: { setupClaimDeadlineMoves: 3, illegalPosition: 'arbiterIntervenesIfPossible' },
    flag: { claimOnly: true, bothFlags: 'draw' }, // A.4.d
  },
  // §6.4: the 7.4 scale after a claim is a reading; S53: claiming after touching a piece.
  unverified: [
    'illegalMoves.losingCount',
    'illegalMoves.minutesToOpponent',
    'illegalMoves.claimAfterOwnTouch',
  ],
};

const E09_BLITZ_REDUCED: ProfileLayer = {
  set: {
    articles: {
      gameTypeRules: 'B.3',
      illegalMoveRegime: 'B.3.c',
      illegalMovePenalty: 'B.3.c',
      illegalPosition: 'B.3.b',
      quickplayFinish: 'B.3.b',
    },
    illegalMoves: { losingCount: 1, minutesToOpponent: 0 }, // B.3.c: the claimant wins
    irregularities: { illegalPosition: 'onClaimOnly' }, // B.3.b: A.4.c does not apply
    draws: { quickplayFinish: 'never' }, // B.3.b: 10.2 does not apply
  },
};

// ---- E14: A.3 full supervision, A.4 reduced (first illegal move loses); blitz B.

const E14_RAPID: ProfileLayer = { set: { articles: { gameTypeDefinition: 'A.1', gameTypeRules: 'A.3' } } };

const E14_REDUCED: ProfileLayer = {
  set: {
    articles: {
      gameTypeRules: 'A.4',
      setupClaimDeadline: 'A.4.a',
      illegalMoveRegime: 'A.4.b',
      illegalMovePenalty: 'A.4.b',
      flagClaim: 'A.4.c',
      illegalPosition: 'A.4.d',
    },
    illegalMoves: {
      detection: 'arbiterOrClaim',
      claimDeadline: 'beforeOpponentMoves',
      losingCount: 1,
      minutesToOpponent: 0,
    },
    irregularities: { setupClaimDeadlineMoves: 10, illegalPosition: 'drawAfterNextMove' },
  },
  unverified: ['articles.flagClaim', 'articles.illegalPosition', 'illegalMoves.claimAfterOwnTouch'],
};

const E14_BLITZ: ProfileLayer = {
  set: {
    articles: {
      gameTypeDefinition: 'B.1',
      gameTypeRules: 'B.3',
      shorterPenalties: 'B.2',
      quickplayFinish: 'G.3',
    },
    illegalMoves: { minutesToOpponent: 1 }, // errata 1: very probably one minute from E14
    draws: { incorrectClaim: { minutesToOpponent: 1 }, quickplayFinish: 'never' },
  },
  unverified: [
    'articles.gameTypeRules',
    'articles.shorterPenalties',
    'illegalMoves.minutesToOpponent',
    'draws.incorrectClaim.minutesToOpponent',
  ],
};

const E14_BLITZ_REDUCED: ProfileLayer = {
  set: { articles: { gameTypeRules: 'B.4' } },
  unverified: ['articles.gameTypeRules'],
};

// ---- E17 and E18: A.3.1 full supervision, A.4 reduced; blitz B.2 one minute, B.3.1 / B.4.

const E17_E18_RAPID: ProfileLayer = {
  set: { articles: { gameTypeDefinition: 'A.1', gameTypeRules: 'A.3.1' } },
};

/** Reduced supervision: E17 A.4.2 declares the game lost itself; E18 A.4.2 refers to the 7.5.5 scale. */
const e17e18Reduced = (penalty: {
  article: string;
  losingCount: number;
  minutesToOpponent: number;
}): ProfileLayer => ({
  set: {
    articles: {
      gameTypeRules: 'A.4',
      setupClaimDeadline: 'A.4.1',
      illegalMoveRegime: 'A.4.2',
      illegalMovePenalty: penalty.article,
      flagClaim: 'A.4.3',
      illegalPosition: 'A.4.4',
    },
    illegalMoves: {
      detection: 'arbiterOrClaim',
      claimDeadline: 'beforeOpponentMoves',
      losingCount: penalty.losingCount,
      minutesToOpponent: penalty.minutesToOpponent,
    },
    irregularities: { setupClaimDeadlineMoves: 10, illegalPosition: 'drawAfterNextMove' },
  },
  unverified: ['illegalMoves.claimAfterOwnTouch'],
});

const E17_E18_BLITZ: ProfileLayer = {
  set: {
    articles: {
      gameTypeDefinition: 'B.1',
      gameTypeRules: 'B.3.1',
      shorterPenalties: 'B.2',
      quickplayFinish: 'III.2.2',
    },
    illegalMoves: { minutesToOpponent: 1 },
    draws: { incorrectClaim: { minutesToOpponent: 1 }, quickplayFinish: 'never' },
  },
  unverified: ['flag.bothFlags'], // Guidelines III exclude blitz
};

const E17_E18_BLITZ_REDUCED: ProfileLayer = { set: { articles: { gameTypeRules: 'B.4' } } };

const E17_REDUCED = e17e18Reduced({ article: 'A.4.2', losingCount: 1, minutesToOpponent: 0 });
const E18_RAPID_REDUCED = e17e18Reduced({ article: '7.5.5', losingCount: 2, minutesToOpponent: 2 });
const E18_BLITZ_REDUCED = e17e18Reduced({ article: '7.5.5', losingCount: 2, minutesToOpponent: 1 }); // B.2

// ---- E23: A.3 one minute in all rapid, A.4 full supervision, A.5 reduced; blitz B.2 / B.3.

const E23_RAPID: ProfileLayer = {
  set: {
    articles: { gameTypeDefinition: 'A.1', gameTypeRules: 'A.4', shorterPenalties: 'A.3' },
    illegalMoves: { minutesToOpponent: 1 },
    draws: { incorrectClaim: { minutesToOpponent: 1 } },
  },
};

const E23_REDUCED: ProfileLayer = {
  set: {
    articles: {
      gameTypeRules: 'A.5',
      setupClaimDeadline: 'A.5.1',
      illegalMoveRegime: 'A.5.2',
      flagClaim: 'A.5.3',
      illegalPosition: 'A.5.4',
    },
    illegalMoves: { detection: 'arbiterOrClaim', claimDeadline: 'beforeOpponentMoves' },
    irregularities: { setupClaimDeadlineMoves: 10, illegalPosition: 'drawAfterNextMove' },
  },
  unverified: ['illegalMoves.claimAfterOwnTouch'],
};

const E23_BLITZ: ProfileLayer = {
  set: {
    articles: {
      gameTypeDefinition: 'B.1',
      gameTypeRules: 'B.2',
      shorterPenalties: 'A.3',
      quickplayFinish: 'III.2.2',
    },
    illegalMoves: { minutesToOpponent: 1 },
    draws: { incorrectClaim: { minutesToOpponent: 1 }, quickplayFinish: 'never' },
  },
  // B.2 imports only the Competition Rules (2 minutes read literally); training material says 1 (errata 1).
  unverified: [
    'articles.shorterPenalties',
    'illegalMoves.minutesToOpponent',
    'draws.incorrectClaim.minutesToOpponent',
    'flag.bothFlags',
  ],
};

const E23_BLITZ_REDUCED: ProfileLayer = {
  // B.3 imports A.2, A.3 and A.5: the one-minute penalties are then written law.
  set: {
    articles: { gameTypeRules: 'B.3', shorterPenalties: 'A.3' },
    illegalMoves: { minutesToOpponent: 1 },
    draws: { incorrectClaim: { minutesToOpponent: 1 } },
  },
};

/** Layers per edition, game type and supervision, applied in order on the standard rules. */
export const APPENDICES: AppendixTable = {
  E97: {
    rapid: { full: [E97_RAPID], reduced: [E97_RAPID] },
    blitz: { full: [E97_RAPID, E97_BLITZ], reduced: [E97_RAPID, E97_BLITZ] },
  },
  E09: {
    rapid: { full: [E09_RAPID], reduced: [E09_RAPID, E09_REDUCED] },
    blitz: { full: [E09_BLITZ], reduced: [E09_BLITZ, E09_REDUCED, E09_BLITZ_REDUCED] },
  },
  E14: {
    rapid: { full: [E14_RAPID], reduced: [E14_RAPID, E14_REDUCED] },
    blitz: { full: [E14_BLITZ], reduced: [E14_BLITZ, E14_REDUCED, E14_BLITZ_REDUCED] },
  },
  E17: {
    rapid: { full: [E17_E18_RAPID], reduced: [E17_E18_RAPID, E17_REDUCED] },
    blitz: { full: [E17_E18_BLITZ], reduced: [E17_E18_BLITZ, E17_REDUCED, E17_E18_BLITZ_REDUCED] },
  },
  E18: {
    rapid: { full: [E17_E18_RAPID], reduced: [E17_E18_RAPID, E18_RAPID_REDUCED] },
    blitz: { full: [E17_E18_BLITZ], reduced: [E17_E18_BLITZ, E18_BLITZ_REDUCED, E17_E18_BLITZ_REDUCED] },
  },
  E23: {
    rapid: { full: [E23_RAPID], reduced: [E23_RAPID, E23_REDUCED] },
    blitz: { full: [E23_BLITZ], reduced: [E23_BLITZ, E23_REDUCED, E23_BLITZ_REDUCED] },
  },
};
