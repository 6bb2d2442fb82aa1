/**
 * Bus mode end to end on a real pseudo-terminal: twelve emulated boards behind one socat PTY
 * line, polled by the bus session through the real SerialTransport. Each board plays its own
 * game; each board's stream carries exactly its own square events, in order — also when the
 * line is unplugged mid-game and plugged back (the boards keep their change lists).
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { scriptFromSans } from '../../../src/drivers/dgt/emulatorScript.js';
import { boardStreams, dgtBusSession$ } from '../../../src/drivers/dgt/sessionBus.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../../src/emulators/emulatorHost.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, trackPid, waitFor } from '../../support/pty.js';

// Twelve openings, 8 to 13 plies each (one per board).
const OPENINGS = [
  'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6',
  'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3',
  'd4 Nf6 c4 e6 Nc3 Bb4 e3 O-O',
  'd4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4',
  'e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+',
  'c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5 Bg2',
  'e4 c6 d4 d5 e5 Bf5 Nf3 e6 Be2 c5 O-O',
  'Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7 d3 O-O',
  'e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bf5',
  'd4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7 O-O O-O c4 d6',
  'e4 e5 f4 exf4 Nf3 g5 h4 g4 Ne5 Nf6',
  'e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Bc5 Be3 Qf6 c3 Nge7 Bc4',
];
const ADDRESSES = OPENINGS.map((_, i) => 2001 + i);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await closeAllPtyPairs();
});

describe('a 12-board bus on one PTY line', () => {
  it('delivers each board’s moves on its own stream, in order, across an unplugged line', async () => {
    const dir = makeLinkDir();
    const line = new DgtBusLine(
      ADDRESSES.map(a => new DgtBoardEmulator({ serial: String(a).padStart(5, '0') })),
    );
    const host = new EmulatedBoardOnPty({
      hostPath: `${dir}/bus`,
      devicePath: `${dir}/boards`,
      emulator: line,
    });
    await host.start();
    adoptPtyPair(host.pair, dirname(host.hostPath));
    cleanups.push(() => host.stop());

    const split = boardStreams(
      dgtBusSession$(new SerialTransport({ path: host.hostPath }), {
        addresses: ADDRESSES,
        openDelayMs: 50,
        cycleMs: 100,
        replyTimeoutMs: 250,
        backoff: { initialMs: 100, maxMs: 400 },
      }),
      ADDRESSES,
    );
    const seen = new Map<number, Observation[]>(ADDRESSES.map(a => [a, []]));
    const subs: Subscription[] = [...split.boards].map(([a, obs$]) =>
      obs$.subscribe(o => seen.get(a)!.push(o)),
    );
    subs.push(split.connect());
    cleanups.push(() => Promise.resolve(subs.forEach(s => s.unsubscribe())));
    const states = (a: number) => seen.get(a)!.flatMap(o => (o.type === 'link' ? [o.state] : []));
    await waitFor(() => ADDRESSES.every(a => states(a).includes('connected')), 8000, 'every board connected');

    const games = OPENINGS.map((o, i) =>
      scriptFromSans(o.split(' '), { plyMs: 70 + 7 * i, handMs: 15, board: ADDRESSES[i]! }).unwrap(),
    );
    const play = Promise.all(games.map(g => host.runner.play(g.steps)));
    // Unplug the line a quarter of a second in, for a quarter of a second; the games go on.
    await new Promise(resolve => setTimeout(resolve, 250));
    await host.pull();
    await waitFor(() => ADDRESSES.every(a => states(a).includes('lost')), 5000, 'every board lost');
    await new Promise(resolve => setTimeout(resolve, 250));
    await host.plugBack();
    trackPid(host.pair);
    // Bytes in and out, writes failed, link losses: whether the emulator heard the poller again.
    const atReplug = JSON.stringify(host.runner.stats);
    await play;

    const squares = (a: number) =>
      seen.get(a)!.flatMap(o => (o.type === 'square' ? [[o.square, o.content] as const] : []));
    // On a time-out, which boards fell short, by how much, and how their links went: the events a
    // board's stream lacks say whether a change list was lost or never asked for.
    const shortfall = async (): Promise<string> => {
      const short = games.flatMap((g, i) => {
        const a = ADDRESSES[i]!;
        const got = squares(a).length;
        return got >= g.squares.length
          ? []
          : [`board ${a}: ${got} of ${g.squares.length} square events, links ${states(a).join(' ')}`];
      });
      // The boards share the line: one board's link history, with times and reasons, tells why.
      const first = games.findIndex((g, i) => squares(ADDRESSES[i]!).length < g.squares.length);
      const history = seen
        .get(ADDRESSES[Math.max(0, first)]!)!
        .flatMap(o => (o.type === 'link' ? [`${Math.round(o.at)} ${o.state} (${o.detail ?? ''})`] : []))
        .join(', ');
      // Serial opens, reads and drains run on libuv's thread pool: is it still answering?
      const pool = await Promise.race([
        stat(dir).then(() => 'answers'),
        new Promise<string>(resolve => setTimeout(() => resolve('did not answer in 2 s'), 2000)),
      ]);
      return (
        `${short.join('; ')}; link history ${history}; the emulator's line when plugged back ${atReplug}, ` +
        `now ${JSON.stringify(host.runner.stats)}; the emulator's end open: ${String(host.transport.isOpen)}; ` +
        `the thread pool ${pool}`
      );
    };
    await waitFor(
      () => games.every((g, i) => squares(ADDRESSES[i]!).length >= g.squares.length),
      15_000,
      'every board’s square events',
    ).catch(async (error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (${await shortfall()})`);
    });
    games.forEach((g, i) => {
      const a = ADDRESSES[i]!;
      expect(squares(a), `board ${a}`).toEqual(g.squares.map(s => [s.square, s.content]));
      const s = states(a);
      expect(s.slice(0, 3), `board ${a}`).toEqual(['resynchronising', 'connected', 'lost']);
      expect(s.at(-1), `board ${a}`).toBe('connected');
    });
  }, 120_000);
});
