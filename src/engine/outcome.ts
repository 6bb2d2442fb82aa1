/**
 * Game results with their reasons, at our boundary (in place of chessops' `Outcome { winner }`):
 * every outcome names how the game ended and cites the article of the edition in force. Renders
 * the PGN result token, the FIDE-style result, the PGN Termination tag with a precise text, and
 * the points (E97/E09 Art. 11, E14+ Art. 10).
 *
 *   const o = makeOutcome('checkmate', 'white', getProfile('E23', 'standard')).unwrap();
 *   makeResultToken(o);  // '1-0'
 *   makeTermination(o);  // { tag: 'normal', text: 'White won by checkmate (Art. 5.1.1, FIDE Laws of Chess, 1 January 2023)' }
 */
import { Result } from '@badrap/result';
import {
  citeTopic,
  EDITION_INFO,
  type ArticleTopic,
  type EditionProfile,
  type ScoringRules,
} from './editions.js';
import {
  dataError,
  type ArticleRef,
  type Color,
  type Edition,
  type GameType,
  type Supervision,
} from './types.js';

/** Endings with a winner. */
export const DECISIVE_KINDS = [
  'checkmate',
  'resignation',
  'flag',
  'illegalMoves',
  'defaultTime',
  'forfeit',
] as const;
export type DecisiveKind = (typeof DECISIVE_KINDS)[number];

/** Endings in a draw. */
export const DRAWN_KINDS = [
  'stalemate',
  'deadPosition',
  'threefold',
  'fiftyMoves',
  'fivefold',
  'seventyFiveMoves',
  'agreement',
  'flagVsCannotMate',
  'bothFlags',
  'illegalMovesVsCannotMate',
  'resignationVsCannotMate',
  'illegalPosition',
  'quickplayFinish',
] as const;
export type DrawnKind = (typeof DRAWN_KINDS)[number];

/** Every ending, including the arbiter's "both players lose" (E97 12.8, E09 12.9, E14+ 11.8). */
export type OutcomeKind = DecisiveKind | DrawnKind | 'bothLose';

/** One side won. */
export interface DecisiveOutcome {
  readonly kind: DecisiveKind;
  readonly winner: Color;
  readonly article: ArticleRef;
}

/** A draw; `by` is the side whose act led to it when there is one (flagged, resigned, illegal move). */
export interface DrawnOutcome {
  readonly kind: DrawnKind;
  readonly winner: undefined;
  readonly by: Color | undefined;
  readonly article: ArticleRef;
}

/** Both players lose (0-0), by the arbiter's decision. */
export interface BothLoseOutcome {
  readonly kind: 'bothLose';
  readonly winner: undefined;
  readonly article: ArticleRef;
}

export type Outcome = DecisiveOutcome | DrawnOutcome | BothLoseOutcome;

/** Why an outcome cannot be made under a profile. */
export type OutcomeProblem = {
  readonly kind: 'notInProfile';
  readonly outcome: OutcomeKind;
  readonly edition: Edition;
  readonly gameType: GameType;
  readonly supervision: Supervision;
};
export type OutcomeError = OutcomeProblem & Error;

/** The topics cited for each ending, first defined wins. */
const TOPICS: { readonly [K in OutcomeKind]: readonly ArticleTopic[] } = {
  checkmate: ['checkmate'],
  resignation: ['resignation'],
  flag: ['flag'],
  illegalMoves: ['illegalMovePenalty', 'illegalMove'],
  defaultTime: ['defaultTime'],
  forfeit: ['penalties'],
  stalemate: ['stalemate'],
  deadPosition: ['deadPosition'],
  threefold: ['threefold'],
  fiftyMoves: ['fiftyMoves'],
  fivefold: ['fivefold'],
  seventyFiveMoves: ['seventyFiveMoves'],
  agreement: ['agreement'],
  flagVsCannotMate: ['flagCannotMate'],
  bothFlags: ['bothFlags'],
  illegalMovesVsCannotMate: ['illegalMovePenalty', 'illegalMove'],
  resignationVsCannotMate: ['resignation'],
  illegalPosition: ['illegalPosition'],
  quickplayFinish: ['quickplayFinish'],
  bothLose: ['bothLose'],
};

/** Whether the profile knows this ending at all (e.g. no fivefold before E14). */
const AVAILABLE: { readonly [K in OutcomeKind]: (p: EditionProfile) => boolean } = {
  checkmate: () => true,
  resignation: () => true,
  flag: () => true,
  illegalMoves: () => true,
  defaultTime: () => true,
  forfeit: () => true,
  stalemate: () => true,
  deadPosition: () => true,
  threefold: () => true,
  fiftyMoves: () => true,
  fivefold: p => p.draws.fivefold !== 'none',
  seventyFiveMoves: p => p.draws.seventyFiveMoves,
  agreement: () => true,
  flagVsCannotMate: p => p.flag.drawIfOpponentCannotMate,
  bothFlags: () => true,
  illegalMovesVsCannotMate: p => p.illegalMoves.drawIfOpponentCannotMate,
  resignationVsCannotMate: p => p.resignation.drawIfOpponentCannotMate,
  illegalPosition: p => p.irregularities.illegalPosition === 'drawAfterNextMove',
  quickplayFinish: p => p.draws.quickplayFinish !== 'never',
  bothLose: () => true,
};

