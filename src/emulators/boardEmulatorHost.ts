/**
 * Serves a Millennium, Certabo or Chessnut emulator core on any Transport (a memory link under
 * virtual time, one end of a socat PTY pair, an in-process HID device): answers what the host
 * writes, sends the board's periodic output (scan reports, RFID frames, 200 ms position
 * reports), plays timed scripts of lift and place events at a speed factor, and injects faults
 * (split writes, garbage, dropped updates, a pulled cable). Each board adapts its core to
 * `EmulatedBoard` (drivers/emulatedBoard.ts; see drivers/millennium/emulatorRunner.ts and its
 * siblings); the scripts and faults are the DGT runner's (drivers/dgt/emulatorScript.ts), clock
 * steps are ignored.
 *
 *   const runner = new BoardEmulatorRunner({ transport: link.device, board: millenniumBoard(new MillenniumEmulator()) });
 *   runner.start();
 *   await runner.play(scriptFromSans(['e4', 'e5']).unwrap().steps); await runner.stop();
 *
 * On a byte stream each reply is one write (a split fault cuts it); on an HID transport each
 * reply is one report, so a split fault sends a report cut in two, and garbage is one bogus report.
 */
import {
  asyncScheduler,
  concatMap,
  from,
  lastValueFrom,
  map,
  merge,
  Observable,
  of,
  retry,
  type SchedulerLike,
  Subject,
  type Subscription,
  tap,
  timer,
} from 'rxjs';
import type { BoardEvent } from '../drivers/dgt/emulator.js';
import type { EmulatedBoard } from '../drivers/emulatedBoard.js';
import { type Fault, isFault, type ScriptStep } from '../drivers/dgt/emulatorScript.js';
import { EMPTY } from '../drivers/observation.js';
import { contentFromPieceLetter, type SquareEvent } from '../drivers/observationExtra.js';
import { every$ } from '../drivers/sessionKit.js';
import { type Transport, TransportError } from '../drivers/transport/transport.js';
import { parseSquare, type Square } from 'chessops';

export interface BoardEmulatorRunnerOptions {
  readonly transport: Transport;
  readonly board: EmulatedBoard;
  /** Timers and script pacing; default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Script time runs `speed` times faster than the scheduler; default 1. */
  readonly speed?: number;
  /** How often `tick` is called, scheduler ms; default 20. */
  readonly tickMs?: number;
  /** Delay before reopening the transport after it failed, scheduler ms; default 50. */
  readonly reopenMs?: number;
  /** Gap between the pieces of a split write, scheduler ms; default 3. */
  readonly splitGapMs?: number;
  /** Pulls the cable for the `disconnect` fault; without it the runner closes its own end. */
  readonly disconnect?: (forMs: number) => Promise<void>;
  /** Seed of the random garbage and split positions; default 1. */
  readonly seed?: number;
}

export interface BoardRunnerStats {
  bytesIn: number;
  bytesOut: number;
  writes: number;
  failedWrites: number;
  droppedUpdates: number;
  linkLosses: number;
}

/** A script step's square event (game frame), or undefined for steps that are not square events. */
export const squareEventOf = (e: BoardEvent): SquareEvent | undefined => {
  if (e.kind !== 'square') return undefined;
  const square: Square = typeof e.square === 'number' ? e.square : parseSquare(e.square);
  const content = e.piece === 'empty' ? EMPTY : (contentFromPieceLetter(e.piece) ?? EMPTY);
  return { square, content };
};

export class BoardEmulatorRunner {
  readonly stats: BoardRunnerStats = {
    bytesIn: 0,
    bytesOut: 0,
    writes: 0,
    failedWrites: 0,
    droppedUpdates: 0,
    linkLosses: 0,
  };
  private readonly scheduler: SchedulerLike;
  private readonly speed: number;
  private readonly outgoing$ = new Subject<Uint8Array>();
  private subscription: Subscription | undefined;
  private t0 = 0;
  private dropUpdates = 0;
  private split: number | 'random' | 'off' = 'off';
  private rng: number;
  private readonly disconnects: Promise<void>[] = [];
  private pausedUntil = -Infinity;

  constructor(private readonly options: BoardEmulatorRunnerOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.speed = options.speed ?? 1;
    this.rng = options.seed ?? 1;
  }

  /** Script time (ms): scheduler time since start() times the speed factor. */
  now(): number {
    return (this.scheduler.now() - this.t0) * this.speed;
  }

  get running(): boolean {
    return this.subscription !== undefined;
  }

