import { describe, expect, it } from 'vitest';
import {
  type ClockOptions,
  type ClockState,
  type MoveTime,
  adjustClock,
  flagStatus,
  newClock,
  pauseClock,
  pressClock,
  readClock,
  remainingMs,
  replayRecordedClocks,
  resumeClock,
  startClock,
  stopClock,
} from '../../src/engine/clock.js';
import { parseTimeControl } from '../../src/engine/timeControl.js';
import type { Color } from '../../src/engine/types.js';

const S = 1000;
const MIN = 60 * S;

const started = (tc: string, at = 0, options: ClockOptions = {}): ClockState =>
  startClock(newClock(parseTimeControl(tc).unwrap(), options).unwrap(), at).unwrap();

const press = (s: ClockState, side: Color, now: number): { state: ClockState; move: MoveTime } =>
  pressClock(s, side, now).unwrap();

/** Plays alternate presses, each after `think(i)` ms, and returns the final state and the moves. */
const play = (
  s0: ClockState,
  plies: number,
  think: (ply: number) => number,
  t0 = 0,
): { state: ClockState; moves: MoveTime[]; t: number } => {
  let s = s0;
  let t = t0;
  const moves: MoveTime[] = [];
  for (let i = 0; i < plies; i++) {
    t += think(i);
    const r = press(s, s.toMove, t);
    s = r.state;
    moves.push(r.move);
  }
  return { state: s, moves, t };
};

describe('Fischer increment', () => {
  // [control, options, think ms, expected initial display, expected %clk after White's first move]
  const cases: [string, ClockOptions, number, number, number][] = [
    ['300+3', {}, 4200, 303 * S, 301.8 * S], // FIDE: increment before each move (E18 glossary), first one shown at start
    ['300+3', { incrementTiming: 'afterMove' }, 4200, 300 * S, 298.8 * S], // online convention
    ['180+2', {}, 3000, 182 * S, 181 * S], // DGT capture A: 0:03:02 at start, 2:59 + 2 s = 3:01 (dgt-protocol §10.3)
    ['900+10', {}, 2000, 910 * S, 918 * S], // corpus game 1: 1. d4 {[%clk 0:15:18]}-style first moves
    ['300', {}, 4200, 300 * S, 295.8 * S], // no increment
  ];
  it.each(cases)('%s %j: %i ms', (tc, options, think, initial, clk) => {
    const s = started(tc, 1000, options);
    expect(remainingMs(s, 1000)).toEqual({ white: initial, black: initial });
    const { state, move } = press(s, 'white', 1000 + think);
    expect(move).toMatchObject({ side: 'white', moveCount: 1, emtMs: think, clkMs: clk });
    expect(remainingMs(state, 1000 + think).white).toBe(clk);
    expect(state.toMove).toBe('black');
  });
});

describe('delays', () => {
  it('simple delay: main time untouched when the move takes less than the delay (S70)', () => {
    // Reference §13.8 S70: delay 5 s, Black main time 0:02; 4 s → still 0:02; then 8 s → flag at 7 s.
    let s = started('300d5');
    s = press(s, 'white', 1 * S).state;
    s = adjustClock(s, 1 * S, { set: { black: 2 * S } }).unwrap();
    const m1 = press(s, 'black', 5 * S);
    expect(m1.move).toMatchObject({ emtMs: 4 * S, clkMs: 2 * S, creditMs: 0 });
    s = press(m1.state, 'white', 6 * S).state;
    expect(readClock(s, 9 * S)).toMatchObject({ remaining: { black: 2 * S }, delayLeftMs: 2 * S });
    expect(remainingMs(s, 12 * S).black).toBe(1 * S);
    expect(flagStatus(s, 12.999 * S).first).toBeUndefined();
    expect(flagStatus(s, 14 * S).first).toEqual({ side: 'black', at: 13 * S });
  });

  it('Bronstein: gives back the time used, up to the delay', () => {
    let s = started('300b5');
    const quick = press(s, 'white', 3 * S); // 3 s used, 3 s back
    expect(quick.move).toMatchObject({ emtMs: 3 * S, clkMs: 300 * S, creditMs: 3 * S });
    s = press(quick.state, 'black', 11 * S).state; // black 8 s: 5 back
    expect(remainingMs(s, 11 * S).black).toBe(297 * S);
  });

  it('Bronstein does not protect a player with less main time than the delay (unlike simple delay)', () => {
    const bron = adjustClock(started('300b5'), 0, { set: { white: 2 * S } }).unwrap();
    const simple = adjustClock(started('300d5'), 0, { set: { white: 2 * S } }).unwrap();
    expect(flagStatus(bron, 3 * S).first).toEqual({ side: 'white', at: 2 * S });
    expect(flagStatus(simple, 3 * S).first).toBeUndefined();
    expect(flagStatus(simple, 8 * S).first).toEqual({ side: 'white', at: 7 * S });
  });
});

