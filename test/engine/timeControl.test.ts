import { describe, expect, it } from 'vitest';
import {
  type Period,
  type PerMoveKind,
  type TimeControl,
  endsPeriod,
  firstMoveOfPeriod,
  isLastPeriod,
  makeReadableTimeControl,
  makeTimeControl,
  parseReadableTimeControl,
  parseTimeControl,
  periodOfMove,
} from '../../src/engine/timeControl.js';

const p = (moves: number | undefined, seconds: number, perMove?: [PerMoveKind, number]): Period => ({
  moves,
  ms: seconds * 1000,
  perMove: perMove === undefined ? undefined : { kind: perMove[0], ms: perMove[1] * 1000 },
});
const periods = (...ps: Period[]): TimeControl => ({ kind: 'periods', periods: ps });

describe('PGN TimeControl', () => {
  // [input, expected value, canonical output]
  const cases: [string, TimeControl, string][] = [
    ['?', { kind: 'unknown' }, '?'], // PGN standard 9.6.1 first kind
    ['*', { kind: 'unknown' }, '?'], // lone '*' as written by some exporters: read as unknown
    ['-', { kind: 'untimed' }, '-'], // PGN 9.6.1 second kind
    ['*180', { kind: 'sandclock', ms: 180_000 }, '*180'], // PGN 9.6.1 sixth kind (sandclock)
    ['300', periods(p(undefined, 300)), '300'], // sudden death, fourth kind
    ['300+3', periods(p(undefined, 300, ['increment', 3])), '300+3'], // fifth kind
    ['300+0', periods(p(undefined, 300)), '300'], // zero increment = none
    [' 900+10 ', periods(p(undefined, 900, ['increment', 10])), '900+10'], // the corpus control, padded
    ['40/9000', periods(p(40, 9000)), '40/9000'], // third kind (repeats: see periodOfMove tests)
    ['1/259200', periods(p(1, 259_200)), '1/259200'], // correspondence, 3 days a move
    // The FIDE classical control 90 min/40 + 30 min, +30 s from move 1 (lichess broadcasts write it so)
    [
      '40/5400+30:1800+30',
      periods(p(40, 5400, ['increment', 30]), p(undefined, 1800, ['increment', 30])),
      '40/5400+30:1800+30',
    ],
    // The brief's form: strictly, the increment belongs to the second period only
    ['40/5400:1800+30', periods(p(40, 5400), p(undefined, 1800, ['increment', 30])), '40/5400:1800+30'],
    // World Championship 2023 (python-chess test data): +30 s from move 61 only
    [
      '40/7200:20/3600:900+30',
      periods(p(40, 7200), p(20, 3600), p(undefined, 900, ['increment', 30])),
      '40/7200:20/3600:900+30',
    ],
    ['300d5', periods(p(undefined, 300, ['delay', 5])), '300d5'], // our extension: simple (US) delay
    ['5400b10', periods(p(undefined, 5400, ['bronstein', 10])), '5400b10'], // our extension: Bronstein
    ['0+1', periods(p(undefined, 0, ['increment', 1])), '0+1'], // zero base, increment only (online bullet)
  ];
  it.each(cases)('parses %j', (input, value, canonical) => {
    const tc = parseTimeControl(input).unwrap();
    expect(tc).toEqual(value);
    expect(makeTimeControl(tc)).toBe(canonical);
    expect(parseTimeControl(makeTimeControl(tc)).unwrap()).toEqual(value);
  });

  // [input, kind, position]: positions are 0-based indexes into the input
  const errors: [string, string, number][] = [
    ['', 'empty', 0],
    ['   ', 'empty', 0],
    ['40/', 'badPeriod', 3], // the brief's example
    ['300+', 'badPeriod', 4],
    ['300x', 'badPeriod', 3],
    ['40/5400 + 30', 'badPeriod', 7], // no spaces inside PGN values
    ['300:+3', 'badPeriod', 4],
    ['*abc', 'badPeriod', 1],
    ['*60x', 'badPeriod', 3],
    ['  40/', 'badPeriod', 5], // position counts the leading blanks
    ['1234567890', 'numberTooLarge', 0],
    ['0/300', 'zeroMoves', 0],
    ['300:40/5400', 'suddenDeathNotLast', 0],
    ['40/5400:300:900', 'suddenDeathNotLast', 8],
    ['0', 'noTime', 0],
    ['*0', 'noTime', 0],
  ];
  it.each(errors)('refuses %j with %s at %i', (input, kind, at) => {
    const r = parseTimeControl(input);
    expect(r.isErr).toBe(true);
    const e = r.unwrap(
      () => undefined,
      err => err,
    );
    expect(e).toMatchObject({ kind, at });
    expect(e?.message).toMatch(/\S/);
  });

  it('names the position in the message', () => {
    const msg = parseTimeControl('40/').unwrap(
      () => '',
      e => e.message,
    );
    expect(msg).toContain('at 3');
  });
});

