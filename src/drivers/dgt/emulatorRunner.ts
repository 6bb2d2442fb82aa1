/**
 * Serves a DGT board emulator (one board, or a bus line of boards) on any Transport: answers
 * every command the host sends, plays timed scripts at a speed factor, sends the periodic clock
 * messages, and injects faults (split writes, garbage, dropped updates, a pulled cable). Time
 * comes from the injected scheduler, so it runs under virtual time on a memory link as well as
 * on a real serial line (src/emulators/emulatorHost.ts serves it on a PTY path).
 *
 *   const runner = new DgtEmulatorRunner({ transport: link.device, emulator: new DgtBoardEmulator() });
 *   runner.start();
 *   await runner.play(scriptFromSans(['e4', 'e5']).unwrap().steps); await runner.stop();
 */
import {
  asyncScheduler,
  concatMap,
  from,
  interval,
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
import { type Transport, TransportError } from '../transport/transport.js';
import { DgtBusLine } from './emulatorBus.js';
import type { BoardEvent, DgtBoardEmulator } from './emulator.js';
import { type Fault, isFault, type ScriptStep } from './emulatorScript.js';

/** A step without its time: applied now. */
export type RunnerStep = { readonly board?: number } & (BoardEvent | Fault);

export interface DgtEmulatorRunnerOptions {
  readonly transport: Transport;
  readonly emulator: DgtBoardEmulator | DgtBusLine;
  /** Timers and script pacing; default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Script time runs `speed` times faster than the scheduler; default 1. */
  readonly speed?: number;
  /** How often the clock messages are checked, scheduler ms; default 100. */
  readonly tickMs?: number;
  /** Delay before reopening the transport after it failed, scheduler ms; default 50. */
  readonly reopenMs?: number;
  /** Gap between the pieces of a split write, scheduler ms; default 3. */
  readonly splitGapMs?: number;
  /**
   * Pulls the cable for the `disconnect` fault (e.g. stop and restart a PTY pair). Without it the
   * fault closes the emulator's own end for that long, which a PTY peer does not notice.
   */
  readonly disconnect?: (forMs: number) => Promise<void>;
  /** Seed of the random garbage and split positions; default 1. */
  readonly seed?: number;
}

export interface RunnerStats {
  bytesIn: number;
  bytesOut: number;
  writes: number;
  failedWrites: number;
  droppedUpdates: number;
  linkLosses: number;
}

export class DgtEmulatorRunner {
  readonly stats: RunnerStats = {
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
  /** Scheduler time before which the reopen loop waits (the `disconnect` fault without a cable). */
  private pausedUntil = -Infinity;

  constructor(private readonly options: DgtEmulatorRunnerOptions) {
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
    const { transport, emulator } = this.options;
    const reads$ = transport.bytes$.pipe(
      tap({
        next: c => {
          this.stats.bytesIn += c.bytes.length;
          this.send(emulator.receive(c.bytes, this.now()));
        },
        error: (e: unknown) => {
          if (e instanceof TransportError && e.disconnected) {
            this.stats.linkLosses++;
            emulator.powerCycle();
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
    const ticks$ = interval(this.options.tickMs ?? 100, this.scheduler).pipe(
      tap(() => this.send(emulator.tick(this.now()))),
    );
    const writes$ = this.outgoing$.pipe(
      concatMap(bytes => {
        const pieces = this.pieces(bytes);
        return from(pieces).pipe(
          concatMap((p, i) =>
            i === 0 ? of(p) : timer(this.options.splitGapMs ?? 3, this.scheduler).pipe(map(() => p)),
          ),
        );
      }),
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

  /** Applies one step now. */
  apply(step: RunnerStep): void {
    if (isFault(step)) {
      this.fault(step);
      return;
    }
    this.send(this.applyEvent(step, step.board));
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

  private applyEvent(e: BoardEvent, board: number | undefined): Uint8Array {
    const { emulator } = this.options;
    const now = this.now();
    if (emulator instanceof DgtBusLine) {
      if (board === undefined) throw new TypeError('a bus line step needs a board address');
      return emulator.apply(e, now, board);
    }
    const silent = e.kind === 'square' && this.dropUpdates > 0;
    if (silent) {
      this.dropUpdates--;
      this.stats.droppedUpdates++;
    }
    return emulator.apply(e, now, { silent });
  }

  private fault(f: Fault): void {
    switch (f.kind) {
      case 'garbage': {
        const bytes = f.bytes ?? Array.from({ length: f.count ?? 8 }, () => this.random(128));
        this.send(Uint8Array.from(bytes));
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
    await this.options.transport.close();
    await lastValueFrom(timer(ms, this.scheduler));
  }

  private send(bytes: Uint8Array): void {
    if (bytes.length > 0 && this.subscription !== undefined) this.outgoing$.next(bytes);
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
