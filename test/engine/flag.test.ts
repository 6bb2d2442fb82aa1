import { describe, expect, it } from 'vitest';
import { flagStatus, newClock, pressClock, readClock, startClock } from '../../src/engine/clock.js';
import { type FlagDecision, type FlagInput, decideFlag } from '../../src/engine/flag.js';
import { isLastPeriod, parseTimeControl } from '../../src/engine/timeControl.js';
import type { FlagRules, Verdict } from '../../src/engine/types.js';

/**
 * Flag rules per edition as read from the reference (fide-laws-for-boards §5.3, §5.4, errata 2, 7,
 * 8, 10). The project's edition profiles are built elsewhere; decideFlag takes them as a parameter,
 * so these tables only need to exercise each combination.
 */
const RULES = {
  // E97 6.9 ("most unskilled counterplay"); 6.11 both flags: continue, 10.4 draw in the quickplay finish
  E97standard: {
    claimOnly: false,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'mostUnskilledCounterplay',
    bothFlags: 'drawInLastPeriod',
    articles: { flag: '6.9', bothFlags: '6.11', cannotMate: '6.9' },
  },
  // E97 App. B (errata 2): claim-only flags, both down = draw
  E97rapid: {
    claimOnly: true,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'mostUnskilledCounterplay',
    bothFlags: 'draw',
    articles: { flag: 'B', bothFlags: 'B', cannotMate: '6.9' },
  },
  // E97 App. C (errata 7): C4 "mating potential"
  E97blitz: {
    claimOnly: true,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'matingPotential',
    bothFlags: 'draw',
    articles: { flag: 'C', bothFlags: 'B', cannotMate: 'C4' },
  },
  // E09 6.9; 6.11.a continue / 6.11.b draw in the last period
  E09standard: {
    claimOnly: false,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'anyLegalSeries',
    bothFlags: 'drawInLastPeriod',
    articles: { flag: '6.9', bothFlags: '6.11', cannotMate: '6.9' },
  },
  // E09 A.4.d: reduced supervision, a flag counts only on a valid claim; both fallen → draw
  E09rapidReduced: {
    claimOnly: true,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'anyLegalSeries',
    bothFlags: 'draw',
    articles: { flag: 'A.4.d', bothFlags: 'A.4.d', cannotMate: 'A.4.d' },
  },
  // E14 A.4: the arbiter calls flags he observes; draw if the claimant cannot mate
  E14rapidReduced: {
    claimOnly: false,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'anyLegalSeries',
    bothFlags: 'drawInLastPeriod',
    articles: { flag: 'A.4', bothFlags: 'G', cannotMate: '6.9' },
  },
  // E18 6.9; both flags only through Guidelines III.3.1 (last period)
  E18standard: {
    claimOnly: false,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'anyLegalSeries',
    bothFlags: 'drawInLastPeriod',
    articles: { flag: '6.9', bothFlags: 'III.3.1', cannotMate: '6.9' },
  },
  // E23 A.5.5 (rapid, reduced): arbiter calls the flag
  E23rapidReduced: {
    claimOnly: false,
    drawIfOpponentCannotMate: true,
    cannotMateTest: 'anyLegalSeries',
    bothFlags: 'drawInLastPeriod',
    articles: { flag: 'A.5.5', bothFlags: 'III.3.1', cannotMate: '6.9' },
  },
  // A regime without the cannot-mate exception (to show the switch is honoured)
  noException: {
    claimOnly: false,
    drawIfOpponentCannotMate: false,
    cannotMateTest: 'anyLegalSeries',
    bothFlags: 'draw',
    articles: { flag: '6.9', bothFlags: '6.11', cannotMate: '6.9' },
  },
} satisfies Record<string, FlagRules>;
type Regime = keyof typeof RULES;

const input = (regime: Regime, over: Partial<FlagInput> = {}): FlagInput => ({
  flaggedSide: 'white',
  bothFlags: false,
  lastPeriod: true,
  gameAlreadyOver: false,
  opponentCanMate: 'yes',
  rules: RULES[regime],
  ...over,
});

describe('a single flag (6.9)', () => {
  // [regime, verdict of "can the opponent mate", expected decision]; source in the comment
  const cases: [Regime, Verdict, FlagDecision][] = [
    ['E09standard', 'yes', { kind: 'win', winner: 'black', article: '6.9' }], // S63 K+P v K+N: a helpmate exists → 0-1
    ['E09standard', 'no', { kind: 'draw', reason: 'opponentCannotMate', article: '6.9' }], // S62 bare king → ½-½
    ['E97standard', 'no', { kind: 'draw', reason: 'opponentCannotMate', article: '6.9' }], // E97 6.9 same answer
    ['E18standard', 'yes', { kind: 'win', winner: 'black', article: '6.9' }], // S64 K+N v K+N (E09+) → 0-1
    ['E14rapidReduced', 'yes', { kind: 'win', winner: 'black', article: 'A.4' }], // S69: arbiter calls it
    ['E23rapidReduced', 'no', { kind: 'draw', reason: 'opponentCannotMate', article: '6.9' }], // S69: draw if he cannot mate
    ['noException', 'no', { kind: 'win', winner: 'black', article: '6.9' }], // exception switched off
    [
      'E09standard',
      'unknown',
      {
        kind: 'arbiter',
        reason: 'cannotMateUnknown',
        winnerIfMate: 'black',
        test: 'anyLegalSeries',
        article: '6.9',
      },
    ],
    ['E97blitz', 'unknown', { kind: 'awaitingClaim', claimant: 'black', article: 'C' }], // claim-only: nothing before the claim
  ];
  it.each(cases)('%s, opponent can mate: %s', (regime, verdict, expected) => {
    expect(decideFlag(input(regime, { opponentCanMate: verdict }))).toEqual(expected);
  });

  it('names the winner from the flagged side', () => {
    expect(decideFlag(input('E23rapidReduced', { flaggedSide: 'black' }))).toMatchObject({
      kind: 'win',
      winner: 'white',
    });
  });

  it("surfaces an unknown verdict with the edition's test (E97 blitz C4 mating potential)", () => {
    expect(decideFlag(input('E97blitz', { opponentCanMate: 'unknown', claimed: true }))).toEqual({
      kind: 'arbiter',
      reason: 'cannotMateUnknown',
      winnerIfMate: 'black',
      test: 'matingPotential',
      article: 'C4',
    });
  });
});

