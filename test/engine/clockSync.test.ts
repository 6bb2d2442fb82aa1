import { describe, expect, it } from 'vitest';
import { remainingMs } from '../../src/engine/clock.js';
import {
  type ClockReading,
  type ClockSyncConfig,
  type ClockSyncState,
  type SyncEvent,
  applyClockReading,
  newClockSync,
} from '../../src/engine/clockSync.js';
import { parseTimeControl } from '../../src/engine/timeControl.js';

const S = 1000;
const hms = (h: number, m: number, s: number): number => ((h * 60 + m) * 60 + s) * S;

/** Readings as [at, left, right, running]. */
type Row = [number, number, number, 'left' | 'right' | '-'];
const reading = ([at, left, right, run]: Row): ClockReading => ({
  at,
  left,
  right,
  running: run === '-' ? undefined : run,
});

const feed = (config: ClockSyncConfig, rows: Row[]): { state: ClockSyncState; events: SyncEvent[] } => {
  let state = newClockSync(config);
  const events: SyncEvent[] = [];
  for (const row of rows) {
    const out = applyClockReading(state, reading(row));
    state = out.state;
    events.push(...out.events);
  }
  return { state, events };
};
const kinds = (events: SyncEvent[]): string[] => events.map(e => e.kind);
const presses = (events: SyncEvent[]) => events.filter(e => e.kind === 'press');

const blitz = { control: parseTimeControl('180+2').unwrap() };

// DGT capture A (dgt-protocol §10.3), 3+2: both displays 0:03:02 when set; White's (left, bytes 6–8)
// runs down to 2:59; the press message shows left 3:01 (2 s increment added) and right 3:02.
const CAPTURE_A: Row[] = [
  [0, hms(0, 3, 2), hms(0, 3, 2), '-'],
  [1000, hms(0, 3, 1), hms(0, 3, 2), 'left'],
  [2000, hms(0, 3, 0), hms(0, 3, 2), 'left'],
  [3000, hms(0, 2, 59), hms(0, 3, 2), 'left'],
  [3400, hms(0, 3, 1), hms(0, 3, 2), 'right'],
  [4400, hms(0, 3, 1), hms(0, 3, 1), 'right'],
];

describe('lever presses and elapsed times', () => {
  it('DGT capture A: learns White = left, and the first move took 3 s despite the increment in the press message', () => {
    const { events, state } = feed(blitz, CAPTURE_A);
    expect(kinds(events)).toEqual(['orientation', 'started', 'press']);
    expect(events[0]).toEqual({ kind: 'orientation', at: 1000, whiteSide: 'left' });
    expect(events[1]).toEqual({ kind: 'started', at: 0, side: 'white' });
    expect(events[2]).toEqual({
      kind: 'press',
      at: 3400,
      side: 'white',
      moveCount: 1,
      emtMs: 3000,
      clkMs: hms(0, 3, 1),
      creditMs: 2000,
    });
    expect(state.moves).toEqual({ white: 1, black: 0 });
    expect(state.model && remainingMs(state.model, 4400)).toEqual({
      white: hms(0, 3, 1),
      black: hms(0, 3, 1),
    });
  });

  it('without a configured control, infers the increment from the jump in the display', () => {
    const { events } = feed({}, CAPTURE_A);
    expect(presses(events)).toEqual([
      {
        kind: 'press',
        at: 3400,
        side: 'white',
        moveCount: 1,
        emtMs: 3000,
        clkMs: hms(0, 3, 1),
        creditMs: 2000,
      },
    ]);
  });

  it('a run of moves: emt and clk for each, Black on the right', () => {
    const rows: Row[] = [
      [0, 182 * S, 182 * S, '-'],
      [100, 182 * S, 182 * S, 'left'],
      [5100, 177 * S, 182 * S, 'left'],
      [5150, 179 * S, 182 * S, 'right'], // White: 5 s
      [12_150, 179 * S, 175 * S, 'right'],
      [12_200, 179 * S, 177 * S, 'left'], // Black: 7 s
      [13_200, 178 * S, 177 * S, 'left'],
      [13_250, 180 * S, 177 * S, 'right'], // White: 1 s
    ];
    const { events } = feed(blitz, rows);
    expect(presses(events).map(e => [e.side, e.moveCount, e.emtMs, e.clkMs])).toEqual([
      ['white', 1, 5 * S, 179 * S],
      ['black', 1, 7 * S, 177 * S],
      ['white', 2, 1 * S, 180 * S],
    ]);
    expect(events.some(e => e.kind === 'drift')).toBe(false);
  });

  it('the move-40 bonus shown in the press message does not count as time saved', () => {
    // 90 min/40 + 30 min, +30 s; joined at move 40 with 1:40 left, White thinks 10 s.
    const config = {
      control: parseTimeControl('40/5400+30:1800+30').unwrap(),
      whiteSide: 'left' as const,
      moves: { white: 39, black: 39 },
    };
    const rows: Row[] = [
      [0, 100 * S, 2000 * S, '-'],
      [500, 100 * S, 2000 * S, 'left'],
      [10_500, 90 * S, 2000 * S, 'left'],
      [10_600, (90 + 1800 + 30) * S, 2000 * S, 'right'],
    ];
    const { events } = feed(config, rows);
    expect(presses(events)).toEqual([
      {
        kind: 'press',
        at: 10_600,
        side: 'white',
        moveCount: 40,
        emtMs: 10 * S,
        clkMs: 1920 * S,
        creditMs: 1830 * S,
      },
    ]);
  });

  it('simple delay: a move inside the delay leaves the display unchanged; emt comes from the readings', () => {
    const rows: Row[] = [
      [0, 300 * S, 300 * S, '-'],
      [100, 300 * S, 300 * S, 'left'],
      [3000, 300 * S, 300 * S, 'right'],
    ];
    const { events } = feed({ control: parseTimeControl('300d5').unwrap() }, rows);
    expect(presses(events)).toEqual([
      { kind: 'press', at: 3000, side: 'white', moveCount: 1, emtMs: 2900, clkMs: 300 * S, creditMs: 0 },
    ]);
  });
});

