/**
 * What happened while nobody watched (issue 13: downtime never decides a result). After a lost
 * link or a restart the board is read again (a snapshot, no board log): it shows the position the
 * game got to, not how or whose move it is; a clock at 0:00 shows that a flag is down, not when it
 * fell nor what happened before. The daemon decides only what that proves:
 *
 *  - a checkmate on the board ends the game, even from plies inferred from the snapshot: the mated
 *    side is in check, so it must be the side to move whatever the order of the moves;
 *  - a stalemate (or any other ending but mate) read off the snapshot is the arbiter's: a rook goes
 *    to a3 in one move or in two, so the board does not prove whose move it is;
 *  - a flag the daemon did not see fall (the clock model running blind while the presses went
 *    unseen, or a physical clock read at 0:00 for the first time after the gap) is an alert for
 *    the arbiter, never a result: 6.8 counts a flag once observed, and what happened before stands;
 *  - a piece that passed through a square leaves no trace on the snapshot: when nothing within
 *    reach explains the board, it is one board mismatch for the arbiter, nothing on the board is
 *    judged until he records the moves, and play goes on from his record;
 *  - a board read while a capture was under way (its log ends with the captured piece taken off
 *    and set down beside its square a moment, its dump with the piece gone, the capturer still in
 *    hand) is handling, not a mismatch: downtime benchmark, board r1-b5 after the 60 s kill, where
 *    14...Nxb5 came from the log and 15. axb5 was being played while the daemon reconnected; nor
 *    is one read while a knight rested beside its square (board r1-b9, 15. Nxe4 via f3): a move
 *    under way is judged as in play, its quiet time counted from when the board was seen again.
 */
import { detailText } from '../../../src/bridge/i18n/messages.js';
import { describe, expect, it } from 'vitest';
import type { BoardLogEntry, GameEvent, GameSettings, SupervisorInput } from '../../../src/engine/events.js';
import { parseSquare } from 'chessops';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';

const settings = (over: Partial<GameSettings>): GameSettings => ({
  game: 'g',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  ...over,
});

const gameOf = (sans: string): Game =>
  sans.split(' ').reduce((g, san) => g.playSan(san).unwrap(), Game.standard());

/** The FEN board field after `sans`. */
const boardAfter = (sans: string): string => {
  const g = gameOf(sans);
  return g.fenAt(g.length).split(' ')[0] ?? '';
};

const lost = (at: number, back: number): SupervisorInput[] => [
  { kind: 'link', at, state: 'lost' },
  { kind: 'link', at: back, state: 'back' },
];

const reading = (
  at: number,
  whiteMs: number,
  blackMs: number,
  running: 'white' | 'black',
): SupervisorInput => ({
  kind: 'clock',
  at,
  whiteMs,
  blackMs,
  running,
});

const run = (record: string, inputs: SupervisorInput[], over: Partial<GameSettings> = {}) =>
  runSupervision(startSupervision(settings(over), { game: gameOf(record) }).state, inputs);

const alerts = (events: readonly GameEvent[]) =>
  events.flatMap(e => (e.type === 'alert' && e.code !== 'board-missing' ? [e] : []));
const ends = (events: readonly GameEvent[]) => events.flatMap(e => (e.type === 'end' ? [e] : []));

