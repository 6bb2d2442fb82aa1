/**
 * Edition profiles of the FIDE Laws of Chess: one frozen profile per edition, game type and
 * supervision regime, holding the numbers, switches and article numbers that differ between them.
 * Rules code reads a profile instead of testing the edition. The data lives in ./editions/*.ts;
 * docs/editions.md explains each field and every UNVERIFIED choice.
 *
 *   const p = getProfile('E14', 'blitz', 'reduced');
 *   p.illegalMoves.losingCount;            // 1: the first completed illegal move loses (A.4.b)
 *   classifyTimeControl(180, 2, 'E23');    // 'blitz' (3 min + 60 x 2 s = 5 min)
 */
import {
  EDITIONS,
  GAME_TYPES,
  cite,
  type ArticleRef,
  type Edition,
  type GameType,
  type Supervision,
} from './types.js';
import { APPENDICES } from './editions/appendices.js';
import { UNVERIFIED_ARTICLES, standardArticles } from './editions/concordance.js';
import { deepFreeze, dropCovered, mergeLayer } from './editions/merge.js';
import type {
  ArticleTable,
  ArticleTopic,
  CannotMateTest,
  EditionProfile,
  ProfileLayer,
  ProfileOverrides,
} from './editions/model.js';
import { STANDARD } from './editions/standard.js';

export { ARTICLE_TOPICS } from './editions/model.js';
export type {
  ArticleTable,
  ArticleTopic,
  CannotMateTest,
  DeepPartial,
  DrawRules,
  EditionProfile,
  IllegalMoveRules,
  IncorrectClaimRules,
  IrregularityRules,
  MovingRules,
  ProfileOverrides,
  PromotionRules,
  ResignationRules,
  ScoringRules,
  TimeClassification,
  TimeRules,
} from './editions/model.js';

/** When each edition came into force, and how to name it in human text. */
export const EDITION_INFO: { readonly [E in Edition]: { readonly inForce: string; readonly title: string } } =
  {
    E97: { inForce: '1997-07-01', title: 'FIDE Laws of Chess, 1 July 1997' },
    E09: { inForce: '2009-07-01', title: 'FIDE Laws of Chess, 1 July 2009' },
    E14: { inForce: '2014-07-01', title: 'FIDE Laws of Chess, 1 July 2014' },
    E17: { inForce: '2017-07-01', title: 'FIDE Laws of Chess, 1 July 2017' },
    E18: { inForce: '2018-01-01', title: 'FIDE Laws of Chess, 1 January 2018' },
    E23: { inForce: '2023-01-01', title: 'FIDE Laws of Chess, 1 January 2023' },
  };

const requireArticle = (
  articles: ArticleTable,
  topic: 'flag' | 'bothFlags' | 'flagCannotMate',
  where: string,
): string => {
  const article = articles[topic];
  if (article === undefined) throw new TypeError(`${where}: no article for '${topic}'`);
  return article;
};

const buildProfile = (
  edition: Edition,
  gameType: GameType,
  supervision: Supervision,
  overrides: ProfileOverrides | undefined,
): EditionProfile => {
  const where = `${edition} ${gameType} ${supervision}`;
  const standard = STANDARD[edition];
  let body = { ...standard.rules, articles: standardArticles(edition) };
  let unverified: string[] = [...standard.unverified, ...UNVERIFIED_ARTICLES[edition]];
  const layers: readonly ProfileLayer[] =
    gameType === 'standard' ? [] : APPENDICES[edition][gameType][supervision];
  for (const layer of layers) {
    const merged = mergeLayer(body, layer.set, where);
    body = merged.value;
    unverified = [...dropCovered(unverified, merged.leaves), ...(layer.unverified ?? [])];
  }
  let overridden: readonly string[] = [];
  if (overrides !== undefined) {
    const merged = mergeLayer(body, overrides, `${where} overrides`);
    body = merged.value;
    overridden = merged.leaves;
    unverified = dropCovered(unverified, merged.leaves);
  }
  const { articles } = body;
  const flag = {
    ...body.flag,
    articles: {
      flag: requireArticle(articles, 'flag', where),
      bothFlags: requireArticle(articles, 'bothFlags', where),
      cannotMate: requireArticle(articles, 'flagCannotMate', where),
    },
  };
  return deepFreeze({
    edition,
    gameType,
    supervision,
    ...body,
    flag,
    unverified: [...new Set(unverified)],
    overridden,
  });
};

/**
 * Cites the first of `topics` that has an article in the profile (for example the penalty article,
 * falling back to the general one). Throws a TypeError if none has: the tables are incomplete.
 */
export const citeTopic = (profile: EditionProfile, ...topics: readonly ArticleTopic[]): ArticleRef => {
  for (const topic of topics) {
    const article = profile.articles[topic];
    if (article !== undefined) return cite(profile.edition, article);
  }
  throw new TypeError(`${profile.edition}: no article for ${topics.join(' / ')}`);
};

type ProfileTable = {
  readonly [E in Edition]: { readonly [G in GameType]: { readonly [S in Supervision]: EditionProfile } };
};

const buildTable = (): ProfileTable => {
  const byType = (e: Edition) =>
    Object.fromEntries(
      GAME_TYPES.map(g => {
        const full = buildProfile(e, g, 'full', undefined);
        // Standard games have one regime: both keys hold the same profile.
        const reduced = g === 'standard' ? full : buildProfile(e, g, 'reduced', undefined);
        return [g, { full, reduced }];
      }),
    );
  return deepFreeze(Object.fromEntries(EDITIONS.map(e => [e, byType(e)])) as unknown as ProfileTable);
};

