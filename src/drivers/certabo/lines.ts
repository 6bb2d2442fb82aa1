/**
 * Splits the Certabo byte stream into lines (reference §2.3, errata 1): one line per LF, never
 * joining or splitting inside one. The buffer has a hard cap; when a line outgrows it, the bytes
 * before the last ':' (a frame start) are dropped as garbage, so a frame that follows junk on the
 * same line still decodes; a single frame longer than the cap is skipped up to the next ':' or LF.
 * Chunk-fed, never throws, and independent of how the stream is cut.
 *
 *   const splitter = new CertaboLineSplitter(4096);
 *   splitter.push(bytes, { line: b => lines.push(b.slice()), error: (reason, hex, n) => log(reason, hex, n) });
 *   splitter.finish(sink); // reports a line left without its LF
 */
import { makeHex, type ProtocolErrorReason } from '../observation.js';
import { ERROR_SAMPLE_BYTES } from '../observationExtra.js';
import { FRAME_START, LF, MIN_BUFFER_CAP } from './protocol.js';

export interface LineSink {
  /** A complete line without its LF (a view valid only during the call). */
  line(bytes: Uint8Array): void;
  error(reason: ProtocolErrorReason, hex: string, count: number): void;
}

export class CertaboLineSplitter {
  private readonly buf: Uint8Array;
  private len = 0;
  private highWater = 0;
  /** Skipping an overlong frame: bytes dropped so far, quoted from the start. */
  private skipping = false;
  private skipId = 0;
  private skipCount = 0;
  private readonly sample = new Uint8Array(ERROR_SAMPLE_BYTES);
  private sampleLen = 0;

  constructor(readonly cap: number) {
    if (!Number.isInteger(cap) || cap < MIN_BUFFER_CAP)
      throw new TypeError(`bufferCap must be an integer >= ${MIN_BUFFER_CAP}, got ${cap}`);
    this.buf = new Uint8Array(cap);
  }

  get bufferHighWater(): number {
    return this.highWater;
  }

  get buffered(): number {
    return this.len + this.sampleLen;
  }

  push(chunk: Uint8Array, sink: LineSink): void {
    for (const b of chunk) {
      if (this.skipping) {
        if (b !== LF && b !== FRAME_START) {
          this.note(b);
          continue;
        }
        this.endSkip(sink);
        if (b === LF) continue;
        // A ':' ends the skip and starts a new frame, buffered below.
      } else if (b === LF) {
        const line = this.buf.subarray(0, this.len);
        this.len = 0;
        sink.line(line);
        continue;
      }
      if (this.len === this.cap && !this.makeRoom(sink)) {
        this.note(b);
        continue;
      }
      this.buf[this.len++] = b;
      if (this.len > this.highWater) this.highWater = this.len;
    }
  }

  /** Reports a line left without its LF, or an overlong frame still being skipped. */
  finish(sink: LineSink): void {
    if (this.skipping) this.endSkip(sink);
    if (this.len > 0) {
      const n = this.len;
      sink.error(
        { kind: 'incomplete', received: n },
        makeHex(this.buf.subarray(0, Math.min(n, ERROR_SAMPLE_BYTES))),
        n,
      );
    }
    this.len = 0;
  }

  /**
   * The buffer is full and the line goes on: drop the bytes before the last frame start and
   * return true, or (no frame start after byte 0) start skipping and return false.
   */
  private makeRoom(sink: LineSink): boolean {
    const k = this.buf.lastIndexOf(FRAME_START);
    if (k > 0) {
      sink.error({ kind: 'garbage' }, makeHex(this.buf.subarray(0, Math.min(k, ERROR_SAMPLE_BYTES))), k);
      this.buf.copyWithin(0, k, this.len);
      this.len -= k;
      return true;
    }
    this.skipping = true;
    this.skipId = this.buf[0] ?? 0;
    this.skipCount = 0;
    this.sampleLen = 0;
    for (let i = 0; i < this.len; i++) this.note(this.buf[i] ?? 0);
    this.len = 0;
    return false;
  }

  private note(b: number): void {
    if (this.sampleLen < ERROR_SAMPLE_BYTES) this.sample[this.sampleLen++] = b;
    this.skipCount++;
  }

  private endSkip(sink: LineSink): void {
    sink.error(
      { kind: 'overflow', id: this.skipId, declared: this.skipCount, cap: this.cap },
      makeHex(this.sample.subarray(0, this.sampleLen)),
      this.skipCount,
    );
    this.skipping = false;
    this.skipCount = 0;
    this.sampleLen = 0;
  }
}