describe('periods', () => {
  it('adds the second period at the press of move 40, visible at once (S71)', () => {
    // 90 min/40 + 30 min, +30 s from move 1; White completes move 40 with 0:03 left → +30 min at that press.
    const s0 = started('40/5400+30:1800+30');
    const { state: s39, t } = play(s0, 78, () => 1 * S);
    expect(s39.moves).toEqual({ white: 39, black: 39 });
    const w = remainingMs(s39, t).white;
    const set = adjustClock(s39, t, { set: { white: 3 * S + 1 * S } }).unwrap();
    const m40 = press(set, 'white', t + 1 * S);
    expect(m40.move).toMatchObject({
      moveCount: 40,
      clkMs: 3 * S + 30 * MIN + 30 * S,
      bonusMs: 30 * MIN,
      creditMs: 30 * S,
    });
    expect(remainingMs(m40.state, t + 1 * S).white).toBe(3 * S + 30 * MIN + 30 * S);
    expect(readClock(m40.state, t + 1 * S).period).toEqual({ white: 1, black: 0 });
    expect(w).toBeGreaterThan(0);
  });

  it('World Championship 2023 control: +60 min at move 40, +15 min and the first 30 s at move 60', () => {
    const { moves } = play(started('40/7200:20/3600:900+30'), 122, () => 10 * S);
    const white = moves.filter(m => m.side === 'white');
    const byMove = (n: number) => white[n - 1];
    expect(byMove(39)).toMatchObject({ bonusMs: 0, creditMs: 0 });
    expect(byMove(40)).toMatchObject({ bonusMs: 60 * MIN, creditMs: 0 });
    expect(byMove(60)).toMatchObject({ bonusMs: 15 * MIN, creditMs: 30 * S }); // increment for move 61 credited ahead
    expect(byMove(61)).toMatchObject({ bonusMs: 0, creditMs: 30 * S });
    // 7200 - 60×10 + 3600 + 900 + 30×2 (credited at moves 60, 61) - 10
    expect(byMove(61)?.clkMs).toBe((7200 - 610 + 3600 + 900 + 60) * S);
  });

  it('repeats a secondary control with a move count (40/7200:20/3600 → +60 min at 60, 80, 100)', () => {
    const { moves } = play(started('40/7200:20/3600'), 200, () => 1 * S);
    const bonuses = moves.filter(m => m.side === 'white' && m.bonusMs > 0).map(m => m.moveCount);
    expect(bonuses).toEqual([40, 60, 80, 100]);
  });

  it('a corrected move counter moves the bonus (6.10.2)', () => {
    const s = adjustClock(started('40/5400+30:1800+30'), 0, { moves: { white: 38 } }).unwrap();
    const m = press(s, 'white', 1 * S);
    expect(m.move).toMatchObject({ moveCount: 39, bonusMs: 0 });
    const n = press(press(m.state, 'black', 2 * S).state, 'white', 3 * S);
    expect(n.move).toMatchObject({ moveCount: 40, bonusMs: 30 * MIN });
  });
});

