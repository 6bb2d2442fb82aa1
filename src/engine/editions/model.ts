/**
 * Shape of an edition profile: the numbers and switches of the FIDE Laws that differ between
 * editions, game types and supervision regimes. Data only; the tables live in concordance.ts,
 * standard.ts and appendices.ts, and editions.ts assembles and freezes them.
 *
 *   import type { EditionProfile } from './editions/model.js';
 *   const loses = (p: EditionProfile, count: number) => count >= p.illegalMoves.losingCount;
 *   p.articles.checkmate; // '5.1.1' under E23
 *
 * docs/editions.md explains every field with its values per edition.
 */
import type { Edition, FlagRules, GameType, Supervision } from '../types.js';

/** Every topic the supervisor cites, in the order of the Laws. */
export const ARTICLE_TOPICS = [
  'haveTheMove',
  'kingCapture',
  'castling',
  'enPassant',
  'promotion',
  'check',
  'oneHand',
  'adjusting',
  'touchMoveOwn',
  'touchMoveOpponent',
  'touchMoveBoth',
  'castlingKingAndRook',
  'castlingRookFirst',
  'castlingIllegalKingTouched',
  'promotionChoiceFinal',
  'touchedPieceCannotMove',
  'promotionProcedure',
  'moveMade',
  'captureMade',
  'castlingMade',
  'promotionMade',
  'article4ClaimLost',
  'checkmate',
  'resignation',
  'stalemate',
  'deadPosition',
  'agreement',
  'clockPress',
  'timeControl',
  'delay',
  'defaultTime',
  'flagFallen',
  'flag',
  'flagCannotMate',
  'bothFlags',
  'flagClaim',
  'clockWronglySet',
  'stopClocks',
  'clockAdjustment',
  'wrongInitialPosition',
  'boardOrientation',
  'coloursReversed',
  'displacedPieces',
  'displacedFoundLater',
  'illegalMove',
  'unfinishedPromotion',
  'pressWithoutMove',
  'twoHands',
  'illegalMovePenalty',
  'illegalMoveRegime',
  'shorterPenalties',
  'illegalPosition',
  'setupClaimDeadline',
  'recording',
  'drawOffer',
  'agreementRestricted',
  'threefold',
  'samePosition',
  'fiftyMoves',
  'drawClaimLostByTouch',
  'drawClaim',
  'incorrectClaim',
  'fivefold',
  'seventyFiveMoves',
  'quickplayFinish',
  'scoring',
  'bothLose',
  'penalties',
  'noPromptToPress',
  'gameTypeDefinition',
  'gameTypeRules',
] as const;
export type ArticleTopic = (typeof ARTICLE_TOPICS)[number];

/** Article number of each topic as printed in the edition in force; undefined = not in that edition. */
export type ArticleTable = { readonly [T in ArticleTopic]: string | undefined };

/** Which test decides "the opponent cannot checkmate" (same union as `FlagRules['cannotMateTest']`). */
export type CannotMateTest = FlagRules['cannotMateTest'];

/** Promotion as an act of moving (Art. 4). */
export interface PromotionRules {
  /** The piece choice is final once the new piece has touched the promotion square (E09+ 4.4.d / 4.4.4). */
  readonly choiceFinalOnTouch: boolean;
  /** The pawn need not be put on the promotion square first (explicit from E14 4.6.a / 4.6.1). */
  readonly pawnNeedNotBePlaced: boolean;
  /** Removing the pawn and placing the new piece may happen in either order (explicit from E14 4.6.b / 4.6.2). */
  readonly anyOrder: boolean;
  /** A pawn released on the promotion square may not go elsewhere (E09 4.6.c, E14 4.7.c, E18 4.7.3). */
  readonly pawnOnLastRankLocks: boolean;
}

/** The act of moving the pieces (Art. 4) and when a move is completed (Art. 6.2). */
export interface MovingRules {
  /** What makes contact a touch under 4.3: E97/E09 'deliberate', E14 'intentionToMoveOrCapture', E17+ 'anyContactExceptAccidental' (4.2.2). */
  readonly touchIntent: 'deliberate' | 'intentionToMoveOrCapture' | 'anyContactExceptAccidental';
  /** Who enforces Art. 4: the arbiter on his own, or only when a player asks (E97 rapid B5, E09 rapid reduced A.4.b). */
  readonly touchMoveEnforcement: 'arbiter' | 'onRequest';
  /** Touching the rook first bars castling with it on this move (4.4.b / 4.4.2): every edition. */
  readonly rookFirstBarsCastling: boolean;
  /** Rook-first castling carried through and pressed: an Art. 4 breach only, or also an illegal move (UNVERIFIED). */
  readonly rookFirstCastlingCompleted: 'art4Violation' | 'illegalMove';
  /** King and rook touched together when castling that side is illegal: treated as the king touched first (UNVERIFIED for E14+). */
  readonly simultaneousKingRookTouch: 'kingFirst' | 'rookFirst';
  /** A king released on its castling square commits the player to castling on that side (E09 4.6.b, E14 4.7.b, E18 4.7.2). */
  readonly kingOnCastlingSquareCommits: boolean;
  /** Mate, stalemate and dead position stand only if the move also met Arts. 4.2-4.7 (E14+), not only Art. 3. */
  readonly gameEndRequiresArticle4: boolean;
  /** A move is also completed when the same player makes his next move without pressing (E14 6.2.a, E18 6.2.1.2). */
  readonly nextMoveCompletesPrevious: boolean;
  /** En passant pressed with the captured pawn still on the board: an illegal move, or an unfinished capture (UNVERIFIED). */
  readonly unremovedEnPassantVictim: 'illegalMove' | 'unfinishedCapture';
  /** An upside-down rook placed on promotion: a rook (arbiter practice, UNVERIFIED) or an illegal move. */
  readonly upsideDownRook: 'rook' | 'illegalMove';
  /** Promotion: when the choice is final and how the pieces may be handled. */
  readonly promotion: PromotionRules;
}

