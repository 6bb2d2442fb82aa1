/**
 * What a board re-read after a gap cannot prove (issue 13: downtime never decides a result; what
 * cannot be recovered uniquely is one board mismatch for the arbiter with the candidates).
 *
 *  - A piece that went and came back while the link was down (2. Qe2 Nf6 3. Qf3 Ng8 4. Qd1: the
 *    board as it was, Black to move): the snapshot shows the record's position, and nothing tells
 *    until Black presses after 4...Nc6 while the record has White to move. Before, that press was
 *    silent and White's next move was published in the wrong order (Nf3 Nc6). Now the press is one
 *    board mismatch with the candidates (`-- Nc6`: unseen plies, then Nc6), no illegal move, and
 *    the record waits for the arbiter.
 *  - A ply published provisionally before the gap (a piece resting on its way) that the re-read
 *    board, beyond every reading, does not show: it is withdrawn by a correction naming it, with
 *    one board mismatch, once the board has stood; not kept because the board looked like a move
 *    under way.
 *  - A ply published provisionally before the gap that the re-read board shows only from before it
 *    (2. Bc4, the bishop resting on its way to a6; 2. Bxa6 Nxa6 made meanwhile): the plies are
 *    published as a correction, and asked of the arbiter like any two plies read at once.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent, GameSettings, SupervisorInput } from '../../../src/engine/events.js';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';

const settings: GameSettings = {
  game: 'g',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '900+10',
};

const gameOf = (sans: string): Game =>
  sans.split(' ').reduce((g, san) => g.playSan(san).unwrap(), Game.standard());

const boardAfter = (sans: string): string => {
  const g = gameOf(sans);
  return g.fenAt(g.length).split(' ')[0] ?? '';
};

const run = (record: string, inputs: SupervisorInput[]) =>
  runSupervision(startSupervision(settings, { game: gameOf(record) }).state, inputs);

/** The link lost at `lostAt` and back at `backAt`. */
const linkDown = (lostAt: number, backAt: number): SupervisorInput[] => [
  { kind: 'link', at: lostAt, state: 'lost' },
  { kind: 'link', at: backAt, state: 'back' },
];

const alerts = (events: readonly GameEvent[]) =>
  events.flatMap(e => (e.type === 'alert' && e.code !== 'board-missing' ? [e] : []));
const moves = (events: readonly GameEvent[]) => events.flatMap(e => (e.type === 'move' ? [e.san] : []));

describe('a piece that went and came back while the link was down', () => {
  // 1. e4 e5 seen; 2. Qe2 Nf6 3. Qf3 Ng8 4. Qd1 made meanwhile: the board as after 1...e5.
  const down: SupervisorInput[] = [
    ...parseShorthand('100 e7 -; 300 e5 p; 600 press b'),
    ...linkDown(3000, 20_000),
    ...parseShorthand(
      `20000 snapshot ${boardAfter('e4 e5')}; 26000 tick; 27000 b8 -; 27300 c6 n; 27600 press b; 30000 tick; 31000 g1 -; 31300 f3 N; 31600 press w; 36000 tick`,
    ),
  ];

  it("Black's press with White to move is one board mismatch with the candidates; nothing is read meanwhile", () => {
    const { state, events } = run('e4', down);
    const found = alerts(events);
    expect(found.map(a => a.code)).toEqual(['board-mismatch']);
    expect(found[0]?.color).toBe('black');
    expect(found[0]?.evidence?.orders).toEqual([['--', 'Nc6']]);
    expect(found[0]?.evidence?.ordersAfterPly).toBe(2);
    expect(found[0]?.text.map(t => t.key)).toEqual(['board.unseen_plies']);
    // Not Nf3 Nc6 (the order the board does not show): the record waits for the arbiter.
    expect(moves(events)).toEqual(['e5']);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });

  it("play goes on from the arbiter's record", () => {
    const before = run('e4', down);
    const after = runSupervision(before.state, [
      {
        kind: 'arbiter',
        at: 37_000,
        action: { type: 'setMoves', afterPly: 2, moves: ['Qe2', 'Nf6', 'Qf3', 'Ng8', 'Qd1', 'Nc6', 'Nf3'] },
      },
      ...parseShorthand('38000 tick; 39000 f8 -; 39300 c5 b; 39600 press b; 42000 tick'),
    ]);
    expect(moves(after.events)).toEqual(['Bc5']);
    expect(after.events.some(e => e.type === 'alert-withdrawn' && e.code === 'board-mismatch')).toBe(true);
    expect(after.state.illegal).toEqual({ white: 0, black: 0 });
  });

  it('the same press in view is no mismatch: a press for a move seen made proves the record', () => {
    // Seen live: White presses for Nf3, then again by mistake after Black's Nc6 (his clock is not running).
    const { events } = run('e4', [
      ...parseShorthand('100 e7 -; 300 e5 p; 600 press b'),
      ...linkDown(3000, 20_000),
      ...parseShorthand(
        `20000 snapshot ${boardAfter('e4 e5')}; 21000 g1 -; 21300 f3 N; 21600 press w; 23000 b8 -; 23300 c6 n; 23600 press b; 26000 tick`,
      ),
    ]);
    expect(alerts(events)).toEqual([]);
    expect(moves(events)).toEqual(['e5', 'Nf3', 'Nc6']);
  });
});

