import { describe, expect, it } from 'vitest';
import {
  ARTICLE_TOPICS,
  PROFILES,
  classifyTimeControl,
  getProfile,
  illegalMoveSanction,
  incorrectClaimPenalty,
  isAgreementAllowed,
  type ArticleTopic,
} from '../../src/engine/editions.js';
import { hasPath } from '../../src/engine/editions/merge.js';
import {
  DEFAULT_EDITION,
  EDITIONS,
  GAME_TYPES,
  SUPERVISIONS,
  type Edition,
  type GameType,
  type Supervision,
} from '../../src/engine/types.js';

const ALL = EDITIONS.flatMap(e => GAME_TYPES.flatMap(g => SUPERVISIONS.map(s => [e, g, s] as const)));

describe('article concordance (reference §0.3, §4, §5, §8)', () => {
  // One row per topic: expected article in E97, E09, E14, E17, E18, E23 for standard chess.
  // E17 follows E18 except the illegal-move articles the reference names (errata 5).
  const rows: readonly (readonly [ArticleTopic, readonly (string | undefined)[]])[] = [
    ['checkmate', ['5.1.a', '5.1.a', '5.1.a', '5.1.1', '5.1.1', '5.1.1']], // §4.1
    ['resignation', ['5.1.b', '5.1.b', '5.1.b', '5.1.2', '5.1.2', '5.1.2']], // §4.2
    ['stalemate', ['5.2', '5.2.a', '5.2.a', '5.2.1', '5.2.1', '5.2.1']], // §4.1
    ['deadPosition', ['9.6', '5.2.b', '5.2.b', '5.2.2', '5.2.2', '5.2.2']], // §4.1
    ['agreement', ['5.3', '5.2.c', '5.2.c', '5.2.3', '5.2.3', '5.2.3']], // §4.3
    ['threefold', ['9.2', '9.2', '9.2', '9.2', '9.2', '9.2']], // §0.3
    ['samePosition', ['9.2', '9.2', '9.2', '9.2.2', '9.2.2', '9.2.3']], // §8.2
    ['fiftyMoves', ['9.3', '9.3', '9.3', '9.3', '9.3', '9.3']], // §8.3
    ['fivefold', [undefined, undefined, '9.6.a', '9.6.1', '9.6.1', '9.6.1']], // §8.5
    ['seventyFiveMoves', [undefined, undefined, '9.6.b', '9.6.2', '9.6.2', '9.6.2']], // §8.5
    ['touchMoveOwn', ['4.3', '4.3.a', '4.3.a', '4.3.1', '4.3.1', '4.3.1']], // §3.3
    ['castlingRookFirst', ['4.4.b', '4.4.b', '4.4.b', '4.4.2', '4.4.2', '4.4.2']], // §3.4
    ['moveMade', ['4.7', '4.6', '4.7', '4.7', '4.7', '4.7']], // §0.3 release
    ['article4ClaimLost', ['4.6', '4.7', '4.8', '4.8', '4.8', '4.8']], // §3.8
    ['illegalMove', ['7.4', '7.4.a', '7.5.a', '7.5.1', '7.5.1', '7.5.1']], // §6.1
    ['illegalMovePenalty', ['10.3', '7.4.b', '7.5.b', '7.5.3', '7.5.5', '7.5.5']], // §6.3
    ['pressWithoutMove', [undefined, undefined, undefined, '7.8.1', '7.5.3', '7.5.3']], // §6.1
    ['flag', ['6.9', '6.9', '6.9', '6.9', '6.9', '6.9']], // §5.3
    ['bothFlags', ['10.4', '6.11.b', 'App. G', 'III.3.1', 'III.3.1', 'III.3.1']], // §5.4, errata 10
    ['clockPress', ['6.7.a', '6.7.a', '6.2.a', '6.2.1', '6.2.1', '6.2.1']], // §5.2
    ['defaultTime', ['6.6', '6.6.a', '6.7.a', '6.7.1', '6.7.1', '6.7.1']], // §5.5
    ['drawClaimLostByTouch', ['9.4', '9.4', '9.4', '9.4', '9.4', '9.4']], // §8.2
    ['incorrectClaim', ['9.5.b', '9.5.b', '9.5.c', '9.5.3', '9.5.3', '9.5.3']], // §8.4
    ['scoring', ['11.1', '11.1', '10.1', '10.1', '10.1', '10.1']], // §10
    ['bothLose', ['12.8', '12.9', '11.8', '11.8', '11.8', '11.8']], // §10
    ['haveTheMove', ['1.1', '1.1', '1.1', '1.3', '1.3', '1.3']], // errata 11
  ];
  it.each(rows)('%s', (topic, expected) => {
    expect(EDITIONS.map(e => getProfile(e, 'standard').articles[topic])).toEqual(expected);
  });

  it('fills the FlagRules articles from the table', () => {
    for (const [e, g, s] of ALL) {
      const p = getProfile(e, g, s);
      expect(p.flag.articles).toEqual({
        flag: p.articles.flag,
        bothFlags: p.articles.bothFlags,
        cannotMate: p.articles.flagCannotMate,
      });
    }
  });

  it('has every topic in every profile', () => {
    for (const [e, g, s] of ALL)
      expect(Object.keys(getProfile(e, g, s).articles).sort()).toEqual([...ARTICLE_TOPICS].sort());
  });
});