const isDecisiveKind = (kind: OutcomeKind): kind is DecisiveKind =>
  (DECISIVE_KINDS as readonly string[]).includes(kind);
const isDrawnKind = (kind: OutcomeKind): kind is DrawnKind =>
  (DRAWN_KINDS as readonly string[]).includes(kind);

/**
 * Builds an outcome citing the article of `profile`'s edition. Fails with `notInProfile` when the
 * ending does not exist under the profile (fivefold under E09, resignation draw before E23, ...).
 */
export function makeOutcome(
  kind: DecisiveKind,
  winner: Color,
  profile: EditionProfile,
): Result<DecisiveOutcome, OutcomeError>;
export function makeOutcome(
  kind: DrawnKind,
  winner: undefined,
  profile: EditionProfile,
  by?: Color,
): Result<DrawnOutcome, OutcomeError>;
export function makeOutcome(
  kind: 'bothLose',
  winner: undefined,
  profile: EditionProfile,
): Result<BothLoseOutcome, OutcomeError>;
export function makeOutcome(
  kind: OutcomeKind,
  winner: Color | undefined,
  profile: EditionProfile,
  by?: Color,
): Result<Outcome, OutcomeError> {
  const { edition, gameType, supervision } = profile;
  if (!AVAILABLE[kind](profile)) {
    const problem: OutcomeProblem = { kind: 'notInProfile', outcome: kind, edition, gameType, supervision };
    return Result.err(
      dataError(
        problem,
        `'${kind}' is not an ending under ${edition} ${gameType} (${supervision} supervision)`,
      ),
    );
  }
  const article = citeTopic(profile, ...TOPICS[kind]);
  if (isDecisiveKind(kind)) {
    if (winner === undefined) throw new TypeError(`makeOutcome: '${kind}' needs a winner`);
    return Result.ok({ kind, winner, article });
  }
  if (winner !== undefined) throw new TypeError(`makeOutcome: '${kind}' has no winner`);
  if (isDrawnKind(kind)) return Result.ok({ kind, winner, by, article });
  return Result.ok({ kind, winner, article });
}

/** PGN result token ('*' for a game in progress and for results PGN cannot express, such as 0-0). */
export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export const makeResultToken = (outcome: Outcome | undefined): PgnResult => {
  if (outcome === undefined || outcome.kind === 'bothLose') return '*';
  if (outcome.winner === undefined) return '1/2-1/2';
  return outcome.winner === 'white' ? '1-0' : '0-1';
};

/** FIDE-style result as written on a scoresheet or crosstable; +/- and -/+ mark forfeits (unplayed games). */
export type FideResult = '1-0' | '0-1' | '½-½' | '0-0' | '+/-' | '-/+' | '*';

export const makeFideResult = (outcome: Outcome | undefined): FideResult => {
  if (outcome === undefined) return '*';
  if (outcome.kind === 'bothLose') return '0-0';
  if (outcome.winner === undefined) return '½-½';
  if (outcome.kind === 'defaultTime') return outcome.winner === 'white' ? '+/-' : '-/+';
  return outcome.winner === 'white' ? '1-0' : '0-1';
};

/** Points for each player (1 / ½ / 0 unless the event's scoring says otherwise). */
export const makeScore = (
  outcome: Outcome,
  scoring: ScoringRules = { win: 1, draw: 0.5, loss: 0 },
): { readonly white: number; readonly black: number } => {
  if (outcome.kind === 'bothLose') return { white: scoring.loss, black: scoring.loss };
  if (outcome.winner === undefined) return { white: scoring.draw, black: scoring.draw };
  return outcome.winner === 'white'
    ? { white: scoring.win, black: scoring.loss }
    : { white: scoring.loss, black: scoring.win };
};

/** Values of the PGN Termination tag (PGN standard, section 9.8.1). */
export type PgnTermination =
  | 'abandoned'
  | 'adjudication'
  | 'death'
  | 'emergency'
  | 'normal'
  | 'rules infraction'
  | 'time forfeit'
  | 'unterminated';

const TERMINATION: { readonly [K in OutcomeKind]: PgnTermination } = {
  checkmate: 'normal',
  resignation: 'normal',
  flag: 'time forfeit',
  illegalMoves: 'rules infraction',
  defaultTime: 'abandoned',
  forfeit: 'rules infraction',
  stalemate: 'normal',
  deadPosition: 'normal',
  threefold: 'normal',
  fiftyMoves: 'normal',
  fivefold: 'normal',
  seventyFiveMoves: 'normal',
  agreement: 'normal',
  flagVsCannotMate: 'time forfeit',
  bothFlags: 'time forfeit',
  illegalMovesVsCannotMate: 'rules infraction',
  resignationVsCannotMate: 'normal',
  illegalPosition: 'rules infraction',
  quickplayFinish: 'adjudication',
  bothLose: 'rules infraction',
};