describe('a checkmate made while the link was down', () => {
  it('one ply read off the snapshot: the board proves the mate, the game ends', () => {
    const { state, events } = run('f3 e5 g4', [
      ...lost(0, 400),
      ...parseShorthand(`500 snapshot ${boardAfter('f3 e5 g4 Qh4#')}; 6000 tick`),
    ]);
    expect(ends(events).map(e => [e.result, e.reason])).toEqual([['0-1', 'checkmate']]);
    expect(state.rec.game.length).toBe(4);
    expect(alerts(events)).toEqual([]);
  });

  it('two plies inferred from the snapshot: the order is the arbiter to check, the mate stands', () => {
    const { events } = run('e4 e5 Bc4 Nc6 Qh5', [
      ...lost(0, 400),
      ...parseShorthand(`500 snapshot ${boardAfter('e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#')}; 6000 tick`),
    ]);
    expect(events.some(e => e.type === 'finding' && e.code === 'arbiter-decision-needed')).toBe(true);
    expect(ends(events).map(e => [e.result, e.reason])).toEqual([['1-0', 'checkmate']]);
  });

  it('several orders reach the mate: no result until the arbiter records one, then the mate ends it', () => {
    const record = 'e4 e5 Bc4 Nc6 Qh5';
    const mate = boardAfter(`${record} a6 d3 h6 Qxf7#`);
    const down = [...lost(0, 400), ...parseShorthand(`500 snapshot ${mate}; 6000 tick`)];
    const before = run(record, down);
    expect(ends(before.events)).toEqual([]);
    const mismatch = alerts(before.events).find(a => a.code === 'board-mismatch');
    expect(mismatch?.evidence?.orders?.map(o => o.join(' ')).sort()).toEqual([
      'a6 d3 h6 Qxf7#',
      'h6 d3 a6 Qxf7#',
    ]);
    const after = runSupervision(before.state, [
      {
        kind: 'arbiter',
        at: 9000,
        action: { type: 'setMoves', afterPly: 5, moves: ['h6', 'd3', 'a6', 'Qxf7#'] },
      },
      { kind: 'tick', at: 9100 },
    ]);
    expect(ends(after.events).map(e => [e.result, e.reason])).toEqual([['1-0', 'checkmate']]);
  });
});

describe('a stalemate read off the board after a gap', () => {
  // Loyd's ten-move stalemate; the last move made while the link was down.
  const LOYD = 'e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6';

  it('is the arbiter to decide: the board does not show whose move it is', () => {
    const { state, events } = run(LOYD, [
      ...lost(0, 400),
      ...parseShorthand(`500 snapshot ${boardAfter(`${LOYD} Qe6`)}; 8000 tick`),
    ]);
    expect(state.rec.game.length).toBe(19);
    expect(ends(events)).toEqual([]);
    const found = alerts(events);
    expect(found.map(a => [a.code, a.article.article])).toEqual([['arbiter-decision-needed', '5.2.1']]);
    expect(found[0]?.text).toEqual([{ key: 'end.read_off_one', params: { color: 'black', ply: 19 } }]);
    // The sentence as data renders, in English, the detail old consumers read.
    expect(detailText('en', found[0]?.text ?? [])).toBe(found[0]?.detail);
  });

  it('made in view, it ends the game', () => {
    const { events } = run(LOYD, parseShorthand('500 c8 -; 700 e6 Q; 8000 tick'));
    expect(ends(events).map(e => [e.result, e.reason])).toEqual([['1/2-1/2', 'stalemate']]);
  });
});