describe('illegal moves: standard chess (reference §6.3, S40-S43, S46)', () => {
  it.each([
    // edition, losing count, minutes, draw if the opponent cannot mate, scope
    ['E97', 3, 2, false, 'quickplayFinish'], // E97 10.3 only in the quickplay finish (errata 3)
    ['E09', 3, 2, true, 'always'], // 7.4.b, S42
    ['E14', 2, 2, true, 'always'], // 7.5.b, S41
    ['E17', 2, 2, true, 'always'], // 7.5.3
    ['E18', 2, 2, true, 'always'], // 7.5.5
    ['E23', 2, 2, true, 'always'], // 7.5.5
  ] as const)('%s: illegal move %i loses, +%i min', (edition, losingCount, minutes, drawException, scope) => {
    const rules = getProfile(edition, 'standard').illegalMoves;
    expect(rules).toMatchObject({
      losingCount,
      minutesToOpponent: minutes,
      drawIfOpponentCannotMate: drawException,
      scope,
    });
  });

  it('gives the sanction move by move', () => {
    const qp = { inQuickplayFinish: false };
    const e09 = getProfile('E09', 'standard');
    expect([1, 2, 3].map(n => illegalMoveSanction(e09, n, qp).kind)).toEqual(['addTime', 'addTime', 'loss']); // S40-S42
    const e14 = getProfile('E14', 'standard');
    expect(illegalMoveSanction(e14, 1, qp)).toEqual({
      kind: 'addTime',
      minutes: 2,
      article: { edition: 'E14', article: '7.5.b' },
    });
    expect(illegalMoveSanction(e14, 2, qp)).toMatchObject({ kind: 'loss', drawIfOpponentCannotMate: true }); // S41, S43
  });

  it('E97: no fixed penalty outside the quickplay finish; 10.3 inside it (S40-S42)', () => {
    const p = getProfile('E97', 'standard');
    expect(illegalMoveSanction(p, 1, { inQuickplayFinish: false })).toEqual({
      kind: 'restoreOnly',
      article: { edition: 'E97', article: '7.4' },
    });
    expect(illegalMoveSanction(p, 2, { inQuickplayFinish: true })).toMatchObject({
      kind: 'addTime',
      minutes: 2,
    });
    expect(illegalMoveSanction(p, 3, { inQuickplayFinish: true })).toMatchObject({
      kind: 'loss',
      drawIfOpponentCannotMate: false,
    });
  });

  it('rejects a count below 1', () => {
    expect(() => illegalMoveSanction(getProfile('E23', 'standard'), 0, { inQuickplayFinish: false })).toThrow(
      TypeError,
    );
  });

  it.each([
    // edition, pressing without a move counts, two hands count (S46, S47, errata 5)
    ['E97', false, false],
    ['E09', false, false],
    ['E14', false, false],
    ['E17', true, true],
    ['E18', true, true],
    ['E23', true, true],
  ] as const)('%s: press without move %s, two hands %s', (edition, press, twoHands) => {
    const rules = getProfile(edition, 'standard').illegalMoves;
    expect([rules.pressWithoutMoveCounts, rules.twoHandsCounts]).toEqual([press, twoHands]);
  });

  it.each([
    ['E09', 'reinstate'],
    ['E14', 'queen'],
    ['E23', 'queen'],
  ] as const)('%s: a pawn left on the last rank is handled by %s (S36)', (edition, handling) => {
    expect(getProfile(edition, 'standard').illegalMoves.unfinishedPromotion).toBe(handling);
  });
});

