/**
 * End to end on real pseudo-terminals: the board emulator on one end of a socat PTY pair, the
 * real SerialTransport and the session on the other. Identity, the dump, clock readings and 20
 * moves of a game (40 plies as lift/place events) arrive in order; faults on the line (random
 * splits, garbage, a dropped update) change nothing in the result; an unplugged cable (the PTY
 * pair killed and restarted mid-game) is reported, the session reconnects, takes a fresh dump,
 * and every move after the reconnection arrives.
 */
import { dirname } from 'node:path';
import { type Subscription, tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { scriptFromSans, type ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import { dgtSession$ } from '../../../src/drivers/dgt/session.js';
import type { Observation, SquareContent } from '../../../src/drivers/observation.js';
import { EMPTY, START_SQUARES } from '../../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../../src/emulators/emulatorHost.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import type { Transport } from '../../../src/drivers/transport/transport.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, trackPid, waitFor } from '../../support/pty.js';

// Kasparov–Topalov, Wijk aan Zee 1999, the first 20 moves: captures, both queenside castlings, a check.
const GAME = [
  'e4',
  'd6',
  'd4',
  'Nf6',
  'Nc3',
  'g6',
  'Be3',
  'Bg7',
  'Qd2',
  'c6',
  'f3',
  'b5',
  'Nge2',
  'Nbd7',
  'Bh6',
  'Bxh6',
  'Qxh6',
  'Bb7',
  'a3',
  'e5',
  'O-O-O',
  'Qe7',
  'Kb1',
  'a6',
  'Nc1',
  'O-O-O',
  'Nb3',
  'exd4',
  'Rxd4',
  'c5',
  'Rd1',
  'Nb6',
  'g3',
  'Kb8',
  'Na5',
  'Ba8',
  'Bh3',
  'd5',
  'Qf4+',
  'Ka7',
];

/** Timings for a PTY: no real board latency, so everything can be short. */
const FAST = { openDelayMs: 50, commandGapMs: 20, settleMs: 150, backoff: { initialMs: 100, maxMs: 400 } };

const running: { board: EmulatedBoardOnPty; subs: Subscription[] }[] = [];

const start = async (options: { clock?: boolean } = {}) => {
  const dir = makeLinkDir();
  const board = new EmulatedBoardOnPty({
    hostPath: `${dir}/board`,
    devicePath: `${dir}/emulator`,
    emulator: new DgtBoardEmulator(options.clock === false ? { clock: false } : {}),
    speed: 2,
  });
  await board.start();
  adoptPtyPair(board.pair, dirname(board.hostPath));
  const seen: Observation[] = [];
  const reads: Uint8Array[] = [];
  const serial = new SerialTransport({ path: board.hostPath });
  // The real transport, with every read noted on the way (to see the splits arrive as such).
  const transport: Transport = {
    path: serial.path,
    open: () => serial.open(),
    write: b => serial.write(b),
    close: () => serial.close(),
    bytes$: serial.bytes$.pipe(tap(c => reads.push(c.bytes))),
  };
  const sub = dgtSession$(transport, FAST).subscribe(o => seen.push(o));
  running.push({ board, subs: [sub] });
  const count = (type: Observation['type'], state?: string) =>
    seen.filter(o => o.type === type && (state === undefined || (o.type === 'link' && o.state === state)))
      .length;
  await waitFor(() => count('link', 'connected') === 1, 5000, 'the first connection');
  return { board, seen, count, reads };
};

afterEach(async () => {
  for (const r of running.splice(0)) {
    for (const s of r.subs) s.unsubscribe();
    await r.board.stop();
  }
  await closeAllPtyPairs();
});

const squaresOf = (obs: readonly Observation[]) =>
  obs.flatMap(o => (o.type === 'square' ? [[o.square, o.content] as const] : []));

/** The board a consumer rebuilds: last snapshot, then the square observations after it. */
const rebuild = (obs: readonly Observation[]): SquareContent[] => {
  let board: SquareContent[] = new Array<SquareContent>(64).fill(EMPTY);
  for (const o of obs) {
    if (o.type === 'snapshot') board = [...o.squares];
    if (o.type === 'square') board[o.square] = o.content;
  }
  return board;
};

describe('session over a socat PTY pair with the board emulator', () => {
  it('identity, dump, clock readings and 40 plies of lift/place events, all in order', async () => {
    const { board, seen, count } = await start();
    expect(seen.find(o => o.type === 'identity' && o.serial !== undefined)).toMatchObject({
      serial: '01025',
    });
    expect(seen.find(o => o.type === 'identity' && o.firmware !== undefined)).toMatchObject({
      firmware: '3.10',
    });
    expect(seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    await waitFor(() => count('clock-ack') >= 1, 3000, 'the clock version ack');

    const game = scriptFromSans(GAME, { plyMs: 60, handMs: 12, pressAfterMs: 20 }).unwrap();
    const steps: ScriptStep[] = [
      { at: 0, kind: 'clock-set', left: 300_000, right: 300_000, run: 'left', incrementMs: 3000 },
      ...game.steps,
    ];
    await board.runner.play(steps);
    await waitFor(() => squaresOf(seen).length >= game.squares.length, 10_000, 'every square event');
    // Every lever press flips the lever side in the next clock reading: 40 presses, 40 flips.
    const levers = () => seen.flatMap(o => (o.type === 'clock' ? [o.lever] : []));
    const flips = () => levers().filter((l, i, all) => i > 0 && l !== all[i - 1]).length;
    await waitFor(() => flips() >= 40, 5000, 'a clock reading for every lever press');

    expect(squaresOf(seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(seen)).toEqual(game.final);
    expect(flips()).toBe(40);
    // After Black's last press White's (left) clock runs; each side got its increments.
    const last = seen.findLast(o => o.type === 'clock');
    expect(last).toMatchObject({
      type: 'clock',
      running: 'left',
      lever: 'left',
      left: { timePerMove: true },
    });
    expect(last?.type === 'clock' && last.right.ms).toBeGreaterThan(300_000);
    expect(seen.filter(o => o.type === 'protocol-error')).toEqual([]);
    expect(seen.filter(o => o.type === 'link').map(o => o.state)).toEqual(['resynchronising', 'connected']);
  }, 20_000);

  it('random splits, garbage and a dropped update change nothing in the final board', async () => {
    const { board, seen, reads } = await start({ clock: false });
    const game = scriptFromSans(GAME.slice(0, 16), { plyMs: 80, handMs: 15 }).unwrap();
    const steps: ScriptStep[] = [
      { at: 0, kind: 'split', pieces: 'random' },
      ...game.steps.slice(0, 10),
      { at: game.steps[10]!.at - 1, kind: 'garbage', count: 20 },
      { at: game.steps[10]!.at - 1, kind: 'drop-updates', count: 1 },
      ...game.steps.slice(10),
    ];
    await board.runner.play(steps);
    await waitFor(
      () => squaresOf(seen).length >= game.squares.length - 1,
      10_000,
      'all but the dropped square event',
    );
    await waitFor(
      () => JSON.stringify(rebuild(seen)) === JSON.stringify(game.final),
      3000,
      'the settle dump',
    );
    // Without clock presses every step is a square event: the eleventh was not sent.
    const expected = game.squares.map(s => [s.square, s.content]);
    expected.splice(10, 1);
    expect(squaresOf(seen)).toEqual(expected);
    expect(board.runner.stats.droppedUpdates).toBe(1);
    // Frames really arrived cut: reads that start a message but are shorter than a field update.
    expect(reads.filter(r => r.length < 5 && (r[0] ?? 0) >= 0x80).length).toBeGreaterThan(3);
    expect(seen.some(o => o.type === 'protocol-error' && o.reason.kind === 'garbage')).toBe(true);
    expect(rebuild(seen)).toEqual(game.final);
  }, 20_000);

  it('an unplugged cable mid-game: lost, reconnect, fresh dump, and nothing lost after the reconnection', async () => {
    const { board, seen, count } = await start({ clock: false });
    const game = scriptFromSans(GAME, { plyMs: 60, handMs: 12 }).unwrap();
    const plyStart = (ply: number) => game.steps.findIndex(s => s.at >= ply * 60);
    const first = game.steps.slice(0, plyStart(20));
    const during = game.steps.slice(plyStart(20), plyStart(24));
    const after = game.steps.slice(plyStart(24));
    await board.runner.play(first);
    await waitFor(() => squaresOf(seen).length >= first.length, 5000, 'the first 10 moves');

    // Pull the cable, play two moves while it is out (those updates are lost), plug it back.
    await board.pair.stop();
    await waitFor(() => count('link', 'lost') >= 1, 5000, 'the session noticing the loss');
    for (const s of during) board.runner.apply(s);
    await board.pair.start();
    trackPid(board.pair);
    await waitFor(() => count('link', 'connected') === 2, 8000, 'the reconnection');

    const reconnectedAt = seen.findLastIndex(o => o.type === 'link' && o.state === 'connected');
    const fresh = seen.slice(0, reconnectedAt).findLast(o => o.type === 'snapshot');
    const afterOutage = scriptFromSans(GAME.slice(0, 24)).unwrap().final;
    expect(fresh).toMatchObject({ squares: afterOutage });

    await board.runner.play(after);
    const expectedAfter = after.filter(s => s.kind === 'square').length;
    await waitFor(
      () => squaresOf(seen.slice(reconnectedAt)).length >= expectedAfter,
      10_000,
      'the moves after the reconnection',
    );
    const tail = game.squares.slice(game.squares.length - expectedAfter).map(s => [s.square, s.content]);
    expect(squaresOf(seen.slice(reconnectedAt))).toEqual(tail);
    expect(rebuild(seen)).toEqual(game.final);
    const states = seen.filter(o => o.type === 'link').map(o => o.state);
    expect(states.slice(0, 3)).toEqual(['resynchronising', 'connected', 'lost']);
    expect(states.at(-1)).toBe('connected');
  }, 25_000);
});