describe('a flag after the game ended changes nothing', () => {
  // S60 mate then flag, S65 dead position then flag, S66 fivefold then flag: every regime, every verdict
  const regimes = Object.keys(RULES) as Regime[];
  it.each(regimes)('%s', regime => {
    for (const v of ['yes', 'no', 'unknown'] as const) {
      for (const bothFlags of [false, true]) {
        expect(
          decideFlag(input(regime, { gameAlreadyOver: true, opponentCanMate: v, bothFlags })),
        ).toMatchObject({ kind: 'nothing', reason: 'gameAlreadyOver' });
      }
    }
  });
});

describe('both flags', () => {
  // [regime, order known, last period, expected kind]; reference §5.4 and S67
  const cases: [Regime, boolean, boolean, FlagDecision['kind']][] = [
    ['E09standard', true, true, 'win'], // S67: the electronic clock shows which fell first → that side loses
    ['E09standard', false, true, 'draw'], // 6.11.b
    ['E09standard', false, false, 'continue'], // 6.11.a
    ['E97standard', false, false, 'continue'], // E97 6.11
    ['E97standard', false, true, 'draw'], // E97 10.4 quickplay finish (errata 10)
    ['E18standard', false, true, 'draw'], // Guidelines III.3.1.2
    ['E18standard', false, false, 'continue'],
    ['noException', false, false, 'draw'], // a 'draw' regime ignores the period
    ['E09rapidReduced', true, false, 'draw'], // A.4.d.3: both fallen → draw, order irrelevant
    ['E97rapid', true, true, 'draw'], // E97 App. B: both down = draw
  ];
  it.each(cases)('%s, order known %s, last period %s → %s', (regime, orderKnown, lastPeriod, kind) => {
    const d = decideFlag(input(regime, { bothFlags: true, orderKnown, lastPeriod }));
    expect(d.kind).toBe(kind);
    if (d.kind === 'draw' || d.kind === 'continue') expect(d.article).toBe(RULES[regime].articles.bothFlags);
  });
});

describe('claim-only regimes (E97/E01 rapid and blitz, E09 reduced supervision)', () => {
  it('S68: the daemon stays silent until the opponent claims, then decides', () => {
    expect(decideFlag(input('E09rapidReduced', { flaggedSide: 'black' }))).toEqual({
      kind: 'awaitingClaim',
      claimant: 'white',
      article: 'A.4.d',
    });
    expect(decideFlag(input('E09rapidReduced', { flaggedSide: 'black', claimed: true }))).toEqual({
      kind: 'win',
      winner: 'white',
      article: 'A.4.d',
    });
    expect(
      decideFlag(input('E09rapidReduced', { flaggedSide: 'black', claimed: true, opponentCanMate: 'no' })),
    ).toMatchObject({ kind: 'draw', reason: 'opponentCannotMate' });
  });

  it("S68: a claim made when the claimant's own flag is down is a draw", () => {
    expect(decideFlag(input('E09rapidReduced', { claimed: true, bothFlags: true }))).toMatchObject({
      kind: 'draw',
      reason: 'bothFlags',
    });
  });
});

describe('from the clock to the decision', () => {
  it('feeds the flag order and period of a real clock state into decideFlag', () => {
    const tc = parseTimeControl('40/120:60').unwrap();
    let s = startClock(newClock(tc).unwrap(), 0).unwrap();
    s = pressClock(s, 'white', 121_000).unwrap().state; // White overstepped 120 s before move 40
    const flags = flagStatus(s, 300_000);
    const period = readClock(s, 300_000).period.white;
    expect(flags.first?.side).toBe('white');
    const periods = tc.kind === 'periods' ? tc.periods : [];
    const d = decideFlag({
      flaggedSide: flags.first?.side ?? 'black',
      bothFlags: flags.both,
      lastPeriod: isLastPeriod(periods, period),
      gameAlreadyOver: false,
      opponentCanMate: 'yes',
      rules: RULES.E09standard,
    });
    expect(flags.both).toBe(true);
    expect(d).toEqual({ kind: 'win', winner: 'black', article: '6.9' });
  });
});