describe('illegal moves: rapid and blitz (reference §6.4, S51-S58)', () => {
  it.each([
    // edition, type, supervision, detection, losing count, minutes, deadline, article of the penalty
    ['E97', 'blitz', 'full', 'claimOnly', 1, 0, 'beforeOpponentMoves', 'C3'], // App. C3 (errata 7)
    ['E09', 'rapid', 'full', 'arbiter', 3, 2, 'none', '7.4.b'], // A.3: Competition Rules
    ['E09', 'rapid', 'reduced', 'claimOnly', 3, 2, 'beforeOpponentMoves', '7.4.b'], // A.4.c, S58
    ['E09', 'blitz', 'reduced', 'claimOnly', 1, 0, 'beforeOpponentMoves', 'B.3.c'], // S57
    ['E14', 'rapid', 'reduced', 'arbiterOrClaim', 1, 0, 'beforeOpponentMoves', 'A.4.b'], // S51
    ['E14', 'blitz', 'reduced', 'arbiterOrClaim', 1, 0, 'beforeOpponentMoves', 'A.4.b'], // first illegal move loses
    ['E14', 'blitz', 'full', 'arbiter', 2, 1, 'none', '7.5.b'], // errata 1: one minute (default)
    ['E17', 'rapid', 'reduced', 'arbiterOrClaim', 1, 0, 'beforeOpponentMoves', 'A.4.2'], // §6.4 E17
    ['E18', 'rapid', 'reduced', 'arbiterOrClaim', 2, 2, 'beforeOpponentMoves', '7.5.5'], // S54
    ['E18', 'blitz', 'reduced', 'arbiterOrClaim', 2, 1, 'beforeOpponentMoves', '7.5.5'], // S55, B.2
    ['E18', 'blitz', 'full', 'arbiter', 2, 1, 'none', '7.5.5'], // B.2 applies to all blitz
    ['E23', 'rapid', 'full', 'arbiter', 2, 1, 'none', '7.5.5'], // A.3
    ['E23', 'rapid', 'reduced', 'arbiterOrClaim', 2, 1, 'beforeOpponentMoves', '7.5.5'], // S56
    ['E23', 'blitz', 'reduced', 'arbiterOrClaim', 2, 1, 'beforeOpponentMoves', '7.5.5'], // B.3 imports A.3
  ] as const)('%s %s %s', (edition, type, sup, detection, losingCount, minutes, deadline, article) => {
    const p = getProfile(edition, type, sup);
    expect(p.illegalMoves).toMatchObject({
      detection,
      losingCount,
      minutesToOpponent: minutes,
      claimDeadline: deadline,
    });
    expect(p.articles.illegalMovePenalty).toBe(article);
  });

  it('E14 blitz: the first illegal move loses, unless the opponent cannot mate (A.4.b)', () => {
    const sanction = illegalMoveSanction(getProfile('E14', 'blitz', 'reduced'), 1, {
      inQuickplayFinish: false,
    });
    expect(sanction).toEqual({
      kind: 'loss',
      drawIfOpponentCannotMate: true,
      cannotMateTest: 'anyLegalSeries',
      article: { edition: 'E14', article: 'A.4.b' },
    });
  });

  it('E18 blitz: +1 minute, then loss (S55)', () => {
    const p = getProfile('E18', 'blitz', 'reduced');
    expect(illegalMoveSanction(p, 1, { inQuickplayFinish: false })).toMatchObject({
      kind: 'addTime',
      minutes: 1,
    });
    expect(illegalMoveSanction(p, 2, { inQuickplayFinish: false }).kind).toBe('loss');
  });

  it('E97 blitz needs mating potential to win (C4)', () => {
    const p = getProfile('E97', 'blitz');
    expect(p.illegalMoves.cannotMateTest).toBe('matingPotential');
    expect(p.flag.cannotMateTest).toBe('matingPotential');
    expect(p.flag.articles.cannotMate).toBe('C4');
  });

  it.each([
    ['E97', 'rapid', 'full', 'onRequest'], // B5
    ['E09', 'rapid', 'reduced', 'onRequest'], // A.4.b, S07
    ['E09', 'rapid', 'full', 'arbiter'],
    ['E14', 'rapid', 'reduced', 'arbiter'],
  ] as const)('%s %s %s: Art. 4 enforced by %s', (edition, type, sup, enforcement) => {
    expect(getProfile(edition, type, sup).moving.touchMoveEnforcement).toBe(enforcement);
  });

  it.each([
    ['E09', 'rapid', 'reduced', 'arbiterIntervenesIfPossible', 3], // A.4.c, A.4.a (S58, S93)
    ['E09', 'blitz', 'reduced', 'onClaimOnly', 3], // B.3.b
    ['E14', 'rapid', 'reduced', 'drawAfterNextMove', 10], // S59, S93
    ['E18', 'blitz', 'reduced', 'drawAfterNextMove', 10], // A.4.4
    ['E23', 'rapid', 'reduced', 'drawAfterNextMove', 10], // A.5.4
    ['E23', 'rapid', 'full', 'arbiterCorrects', undefined],
    ['E23', 'standard', 'full', 'arbiterCorrects', undefined],
  ] as const)(
    '%s %s %s: illegal position %s, set-up claims until move %s',
    (edition, type, sup, rule, deadline) => {
      const p = getProfile(edition, type, sup);
      expect([p.irregularities.illegalPosition, p.irregularities.setupClaimDeadlineMoves]).toEqual([
        rule,
        deadline,
      ]);
    },
  );
});

