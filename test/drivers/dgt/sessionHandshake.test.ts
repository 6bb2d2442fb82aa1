/**
 * The handshake must leave the board in its update mode even when the board missed the first
 * mode command: a board still starting up (reference §5.3 step 1), or, on a PTY, an emulator that
 * reopened its end after the host had already written (serialport flushes on open). Before the
 * fix such a board answered version, serial and dump, was reported connected, and stayed in IDLE:
 * no field update ever came, every move was lost (found by the corpus games over PTYs with the
 * cable pulled mid-game). The dump request now carries the mode command again, after it, in the
 * same write, so the dump that completes the handshake shows the mode arrived as well.
 */
import { describe, expect, it } from 'vitest';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtEmulatorRunner } from '../../../src/drivers/dgt/emulatorRunner.js';
import { dgtSession$ } from '../../../src/drivers/dgt/session.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { createMemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Transport } from '../../../src/drivers/transport/transport.js';
import { createTestScheduler } from './sessionRig.js';

/** A session against a board that loses everything written to it before `readyAt`. */
const run = (readyAt: number) => {
  const ts = createTestScheduler();
  const seen: Observation[] = [];
  const writes: number[][] = [];
  const board = new DgtBoardEmulator();
  ts.run(({ flush }) => {
    const link = createMemoryLink({ scheduler: ts });
    const runner = new DgtEmulatorRunner({ transport: link.device, emulator: board, scheduler: ts });
    runner.start();
    const host: Transport = {
      path: link.host.path,
      open: () => link.host.open(),
      close: () => link.host.close(),
      write: bytes => {
        writes.push([ts.now(), ...bytes]);
        return ts.now() < readyAt ? Promise.resolve() : link.host.write(bytes);
      },
      bytes$: link.host.bytes$,
    };
    const sub = dgtSession$(host, { scheduler: ts, clock: false }).subscribe(o => seen.push(o));
    ts.schedule(() => runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 1500);
    ts.schedule(() => runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 1600);
    ts.schedule(() => {
      sub.unsubscribe();
      void runner.stop();
    }, 3000);
    flush();
  });
  return { seen, writes, board };
};

describe('dgtSession$: the update mode reaches the board', () => {
  it('the dump request goes out with the mode command after it, in one write', () => {
    const { writes } = run(0);
    expect(writes.slice(0, 4)).toEqual([
      [300, 0x4b],
      [400, 0x4d],
      [500, 0x45],
      [600, 0x42, 0x4b],
    ]);
  });

  it('a board that missed the first mode command still reports moves once connected', () => {
    const { seen, board } = run(350);
    // The first command was lost: the board heard version, serial, then dump and mode.
    expect(board.received.slice(0, 4).map(c => c.kind)).toEqual([
      'version',
      'serial',
      'send-board',
      'update-nice',
    ]);
    expect(board.mode).toBe('update-nice');
    expect(seen.filter(o => o.type === 'link').map(o => [o.at, o.state])).toEqual([
      [0, 'resynchronising'],
      [600, 'connected'],
    ]);
    expect(seen.filter(o => o.type === 'square').map(o => [o.at, o.square])).toEqual([
      [1500, 12],
      [1600, 28],
    ]);
  });
});