describe('a flag that fell while the link was down', () => {
  it("the daemon's clock ran out while the presses went unseen: an alert, no result", () => {
    // 60 s each; White to move when the link goes; White played Nf3 meanwhile.
    const { state, events } = run(
      'e4 e5',
      [
        ...parseShorthand('100 tick'),
        ...lost(1000, 71_000),
        ...parseShorthand(`71100 snapshot ${boardAfter('e4 e5 Nf3')}; 76000 tick`),
      ],
      { timeControl: '60+0' },
    );
    expect(ends(events)).toEqual([]);
    expect(state.ended).toBeUndefined();
    const found = alerts(events);
    expect(found.map(a => [a.code, a.color])).toEqual([['arbiter-decision-needed', 'white']]);
    expect(found[0]?.article.article).toBe('6.9');
    expect(found[0]?.text.map(t => t.key)).toEqual(['flag.unseen_gap']);
    expect(detailText('en', found[0]?.text ?? [])).toBe(found[0]?.detail);
  });

  it('a clock read at 0:00 for the first time after the gap: an alert, no result', () => {
    const { events } = run('e4 e5', [
      reading(100, 30_000, 30_000, 'white'),
      ...lost(1000, 40_000),
      ...parseShorthand(`40100 snapshot ${boardAfter('e4 e5 Nf3')}`),
      reading(40_200, 20_000, 0, 'black'),
      ...parseShorthand('45000 tick'),
    ]);
    expect(ends(events)).toEqual([]);
    expect(alerts(events).map(a => [a.code, a.color])).toEqual([['arbiter-decision-needed', 'black']]);
  });

  it('read before the board, with a mate made meanwhile: the mate stands (made before the flag was seen)', () => {
    const { events } = run('f3 e5 g4', [
      reading(100, 30_000, 30_000, 'black'),
      ...lost(1000, 40_000),
      reading(40_050, 0, 25_000, 'white'),
      ...parseShorthand(`40100 snapshot ${boardAfter('f3 e5 g4 Qh4#')}; 46000 tick`),
    ]);
    expect(ends(events).map(e => [e.result, e.reason])).toEqual([['0-1', 'checkmate']]);
  });

  it('seen to fall once the board and clock are read again: the flag is decided as in play', () => {
    const { events } = run('e4 e5', [
      reading(100, 30_000, 30_000, 'white'),
      ...lost(1000, 40_000),
      ...parseShorthand(`40100 snapshot ${boardAfter('e4 e5 Nf3')}`),
      reading(40_200, 20_000, 2_000, 'black'),
      reading(42_300, 20_000, 0, 'black'),
      ...parseShorthand('45000 tick'),
    ]);
    expect(ends(events).map(e => [e.result, e.reason])).toEqual([['1-0', 'flag']]);
    expect(alerts(events)).toEqual([]);
  });
});

describe('a piece that passed through a square while the link was down', () => {
  // 4. Bb5 a6 5. Bxc6 dxc6 made meanwhile: the bishop's stop on b5 left no trace on the snapshot.
  const RECORD = 'e4 e5 Nf3 Nc6 Bc4 Bc5';
  const down = [
    ...lost(0, 400),
    ...parseShorthand(
      `500 snapshot ${boardAfter(`${RECORD} Bb5 a6 Bxc6 dxc6`)}; 900 press b; 3000 b1 -; 3100 c3 N; 3300 press w; 6000 tick`,
    ),
  ];

  it('is one mismatch for the arbiter; the presses and the move made on it count nothing', () => {
    const { state, events } = run(RECORD, down, { timeControl: '5400+30' });
    expect(alerts(events).map(a => a.code)).toEqual(['board-mismatch']);
    expect(state.rec.game.length).toBe(6);
    expect(state.illegal).toEqual({ white: 0, black: 0 });
    expect(ends(events)).toEqual([]);
  });

  it("play goes on from the arbiter's record", () => {
    const before = run(RECORD, down, { timeControl: '5400+30' });
    const after = runSupervision(before.state, [
      {
        kind: 'arbiter',
        at: 7000,
        action: { type: 'setMoves', afterPly: 6, moves: ['Bb5', 'a6', 'Bxc6', 'dxc6'] },
      },
      ...parseShorthand('8000 tick; 9000 g8 -; 9100 f6 n; 9300 press b; 12000 tick'),
    ]);
    const moves = after.events.flatMap(e => (e.type === 'move' ? [e.san] : []));
    expect(moves).toEqual(['Nc3', 'Nf6']);
    expect(after.events.some(e => e.type === 'alert-withdrawn' && e.code === 'board-mismatch')).toBe(true);
    expect(after.state.illegal).toEqual({ white: 0, black: 0 });
  });
});

