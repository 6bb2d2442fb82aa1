/**
 * The emulator runner under virtual time on a memory link: it answers commands, plays scripts at
 * a speed factor, sends clock messages, and injects each fault (split writes, garbage, dropped
 * updates, a pulled cable with power cycle and reopen).
 */
import { parseSquare } from 'chessops';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import { makeCommand } from '../../../src/drivers/dgt/commands.js';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { DgtEmulatorRunner } from '../../../src/drivers/dgt/emulatorRunner.js';
import type { ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import { createMemoryLink, type MemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Chunk } from '../../../src/drivers/transport/transport.js';
import type { Observation } from '../../../src/drivers/observation.js';

const sq = (n: string): number => parseSquare(n)!;

interface Rig {
  readonly ts: TestScheduler;
  readonly link: MemoryLink;
  readonly board: DgtBoardEmulator;
  readonly runner: DgtEmulatorRunner;
  /** Chunks the host received. */
  readonly chunks: Chunk[];
  /** The host's chunks decoded. */
  observations(): Observation[];
}

/** Runs `body` in virtual time with a board served on a memory link; stops the runner at `endMs`. */
const withRig = (
  endMs: number,
  options: { speed?: number; mode?: 'update-nice' | 'update' | 'idle' },
  body: (r: Rig) => void,
): Rig => {
  const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
  let rig: Rig | undefined;
  ts.run(({ flush }) => {
    const link = createMemoryLink({ scheduler: ts });
    const board = new DgtBoardEmulator({ mode: options.mode ?? 'update-nice' });
    const runner = new DgtEmulatorRunner({
      transport: link.device,
      emulator: board,
      scheduler: ts,
      ...(options.speed !== undefined && { speed: options.speed }),
      disconnect: ms =>
        new Promise<void>(resolve => {
          link.unplug();
          ts.schedule(() => {
            link.plug();
            resolve();
          }, ms);
        }),
    });
    const chunks: Chunk[] = [];
    link.host.bytes$.subscribe({ next: c => chunks.push(c), error: () => undefined });
    runner.start();
    rig = {
      ts,
      link,
      board,
      runner,
      chunks,
      observations: () => {
        const d = new DgtDecoder();
        return chunks.flatMap(c => d.push(c.bytes, c.at));
      },
    };
    body(rig);
    ts.schedule(() => void runner.stop(), endMs);
    flush();
  });
  return rig!;
};

describe('DgtEmulatorRunner', () => {
  it('answers a command at once and plays a script at the speed factor', () => {
    const steps: ScriptStep[] = [
      { at: 0, kind: 'square', square: 'e2', piece: 'empty' },
      { at: 40, kind: 'square', square: 'e4', piece: 'P' },
      { at: 200, kind: 'square', square: 'e7', piece: 'empty' },
      { at: 240, kind: 'square', square: 'e5', piece: 'p' },
    ];
    const rig = withRig(1000, { speed: 2 }, r => {
      void r.link.host.write(makeCommand({ kind: 'send-board' }));
      r.ts.schedule(() => void r.runner.play(steps), 100);
    });
    const obs = rig.observations().filter(o => o.type === 'snapshot' || o.type === 'square');
    expect(obs.map(o => [o.type, o.at])).toEqual([
      ['snapshot', 0],
      ['square', 100],
      ['square', 120],
      ['square', 200],
      ['square', 220],
    ]);
    expect(obs[4]).toMatchObject({ square: sq('e5') });
  });

  it('sends a clock message for each new second in UPDATE_NICE', () => {
    const rig = withRig(3050, {}, r =>
      r.runner.apply({ kind: 'clock-set', left: 60_000, right: 60_000, run: 'right' }),
    );
    const clocks = rig.observations().filter(o => o.type === 'clock');
    expect(clocks.map(c => c.at)).toEqual([0, 1000, 2000, 3000]);
    expect(clocks.at(-1)).toMatchObject({ right: { ms: 57_000 }, running: 'right' });
  });

  it('split fault: a field update arrives in single bytes 3 ms apart, unchanged', () => {
    const rig = withRig(500, { mode: 'update' }, r => {
      r.runner.apply({ kind: 'split', pieces: 1 });
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 10);
    });
    const update = rig.chunks.filter(c => c.at >= 10 && c.at < 30);
    expect(update.map(c => c.at)).toEqual([10, 13, 16, 19, 22]);
    expect(update.flatMap(c => Array.from(c.bytes))).toEqual([0x8e, 0x00, 0x05, 0x34, 0x00]);
    expect(rig.observations().filter(o => o.type === 'square')).toHaveLength(1);
  });

  it('random split: the bytes are the same, cut in more than one place', () => {
    const rig = withRig(500, { mode: 'idle' }, r => {
      r.runner.apply({ kind: 'split', pieces: 'random' });
      void r.link.host.write(makeCommand({ kind: 'send-board' }));
    });
    expect(rig.chunks.length).toBeGreaterThan(2);
    expect(rig.observations().filter(o => o.type === 'snapshot')).toHaveLength(1);
  });

  it('garbage fault: 7-bit bytes the decoder skips, and the next frame still decodes', () => {
    const rig = withRig(500, { mode: 'update' }, r => {
      r.runner.apply({ kind: 'garbage', count: 12 });
      r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' });
    });
    const kinds = rig.observations().map(o => (o.type === 'protocol-error' ? o.reason.kind : o.type));
    expect(kinds).toContain('garbage');
    expect(kinds.filter(k => k === 'square')).toHaveLength(1);
    expect(rig.chunks[0]!.bytes.every(b => b < 0x80)).toBe(true);
  });

  it('drop-updates fault: the board changes but the next update is not sent', () => {
    const rig = withRig(500, { mode: 'update' }, r => {
      r.runner.apply({ kind: 'drop-updates', count: 1 });
      r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' });
      r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' });
    });
    expect(rig.observations().filter(o => o.type === 'square')).toMatchObject([{ square: sq('e4') }]);
    expect(rig.board.codeAt('e2')).toBe(0);
    expect(rig.runner.stats.droppedUpdates).toBe(1);
  });

  it('disconnect fault: the cable is pulled, the board power-cycles, and the emulator reopens when it returns', () => {
    let modeAfterPull = '';
    let reopened = false;
    const rig = withRig(2000, { mode: 'update-nice' }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'disconnect', forMs: 500 }), 100);
      r.ts.schedule(() => (modeAfterPull = r.board.mode), 101);
      r.ts.schedule(() => (reopened = r.link.device.isOpen), 700);
    });
    expect(modeAfterPull).toBe('bus');
    expect(reopened).toBe(true);
    expect(rig.runner.stats.linkLosses).toBe(1);
  });

  it('on a bus line a step needs a board address', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(() => {
      const link = createMemoryLink({ scheduler: ts });
      const runner = new DgtEmulatorRunner({
        transport: link.device,
        emulator: new DgtBusLine([new DgtBoardEmulator()]),
        scheduler: ts,
      });
      expect(() => runner.apply({ kind: 'square', square: 'e2', piece: 'empty' })).toThrow(TypeError);
      expect(() => runner.apply({ kind: 'square', square: 'e2', piece: 'empty', board: 1025 })).not.toThrow();
    });
  });
});
