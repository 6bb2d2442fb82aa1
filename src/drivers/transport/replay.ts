/**
 * A transport that plays a raw capture (docs/capture-format.md): each read comes out as one
 * chunk stamped with its recorded time, so the decoder sees exactly what it saw live. Paced by
 * the injected scheduler at `speed` × real time, or all at once (`speed: Infinity`, the default).
 * Writes are recorded (`writes`, `lastWrite`) so tests can assert the commands a session sent.
 * `bytes$` completes after the last read.
 *
 *   const replay = ReplayTransport.fromText(captureText).unwrap();
 *   replay.bytes$.subscribe(c => decoder.push(c.bytes, c.at));
 *   await replay.write(Uint8Array.of(0x42)); replay.lastWrite; // Uint8Array [0x42]
 */
import { Result } from '@badrap/result';
import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { type CaptureError, type CaptureRead, parseCapture } from '../capture.js';
import { type Chunk, type Transport, TransportError } from './transport.js';

export interface ReplayOptions {
  /** Real-time factor; Infinity (default) emits every read synchronously on subscribe. */
  readonly speed?: number;
  /** Paces the reads when `speed` is finite; default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Name for reports; default `replay:capture`. */
  readonly path?: string;
}

export class ReplayTransport implements Transport {
  readonly path: string;
  private opened = false;
  private reading = false;
  private cursorAt = 0;
  private readonly written: Chunk[] = [];

  constructor(
    private readonly reads: readonly CaptureRead[],
    private readonly options: ReplayOptions = {},
  ) {
    this.path = options.path ?? 'replay:capture';
  }

  /** Parses capture text (errors name the bad line). */
  static fromText(text: string, options: ReplayOptions = {}): Result<ReplayTransport, CaptureError> {
    return parseCapture(text).map(reads => new ReplayTransport(reads, options));
  }

  /** What was written, stamped with the time of the last read replayed before the write. */
  get writes(): readonly Chunk[] {
    return this.written;
  }

  get lastWrite(): Uint8Array | undefined {
    return this.written.at(-1)?.bytes;
  }

  open(): Promise<void> {
    this.opened = true;
    return Promise.resolve();
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.opened) return Promise.reject(new TransportError({ kind: 'not-open' }));
    this.written.push({ at: this.cursorAt, bytes: bytes.slice() });
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.opened = false;
    return Promise.resolve();
  }

  readonly bytes$: Observable<Chunk> = new Observable<Chunk>(subscriber => {
    if (this.reading) {
      subscriber.error(new TransportError({ kind: 'busy' }));
      return undefined;
    }
    this.reading = true;
    this.opened = true;
    const speed = this.options.speed ?? Infinity;
    const reads = this.reads;
    let pending: Subscription | undefined;
    const emit = (i: number): void => {
      const read = reads[i];
      if (read === undefined) {
        subscriber.complete();
        return;
      }
      this.cursorAt = read.at;
      subscriber.next({ at: read.at, bytes: read.bytes.slice() });
    };
    if (!Number.isFinite(speed)) {
      for (let i = 0; i <= reads.length && !subscriber.closed; i++) emit(i);
    } else {
      if (!(speed > 0)) throw new TypeError(`speed must be positive, got ${speed}`);
      const scheduler = this.options.scheduler ?? asyncScheduler;
      const step = (i: number): void => {
        emit(i);
        if (i >= reads.length || subscriber.closed) return;
        const gap = ((reads[i + 1]?.at ?? reads[i]?.at ?? 0) - (reads[i]?.at ?? 0)) / speed;
        pending = scheduler.schedule(() => step(i + 1), gap);
      };
      pending = scheduler.schedule(() => step(0), 0);
    }
    return () => {
      pending?.unsubscribe();
      this.reading = false;
      this.opened = false;
    };
  });
}
