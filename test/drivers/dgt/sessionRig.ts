/**
 * Test rig for session tests in virtual time: a DGT board emulator served on a memory link,
 * a session on the host end, everything on one TestScheduler. Collects observations and the
 * host's writes; stops everything at `endMs` so the scheduler can finish.
 *
 *   const rig = runRig({ endMs: 3000 }, r => r.ts.schedule(() => r.link.unplug(), 1000));
 *   rig.links(); // [[0, 'resynchronising'], [600, 'connected'], [1000, 'lost'], …]
 */
import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import { DgtBoardEmulator, type DgtBoardEmulatorOptions } from '../../../src/drivers/dgt/emulator.js';
import { DgtEmulatorRunner } from '../../../src/drivers/dgt/emulatorRunner.js';
import { dgtSession$, type DgtSessionOptions } from '../../../src/drivers/dgt/session.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { createMemoryLink, type MemoryLink } from '../../../src/drivers/transport/memory.js';

export const createTestScheduler = (): TestScheduler => new TestScheduler((a, b) => expect(a).toEqual(b));

export interface Rig {
  readonly ts: TestScheduler;
  readonly link: MemoryLink;
  readonly board: DgtBoardEmulator;
  readonly runner: DgtEmulatorRunner;
  readonly seen: Observation[];
  error: unknown;
  /** [time, state] of every link observation. */
  links(): [number, string][];
  /** [time, first byte] of every host write. */
  writes(): [number, number][];
}

export interface RigOptions {
  readonly endMs: number;
  readonly session?: Omit<DgtSessionOptions, 'scheduler'>;
  readonly board?: DgtBoardEmulatorOptions;
  readonly latencyMs?: number;
  /** Serve the emulator (default true); false leaves the line silent. */
  readonly serve?: boolean;
}

export interface RigParts {
  readonly link: MemoryLink;
  readonly board: DgtBoardEmulator;
  readonly runner: DgtEmulatorRunner;
  /** The session on the host end (cold: nothing is subscribed yet). */
  readonly session$: Observable<Observation>;
}

/** Builds the parts inside the caller's `ts.run`; the emulator stops at `endMs`. */
export const buildRig = (ts: TestScheduler, o: RigOptions): RigParts => {
  const link = createMemoryLink({ scheduler: ts, latencyMs: o.latencyMs ?? 0 });
  const board = new DgtBoardEmulator(o.board);
  const runner = new DgtEmulatorRunner({ transport: link.device, emulator: board, scheduler: ts });
  if (o.serve !== false) runner.start();
  ts.schedule(() => void runner.stop(), o.endMs);
  return { link, board, runner, session$: dgtSession$(link.host, { ...o.session, scheduler: ts }) };
};

/** Runs a session against the emulator until `endMs`, with `body` scheduling what happens. */
export const runRig = (o: RigOptions, body: (r: Rig) => void = () => undefined): Rig => {
  const ts = createTestScheduler();
  let rig: Rig | undefined;
  ts.run(({ flush }) => {
    const { link, board, runner, session$ } = buildRig(ts, o);
    const seen: Observation[] = [];
    const r: Rig = {
      ts,
      link,
      board,
      runner,
      seen,
      error: undefined,
      links: () => seen.flatMap(s => (s.type === 'link' ? [[s.at, s.state] as [number, string]] : [])),
      writes: () => link.host.writes.map(w => [w.at, w.bytes[0] ?? -1]),
    };
    rig = r;
    const sub = session$.subscribe({
      next: x => seen.push(x),
      error: (e: unknown) => (r.error = e),
    });
    body(r);
    ts.schedule(() => sub.unsubscribe(), o.endMs);
    flush();
  });
  return rig!;
};