describe('which side is White', () => {
  // [what, config, first running display, expected events]
  const cases: [string, ClockSyncConfig, 'left' | 'right', SyncEvent[]][] = [
    [
      'White runs first on the right (board turned round)',
      {},
      'right',
      [
        { kind: 'orientation', at: 1000, whiteSide: 'right' },
        { kind: 'started', at: 1000, side: 'white' },
      ],
    ],
    [
      'Black to move first (game from a position)',
      { toMove: 'black' },
      'right',
      [
        { kind: 'orientation', at: 1000, whiteSide: 'left' },
        { kind: 'started', at: 1000, side: 'black' },
      ],
    ],
    [
      'configured orientation: nothing to learn',
      { whiteSide: 'left' },
      'left',
      [{ kind: 'started', at: 1000, side: 'white' }],
    ],
    [
      'configured orientation, but the other side started',
      { whiteSide: 'left' },
      'right',
      [
        { kind: 'unexpected', at: 1000, reason: 'wrongSideStarted' },
        { kind: 'started', at: 1000, side: 'black' },
      ],
    ],
  ];
  it.each(cases)('%s', (_, config, first, expected) => {
    const { events } = feed(config, [
      [0, 60 * S, 60 * S, '-'],
      [1000, 60 * S, 60 * S, first],
    ]);
    expect(events).toEqual(expected);
  });
});

