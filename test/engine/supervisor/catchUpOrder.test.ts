/**
 * A board that two move orders reach, found by the catch-up search after a link loss or a restart
 * (recovery benchmark, board r1-b9: after 4. Bxf6 the dump showed gxf6, c4 and cxd4 made, which
 * `gxf6 c4 cxd4` and `cxd4 c4 gxf6` both explain). The position is legal and reachable; only the
 * order is unknown. The presses that follow are no illegal moves (no Art. 7 count, no penalty):
 * the arbiter is asked to decide, with the candidate orders as evidence.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent, GameSettings, SupervisorInput } from '../../../src/engine/events.js';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import { makeDigest } from '../../../src/engine/script/print.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';

const settings = (over: Partial<GameSettings> = {}): GameSettings => ({
  game: 'r1-b9',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '5400+30',
  ...over,
});

const gameOf = (sans: string): Game =>
  sans.split(' ').reduce((g, san) => g.playSan(san).unwrap(), Game.standard());

/** The events after `inputs` (a link loss at 0, back at 400, then the board script). */
const afterLinkLoss = (moves: string, script: string, over: Partial<GameSettings> = {}) => {
  const inputs: SupervisorInput[] = [
    { kind: 'link', at: 0, state: 'lost' },
    { kind: 'link', at: 400, state: 'back' },
    ...parseShorthand(script),
  ];
  return runSupervision(startSupervision(settings(over), { game: gameOf(moves) }).state, inputs);
};

const digests = (events: readonly GameEvent[]): string[] =>
  events.filter(e => e.type !== 'clock').map(e => makeDigest(e));

const alerts = (events: readonly GameEvent[]) =>
  events.flatMap(e => (e.type === 'alert' && e.code !== 'board-missing' ? [e] : []));

// After 1. d4 Nf6 2. Bg5 d5 3. e3 c5 4. Bxf6: gxf6, c4 and cxd4 made while the link was down.
const R1B9 = 'd4 Nf6 Bg5 d5 e3 c5 Bxf6';
const R1B9_DUMP = 'rnbqkb1r/pp2pp1p/5p2/3p4/2Pp4/4P3/PP3PPP/RN1QKBNR';

describe('a catch-up the board cannot order', () => {
  it('r1-b9: the press right after the dump is no illegal move; the arbiter gets both orders', () => {
    const { state, events } = afterLinkLoss(R1B9, `500 snapshot ${R1B9_DUMP}; 537 press b; 3000 tick`);
    expect(events.some(e => e.type === 'alert' && e.code === 'illegal-move')).toBe(false);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    const found = alerts(events);
    expect(found.map(a => a.code)).toEqual(['board-mismatch']);
    const lines = found[0]?.evidence?.orders?.map(l => l.join(' '));
    expect(lines?.sort()).toEqual(['cxd4 c4 gxf6', 'gxf6 c4 cxd4']);
    expect(state.rec.game.length).toBe(7);
  });
});

describe('moves played on from an undecided board', () => {
  const script = [
    `500 snapshot ${R1B9_DUMP}`,
    '537 press b',
    '2600 e3 -; 2630 d4 P; 2750 press w', // 6. exd4
    '5000 b8 -; 5020 c6 n; 5200 press b', // 6... Nc6
    '8000 tick',
  ].join('; ');

  it.each([
    ['standard', '5400+30'],
    ['rapid', '900+10'],
  ] as const)(
    '%s: no press is an illegal move or a press without a move; nothing is guessed',
    (gameType, tc) => {
      const { state, events } = afterLinkLoss(R1B9, script, { gameType, timeControl: tc });
      expect(digests(events)).toEqual(['alert board-missing 6.11.2', 'alert board-mismatch 7.6 black']);
      expect(state.illegal).toEqual({ white: 0, black: 0 });
      expect(state.ended).toBeUndefined();
      expect(state.rec.game.length).toBe(7);
      expect(state.rec.undecided?.lines.length).toBe(2);
      // Each press passed the clock on: Black, White, Black pressed; White's clock runs.
      const clocks = events.flatMap(e => (e.type === 'clock' ? [e.running] : []));
      expect(clocks.slice(-3)).toEqual(['white', 'black', 'white']);
    },
  );

  it('once the board is set back to the recorded position and the moves replayed in order, the game goes on', () => {
    const back = [
      // The arbiter has the position after 4. Bxf6 set up again, then the moves replayed.
      '9000 snapshot rnbqkb1r/pp2pppp/5B2/2pp4/3P4/4P3/PPP2PPP/RN1QKBNR',
      '10000 g7 -; 10050 f6 p; 10500 press b',
      '11000 c2 -; 11050 c4 P; 11500 press w',
      '12000 c5 -; 12050 d4 p; 12500 press b',
      '13000 e3 -; 13050 d4 P; 13500 press w; 14000 tick',
    ].join('; ');
    const { state, events } = afterLinkLoss(R1B9, `${script}; ${back}`);
    expect(digests(events)).toEqual([
      'alert board-missing 6.11.2',
      'alert board-mismatch 7.6 black',
      'move 8 gxf6',
      'move 9 c4',
      'move 10 cxd4',
      'move 11 exd4',
    ]);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    expect(state.rec.undecided).toBeUndefined();
  });
});

describe('any transposition of two independent moves around a reply', () => {
  it.each([
    // White's two moves around Black's reply: e4 e5 Nf3 or Nf3 e5 e4; White presses.
    ['', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R', 'w', ['e4 e5 Nf3', 'Nf3 e5 e4']],
    // Black's two moves around White's reply: e5 Nf3 Nc6 or Nc6 Nf3 e5; Black presses.
    ['e4', 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R', 'b', ['e5 Nf3 Nc6', 'Nc6 Nf3 e5']],
  ])(
    'after %s: the press is no illegal move, at once or after the settle window',
    (moves, dump, side, orders) => {
      for (const pressAt of [520, 2000]) {
        const setup = moves ? gameOf(moves) : Game.standard();
        const inputs: SupervisorInput[] = [
          { kind: 'link', at: 0, state: 'lost' },
          { kind: 'link', at: 400, state: 'back' },
          ...parseShorthand(`500 snapshot ${dump}; ${pressAt} press ${side}; 4000 tick`),
        ];
        const { state, events } = runSupervision(startSupervision(settings(), { game: setup }).state, inputs);
        expect(state.illegal).toEqual({ white: 0, black: 0 });
        const found = alerts(events);
        expect(found.map(a => a.code)).toEqual(['board-mismatch']);
        expect(found[0]?.evidence?.orders?.map(l => l.join(' ')).sort()).toEqual([...orders].sort());
      }
    },
  );

  it('a dump with no link change: an ambiguous board at a press is no illegal move', () => {
    const inputs = parseShorthand(
      '0 snapshot rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R; 40 press w; 2000 tick',
    );
    const { state, events } = runSupervision(startSupervision(settings()).state, inputs);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    expect(alerts(events).map(a => a.code)).toEqual(['board-mismatch']);
  });
});