describe('a game that ended while the link was down, a piece already off when the board is read', () => {
  // 3. Bc4 published while the bishop rested on c4 (on its way to b5) when the link went down;
  // meanwhile 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7, the game ended and the a4 bishop was taken off.
  const inputs = (after: string): SupervisorInput[] => [
    ...parseShorthand('100 b8 -; 300 c6 n; 600 press b; 1000 f1 -; 1300 c4 B; 2000 tick'),
    ...linkDown(2500, 40_000),
    ...parseShorthand(
      `40000 snapshot ${boardAfter('e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7')}; 40100 a4 -; ${after}`,
    ),
  ];

  it('the provisional ply is withdrawn by a correction naming it, with one board mismatch, once the board has stood', () => {
    const { state, events } = run('e4 e5 Nf3', inputs('45000 tick'));
    expect(moves(events)).toEqual(['Nc6', 'Bc4']);
    const withdrawn = events.find(e => e.type === 'correction');
    expect(withdrawn).toMatchObject({ type: 'correction', fromPly: 5, moves: [] });
    // Not before the board stood (confirmMs from the last change).
    expect(withdrawn?.at).toBeGreaterThanOrEqual(44_100);
    expect(alerts(events).map(a => a.code)).toEqual(['board-mismatch']);
    expect(state.rec.game.length).toBe(4);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });
});

describe('a ply seen made before the gap, read again with the plies after it', () => {
  // 2. Bc4 published while the bishop rested on c4 on its way to a6 when the link went down;
  // meanwhile 2. Bxa6 Nxa6. From Bc4 nothing reaches the board; from before it, Bxa6 Nxa6 does.
  const inputs: SupervisorInput[] = [
    ...parseShorthand('1000 f1 -; 1300 c4 B'),
    ...linkDown(2000, 20_000),
    ...parseShorthand(
      `20000 snapshot ${boardAfter('e4 a6 Bxa6 Nxa6')}; 26000 tick; 27000 d2 -; 27300 d3 P; 33000 tick`,
    ),
  ];

  it('is a correction with a finding for the arbiter, as several plies read at once are', () => {
    const { state, events } = run('e4 a6', inputs);
    const correction = events.find(e => e.type === 'correction');
    expect(correction).toMatchObject({ fromPly: 3, moves: [{ san: 'Bxa6' }, { san: 'Nxa6' }] });
    const finding = events.find(e => e.type === 'finding' && e.code === 'arbiter-decision-needed');
    expect(finding).toMatchObject({ ply: 3, grade: 'possible', breach: false, at: correction?.at });
    expect(finding?.type === 'finding' && finding.text).toEqual([
      { key: 'board.inferred', params: { from_ply: 3, to_ply: 4, moves: ['Bxa6', 'Nxa6'] } },
    ]);
    expect(alerts(events)).toEqual([]);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
  });
});
