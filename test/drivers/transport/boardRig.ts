/**
 * Test rig for the Millennium, Certabo and Chessnut sessions in virtual time: an emulator core
 * served by the board emulator runner on a memory link, a session on the host end, everything on
 * one TestScheduler. Collects observations and the host's writes; stops at `endMs`.
 *
 *   const rig = runBoardRig({ endMs: 3000, board: millenniumBoard(core), session: (t, s) => millenniumSession$(t, { scheduler: s }) });
 *   rig.links(); // [[0, 'resynchronising'], [400, 'connected']]
 */
import type { Observable, SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import { EMPTY, type LinkObservation, type SquareContent } from '../../../src/drivers/observation.js';
import type { BoardObservation } from '../../../src/drivers/observationExtra.js';
import type { EmulatedBoard } from '../../../src/drivers/emulatedBoard.js';
import { BoardEmulatorRunner } from '../../../src/emulators/boardEmulatorHost.js';
import { createMemoryLink, type MemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Transport } from '../../../src/drivers/transport/transport.js';

export const createTestScheduler = (): TestScheduler => new TestScheduler((a, b) => expect(a).toEqual(b));

type Seen = BoardObservation | { readonly type: string; readonly at: number };

export interface BoardRig<O extends Seen> {
  readonly ts: TestScheduler;
  readonly link: MemoryLink;
  readonly runner: BoardEmulatorRunner;
  readonly seen: O[];
  error: unknown;
  /** [time, state] of every link observation. */
  links(): [number, string][];
  /** [time, bytes] of every host write. */
  writes(): [number, number[]][];
}

export interface BoardRigOptions<O extends Seen> {
  readonly endMs: number;
  readonly board: EmulatedBoard;
  readonly session: (transport: Transport, scheduler: SchedulerLike) => Observable<O>;
  readonly latencyMs?: number;
  /** Serve the emulator (default true); false leaves the line silent. */
  readonly serve?: boolean;
  readonly tickMs?: number;
}

/** Runs a session against an emulator until `endMs`, with `body` scheduling what happens. */
export const runBoardRig = <O extends Seen>(
  o: BoardRigOptions<O>,
  body: (r: BoardRig<O>) => void = () => undefined,
): BoardRig<O> => {
  const ts = createTestScheduler();
  let rig: BoardRig<O> | undefined;
  ts.run(({ flush }) => {
    const link = createMemoryLink({ scheduler: ts, latencyMs: o.latencyMs ?? 0 });
    const runner = new BoardEmulatorRunner({
      transport: link.device,
      board: o.board,
      scheduler: ts,
      ...(o.tickMs !== undefined && { tickMs: o.tickMs }),
    });
    if (o.serve !== false) runner.start();
    ts.schedule(() => void runner.stop(), o.endMs);
    const seen: O[] = [];
    const r: BoardRig<O> = {
      ts,
      link,
      runner,
      seen,
      error: undefined,
      links: () =>
        seen.flatMap(s =>
          s.type === 'link' ? [[s.at, (s as LinkObservation).state] as [number, string]] : [],
        ),
      writes: () => link.host.writes.map(w => [w.at, Array.from(w.bytes)]),
    };
    rig = r;
    const sub = o.session(link.host, ts).subscribe({
      next: x => seen.push(x),
      error: (e: unknown) => (r.error = e),
    });
    body(r);
    ts.schedule(() => sub.unsubscribe(), o.endMs);
    flush();
  });
  return rig!;
};

/** Square observations as [square, content] pairs. */
export const squaresOf = (obs: readonly Seen[]) =>
  obs.flatMap(o => (o.type === 'square' && 'square' in o ? [[o.square, o.content] as const] : []));

/** The board a consumer rebuilds: the last snapshot, then the square observations after it. */
export const rebuild = (obs: readonly Seen[]): SquareContent[] => {
  let board: SquareContent[] = new Array<SquareContent>(64).fill(EMPTY);
  for (const o of obs) {
    if (o.type === 'snapshot' && 'squares' in o) board = [...o.squares];
    if (o.type === 'square' && 'square' in o) board[o.square] = o.content;
  }
  return board;
};