describe('draws (reference §8, S75-S92)', () => {
  it.each([
    // edition, fivefold mode, 75 moves, incorrect-claim minutes, claimant's half-time cap
    ['E97', 'none', false, 3, 3],
    ['E09', 'none', false, 3, undefined],
    ['E14', 'consecutiveAlternate', true, 2, undefined], // §8.5, errata 9
    ['E17', 'anyFive', true, 2, undefined],
    ['E18', 'anyFive', true, 2, undefined], // S83
    ['E23', 'anyFive', true, 2, undefined],
  ] as const)(
    '%s: fivefold %s, 75 moves %s, wrong claim +%i',
    (edition, fivefold, seventyFive, minutes, cap) => {
      const d = getProfile(edition, 'standard').draws;
      expect([
        d.fivefold,
        d.seventyFiveMoves,
        d.incorrectClaim.minutesToOpponent,
        d.incorrectClaim.claimantHalfTimeCapMinutes,
      ]).toEqual([fivefold, seventyFive, minutes, cap]);
    },
  );

  it.each([
    ['E18', 'blitz', 'full', 1], // S78, B.2
    ['E23', 'rapid', 'full', 1], // S78, A.3
    ['E23', 'rapid', 'reduced', 1],
    ['E18', 'rapid', 'full', 2],
    ['E09', 'blitz', 'reduced', 3],
  ] as const)('%s %s %s: wrong claim +%i min', (edition, type, sup, minutes) => {
    expect(getProfile(edition, type, sup).draws.incorrectClaim.minutesToOpponent).toBe(minutes);
  });

  it('E97 9.5.b: the claimant loses half his time, at most 3 minutes, and the opponent gets 3 (S78)', () => {
    const p = getProfile('E97', 'standard');
    expect(incorrectClaimPenalty(p, 10 * 60_000)).toEqual({
      opponentGainsMs: 180_000,
      claimantLosesMs: 180_000,
      article: { edition: 'E97', article: '9.5.b' },
    });
    expect(incorrectClaimPenalty(p, 4 * 60_000).claimantLosesMs).toBe(120_000);
    expect(incorrectClaimPenalty(getProfile('E14', 'standard'), 600_000)).toMatchObject({
      opponentGainsMs: 120_000,
      claimantLosesMs: 0,
    });
  });

  it.each([
    // edition, agreement before any move, after White's first move only, after one move each (S91)
    ['E97', true, true, true],
    ['E09', true, true, true],
    ['E14', true, true, true],
    ['E17', false, false, true],
    ['E18', false, false, true],
    ['E23', false, false, true],
  ] as const)('%s: agreement allowed %s / %s / %s', (edition, none, whiteOnly, both) => {
    const p = getProfile(edition, 'standard');
    const allowed = [
      isAgreementAllowed(p, { white: 0, black: 0 }),
      isAgreementAllowed(p, { white: 1, black: 0 }),
      isAgreementAllowed(p, { white: 1, black: 1 }),
    ];
    expect(allowed).toEqual([none, whiteOnly, both]);
  });

  it.each([
    // edition, claim right lost by (9.4, S77), offer lapses by (S89), castling key (§8.2)
    ['E97', 'makingMove', 'makingMove', 'temporaryOrPermanent'],
    ['E09', 'touchingPiece', 'touchingPiece', 'permanent'],
    ['E23', 'touchingPiece', 'touchingPiece', 'permanent'],
  ] as const)('%s: claim right lost by %s', (edition, claimLost, offerLapses, castlingKey) => {
    const d = getProfile(edition, 'standard').draws;
    expect([d.claimRightLostBy, d.offerLapsesBy, d.castlingKey]).toEqual([
      claimLost,
      offerLapses,
      castlingKey,
    ]);
  });

  it.each([
    ['E97', 'standard', 'always'],
    ['E97', 'blitz', 'never'], // C5
    ['E09', 'blitz', 'always'], // B.2: Competition Rules with full supervision
    ['E14', 'standard', 'ifAnnounced'], // G.2
    ['E23', 'rapid', 'ifAnnounced'], // III.2.1
    ['E23', 'blitz', 'never'], // III.2.2
  ] as const)('%s %s: quickplay-finish claims %s (§9)', (edition, type, mode) => {
    expect(getProfile(edition, type).draws.quickplayFinish).toBe(mode);
  });
});