describe('pause, resume, adjust, stop', () => {
  it('a pause stops the running time and is not part of %emt', () => {
    let s = started('300+3');
    s = pauseClock(s, 10 * S).unwrap();
    expect(remainingMs(s, 60 * S).white).toBe(293 * S);
    expect(readClock(s, 60 * S).running).toBeUndefined();
    s = resumeClock(s, 70 * S).unwrap();
    const m = press(s, 'white', 75 * S);
    expect(m.move.emtMs).toBe(15 * S);
    expect(m.move.clkMs).toBe(303 * S - 15 * S + 3 * S);
  });

  it('keeps the delay left across a pause', () => {
    let s = started('300d5');
    s = pauseClock(s, 2 * S).unwrap();
    s = resumeClock(s, 100 * S).unwrap();
    expect(readClock(s, 101 * S)).toMatchObject({ delayLeftMs: 2 * S, remaining: { white: 300 * S } });
    expect(remainingMs(s, 106 * S).white).toBe(297 * S);
  });

  it('adds penalty time and removes an increment earned by an illegal move (7.5.5, S72)', () => {
    const m = press(started('40/5400+30:1800+30'), 'white', 5 * S);
    const s = adjustClock(m.state, 5 * S, { add: { white: -30 * S, black: 2 * MIN } }).unwrap();
    expect(remainingMs(s, 5 * S)).toEqual({ white: m.move.clkMs - 30 * S, black: 5430 * S + 2 * MIN });
  });

  it('hands the move back when the position is reinstated', () => {
    const m = press(started('300+3'), 'white', 5 * S);
    const s = adjustClock(m.state, 6 * S, { toMove: 'white' }).unwrap();
    expect(readClock(s, 8 * S)).toMatchObject({ running: 'white', turnMs: 2 * S });
    expect(remainingMs(s, 8 * S).black).toBe(302 * S);
  });

  it('stops for good at the end of the game', () => {
    const s = stopClock(started('300+3'), 10 * S).unwrap();
    expect(remainingMs(s, 100 * S).white).toBe(293 * S);
    expect(pressClock(s, 'white', 11 * S).isErr).toBe(true);
  });

  // [what, operation, expected error kind]
  const refusals: [string, () => { isErr: boolean; error?: unknown }, string][] = [
    ['press by the side not on move', () => pressClock(started('300'), 'black', 1), 'notOnMove'],
    [
      'press while paused',
      () => pressClock(pauseClock(started('300'), 5).unwrap(), 'white', 6),
      'wrongPhase',
    ],
    [
      'press before the start',
      () => pressClock(newClock(parseTimeControl('300').unwrap()).unwrap(), 'white', 6),
      'wrongPhase',
    ],
    ['time going back', () => pressClock(started('300', 100), 'white', 50), 'timeWentBack'],
    ['start twice', () => startClock(started('300'), 5), 'wrongPhase'],
    ['resume a running clock', () => resumeClock(started('300'), 5), 'wrongPhase'],
    ['untimed game', () => newClock(parseTimeControl('-').unwrap()), 'untimed'],
    ['unknown control', () => newClock(parseTimeControl('?').unwrap()), 'untimed'],
    ['negative time', () => adjustClock(started('300'), 0, { set: { white: -1 } }), 'badValue'],
    ['fractional move count', () => adjustClock(started('300'), 0, { moves: { black: 1.5 } }), 'badValue'],
  ];
  it.each(refusals)('refuses %s', (_, op, kind) => {
    const r = op();
    expect(r.isErr).toBe(true);
    expect(r.error).toMatchObject({ kind });
  });
});