/** The PGN Termination value of an outcome kind (the one table of them). */
export const pgnTerminationOf = (kind: OutcomeKind): PgnTermination => TERMINATION[kind];

const NAME: { readonly [C in Color]: string } = { white: 'White', black: 'Black' };
const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

const decisiveText = (kind: DecisiveKind, winner: Color): string => {
  const w = NAME[winner];
  const l = NAME[other(winner)];
  switch (kind) {
    case 'checkmate':
      return `${w} won by checkmate`;
    case 'resignation':
      return `${l} resigned; ${w} won`;
    case 'flag':
      return `${l} lost on time; ${w} won`;
    case 'illegalMoves':
      return `${l} completed a losing illegal move; ${w} won`;
    case 'defaultTime':
      return `${l} did not arrive within the default time; ${w} won by forfeit`;
    case 'forfeit':
      return `${l} forfeited the game by the arbiter's decision; ${w} won`;
  }
};

/** "Black's flag fell, but White cannot checkmate ...", or a neutral wording when the side is unknown. */
const blocked = (by: Color | undefined, act: (name: string) => string, neutral: string): string =>
  by === undefined
    ? neutral
    : `${act(NAME[by])}, but ${NAME[other(by)]} cannot checkmate by any series of legal moves`;

const drawnText = (kind: DrawnKind, by: Color | undefined): string => {
  switch (kind) {
    case 'stalemate':
      return 'Draw by stalemate';
    case 'deadPosition':
      return 'Draw: dead position, neither player can checkmate by any series of legal moves';
    case 'threefold':
      return 'Draw by threefold repetition, on a correct claim';
    case 'fiftyMoves':
      return 'Draw by the fifty-move rule, on a correct claim';
    case 'fivefold':
      return 'Draw: the same position appeared for the fifth time';
    case 'seventyFiveMoves':
      return 'Draw: 75 moves by each player without a pawn move or a capture';
    case 'agreement':
      return 'Draw by agreement';
    case 'flagVsCannotMate':
      return `Draw: ${blocked(by, n => `${n}'s flag fell`, 'a flag fell, but the opponent cannot checkmate')}`;
    case 'bothFlags':
      return 'Draw: both flags fell';
    case 'illegalMovesVsCannotMate':
      return `Draw: ${blocked(by, n => `${n} completed a losing illegal move`, 'a losing illegal move, but the opponent cannot checkmate')}`;
    case 'resignationVsCannotMate':
      return `Draw: ${blocked(by, n => `${n} resigned`, 'a player resigned, but the opponent cannot checkmate')}`;
    case 'illegalPosition':
      return 'Draw: an illegal position was still on the board after the next move';
    case 'quickplayFinish':
      return 'Draw declared by the arbiter on a quickplay-finish claim';
  }
};

/** "Art. 5.1.1", "Art. A.4.2", "Guidelines III.3.1", "Appendix G", with the edition's title. */
export const makeCitation = (ref: ArticleRef): string => {
  const { article } = ref;
  const where = /^[IVX]+\./.test(article)
    ? `Guidelines ${article}`
    : article.startsWith('App. ')
      ? `Appendix ${article.slice('App. '.length)}`
      : `Art. ${article}`;
  return `${where}, ${EDITION_INFO[ref.edition].title}`;
};

const outcomeText = (outcome: Outcome): string => {
  switch (outcome.kind) {
    case 'bothLose':
      return "Both players lost by the arbiter's decision";
    case 'checkmate':
    case 'resignation':
    case 'flag':
    case 'illegalMoves':
    case 'defaultTime':
    case 'forfeit':
      return decisiveText(outcome.kind, outcome.winner);
    case 'stalemate':
    case 'deadPosition':
    case 'threefold':
    case 'fiftyMoves':
    case 'fivefold':
    case 'seventyFiveMoves':
    case 'agreement':
    case 'flagVsCannotMate':
    case 'bothFlags':
    case 'illegalMovesVsCannotMate':
    case 'resignationVsCannotMate':
    case 'illegalPosition':
    case 'quickplayFinish':
      return drawnText(outcome.kind, outcome.by);
  }
};

/** The PGN Termination tag value and a precise human text citing the article. */
export const makeTermination = (
  outcome: Outcome | undefined,
): { readonly tag: PgnTermination; readonly text: string } =>
  outcome === undefined
    ? { tag: 'unterminated', text: 'Game in progress' }
    : { tag: TERMINATION[outcome.kind], text: `${outcomeText(outcome)} (${makeCitation(outcome.article)})` };
