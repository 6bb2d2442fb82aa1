/**
 * End to end on real pseudo-terminals: the Millennium emulator on one end of a socat PTY pair
 * (through SerialTransport and serialport), the real SerialTransport and the session on the
 * other. Both link readings of §1.2: 7O1 on both ends (a PTY passes bit 7 through, so the
 * board's parity bits arrive as sent), and 8N1 with software parity against a board whose bytes
 * arrive 7-bit clean (what a real 7O1 UART delivers). A whole real game (87 plies) arrives in
 * order; split frames, garbage and a dropped report change nothing in the final board; LED
 * commands reach the board as the right bytes; an unplugged cable is reported, the session
 * reconnects with a fresh snapshot and the LEDs are lit again.
 */
import { dirname } from 'node:path';
import { parseSquare, SquareSet } from 'chessops';
import { BehaviorSubject, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptFromSans, type ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import {
  MillenniumEmulator,
  type MillenniumEmulatorOptions,
} from '../../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../../src/drivers/millennium/emulatorRunner.js';
import { makeLedPatterns } from '../../../src/drivers/millennium/leds.js';
import { millenniumSerialOptions, millenniumSession$ } from '../../../src/drivers/millennium/session.js';
import { START_SQUARES } from '../../../src/drivers/observation.js';
import type { BoardObservation, LedGroup } from '../../../src/drivers/observationExtra.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import { SerialBoardOnPty } from '../../../src/emulators/serialBoardHost.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, trackPid, waitFor } from '../../support/pty.js';
import { KASPAROV_TOPALOV } from '../transport/games.js';
import { rebuild, squaresOf } from '../transport/boardRig.js';

const sq = (n: string): number => parseSquare(n)!;
const FAST = { openDelayMs: 50, commandGapMs: 10, keepaliveMs: 300, backoff: { initialMs: 100, maxMs: 400 } };

const running: { board: SerialBoardOnPty; subs: Subscription[] }[] = [];

const start = async (o: {
  link: '7O1' | '8N1';
  board?: MillenniumEmulatorOptions;
  leds$?: BehaviorSubject<readonly LedGroup[]>;
}) => {
  const dir = makeLinkDir();
  const core = new MillenniumEmulator(o.board);
  const board = new SerialBoardOnPty({
    hostPath: `${dir}/board`,
    devicePath: `${dir}/emulator`,
    board: millenniumBoard(core),
    serial: millenniumSerialOptions(o.link),
    speed: 2,
  });
  await board.start();
  adoptPtyPair(board.pair, dirname(board.hostPath));
  const seen: BoardObservation[] = [];
  const transport = new SerialTransport({ path: board.hostPath, ...millenniumSerialOptions(o.link) });
  const sub = millenniumSession$(transport, {
    ...FAST,
    commandParity: o.link === '8N1',
    ...(o.leds$ !== undefined && { leds$: o.leds$ }),
  }).subscribe(x => seen.push(x));
  running.push({ board, subs: [sub] });
  const links = (state: string) => seen.filter(x => x.type === 'link' && x.state === state).length;
  await waitFor(() => links('connected') === 1, 5000, 'the first connection');
  return { board, core, seen, links };
};

afterEach(async () => {
  for (const r of running.splice(0)) {
    for (const s of r.subs) s.unsubscribe();
    await r.board.stop();
  }
  await closeAllPtyPairs();
});