describe('flags', () => {
  it('computes the exact instant the flag fell, whenever we look', () => {
    const s = started('60', 500);
    expect(flagStatus(s, 60_499).first).toBeUndefined();
    expect(flagStatus(s, 90_000)).toMatchObject({ first: { side: 'white', at: 60_500 }, both: false });
    expect(remainingMs(s, 90_000).white).toBe(0);
  });

  it('both flags: the order and both instants are kept', () => {
    let s = started('60');
    s = press(s, 'white', 61 * S).state; // flagged at 60 s, presses late: no credit
    expect(remainingMs(s, 61 * S).white).toBe(0);
    const st = flagStatus(s, 200 * S);
    expect(st).toEqual({
      first: { side: 'white', at: 60 * S },
      both: true,
      at: { white: 60 * S, black: 121 * S },
    });
  });

  it('a flagged side earns no increment; time given by the arbiter lifts the flag', () => {
    let s = started('10+5');
    const late = press(s, 'white', 20 * S);
    expect(late.move).toMatchObject({ clkMs: 0, creditMs: 0, flaggedAt: 15 * S });
    s = adjustClock(late.state, 20 * S, { set: { white: 30 * S } }).unwrap();
    expect(flagStatus(s, 20 * S).at.white).toBeUndefined();
  });

  it('sandclock: what one side uses flows to the other', () => {
    const s = started('*60');
    expect(remainingMs(s, 10 * S)).toEqual({ white: 50 * S, black: 70 * S });
    expect(flagStatus(s, 61 * S).first).toEqual({ side: 'white', at: 60 * S });
    const m = press(s, 'white', 20 * S);
    expect(remainingMs(m.state, 30 * S)).toEqual({ white: 50 * S, black: 70 * S });
  });
});

describe('recorded clocks (%clk) to elapsed times (%emt)', () => {
  const tc = parseTimeControl('900+10').unwrap();
  // [what, recorded clocks in s, expected emt in s, expected issue kinds]
  const cases: [string, (number | undefined)[], (number | undefined)[], string[]][] = [
    ['consistent opening (corpus game 1 style)', [910 + 10 - 2, 919, 918 + 10 - 4], [2, 1, 4], []],
    ['missing record', [918, undefined, 910, 925], [2, undefined, 18, 5], ['missing']],
    ['time gained beyond the control', [918, 919, 980], [2, 1, undefined], ['gained']],
    ['one second of rounding tolerated', [921], [0], []],
    [
      'flag, then the same side moves again',
      [918, 919, 0, 900, 10],
      [2, 1, 918, 29, undefined],
      ['movedAfterZero', 'gained'],
    ],
  ];
  it.each(cases)('%s', (_, clks, emts, issues) => {
    const r = replayRecordedClocks(
      tc,
      clks.map(c => (c === undefined ? undefined : c * S)),
    ).unwrap();
    expect(r.plies.map(p => (p.emtMs === undefined ? undefined : p.emtMs / S))).toEqual(emts);
    expect(r.issues.map(i => i.kind)).toEqual(issues);
  });

  it('recovers elapsed times through the move-40 bonus', () => {
    const clocks = Array.from({ length: 80 }, (_, i) =>
      i < 78 ? 5400 + 30 - 60 * Math.floor(i / 2 + 1) + 30 * Math.floor(i / 2 + 1) : 0,
    );
    clocks[78] = 5400 + 30 - 40 * 60 + 40 * 30 + 1800; // White's move 40, 60 s used
    clocks[79] = 5400 + 30 - 40 * 60 + 40 * 30 + 1800;
    const r = replayRecordedClocks(
      parseTimeControl('40/5400+30:1800+30').unwrap(),
      clocks.map(c => c * S),
    ).unwrap();
    expect(r.issues).toEqual([]);
    expect(new Set(r.plies.map(p => p.emtMs))).toEqual(new Set([60 * S]));
  });

  it('cannot tell the time of a move played inside a delay', () => {
    const r = replayRecordedClocks(parseTimeControl('300d5').unwrap(), [300 * S, 296 * S]).unwrap();
    expect(r.plies.map(p => p.emtMs)).toEqual([undefined, 9 * S]);
  });
});