/** Completed illegal moves (Art. 7, E97 10.3, Appendices A/B/C). */
export interface IllegalMoveRules {
  /** Who acts: the arbiter on his own, the arbiter or a claim, or only the opponent's claim. */
  readonly detection: 'arbiter' | 'arbiterOrClaim' | 'claimOnly';
  /** Deadline to act: none (reinstated whenever found), or before the opponent makes his next move. */
  readonly claimDeadline: 'none' | 'beforeOpponentMoves';
  /** When an illegal move becomes punishable: at the clock press, or once made (E97 7.4 says "made": UNVERIFIED). */
  readonly completedAt: 'press' | 'made';
  /** Where the scale applies: always, or only in a quickplay finish (E97 10.3). */
  readonly scope: 'always' | 'quickplayFinish';
  /** The completed illegal move, counted per player, that loses (1 = the first). */
  readonly losingCount: number;
  /** Minutes added to the opponent's time for each illegal move before the losing one. */
  readonly minutesToOpponent: number;
  /** The losing illegal move only draws when the opponent cannot checkmate (E09+; E97 blitz via C4). */
  readonly drawIfOpponentCannotMate: boolean;
  /** The test that decides "cannot checkmate" for that exception. */
  readonly cannotMateTest: CannotMateTest;
  /** Pressing the clock without making a move counts as an illegal move (E17 7.8.1, E18+ 7.5.3). */
  readonly pressWithoutMoveCounts: boolean;
  /** A move made with two hands and pressed counts as an illegal move (E17 7.7.1, E18+ 7.5.4). */
  readonly twoHandsCounts: boolean;
  /** A legal move made with two hands is taken back (true) or stands and is only penalised (false, UNVERIFIED). */
  readonly twoHandedMoveReverted: boolean;
  /** Pawn left unpromoted on the last rank and pressed: position reinstated (E09) or pawn becomes a queen (E14+). */
  readonly unfinishedPromotion: 'reinstate' | 'queen';
  /** Rapid/blitz claim: the opponent may still claim after touching (not making) his own move (UNVERIFIED, S53). */
  readonly claimAfterOwnTouch: boolean;
  /** A king captured after the opponent's illegal move: which irregularity is penalised (UNVERIFIED, S50). */
  readonly kingCaptureAfterIllegal: 'firstOnly' | 'both' | 'askArbiter';
}

/** Set-up, colours and illegal positions (Art. 7, Appendices). */
export interface IrregularityRules {
  /** Moves by each player after which set-up, orientation and clock-setting claims lapse (rapid/blitz: 3 or 10). */
  readonly setupClaimDeadlineMoves: number | undefined;
  /** Colours reversed: a new game is started if fewer than this many moves were made by each (E17+ 7.3: 10). */
  readonly coloursReversedNewGameBeforeMoves: number | undefined;
  /** Illegal position seen (both kings in check, pawn on the last rank) under the regime in force. */
  readonly illegalPosition:
    'arbiterCorrects' | 'arbiterIntervenesIfPossible' | 'drawAfterNextMove' | 'onClaimOnly';
}

/** Penalty for an incorrect draw claim (9.5). */
export interface IncorrectClaimRules {
  /** Minutes added to the opponent's time. */
  readonly minutesToOpponent: number;
  /** E97 9.5.b: the claimant also loses half his remaining time, at most this many minutes; undefined elsewhere. */
  readonly claimantHalfTimeCapMinutes: number | undefined;
}