describe('Millennium session over a socat PTY pair with the emulator', () => {
  it('7O1 on both ends: identity, report mode set, and a whole game (87 plies) in order', async () => {
    const { board, core, seen } = await start({ link: '7O1' });
    expect(seen.find(o => o.type === 'identity')).toMatchObject({ model: 'Exclusive', firmware: '01.03' });
    expect(seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    await waitFor(() => core.register(2) === 3, 3000, 'report mode 3 written');

    const game = scriptFromSans(KASPAROV_TOPALOV, { plyMs: 40, handMs: 10 }).unwrap();
    await board.runner.play(game.steps);
    await waitFor(() => squaresOf(seen).length >= game.squares.length, 10_000, 'every square event');
    expect(squaresOf(seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(seen)).toEqual(game.final);
    expect(seen.filter(o => o.type === 'protocol-error')).toEqual([]);
    expect(seen.flatMap(o => (o.type === 'link' ? [o.state] : []))).toEqual(['resynchronising', 'connected']);
  }, 25_000);

  it('8N1 with software parity against 7-bit replies: splits, garbage and a dropped report change nothing', async () => {
    const { board, seen } = await start({ link: '8N1', board: { parity: false, registers: { 2: 3 } } });
    const game = scriptFromSans(KASPAROV_TOPALOV.slice(0, 30), { plyMs: 50, handMs: 12 }).unwrap();
    const steps: ScriptStep[] = [
      { at: 0, kind: 'split', pieces: 'random' },
      ...game.steps.slice(0, 20),
      { at: game.steps[20]!.at - 1, kind: 'garbage', count: 30 },
      { at: game.steps[20]!.at - 1, kind: 'drop-updates', count: 1 },
      ...game.steps.slice(20),
    ];
    await board.runner.play(steps);
    await waitFor(
      () => JSON.stringify(rebuild(seen)) === JSON.stringify(game.final),
      5000,
      'the final position',
    );
    // The dropped report's square arrives with the next report (each report is the whole board).
    const got = squaresOf(seen);
    expect(got).toHaveLength(game.squares.length);
    expect(new Set(got.map(([s]) => s))).toEqual(new Set(game.squares.map(s => s.square)));
    expect(board.runner.stats.droppedUpdates).toBe(1);
    expect(seen.some(o => o.type === 'protocol-error' && o.reason.kind === 'garbage')).toBe(true);
  }, 25_000);

  it('LED commands reach the board as the right bytes; after an unplugged cable: lost, fresh snapshot, LEDs again', async () => {
    const want: LedGroup[] = [
      { squares: SquareSet.fromSquare(sq('e2')), style: 'blink' },
      { squares: SquareSet.fromSquare(sq('e5')), style: 'blink-inverse' },
    ];
    const leds$ = new BehaviorSubject<readonly LedGroup[]>(want);
    const { board, core, seen, links } = await start({ link: '7O1', board: { registers: { 2: 3 } }, leds$ });
    const lit = () => core.ledState.patterns.some(p => p !== 0);
    const ledAcks = () => seen.filter(o => o.type === 'command-ack' && o.command === 'leds').length;
    await waitFor(lit, 3000, 'the first L command');
    expect(core.ledState).toEqual({ slotTime: 0x32, patterns: makeLedPatterns(want, 'normal') });

    const game = scriptFromSans(KASPAROV_TOPALOV.slice(0, 44), { plyMs: 40, handMs: 10 }).unwrap();
    const plyStart = (ply: number) => game.steps.findIndex(s => s.at >= ply * 40);
    const first = game.steps.slice(0, plyStart(20));
    const during = game.steps.slice(plyStart(20), plyStart(24));
    const after = game.steps.slice(plyStart(24));
    await board.runner.play(first);
    await waitFor(() => squaresOf(seen).length >= first.length, 5000, 'the first 10 moves');

    await board.pair.stop();
    await waitFor(() => links('lost') >= 1, 5000, 'the session noticing the loss');
    for (const s of during) board.runner.apply(s);
    await board.pair.start();
    trackPid(board.pair);
    await waitFor(() => links('connected') === 2, 8000, 'the reconnection');
    const reconnectedAt = seen.findLastIndex(o => o.type === 'link' && o.state === 'connected');
    const fresh = seen.slice(0, reconnectedAt).findLast(o => o.type === 'snapshot');
    expect(fresh).toMatchObject({ squares: scriptFromSans(KASPAROV_TOPALOV.slice(0, 24)).unwrap().final });
    // The board lost its LEDs with the power; the session lit them again (a second `l` ack).
    await waitFor(() => ledAcks() >= 2 && lit(), 3000, 'the LEDs after the reconnection');
    expect(core.ledState.patterns).toEqual(makeLedPatterns(want, 'normal'));

    await board.runner.play(after);
    const expected = after.length;
    await waitFor(
      () => squaresOf(seen.slice(reconnectedAt)).length >= expected,
      8000,
      'the moves after the reconnection',
    );
    expect(squaresOf(seen.slice(reconnectedAt))).toEqual(
      game.squares.slice(game.squares.length - expected).map(s => [s.square, s.content]),
    );
    expect(rebuild(seen)).toEqual(game.final);
  }, 25_000);
});
