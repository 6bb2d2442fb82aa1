/**
 * The squares to fix on a board's LEDs: which game events light them, which clear them, and the
 * per-board streams the sessions read (pure; the daemon-level run is in
 * test/integration/otherBoards.test.ts).
 */
import { SquareSet } from 'chessops';
import { describe, expect, it } from 'vitest';
import { BoardLeds, ledsForEvent } from '../../../src/bridge/daemon/leds.js';
import type { LedGroup } from '../../../src/drivers/observationExtra.js';
import type { GameEvent } from '../../../src/engine/events.js';

const base = { game: 'r1-b1', seq: 1, at: 0 };
const ARTICLE = { edition: 'E23', article: '7.5.1' } as const;

const alert = (code: string, squares?: string[]): GameEvent =>
  ({
    ...base,
    type: 'alert',
    code,
    article: ARTICLE,
    detail: 'x',
    ...(squares === undefined ? {} : { evidence: { squares } }),
  }) as GameEvent;

const move: GameEvent = { ...base, type: 'move', ply: 1, san: 'e4', uci: 'e2e4', fen: '' };

describe('ledsForEvent', () => {
  it('an illegal position blinks the squares of its evidence', () => {
    const groups = ledsForEvent(alert('illegal-position', ['g5', 'g8']));
    expect(groups).toHaveLength(1);
    expect(groups?.[0]?.style).toBe('blink');
    expect([...(groups?.[0]?.squares ?? SquareSet.empty())]).toEqual([62, 38].sort((a, b) => a - b));
  });

  it('mismatch, displaced pieces and king capture light their squares too', () => {
    for (const code of ['board-mismatch', 'displaced-pieces', 'king-capture', 'illegal-move'])
      expect(ledsForEvent(alert(code, ['e4']))?.[0]?.squares.has(28), code).toBe(true);
  });

  it('alerts that name no square to fix, or no squares at all, change nothing', () => {
    expect(ledsForEvent(alert('touch-move', ['e4']))).toBeUndefined();
    expect(ledsForEvent(alert('illegal-position'))).toBeUndefined();
    expect(ledsForEvent(alert('illegal-position', ['z9']))).toBeUndefined();
  });

  it('a move, a correction or the end clears them; a clock reading does not', () => {
    expect(ledsForEvent(move)).toEqual([]);
    expect(ledsForEvent({ ...base, type: 'correction', fromPly: 1, moves: [], reason: 'arbiter' })).toEqual(
      [],
    );
    expect(
      ledsForEvent({ ...base, type: 'clock', whiteMs: 1, blackMs: 1, running: 'white' }),
    ).toBeUndefined();
  });
});

describe('BoardLeds', () => {
  it('each board has its own stream: current value first, repeats dropped', () => {
    const leds = new BoardLeds();
    const seen: (readonly LedGroup[])[] = [];
    const sub = leds.of('b-1').subscribe(g => seen.push(g));
    leds.onEvent('b-1', alert('illegal-position', ['g5']));
    leds.onEvent('b-1', alert('illegal-position', ['g5']));
    leds.onEvent('b-2', alert('illegal-position', ['a1']));
    leds.onEvent(undefined, alert('illegal-position', ['a2']));
    leds.onEvent('b-1', move);
    sub.unsubscribe();
    expect(seen.map(g => g.map(x => [...x.squares]))).toEqual([[], [[38]], []]);
    expect(leds.current('b-2')[0]?.squares.has(0)).toBe(true);
    expect(leds.current('b-3')).toEqual([]);
  });
});