describe('flag fall (reference §5.3, §5.4, errata 2, S61, S67-S69)', () => {
  it.each([
    // edition, type, supervision, claim only, test, both flags, article of both flags
    ['E97', 'standard', 'full', false, 'mostUnskilledCounterplay', 'drawInLastPeriod', '10.4'],
    ['E97', 'rapid', 'full', true, 'mostUnskilledCounterplay', 'draw', 'B8'],
    ['E97', 'blitz', 'reduced', true, 'matingPotential', 'draw', 'B8'],
    ['E09', 'standard', 'full', false, 'anyLegalSeries', 'drawInLastPeriod', '6.11.b'],
    ['E09', 'rapid', 'full', false, 'anyLegalSeries', 'drawInLastPeriod', '6.11.b'],
    ['E09', 'rapid', 'reduced', true, 'anyLegalSeries', 'draw', 'A.4.d.3'], // S68
    ['E09', 'blitz', 'reduced', true, 'anyLegalSeries', 'draw', 'A.4.d.3'],
    ['E14', 'rapid', 'reduced', false, 'anyLegalSeries', 'drawInLastPeriod', 'App. G'], // S69
    ['E18', 'standard', 'full', false, 'anyLegalSeries', 'drawInLastPeriod', 'III.3.1'],
    ['E23', 'rapid', 'reduced', false, 'anyLegalSeries', 'drawInLastPeriod', 'III.3.1'],
  ] as const)('%s %s %s', (edition, type, sup, claimOnly, test, bothFlags, article) => {
    const f = getProfile(edition, type, sup).flag;
    expect(f).toMatchObject({ claimOnly, cannotMateTest: test, bothFlags, drawIfOpponentCannotMate: true });
    expect(f.articles.bothFlags).toBe(article);
  });
});

