/**
 * The downtime cut of the handling generator with a physical clock read through the board: the
 * clock runs on the presses, also those made while the input is cut, and is read only while the
 * link is up, the first reading after the gap coming after the board's snapshot.
 */
import { Chess, parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import type { SupervisorInput } from '../../../src/engine/events.js';
import { withDowntime } from '../../../src/engine/handling/downtime.js';
import type { BoardEvent } from '../../../src/engine/recognition/boardEvent.js';

const sq = (name: string): number => parseSquare(name) ?? -1;

// 1. e4 e5 2. Nf3: White presses at 1 s, Black at 2.5 s (cut), the knight at 6 s.
const EVENTS: BoardEvent[] = [
  { kind: 'square', at: 500, square: sq('e2'), piece: 'empty' },
  { kind: 'square', at: 700, square: sq('e4'), piece: { color: 'white', role: 'pawn' } },
  { kind: 'press', at: 1000, side: 'white' },
  { kind: 'square', at: 1500, square: sq('e7'), piece: 'empty' },
  { kind: 'square', at: 1700, square: sq('e5'), piece: { color: 'black', role: 'pawn' } },
  { kind: 'press', at: 2500, side: 'black' },
  { kind: 'square', at: 6000, square: sq('g1'), piece: 'empty' },
];

const cut = () =>
  withDowntime(EVENTS, Chess.default().board, {
    from: 2000,
    ms: 3000,
    clock: { baseMs: 60_000, incMs: 5000 },
  }).inputs;

const readings = (inputs: readonly SupervisorInput[]) => inputs.flatMap(i => (i.kind === 'clock' ? [i] : []));

describe('the downtime cut with clock readings', () => {
  it('reads the clock every second while the link is up, never while it is down', () => {
    expect(readings(cut()).map(r => r.at)).toEqual([1000, 5000, 6000, 7000, 8000, 9000, 10_000]);
  });

  it('runs the clock on every press, the cut one too, in whole seconds', () => {
    const [first, afterGap] = readings(cut());
    // White thought 0.5 s and gained 5 s; Black's time not running yet.
    expect(first).toMatchObject({ whiteMs: 64_000, blackMs: 60_000, running: 'black' });
    // Black's press at 2.5 s was cut but counted: 1.5 s used, 5 s gained; White's 2.5 s since.
    expect(afterGap).toMatchObject({ whiteMs: 62_000, blackMs: 63_000, running: 'white' });
  });

  it('puts the first reading after the gap after the link back and the snapshot', () => {
    const kinds = cut()
      .filter(i => i.at === 5000)
      .map(i => i.kind);
    expect(kinds).toEqual(['link', 'snapshot', 'clock']);
  });

  it('adds no reading without the clock option', () => {
    const inputs = withDowntime(EVENTS, Chess.default().board, { from: 2000, ms: 3000 }).inputs;
    expect(readings(inputs)).toEqual([]);
  });
});