/** Every profile without overrides, built once: PROFILES.E23.standard.full is the default. */
export const PROFILES: ProfileTable = buildTable();

/**
 * The frozen profile for an edition, game type and supervision regime (standard games always get
 * 'full': the split exists only in the rapid and blitz appendices). `overrides` sets any field, e.g.
 * an UNVERIFIED default the event has confirmed; an unknown field throws a TypeError.
 */
export const getProfile = (
  edition: Edition,
  gameType: GameType,
  supervision: Supervision = 'full',
  overrides?: ProfileOverrides,
): EditionProfile =>
  overrides === undefined
    ? PROFILES[edition][gameType][supervision]
    : buildProfile(edition, gameType, gameType === 'standard' ? 'full' : supervision, overrides);

/**
 * Game type of a time control under `edition` (Appendices A.1/B.1): base time plus 60 times the
 * increment (both in seconds) against the edition's thresholds. E.g. 10+0 is blitz everywhere,
 * 15+10 rapid, 60+0 and 90+30 standard; 12+0 is blitz under E97/E09 but rapid from E14.
 */
export const classifyTimeControl = (
  baseSeconds: number,
  incrementSeconds: number,
  edition: Edition,
  overrides?: ProfileOverrides,
): GameType => {
  if (!(baseSeconds >= 0 && incrementSeconds >= 0 && Number.isFinite(baseSeconds + incrementSeconds))) {
    throw new TypeError(`classifyTimeControl: invalid time control ${baseSeconds}+${incrementSeconds}`);
  }
  const c = getProfile(edition, 'standard', 'full', overrides).time.classification;
  const total = baseSeconds + c.incrementMoves * incrementSeconds;
  if (total >= c.standardFromSeconds) return 'standard';
  const blitz = c.blitzLimitInclusive ? total <= c.blitzLimitSeconds : total < c.blitzLimitSeconds;
  return blitz ? 'blitz' : 'rapid';
};

/** What a completed illegal move costs under a profile (after the position has been reinstated). */
export type IllegalMoveSanction =
  /** No fixed penalty: E97 outside a quickplay finish (arbiter's discretion, 13.4). */
  | { readonly kind: 'restoreOnly'; readonly article: ArticleRef }
  /** Time added to the opponent's clock. */
  | { readonly kind: 'addTime'; readonly minutes: number; readonly article: ArticleRef }
  /** The offender loses, or draws when the exception applies and the opponent cannot mate. */
  | {
      readonly kind: 'loss';
      readonly drawIfOpponentCannotMate: boolean;
      readonly cannotMateTest: CannotMateTest;
      readonly article: ArticleRef;
    };

/**
 * The sanction for the `count`-th completed illegal move of one player (1 = his first).
 * `inQuickplayFinish` matters only where the scale applies to the quickplay finish alone (E97).
 */
export const illegalMoveSanction = (
  profile: EditionProfile,
  count: number,
  context: { readonly inQuickplayFinish: boolean },
): IllegalMoveSanction => {
  if (!Number.isInteger(count) || count < 1)
    throw new TypeError(`illegalMoveSanction: count must be >= 1, got ${count}`);
  const rules = profile.illegalMoves;
  const applies = rules.scope === 'always' || context.inQuickplayFinish;
  if (!applies) return { kind: 'restoreOnly', article: citeTopic(profile, 'illegalMove') };
  const article = citeTopic(profile, 'illegalMovePenalty', 'illegalMove');
  if (count >= rules.losingCount) {
    return {
      kind: 'loss',
      drawIfOpponentCannotMate: rules.drawIfOpponentCannotMate,
      cannotMateTest: rules.cannotMateTest,
      article,
    };
  }
  return { kind: 'addTime', minutes: rules.minutesToOpponent, article };
};

/** Time consequences of an incorrect 9.2/9.3 claim, in milliseconds. */
export interface IncorrectClaimPenalty {
  /** Added to the opponent's clock. */
  readonly opponentGainsMs: number;
  /** Taken from the claimant's clock (E97 9.5.b: half his remaining time, at most 3 minutes). */
  readonly claimantLosesMs: number;
  readonly article: ArticleRef;
}

/** The penalty for an incorrect draw claim, given the claimant's remaining time. */
export const incorrectClaimPenalty = (
  profile: EditionProfile,
  claimantRemainingMs: number,
): IncorrectClaimPenalty => {
  const { minutesToOpponent, claimantHalfTimeCapMinutes } = profile.draws.incorrectClaim;
  const claimantLosesMs =
    claimantHalfTimeCapMinutes === undefined
      ? 0
      : Math.min(Math.max(0, claimantRemainingMs) / 2, claimantHalfTimeCapMinutes * 60_000);
  return {
    opponentGainsMs: minutesToOpponent * 60_000,
    claimantLosesMs,
    article: citeTopic(profile, 'incorrectClaim', 'drawClaim'),
  };
};

/**
 * Whether the Laws allow a draw agreement after these numbers of moves made by each player
 * (E17+ 5.2.3: only after both made at least one). Event regulations (9.1.1) are not included.
 */
export const isAgreementAllowed = (
  profile: EditionProfile,
  movesMade: { readonly white: number; readonly black: number },
): boolean => {
  switch (profile.draws.agreementEarliest) {
    case 'anyTime':
      return true;
    case 'afterBothMoved':
      return movesMade.white >= 1 && movesMade.black >= 1;
  }
};