describe('time (reference §5.5, §11, S73)', () => {
  it.each([
    ['E97', 3600],
    ['E09', 0],
    ['E14', 0],
    ['E23', 0],
  ] as const)('%s: default time %i s', (edition, seconds) => {
    expect(getProfile(edition, 'standard').time.defaultTimeSeconds).toBe(seconds);
  });

  // base minutes, increment seconds, then the game type under E97, E09, E14, E17, E18, E23
  const controls: readonly (readonly [number, number, readonly GameType[]])[] = [
    [15, 10, ['rapid', 'rapid', 'rapid', 'rapid', 'rapid', 'rapid']], // 25 min
    [3, 2, ['blitz', 'blitz', 'blitz', 'blitz', 'blitz', 'blitz']], // 5 min
    [90, 30, ['standard', 'standard', 'standard', 'standard', 'standard', 'standard']], // 120 min
    [10, 0, ['blitz', 'blitz', 'blitz', 'blitz', 'blitz', 'blitz']], // E14+: 10 min or less
    [60, 0, ['standard', 'standard', 'standard', 'standard', 'standard', 'standard']], // rapid is "less than 60"
    [12, 0, ['blitz', 'blitz', 'rapid', 'rapid', 'rapid', 'rapid']], // E09 B.1 under 15 vs E14 A.1 more than 10
    [15, 0, ['rapid', 'rapid', 'rapid', 'rapid', 'rapid', 'rapid']], // E09 A.1 "at least 15"
    [5, 5, ['blitz', 'blitz', 'blitz', 'blitz', 'blitz', 'blitz']], // 10 min exactly
    [10, 1, ['blitz', 'blitz', 'rapid', 'rapid', 'rapid', 'rapid']], // 11 min
    [45, 15, ['standard', 'standard', 'standard', 'standard', 'standard', 'standard']], // 60 min exactly
  ];
  it.each(controls)('%i+%i', (minutes, increment, expected) => {
    expect(EDITIONS.map(e => classifyTimeControl(minutes * 60, increment, e))).toEqual(expected);
  });

  it('rejects negative or non-finite times', () => {
    expect(() => classifyTimeControl(-1, 0, 'E23')).toThrow(TypeError);
    expect(() => classifyTimeControl(Number.NaN, 0, 'E23')).toThrow(TypeError);
    expect(() => classifyTimeControl(600, Number.POSITIVE_INFINITY, 'E23')).toThrow(TypeError);
  });

  it('lets an event count E97 increments differently (UNVERIFIED incrementMoves)', () => {
    expect(classifyTimeControl(600, 10, 'E97')).toBe('rapid'); // 10 + 10 = 20 min
    expect(classifyTimeControl(600, 10, 'E97', { time: { classification: { incrementMoves: 0 } } })).toBe(
      'blitz',
    );
  });
});

describe('moving, resignation and the rest (reference §3, §4, §6.6)', () => {
  it.each([
    // edition, touch intent, game end requires Arts. 4.2-4.7 (S15), next move completes (S02), promotion choice final (S35)
    ['E97', 'deliberate', false, false, false],
    ['E09', 'deliberate', false, false, true],
    ['E14', 'intentionToMoveOrCapture', true, true, true],
    ['E17', 'anyContactExceptAccidental', true, true, true],
    ['E23', 'anyContactExceptAccidental', true, true, true],
  ] as const)('%s: touch is %s', (edition, intent, art4, nextCompletes, choiceFinal) => {
    const m = getProfile(edition, 'standard').moving;
    expect([
      m.touchIntent,
      m.gameEndRequiresArticle4,
      m.nextMoveCompletesPrevious,
      m.promotion.choiceFinalOnTouch,
    ]).toEqual([intent, art4, nextCompletes, choiceFinal]);
  });

  it('touching the rook first bars castling in every edition (4.4.b / 4.4.2, S19)', () => {
    for (const e of EDITIONS) expect(getProfile(e, 'standard').moving.rookFirstBarsCastling).toBe(true);
  });

  it.each([
    ['E18', false],
    ['E23', true],
  ] as const)('%s: resigning against a bare king draws: %s (S92)', (edition, draws) => {
    expect(getProfile(edition, 'standard').resignation.drawIfOpponentCannotMate).toBe(draws);
  });

  it.each([
    ['E14', undefined],
    ['E17', 10],
    ['E23', 10],
  ] as const)('%s: colours reversed, new game before move %s (S94, errata 6)', (edition, moves) => {
    expect(getProfile(edition, 'standard').irregularities.coloursReversedNewGameBeforeMoves).toBe(moves);
  });
});