describe('a board read back while a capture was under way', () => {
  const at = (name: string): number => parseSquare(name) ?? -1;
  const put = (
    square: string,
    piece: Extract<BoardLogEntry, { kind: 'square' }>['piece'],
    quick = false,
  ): BoardLogEntry => ({
    kind: 'square',
    square: at(square),
    piece,
    quick,
  });
  const pawn = (color: 'white' | 'black') => ({ color, role: 'pawn' as const });
  // 1. e4 d5 in the board's log, then White taking on d5: the d5 pawn off, set down on c6 a moment.
  const LOG: BoardLogEntry[] = [
    { kind: 'mark', board: 'start' },
    put('e2', 'empty'),
    put('e4', pawn('white')),
    { kind: 'press', side: 'white' },
    put('d7', 'empty'),
    put('d5', pawn('black')),
    { kind: 'press', side: 'black' },
    put('d5', 'empty'),
    put('c6', pawn('black'), true),
  ];

  it('is no board mismatch: the capture is read when it lands', () => {
    const { state, events } = run(
      'e4',
      [
        ...parseShorthand('100 d7 -; 300 d5 p; 600 press b'),
        { kind: 'link', at: 1000, state: 'lost', restart: true },
        { kind: 'boardLog', at: 5000, entries: LOG },
        { kind: 'link', at: 5050, state: 'back' },
        ...parseShorthand(
          `5050 snapshot ${boardAfter('e4 d5').replace('3p4', '8')}; 5100 e4 -; 5900 d5 P; 6200 press w; 12000 tick`,
        ),
      ],
      { timeControl: '900+10' },
    );
    expect(events.flatMap(e => (e.type === 'alert' || e.type === 'alert-withdrawn' ? [e.type] : []))).toEqual(
      [],
    );
    expect(state.rec.game.moves.map(m => m.san)).toEqual(['e4', 'd5', 'exd5']);
  });

  it('a piece set down where no move puts it is no piece in hand: a mismatch at once, withdrawn when the capture lands', () => {
    const ghost = boardAfter('e4 d5').replace('3p4', '8').replace('8/8/4P3', '2p5/8/4P3');
    const { events } = run(
      'e4',
      [
        ...parseShorthand('100 d7 -; 300 d5 p; 600 press b'),
        { kind: 'link', at: 1000, state: 'lost', restart: true },
        { kind: 'boardLog', at: 5000, entries: LOG },
        { kind: 'link', at: 5050, state: 'back' },
        ...parseShorthand(
          `5050 snapshot ${ghost}; 5600 c6 -; 5700 e4 -; 5900 d5 P; 6200 press w; 12000 tick`,
        ),
      ],
      { timeControl: '900+10' },
    );
    expect(alerts(events).map(a => a.code)).toEqual(['board-mismatch']);
    expect(events.some(e => e.type === 'alert-withdrawn' && e.code === 'board-mismatch')).toBe(true);
  });

  // 1. e4 e5 in the log, then 2. Nf3 under way: the knight set down on g3, beside f3.
  const KNIGHT: BoardLogEntry[] = [
    ...LOG.slice(0, 4),
    put('e7', 'empty'),
    put('e5', pawn('black')),
    { kind: 'press', side: 'black' },
    put('g1', 'empty'),
    put('g3', { color: 'white', role: 'knight' }),
  ];
  const beside = boardAfter('e4 e5').replace('8/PPPP1PPP/RNBQKBNR', '6N1/PPPP1PPP/RNBQKB1R');
  const knightInputs = (after: string): SupervisorInput[] => [
    ...parseShorthand('100 e7 -; 300 e5 p; 600 press b'),
    { kind: 'link', at: 1000, state: 'lost', restart: true },
    { kind: 'boardLog', at: 60_000, entries: KNIGHT },
    { kind: 'link', at: 60_050, state: 'back' },
    ...parseShorthand(`60050 snapshot ${beside}; ${after}`),
  ];

  it('a knight resting beside its square is a move under way: no mismatch, the move read when it lands', () => {
    const { state, events } = run('e4', knightInputs('60400 g3 -; 60600 f3 N; 61000 press w; 70000 tick'), {
      timeControl: '900+10',
    });
    expect(alerts(events)).toEqual([]);
    expect(state.rec.game.moves.map(m => m.san)).toEqual(['e4', 'e5', 'Nf3']);
  });

  it('left so, it is the mismatch once quiet for the quiet time from when it was seen again', () => {
    const { events } = run('e4', knightInputs('63000 tick; 70000 tick'), { timeControl: '900+10' });
    const found = alerts(events);
    expect(found.map(a => a.code)).toEqual(['board-mismatch']);
    expect(found[0]?.at).toBeGreaterThanOrEqual(64_050);
  });
});
