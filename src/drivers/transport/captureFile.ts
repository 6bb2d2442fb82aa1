/**
 * Recording a board's raw bytes while it is used: a transport that passes everything through to
 * the real one and appends every read, with its receipt time, to a capture file
 * (docs/capture-format.md), so `chessbridge replay --driver D FILE` can replay the session later
 * exactly. A file that cannot be written never stops the board: the problem is reported once
 * and recording stops.
 *
 *   const t = new CapturingTransport(new SerialTransport({ path, now }), { file: 'b-03.capture', onProblem });
 *   dgtSession$(t, options).subscribe(…);
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { finalize, type Observable, tap } from 'rxjs';
import { makeCaptureLine } from '../capture.js';
import type { Chunk, Transport } from './transport.js';

export interface CaptureFileOptions {
  /** The capture file; reads are appended (a restart continues the same file). */
  readonly file: string;
  /** Called once if the file cannot be written; recording then stops. */
  readonly onProblem?: (message: string) => void;
  /** Comment lines written when the file is opened (board, driver, start time). */
  readonly comments?: readonly string[];
}

export class CapturingTransport implements Transport {
  readonly bytes$: Observable<Chunk>;
  private stream: WriteStream | undefined;
  private failed = false;

  constructor(
    private readonly inner: Transport,
    private readonly options: CaptureFileOptions,
  ) {
    // Closing the port flushes the file; a reconnection opens it again and appends.
    this.bytes$ = inner.bytes$.pipe(
      tap(chunk => this.record(chunk)),
      finalize(() => void this.end()),
    );
  }

  get path(): string {
    return this.inner.path;
  }

  open(): Promise<void> {
    return this.inner.open();
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.inner.write(bytes);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  /** Flushes and closes the capture file (the transport itself stays as it is). */
  async end(): Promise<void> {
    const s = this.stream;
    this.stream = undefined;
    if (s !== undefined) await new Promise<void>(resolve => s.end(resolve));
  }

  private record(chunk: Chunk): void {
    if (this.failed) return;
    if (this.stream === undefined) {
      const s = createWriteStream(this.options.file, { flags: 'a' });
      s.on('error', e => this.fail(`capture ${this.options.file}: ${e.message}; recording stopped`));
      for (const c of this.options.comments ?? []) s.write(`# ${c}\n`);
      this.stream = s;
    }
    this.stream.write(makeCaptureLine(chunk));
  }

  private fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.stream?.destroy();
    this.stream = undefined;
    this.options.onProblem?.(message);
  }
}