describe('readable time control', () => {
  // [readable, PGN equivalent, canonical readable]
  const cases: [string, string, string][] = [
    ['15+10', '900+10', '15+10'], // the corpus control, minutes + seconds (FIDE event announcements)
    ['3+2', '180+2', '3+2'], // the DGT capture's blitz control (dgt-protocol §10.3)
    ['5', '300', '5m'], // bare number = minutes
    ['90m/40 + 30m, +30s from move 1', '40/5400+30:1800+30', '90m/40 + 30m, +30s'], // the brief's example
    ['90m/40 + 30m, +30s', '40/5400+30:1800+30', '90m/40 + 30m, +30s'],
    ['1h30m/40 + 30m', '40/5400:1800', '90m/40 + 30m'],
    [
      '120m/40 + 60m/20 + 15m, +30s from move 61',
      '40/7200:20/3600:900+30',
      '2h/40 + 1h/20 + 15m, +30s from move 61',
    ], // WCh 2023
    ['2h/40 + 1h/20', '40/7200:20/3600', '2h/40 + 1h/20'], // repeating secondary control
    ['90m/40 + 30m, +30s, +0s from move 41', '40/5400+30:1800', '90m/40 + 30m, +30s, +0s from move 41'],
    ['5m, delay 3s', '300d3', '5m, delay 3s'], // US simple delay (E09 6.2.b 'tiempo diferido')
    ['90m, bronstein 10s', '5400b10', '90m, bronstein 10s'],
    ['25m, +10s', '1500+10', '25+10'],
    ['1m30s, +1s', '90+1', '1m30s, +1s'],
    ['45s', '45', '45s'],
    ['SANDCLOCK 3m', '*180', 'sandclock 3m'], // case-insensitive
    ['untimed', '-', 'untimed'],
    ['unknown', '?', 'unknown'],
  ];
  it.each(cases)('reads %j', (readable, pgn, canonical) => {
    const tc = parseReadableTimeControl(readable).unwrap();
    expect(tc).toEqual(parseTimeControl(pgn).unwrap());
    expect(makeTimeControl(tc)).toBe(pgn);
    expect(makeReadableTimeControl(tc)).toBe(canonical);
    expect(parseReadableTimeControl(canonical).unwrap()).toEqual(tc);
  });

  const errors: [string, string, number][] = [
    ['', 'empty', 0],
    ['90x', 'badDuration', 0],
    ['90m/40 + 3q', 'badDuration', 9],
    ['90m, foo 3s', 'badOption', 5],
    ['90m/40 + 30m, +30s from move 30', 'optionNotAtPeriodStart', 14],
    ['90m/40 + 30m, +30s, delay 5s', 'duplicateOption', 20],
    ['30m + 90m/40', 'suddenDeathNotLast', 0],
    ['sandclock 0s', 'noTime', 10],
    ['sandclock soon', 'badDuration', 10],
  ];
  it.each(errors)('refuses %j with %s at %i', (input, kind, at) => {
    const e = parseReadableTimeControl(input).unwrap(
      () => undefined,
      err => err,
    );
    expect(e).toMatchObject({ kind, at });
  });
});

describe('round trip on generated controls', () => {
  // A small LCG so the property runs the same every time.
  const rng = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const gen = (r: () => number): TimeControl => {
    const roll = r();
    if (roll < 0.05) return { kind: 'unknown' };
    if (roll < 0.1) return { kind: 'untimed' };
    if (roll < 0.15) return { kind: 'sandclock', ms: (1 + Math.floor(r() * 600)) * 1000 };
    const n = 1 + Math.floor(r() * 4);
    const kinds: PerMoveKind[] = ['increment', 'delay', 'bronstein'];
    const ps: Period[] = [];
    for (let i = 0; i < n; i++) {
      const last = i === n - 1;
      const moves = last && r() < 0.7 ? undefined : 1 + Math.floor(r() * 60);
      const perMove =
        r() < 0.4
          ? undefined
          : { kind: kinds[Math.floor(r() * 3)] ?? 'increment', ms: (1 + Math.floor(r() * 60)) * 1000 };
      ps.push({ moves, ms: (1 + Math.floor(r() * 10_000)) * 1000, perMove });
    }
    return { kind: 'periods', periods: ps };
  };
  it('parse(make(x)) = x for 2000 controls in both forms', () => {
    const r = rng(20240101);
    for (let i = 0; i < 2000; i++) {
      const tc = gen(r);
      expect(parseTimeControl(makeTimeControl(tc)).unwrap()).toEqual(tc);
      expect(parseReadableTimeControl(makeReadableTimeControl(tc)).unwrap()).toEqual(tc);
    }
  });
});

describe('period arithmetic', () => {
  const wch = parseTimeControl('40/7200:20/3600:900+30').unwrap();
  const repeating = parseTimeControl('40/7200:20/3600').unwrap();
  const ps = (tc: TimeControl): readonly Period[] => (tc.kind === 'periods' ? tc.periods : []);

  it('places moves in periods (WCh 2023: moves 1-40, 41-60, 61-)', () => {
    expect([1, 40, 41, 60, 61, 200].map(m => periodOfMove(ps(wch), m))).toEqual([0, 0, 1, 1, 2, 2]);
    expect([1, 2, 3].map(i => firstMoveOfPeriod(ps(wch), i - 1))).toEqual([1, 41, 61]);
  });

  it('ends periods at exactly the completing move', () => {
    const ends = Array.from({ length: 120 }, (_, i) => i + 1).filter(m => endsPeriod(ps(wch), m));
    expect(ends).toEqual([40, 60]);
  });

  it('repeats a last period that has a move count (40, 60, 80, 100 …)', () => {
    const ends = Array.from({ length: 120 }, (_, i) => i + 1).filter(m => endsPeriod(ps(repeating), m));
    expect(ends).toEqual([40, 60, 80, 100, 120]);
    expect(periodOfMove(ps(repeating), 85)).toBe(1);
  });

  it('knows the sudden-death period', () => {
    expect(isLastPeriod(ps(wch), 2)).toBe(true);
    expect(isLastPeriod(ps(wch), 1)).toBe(false);
    expect(isLastPeriod(ps(repeating), 1)).toBe(false);
  });
});
