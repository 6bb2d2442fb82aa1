/**
 * The board status an operator watches (boardWatch.ts, the registry's `refresh`): the condition
 * from the link and the time it has been down, and the three problems (a missing board, a clock
 * stopped too long while its game is under way, a board that does not show its game).
 */
import { describe, expect, it } from 'vitest';
import { BoardRegistry, boardsDocument } from '../../../src/bridge/daemon/boards.js';
import { judgeBoard, type WatchedBoard } from '../../../src/bridge/daemon/boardWatch.js';
import type { BoardConfig } from '../../../src/bridge/config/index.js';
import { START_SQUARES, type Observation } from '../../../src/drivers/observation.js';

const watch = { notRespondingSeconds: 15, clockPausedSeconds: 300 };
const up: WatchedBoard = { link: 'connected', linkSince: 0, down: false, game: 'g1', clock: undefined };
const stopped = (since: number): WatchedBoard['clock'] => ({
  present: true,
  running: false,
  stoppedSince: since,
});

describe('judgeBoard', () => {
  // Each row: what the board is, the context, what the operator must see.
  const cases: [
    string,
    WatchedBoard,
    { now: number; gameUnderWay: boolean; mismatch: boolean },
    string,
    string[],
  ][] = [
    ['a game under way', up, { now: 1000, gameUnderWay: true, mismatch: false }, 'connected', []],
    ['up, no game under way', up, { now: 1000, gameUnderWay: false, mismatch: false }, 'idle', []],
    [
      'link lost',
      { ...up, link: 'lost' },
      { now: 1000, gameUnderWay: true, mismatch: false },
      'lost',
      ['board_missing'],
    ],
    [
      'being set up, 14 s',
      { ...up, link: 'resynchronising' },
      { now: 14_000, gameUnderWay: false, mismatch: false },
      'idle',
      [],
    ],
    [
      'reconnecting after a loss',
      { ...up, link: 'resynchronising', down: true },
      { now: 1000, gameUnderWay: true, mismatch: false },
      'lost',
      ['board_missing'],
    ],
    [
      'being set up, 15 s',
      { ...up, link: 'resynchronising' },
      { now: 15_000, gameUnderWay: false, mismatch: false },
      'not_responding',
      ['board_missing'],
    ],
    [
      'clock stopped 299 s',
      { ...up, clock: stopped(1000) },
      { now: 300_000, gameUnderWay: true, mismatch: false },
      'connected',
      [],
    ],
    [
      'clock stopped 300 s',
      { ...up, clock: stopped(1000) },
      { now: 301_000, gameUnderWay: true, mismatch: false },
      'connected',
      ['clock_paused'],
    ],
    [
      'clock stopped, no game under way',
      { ...up, clock: stopped(0) },
      { now: 900_000, gameUnderWay: false, mismatch: false },
      'idle',
      [],
    ],
    ['mismatch', up, { now: 1000, gameUnderWay: true, mismatch: true }, 'connected', ['board_mismatch']],
    [
      'mismatch, no game',
      { ...up, game: undefined },
      { now: 1000, gameUnderWay: false, mismatch: true },
      'idle',
      [],
    ],
  ];
  it.each(cases)('%s', (_what, board, ctx, condition, problems) => {
    expect(judgeBoard(board, { ...ctx, watch })).toEqual({ condition, problems });
  });
});

describe('the registry judges its boards', () => {
  const config: BoardConfig = {
    id: 'b1',
    driver: 'dgt',
    port: '/dev/x',
    orientation: 'auto',
    clock: true,
    number: 4,
  };
  const FACE = { ms: 60_000, flagFallen: false, flagShown: false, timePerMove: false };
  const clock = (at: number, running: 'left' | undefined): Observation => ({
    type: 'clock',
    at,
    connected: true,
    left: FACE,
    right: FACE,
    running,
    lever: 'left',
    batteryLow: false,
    status: 0,
  });

  it('publishes identity, battery, clock and problems, and clears a mismatch once the board shows the game', () => {
    let now = 0;
    const boards = new BoardRegistry([config], () => now);
    let placement = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR';
    boards.watch({ watch, gameUnderWay: () => true, gamePlacement: () => placement });
    boards.observe('b1', { type: 'link', at: 0, state: 'connected' });
    boards.observe('b1', { type: 'identity', at: 0, vendor: 'DGT', serial: '01025', firmware: '3.1' });
    boards.observe('b1', {
      type: 'battery',
      at: 0,
      percent: 80,
      charging: false,
      minutesLeft: undefined,
      raw: [],
    });
    boards.observe('b1', { type: 'snapshot', at: 0, squares: START_SQUARES });
    boards.bind('b1', 'g1');
    now = 1000;
    boards.observe('b1', clock(1000, undefined));
    expect(boards.stateOf('b1')).toMatchObject({
      number: 4,
      status: 'connected',
      problems: [],
      serial: '01025',
      vendor: 'DGT',
      firmware: '3.1',
      battery: { percent: 80, charging: false },
      clock: { present: true, running: null, stopped_since: 1000 },
      last_seen: 1000,
    });
    now = 301_000;
    const version = boards.stateVersion('b1');
    expect(boards.refresh('b1')).toBe(true);
    expect(boards.stateVersion('b1')).toBeGreaterThan(version);
    expect(boards.stateOf('b1')?.problems).toEqual(['clock_paused']);
    boards.observe('b1', clock(301_000, 'left'));
    expect(boards.stateOf('b1')?.problems).toEqual([]);

    boards.markMismatch('b1');
    expect(boards.stateOf('b1')?.problems).toEqual(['board_mismatch']);
    placement = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
    boards.observe('b1', { type: 'snapshot', at: 302_000, squares: START_SQUARES.slice() });
    expect(boards.stateOf('b1')?.problems).toEqual([]);

    boards.observe('b1', { type: 'link', at: 303_000, state: 'lost' });
    const doc = boardsDocument(boards, 303_000);
    expect(doc.boards[0]).toMatchObject({ board: 'b1', status: 'lost', problems: ['board_missing'] });
    expect(doc.boards[0]).not.toHaveProperty('placement');
  });
});
