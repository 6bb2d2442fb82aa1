/**
 * The supervisor reducer: purity and determinism, the per-game seq, settings errors, the enforce
 * mode of Art. 4, resignation per edition, the link, the clock model's completion of a move.
 * The reference §13 scenarios themselves are board scripts (test/scenarios).
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent, GameSettings, SupervisorInput } from '../../../src/engine/events.js';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import { makeDigest } from '../../../src/engine/script/print.js';
import { runSupervision, startSupervision, superviseStep } from '../../../src/engine/supervisor/index.js';
import type { Edition } from '../../../src/engine/types.js';

const settings = (over: Partial<GameSettings> = {}): GameSettings => ({
  game: 'board-1',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  ...over,
});

const run = (
  inputs: readonly SupervisorInput[],
  over: Partial<GameSettings> = {},
  game?: Game,
): GameEvent[] => runSupervision(startSupervision(settings(over), game ? { game } : {}).state, inputs).events;

const digests = (events: readonly GameEvent[]): string[] =>
  events.filter(e => e.type !== 'clock').map(e => makeDigest(e));

const S07 = parseShorthand('0 g1 -; 400 g1 N; 900 e2 -; 1100 e4 P; 1800 press w; 3000 tick');

describe('supervisor reducer', () => {
  it('is pure and deterministic: the same state and input give the same events', () => {
    const { state } = startSupervision(settings({ timeControl: '300+2' }));
    const first = superviseStep(state, { kind: 'square', at: 0, square: 12, piece: 'empty' });
    const again = superviseStep(state, { kind: 'square', at: 0, square: 12, piece: 'empty' });
    expect(again.events).toEqual(first.events);
    expect(state.seq).toBe(0);
    expect(run(S07)).toEqual(run(S07));
  });

  it('numbers events with a strictly increasing seq and the game id', () => {
    const events = run(S07, { timeControl: '300+2' });
    expect(events.length).toBeGreaterThan(3);
    events.forEach((e, i) => {
      expect(e.seq).toBe(i + 1);
      expect(e.game).toBe('board-1');
    });
  });

  it.each([
    ['startFen', { startFen: 'not a fen' }],
    ['timeControl', { timeControl: '40/' }],
  ])('names the bad setting %s in a TypeError', (name, over) => {
    expect(() => startSupervision(settings(over))).toThrow(new RegExp(name));
  });

  it('completes a move at the press: the clock runs for the opponent', () => {
    const events = run(parseShorthand('0 e2 -; 200 e4 P; 900 press w'), { timeControl: '60' });
    const running = events.flatMap(e => (e.type === 'clock' ? [e.running] : []));
    expect(running).toEqual(['white', 'black']);
  });

  it('advise mode (S07): the breach is an alert, the move stands', () => {
    expect(digests(run(S07))).toEqual(['move 1 e4', 'alert touch-move 4.3.1 white proven']);
  });

  it('enforce mode (S07): the move is taken back, not accepted again, and the knight move is', () => {
    const inputs = parseShorthand(
      '0 g1 -; 400 g1 N; 900 e2 -; 1100 e4 P; 1800 press w; 2500 tick; 3000 e4 -; 3200 e2 P; 4000 g1 -; 4200 f3 N; 5000 press w; 6000 tick',
    );
    expect(digests(run(inputs, { art4Mode: 'enforce' }))).toEqual([
      'move 1 e4',
      'alert touch-move 4.3.1 white proven',
      'correction 1 arbiter',
      'move 1 Nf3',
    ]);
  });

  it.each<[string, Edition, string]>([
    ['S92 E23', 'E23', 'end 1/2-1/2 resignationVsCannotMate 5.1.2'],
    ['S92 E18', 'E18', 'end 0-1 resignation 5.1.2'],
    ['S92 E09', 'E09', 'end 0-1 resignation 5.1.b'],
  ])('%s: resignation against a bare king', (_id, edition, want) => {
    const game = Game.fromFen('8/8/4k3/8/8/8/3QK3/8 b - - 0 1').unwrap();
    expect(digests(run([{ kind: 'resign', at: 0, by: 'white' }], { edition }, game))).toEqual([want]);
  });

  it('reports a lost link once, and ignores commands after the end', () => {
    const events = run([
      { kind: 'link', at: 0, state: 'lost' },
      { kind: 'link', at: 500, state: 'back' },
      { kind: 'resign', at: 900, by: 'black' },
      { kind: 'offer', at: 1000, by: 'white' },
    ]);
    expect(digests(events)).toEqual(['alert board-missing 6.11.2', 'end 1-0 resignation 5.1.2']);
  });

  it('a result gesture ends the game and is never a move', () => {
    const game = Game.fromFen('8/8/8/2k5/8/5K2/8/8 w - - 0 1').unwrap();
    const inputs = parseShorthand('0 f3 -; 300 e4 K; 600 c5 -; 900 d5 k; 5000 tick');
    const events = run(inputs, {}, game);
    expect(digests(events)).toEqual(['end 1-0 gesture 10.1']);
  });
});