describe('profiles as values', () => {
  it('defaults to E23 standard with full supervision', () => {
    const p = getProfile(DEFAULT_EDITION, 'standard');
    expect([p.edition, p.gameType, p.supervision]).toEqual(['E23', 'standard', 'full']);
    expect(p).toBe(PROFILES.E23.standard.full);
  });

  it('is deeply frozen', () => {
    const p = getProfile('E14', 'rapid', 'reduced');
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.illegalMoves)).toBe(true);
    expect(Object.isFrozen(p.moving.promotion)).toBe(true);
    expect(Object.isFrozen(p.flag.articles)).toBe(true);
    expect(() => {
      (p.illegalMoves as { losingCount: number }).losingCount = 5;
    }).toThrow(TypeError);
  });

  it('has no supervision split for standard games', () => {
    expect(getProfile('E09', 'standard', 'reduced')).toBe(getProfile('E09', 'standard', 'full'));
    expect(getProfile('E09', 'standard', 'reduced', {}).supervision).toBe('full');
  });

  it('applies overrides without touching the shared profile, and records them', () => {
    const base = getProfile('E23', 'blitz', 'full');
    expect(base.unverified).toContain('illegalMoves.minutesToOpponent'); // errata 1: E23 blitz, full supervision
    const p = getProfile('E23', 'blitz', 'full', {
      illegalMoves: { minutesToOpponent: 2 },
      draws: { incorrectClaim: { minutesToOpponent: 2 } },
    });
    expect(p.illegalMoves.minutesToOpponent).toBe(2);
    expect(p.draws.incorrectClaim.minutesToOpponent).toBe(2);
    expect(p.overridden).toEqual([
      'illegalMoves.minutesToOpponent',
      'draws.incorrectClaim.minutesToOpponent',
    ]);
    expect(p.unverified).not.toContain('illegalMoves.minutesToOpponent');
    expect(base.illegalMoves.minutesToOpponent).toBe(1);
    expect(base.overridden).toEqual([]);
  });

  it('lets an event choose the E14 fivefold reading (§15.6)', () => {
    expect(getProfile('E14', 'standard', 'full', { draws: { fivefold: 'anyFive' } }).draws.fivefold).toBe(
      'anyFive',
    );
  });

  it('refuses unknown fields and mismatched shapes', () => {
    const bad = { illegalMoves: { losingCont: 3 } } as unknown as Parameters<typeof getProfile>[3];
    expect(() => getProfile('E23', 'standard', 'full', bad)).toThrow(/illegalMoves\.losingCont/);
    const shape = { draws: { incorrectClaim: 2 } } as unknown as Parameters<typeof getProfile>[3];
    expect(() => getProfile('E23', 'standard', 'full', shape)).toThrow(TypeError);
  });

  it('names only existing fields as unverified', () => {
    for (const [e, g, s] of ALL) {
      const p = getProfile(e, g, s);
      for (const path of p.unverified) expect(hasPath(p, path), `${e} ${g} ${s}: ${path}`).toBe(true);
    }
  });

  it.each([
    ['E97', 'standard', 'illegalMoves.scope'], // §15.2
    ['E14', 'standard', 'draws.fivefold'], // §15.6
    ['E17', 'standard', 'articles'], // E17 numbering inferred from E18
    ['E14', 'blitz', 'illegalMoves.minutesToOpponent'], // errata 1
    ['E23', 'standard', 'moving.rookFirstCastlingCompleted'], // §15.10
  ] as const)('%s %s marks %s as unverified', (edition, type, path) => {
    expect(getProfile(edition, type).unverified).toContain(path);
  });

  it('keeps identity fields consistent', () => {
    for (const [e, g, s] of ALL) {
      const p: { edition: Edition; gameType: GameType; supervision: Supervision } = getProfile(e, g, s);
      expect([p.edition, p.gameType, p.supervision]).toEqual([e, g, g === 'standard' ? 'full' : s]);
    }
  });
});