describe('pauses, flags, resets, adjustments, drift', () => {
  const start: Row[] = [
    [0, 182 * S, 182 * S, '-'],
    [1000, 181 * S, 182 * S, 'left'],
  ];

  it('clock stopped and restarted by the arbiter', () => {
    const { events, state } = feed(blitz, [
      ...start,
      [5000, 177 * S, 182 * S, '-'],
      [65_000, 177 * S, 182 * S, 'left'],
      [67_000, 175 * S, 182 * S, 'left'],
    ]);
    expect(kinds(events)).toEqual(['orientation', 'started', 'paused', 'resumed']);
    expect(events[3]).toEqual({ kind: 'resumed', at: 65_000, side: 'white', swapped: false });
    expect(state.model && remainingMs(state.model, 67_000).white).toBe(175 * S);
  });

  it('DGT capture C: the running side blocked at 0:00:00 is a flag, not a pause', () => {
    const rows: Row[] = [
      [0, 16 * S, 3 * S, '-'],
      [10, 16 * S, 3 * S, 'right'],
      [1010, 16 * S, 2 * S, 'right'],
      [3010, 16 * S, 0, '-'],
    ];
    const { events } = feed({ toMove: 'black' }, rows);
    expect(kinds(events)).toEqual(['orientation', 'started', 'flag']);
    expect(events[2]).toEqual({ kind: 'flag', at: 3010, side: 'black' });
  });

  it('a clock that keeps running at 0:00:00 flags once the zero has lasted a second', () => {
    const rows: Row[] = [
      ...start,
      [2000, 1 * S, 182 * S, 'left'],
      [2500, 0, 182 * S, 'left'],
      [3000, 0, 182 * S, 'left'],
    ];
    const early = feed({}, rows);
    expect(kinds(early.events)).toEqual(['orientation', 'started']);
    const { events } = feed({}, [...rows, [3600, 0, 182 * S, 'left'], [5000, 0, 182 * S, 'left']]);
    expect(events.filter(e => e.kind === 'flag')).toEqual([{ kind: 'flag', at: 3600, side: 'white' }]);
  });

  it('a reset to the initial setting in mid-game', () => {
    const rows: Row[] = [
      ...start,
      [4000, 178 * S, 182 * S, 'left'],
      [4100, 180 * S, 182 * S, 'right'],
      [9000, 180 * S, 177 * S, 'right'],
      [9500, 182 * S, 182 * S, '-'],
    ];
    const { events, state } = feed(blitz, rows);
    expect(kinds(events)).toEqual(['orientation', 'started', 'press', 'reset']);
    expect(events[3]).toEqual({ kind: 'reset', at: 9500, remaining: { white: 182 * S, black: 182 * S } });
    expect(state.phase).toBe('paused');
    expect(state.moves).toEqual({ white: 1, black: 0 });
  });

  it('time added by the arbiter while the clock is stopped (7.5.5 penalty)', () => {
    const { events } = feed(blitz, [...start, [3000, 179 * S, 182 * S, '-'], [4000, 179 * S, 242 * S, '-']]);
    expect(events.at(-1)).toEqual({
      kind: 'adjusted',
      at: 4000,
      side: 'black',
      fromMs: 182 * S,
      toMs: 242 * S,
    });
  });

  it('drift: the clock was set without the increment (S74: found missing)', () => {
    const control = parseTimeControl('40/5400+30:1800+30').unwrap();
    const rows: Row[] = [
      [0, 5400 * S, 5400 * S, '-'],
      [1000, 5399 * S, 5400 * S, 'left'],
      [9000, 5391 * S, 5400 * S, 'left'],
      [10_000, 5390 * S, 5400 * S, 'right'],
    ];
    const { events } = feed({ control }, rows);
    const drifts = events.filter(e => e.kind === 'drift');
    expect(drifts).toEqual([
      { kind: 'drift', at: 1000, side: 'white', modelMs: 5430 * S, clockMs: 5400 * S },
      { kind: 'drift', at: 1000, side: 'black', modelMs: 5430 * S, clockMs: 5400 * S },
      { kind: 'drift', at: 10_000, side: 'white', modelMs: 5420 * S, clockMs: 5390 * S },
    ]);
  });

  it('drift: a clock that stopped counting while it says it runs', () => {
    const { events } = feed(blitz, [
      ...start,
      [2000, 181 * S, 182 * S, 'left'],
      [6000, 181 * S, 182 * S, 'left'],
      [7000, 180 * S, 182 * S, 'left'],
    ]);
    expect(events.filter(e => e.kind === 'drift')).toEqual([
      { kind: 'drift', at: 6000, side: 'white', modelMs: 176 * S, clockMs: 181 * S },
    ]);
  });

  it('a stopped display that ran: presses were missed between readings', () => {
    const { events } = feed(blitz, [
      ...start,
      [2000, 180 * S, 182 * S, 'left'],
      [9000, 181 * S, 176 * S, 'left'],
    ]);
    expect(events.some(e => e.kind === 'unexpected' && e.reason === 'stoppedSideRan')).toBe(true);
  });

  it('a reading from the past is reported and ignored', () => {
    const first = feed(blitz, start);
    const out = applyClockReading(first.state, reading([500, 181 * S, 182 * S, 'left']));
    expect(out.events).toEqual([{ kind: 'unexpected', at: 500, reason: 'timeWentBack' }]);
    expect(out.state).toBe(first.state);
  });
});