  /** Opens the transport (reopening it whenever it fails) and starts answering. Idempotent. */
  start(): void {
    if (this.subscription !== undefined) return;
    this.t0 = this.scheduler.now();
    const { transport, board } = this.options;
    const reads$ = transport.bytes$.pipe(
      tap({
        next: c => {
          this.stats.bytesIn += c.bytes.length;
          this.send(board.receive(c.bytes, this.now()));
        },
        error: (e: unknown) => {
          if (e instanceof TransportError && e.disconnected) {
            this.stats.linkLosses++;
            board.powerCycle();
          }
        },
      }),
      retry({
        delay: () =>
          timer(
            Math.max(this.options.reopenMs ?? 50, this.pausedUntil - this.scheduler.now()),
            this.scheduler,
          ),
      }),
    );
    const ticks$ = every$(this.options.tickMs ?? 20, this.scheduler).pipe(
      tap(() => this.send(board.tick(this.now()))),
    );
    const writes$ = this.outgoing$.pipe(
      concatMap(bytes =>
        from(this.pieces(bytes)).pipe(
          concatMap((p, i) =>
            i === 0 ? of(p) : timer(this.options.splitGapMs ?? 3, this.scheduler).pipe(map(() => p)),
          ),
        ),
      ),
      tap(p => {
        this.stats.writes++;
        this.stats.bytesOut += p.length;
        transport.write(p).catch(() => {
          this.stats.failedWrites++;
        });
      }),
    );
    this.subscription = merge(reads$, ticks$, writes$).subscribe();
  }

  /** Stops answering and closes the transport; waits for a disconnect fault in progress. */
  async stop(): Promise<void> {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    await Promise.allSettled(this.disconnects);
    await this.options.transport.close();
  }

  /** Applies one step now (clock steps do nothing: these boards have no clock). */
  apply(step: BoardEvent | Fault): void {
    if (isFault(step)) {
      this.fault(step);
      return;
    }
    const event = squareEventOf(step);
    if (event === undefined) return;
    const out = this.options.board.apply(event, this.now());
    if (this.dropUpdates > 0 && out.length > 0) {
      this.dropUpdates--;
      this.stats.droppedUpdates++;
      return;
    }
    this.send(out);
  }

  /** Plays steps at their script times (relative to now); emits each step once applied. */
  play$(steps: readonly ScriptStep[]): Observable<ScriptStep> {
    return new Observable<ScriptStep>(subscriber => {
      const start = this.now();
      let pending: Subscription | undefined;
      const next = (i: number): void => {
        const step = steps[i];
        if (step === undefined) {
          subscriber.complete();
          return;
        }
        const wait = Math.max(0, (start + step.at - this.now()) / this.speed);
        pending = this.scheduler.schedule(() => {
          this.apply(step);
          subscriber.next(step);
          next(i + 1);
        }, wait);
      };
      next(0);
      return () => pending?.unsubscribe();
    });
  }

  /** Plays steps; resolves after the last one was applied. */
  async play(steps: readonly ScriptStep[]): Promise<void> {
    if (steps.length === 0) return;
    await lastValueFrom(this.play$(steps));
  }

  private fault(f: Fault): void {
    switch (f.kind) {
      case 'garbage': {
        const bytes = f.bytes ?? Array.from({ length: f.count ?? 8 }, () => this.random(256));
        this.send([Uint8Array.from(bytes)]);
        return;
      }
      case 'drop-updates':
        this.dropUpdates += f.count;
        return;
      case 'split':
        this.split = f.pieces;
        return;
      case 'disconnect': {
        const realMs = f.forMs / this.speed;
        const pull = this.options.disconnect;
        const done = pull !== undefined ? pull(realMs) : this.closeFor(realMs);
        this.disconnects.push(done.catch(() => undefined));
        return;
      }
    }
  }

  /** Without a cable to pull: close our end and let the reopen loop bring it back. */
  private async closeFor(ms: number): Promise<void> {
    this.pausedUntil = this.scheduler.now() + ms;
    this.options.board.powerCycle();
    await this.options.transport.close();
    await lastValueFrom(timer(ms, this.scheduler));
  }

  private send(writes: readonly Uint8Array[]): void {
    if (this.subscription === undefined) return;
    for (const w of writes) if (w.length > 0) this.outgoing$.next(w);
  }

  /** A deterministic pseudo-random integer in [0, n) (xorshift32). */
  private random(n: number): number {
    let x = this.rng | 0 || 1;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.rng = x;
    return (x >>> 0) % n;
  }

  private pieces(bytes: Uint8Array): Uint8Array[] {
    const split = this.split;
    if (split === 'off' || bytes.length < 2) return [bytes];
    const cuts: number[] = [];
    if (split === 'random') {
      for (let i = 1; i < bytes.length; i++) if (this.random(3) === 0) cuts.push(i);
    } else {
      for (let i = Math.max(1, split); i < bytes.length; i += Math.max(1, split)) cuts.push(i);
    }
    const out: Uint8Array[] = [];
    let prev = 0;
    for (const c of [...cuts, bytes.length]) {
      out.push(bytes.subarray(prev, c));
      prev = c;
    }
    return out;
  }
}