/** The drawn game (Art. 9, 5.2, quickplay finish). */
export interface DrawRules {
  /** Automatic fivefold: none (E97/E09), five consecutive alternate moves (E14, UNVERIFIED algorithm), any five (E17+). */
  readonly fivefold: 'none' | 'consecutiveAlternate' | 'anyFive';
  /** Automatic draw after 75 moves by each player without pawn move or capture (E14+ 9.6.b / 9.6.2). */
  readonly seventyFiveMoves: boolean;
  /** Penalty for an incorrect threefold or fifty-move claim. */
  readonly incorrectClaim: IncorrectClaimRules;
  /** Earliest draw agreement: any time, or only after both players made at least one move (E17+ 5.2.3). */
  readonly agreementEarliest: 'anyTime' | 'afterBothMoved';
  /** Event regulations may forbid draw offers or agreements (E09+ 9.1.a / 9.1.1). */
  readonly regulationsMayForbidAgreement: boolean;
  /** The right to claim under 9.2/9.3 on this move is lost by making a move (E97) or by touching a piece (E09+) - 9.4. */
  readonly claimRightLostBy: 'makingMove' | 'touchingPiece';
  /** A pending draw offer lapses when the opponent makes a move (E97) or touches a piece with intent (E09+). */
  readonly offerLapsesBy: 'makingMove' | 'touchingPiece';
  /** A 9.2/9.3 claim also counts as a draw offer (E09 9.1.b.3, E14 9.1.b, E18 9.1.2.3). */
  readonly claimCountsAsOffer: boolean;
  /** Castling clause of "same position": permanent rights only (E09+), or temporary or permanent (E97 wording). */
  readonly castlingKey: 'permanent' | 'temporaryOrPermanent';
  /** Quickplay-finish draw claims: always in the last period (E97/E09 Art. 10), only if announced (E14 App. G, E17+ Guidelines III), never (blitz). */
  readonly quickplayFinish: 'always' | 'ifAnnounced' | 'never';
  /** Minutes to the opponent when a quickplay-finish claim is rejected or postponed; undefined in E97 (no reject outcome). */
  readonly quickplayRejectedClaimMinutes: number | undefined;
}

/** Boundaries of rapid and blitz, by base time + incrementMoves x increment (Appendices A.1/B.1). */
export interface TimeClassification {
  /** Upper limit for blitz in seconds: E97/E09 900 (exclusive: under 15 min), E14+ 600 (inclusive: 10 min or less). */
  readonly blitzLimitSeconds: number;
  /** Whether a game of exactly blitzLimitSeconds is blitz. */
  readonly blitzLimitInclusive: boolean;
  /** From this many seconds the game is standard (60 min in every edition: rapid is "less than 60"). */
  readonly standardFromSeconds: number;
  /** Moves the increment is counted for (60 from E05; assumed for E97, UNVERIFIED). */
  readonly incrementMoves: number;
}

/** Clock-related numbers that are not flag rules. */
export interface TimeRules {
  /** Seconds a player may be late before losing by default (E97 3600; E09+ 0 unless regulations say otherwise). */
  readonly defaultTimeSeconds: number;
  /** Thresholds of `classifyTimeControl`. */
  readonly classification: TimeClassification;
}

/** Resignation (5.1.b / 5.1.2). */
export interface ResignationRules {
  /** E23 5.1.2: the resigning player loses unless the opponent cannot checkmate by any series of legal moves (then a draw). */
  readonly drawIfOpponentCannotMate: boolean;
}

/** Points (E97/E09 11.1, E14+ 10.1): 1 / ½ / 0 unless the event announces otherwise. */
export interface ScoringRules {
  /** Points for a win. */
  readonly win: number;
  /** Points for a draw. */
  readonly draw: number;
  /** Points for a loss. */
  readonly loss: number;
}

/** Everything a profile holds apart from its identity. */
export interface ProfileBody {
  /** Article numbers of the edition in force (adjusted for the game type and supervision). */
  readonly articles: ArticleTable;
  /** Art. 4 and move completion. */
  readonly moving: MovingRules;
  /** Completed illegal moves. */
  readonly illegalMoves: IllegalMoveRules;
  /** Set-up, colours, illegal positions. */
  readonly irregularities: IrregularityRules;
  /** Claims, offers, automatic draws. */
  readonly draws: DrawRules;
  /** Flag fall; `articles` is filled from `articles.flag`, `articles.bothFlags`, `articles.flagCannotMate`. */
  readonly flag: FlagRules;
  /** Default time and game-type thresholds. */
  readonly time: TimeRules;
  /** Resignation. */
  readonly resignation: ResignationRules;
  /** Points per result. */
  readonly scoring: ScoringRules;
}

/** A complete, frozen profile as returned by `getProfile`. */
export interface EditionProfile extends ProfileBody {
  /** Edition of the Laws in force. */
  readonly edition: Edition;
  /** Game type (Competition Rules, Appendix A or Appendix B). */
  readonly gameType: GameType;
  /** Supervision regime ('full' for standard games: the split exists only for rapid and blitz). */
  readonly supervision: Supervision;
  /** Dotted paths of values that rest on an UNVERIFIED reading of the reference (see docs/editions.md). */
  readonly unverified: readonly string[];
  /** Dotted paths of leaf values set by the caller's overrides. */
  readonly overridden: readonly string[];
}

/** A recursive partial: any subset of fields, at any depth. */
export type DeepPartial<T> = { readonly [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** What an event may override (flag.articles follows `articles` and cannot be set on its own). */
export type ProfileOverrides = DeepPartial<
  Omit<ProfileBody, 'flag'> & { readonly flag: Omit<FlagRules, 'articles'> }
>;

/** A fragment of profile data with the UNVERIFIED paths it introduces. */
export interface ProfileLayer {
  /** Values set by this layer. */
  readonly set: ProfileOverrides;
  /** Paths whose values in this layer are UNVERIFIED. */
  readonly unverified?: readonly string[];
}
