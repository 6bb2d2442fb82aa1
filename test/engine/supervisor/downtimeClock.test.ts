/**
 * A repetition played while the daemon did not see the game (issue 13: what cannot be recovered is
 * left to the arbiter). 1. e4 e5 seen; 2. Qe2 Qe7 3. Qd1 Qd8 made meanwhile: the board as it
 * stood, White to move, and every press after it agrees with the record. Only the clock saw it:
 * Black's time, stopped when the link went, is not what it was. Before, the record silently lacked
 * four plies. Now the first clock reading after the board is seen again is one
 * `arbiter-decision-needed` alert naming Black's clock; reading goes on, nothing is counted.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent, GameSettings, SupervisorInput } from '../../../src/engine/events.js';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';
import type { Color } from '../../../src/engine/types.js';

const withClock: GameSettings = {
  game: 'g',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '900+10',
};
const noTimeControl: GameSettings = { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full' };

const gameOf = (sans: string): Game =>
  sans.split(' ').reduce((g, san) => g.playSan(san).unwrap(), Game.standard());

const boardAfter = (sans: string): string => {
  const g = gameOf(sans);
  return g.fenAt(g.length).split(' ')[0] ?? '';
};

const reading = (
  at: number,
  whiteMs: number,
  blackMs: number,
  running: Color | undefined,
): SupervisorInput => ({
  kind: 'clock',
  at,
  whiteMs,
  blackMs,
  running,
});

/** 1. e4 seen before; 1...e5 and Black's press seen; the clock read with White's time running. */
const before = (readAt = 1000): SupervisorInput[] => [
  ...parseShorthand('100 e7 -; 300 e5 p; 600 press b'),
  reading(readAt, 890_000, 885_000, readAt > 600 ? 'white' : 'black'),
  { kind: 'link', at: 3000, state: 'lost' },
];

/** The link back at 40 s, the board re-read as `board`, then the clock read. */
const after = (board: string, clock: SupervisorInput): SupervisorInput[] => [
  { kind: 'link', at: 40_000, state: 'back' },
  ...parseShorthand(`40000 snapshot ${board}`),
  clock,
];

const run = (settings: GameSettings, inputs: SupervisorInput[]) =>
  runSupervision(startSupervision(settings, { game: gameOf('e4') }).state, inputs);

const asked = (events: readonly GameEvent[]) =>
  events.flatMap(e => (e.type === 'alert' && e.code === 'arbiter-decision-needed' ? [e] : []));
const moves = (events: readonly GameEvent[]) => events.flatMap(e => (e.type === 'move' ? [e.san] : []));

describe('a repetition made while the daemon did not see the game, told by the clock', () => {
  // Four presses while down (Qe2 Qe7 Qd1 Qd8), 25 s of White's and 15 s of Black's time, 10 s each.
  it('with a Fischer increment, the readings count four presses the record lacks: one alert', () => {
    const { state, events } = run(withClock, [
      ...before(),
      ...after(boardAfter('e4 e5'), reading(41_000, 885_000, 890_000, 'white')),
    ]);
    const found = asked(events);
    expect(found).toHaveLength(1);
    expect(found[0]?.text).toEqual([
      { key: 'board.presses_over_gap', params: { count: 4, ply: 2, more: 4 } },
    ]);
    expect(found[0]?.detail).toContain('The clock counts 4 presses');
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    expect(events.filter(e => e.type === 'end')).toEqual([]);
    expect(events.filter(e => e.type === 'alert' && e.code === 'board-mismatch')).toEqual([]);
  });

  it("without a time control, Black's clock, stopped when the link went, changed: one alert naming it", () => {
    const { state, events } = run(noTimeControl, [
      ...before(),
      ...after(boardAfter('e4 e5'), reading(41_000, 885_000, 890_000, 'white')),
    ]);
    const found = asked(events);
    expect(found).toHaveLength(1);
    expect(found[0]?.color).toBe('black');
    expect(found[0]?.text).toEqual([
      { key: 'board.clock_over_gap', params: { color: 'black', ply: 2, count: 5 } },
    ]);
    expect(found[0]?.detail).toContain("Black's clock changed by 5 s");
    expect(state.illegal).toEqual({ white: 0, black: 0 });
  });

  it('leaves reading going: the next move is published, and a later reading asks nothing more', () => {
    const { events } = run(withClock, [
      ...before(),
      ...after(boardAfter('e4 e5'), reading(41_000, 885_000, 890_000, 'white')),
      ...parseShorthand('42000 g1 -; 42300 f3 N; 42600 press w'),
      reading(43_000, 893_000, 890_000, 'black'),
      ...parseShorthand('46000 tick'),
    ]);
    expect(asked(events)).toHaveLength(1);
    expect(moves(events)).toEqual(['e5', 'Nf3']);
  });

  for (const settings of [withClock, noTimeControl]) {
    const label = settings.timeControl === undefined ? 'without a time control' : 'with a time control';
    it(`asks nothing when no press was made meanwhile, ${label}`, () => {
      const { events } = run(settings, [
        ...before(),
        ...after(boardAfter('e4 e5'), reading(41_000, 850_000, 885_000, 'white')),
      ]);
      expect(asked(events)).toEqual([]);
    });
  }

  it('asks nothing without a time control when the last reading before the gap had the waiting side running', () => {
    // Read at 0.5 s, before Black's press: his time then was not final.
    const { events } = run(noTimeControl, [
      ...before(500),
      ...after(boardAfter('e4 e5'), reading(41_000, 850_000, 879_000, 'white')),
    ]);
    expect(asked(events)).toEqual([]);
  });

  it('leaves a clock running for the waiting side to his press (one board mismatch then, unseenPlies)', () => {
    const { events } = run(noTimeControl, [
      ...before(),
      ...after(boardAfter('e4 e5'), reading(41_000, 862_000, 879_000, 'black')),
    ]);
    expect(asked(events)).toEqual([]);
  });

  it('asks nothing of plies read off the re-read board that match the presses', () => {
    // 2. Nf3 Nc6 made meanwhile: two presses, 20 s each side, 10 s each.
    const { events } = run(withClock, [
      ...before(),
      ...after(boardAfter('e4 e5 Nf3 Nc6'), reading(41_000, 880_000, 875_000, 'white')),
      ...parseShorthand('46000 tick'),
      reading(47_000, 874_000, 875_000, 'white'),
    ]);
    expect(asked(events).filter(e => e.text[0]?.key === 'board.presses_over_gap')).toEqual([]);
    expect(moves(events)).toEqual(['e5', 'Nf3', 'Nc6']);
  });

  it('counts, once the re-read board is judged, presses beyond the plies read off it', () => {
    // 2. Qe2 Qe7 3. Qd1 Qd8 4. Nf3 made meanwhile: the board shows one ply, the clock five presses.
    const { events } = run(withClock, [
      ...before(),
      ...after(boardAfter('e4 e5 Nf3'), reading(41_000, 899_000, 885_000, 'black')),
      ...parseShorthand('46000 tick'),
      reading(47_000, 894_000, 885_000, 'black'),
    ]);
    expect(moves(events)).toEqual(['e5', 'Nf3']);
    const found = asked(events).filter(e => e.text[0]?.key === 'board.presses_over_gap');
    expect(found.map(e => e.text)).toEqual([
      [{ key: 'board.presses_over_gap', params: { count: 5, ply: 3, more: 4 } }],
    ]);
  });
});
