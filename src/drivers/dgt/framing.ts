/**
 * Byte-level framing of board-to-host DGT messages by the 7-bit size rule (reference §2): an id
 * byte with bit 7 set, two 7-bit size bytes giving the total length, then a payload of 7-bit
 * bytes. Chunk-fed, with a hard cap on buffered bytes; it never throws. Any byte with bit 7 set
 * starts a new message, which is how it resynchronises after garbage. Used by the single-board
 * decoder and the bus decoder, which differ only in their length policy and frame handling.
 *
 *   const framer = new DgtFramer(16384, (id, len) => (len === 5 ? 'accept' : { skip: { kind: 'unknown-message', id } }));
 *   framer.push(bytes, { frame: (f) => frames.push(f.slice()), error: (r, hex, n) => log(r, hex, n) });
 *   framer.bufferHighWater; // the most bytes ever held
 */
import { makeHex, type ProtocolErrorReason } from '../observation.js';
import { HEADER_LENGTH } from './constants.js';

/** How many offending bytes a protocol error quotes. */
export const ERROR_SAMPLE_BYTES = 48;

/** A run of garbage is reported once it reaches this many bytes (and again after each such run). */
export const GARBAGE_RUN_REPORT = 1024;

/** What to do with a message once its header is read. */
export type LengthVerdict = 'accept' | { readonly skip: ProtocolErrorReason };

/** Decides, from the id and declared total length (≥ 3), whether to buffer the message. */
export type LengthPolicy = (id: number, declared: number) => LengthVerdict;

/** Receives complete frames (a view valid only during the call) and errors. */
export interface FrameSink {
  frame(bytes: Uint8Array): void;
  error(reason: ProtocolErrorReason, hex: string, count: number): void;
}

type Mode = 'seek' | 'header' | 'body' | 'skip';

export class DgtFramer {
  private readonly buf: Uint8Array;
  private len = 0;
  private mode: Mode = 'seek';
  private declared = 0;
  /** Bytes quoted by the pending error (garbage run or skipped message). */
  private readonly sample = new Uint8Array(ERROR_SAMPLE_BYTES);
  private sampleLen = 0;
  private pendingCount = 0;
  private skipRemaining = 0;
  private skipReason: ProtocolErrorReason = { kind: 'garbage' };
  private highWater = 0;

  /**
   * @param cap hard cap on buffered message bytes; longer messages are skipped with an 'overflow'.
   * @param policy per-id length rules; rejected messages are skipped by their declared length.
   */
  constructor(
    readonly cap: number,
    private readonly policy: LengthPolicy,
  ) {
    if (!Number.isInteger(cap) || cap < HEADER_LENGTH)
      throw new TypeError(`cap must be an integer >= 3, got ${cap}`);
    this.buf = new Uint8Array(cap);
  }

  /** The most bytes this framer has ever held in its message buffer. */
  get bufferHighWater(): number {
    return this.highWater;
  }

  /** Bytes currently buffered (message bytes plus the bounded error sample). */
  get buffered(): number {
    return this.len + this.sampleLen;
  }

  push(chunk: Uint8Array, sink: FrameSink): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] ?? 0;
      const start = (b & 0x80) !== 0;
      switch (this.mode) {
        case 'seek':
          if (start) {
            this.reportGarbage(sink);
            this.begin(b);
          } else {
            this.note(b);
            if (this.pendingCount >= GARBAGE_RUN_REPORT) this.reportGarbage(sink);
          }
          break;
        case 'header':
        case 'body':
          if (start) {
            this.interrupted(sink);
            this.begin(b);
          } else {
            this.buf[this.len++] = b;
            if (this.len > this.highWater) this.highWater = this.len;
            if (this.mode === 'header') {
              if (this.len === HEADER_LENGTH) this.headerDone(sink);
            } else if (this.len === this.declared) {
              this.complete(sink);
            }
          }
          break;
        case 'skip':
          if (start) {
            this.endSkip(sink);
            this.begin(b);
          } else {
            this.note(b);
            if (--this.skipRemaining === 0) this.endSkip(sink);
          }
          break;
      }
    }
  }

  /** Reports whatever is pending (partial message, garbage run) and returns to seeking. */
  finish(sink: FrameSink): void {
    switch (this.mode) {
      case 'seek':
        this.reportGarbage(sink);
        break;
      case 'header':
      case 'body':
        sink.error(
          { kind: 'incomplete', received: this.len },
          makeHex(this.buf.subarray(0, Math.min(this.len, ERROR_SAMPLE_BYTES))),
          this.len,
        );
        this.len = 0;
        break;
      case 'skip':
        this.endSkip(sink);
        break;
    }
    this.mode = 'seek';
  }

  private begin(id: number): void {
    this.buf[0] = id;
    this.len = 1;
    if (this.highWater < 1) this.highWater = 1;
    this.mode = 'header';
  }

  private headerDone(sink: FrameSink): void {
    const id = this.buf[0] ?? 0;
    const declared = ((this.buf[1] ?? 0) << 7) | (this.buf[2] ?? 0);
    if (declared < HEADER_LENGTH) {
      sink.error(
        { kind: 'bad-length', id, declared, expected: '>= 3' },
        makeHex(this.buf.subarray(0, HEADER_LENGTH)),
        HEADER_LENGTH,
      );
      this.len = 0;
      this.mode = 'seek';
      return;
    }
    const verdict = this.policy(id, declared);
    if (verdict !== 'accept' || declared > this.cap) {
      const reason =
        verdict !== 'accept' ? verdict.skip : { kind: 'overflow' as const, id, declared, cap: this.cap };
      this.startSkip(reason, declared);
      if (this.skipRemaining === 0) this.endSkip(sink);
      return;
    }
    this.declared = declared;
    if (declared === HEADER_LENGTH) this.complete(sink);
    else this.mode = 'body';
  }

  private complete(sink: FrameSink): void {
    const frame = this.buf.subarray(0, this.len);
    this.len = 0;
    this.mode = 'seek';
    sink.frame(frame);
  }

  private startSkip(reason: ProtocolErrorReason, declared: number): void {
    this.sampleLen = 0;
    this.pendingCount = 0;
    for (let j = 0; j < HEADER_LENGTH; j++) this.note(this.buf[j] ?? 0);
    this.len = 0;
    this.skipReason = reason;
    this.skipRemaining = declared - HEADER_LENGTH;
    this.mode = 'skip';
  }

  private endSkip(sink: FrameSink): void {
    sink.error(this.skipReason, makeHex(this.sample.subarray(0, this.sampleLen)), this.pendingCount);
    this.sampleLen = 0;
    this.pendingCount = 0;
    this.mode = 'seek';
  }

  private interrupted(sink: FrameSink): void {
    const id = this.buf[0] ?? 0;
    const declared = this.mode === 'body' ? this.declared : undefined;
    const n = this.len;
    sink.error(
      { kind: 'interrupted', id, declared, received: n },
      makeHex(this.buf.subarray(0, Math.min(n, ERROR_SAMPLE_BYTES))),
      n,
    );
    this.len = 0;
  }

  private note(b: number): void {
    if (this.sampleLen < ERROR_SAMPLE_BYTES) this.sample[this.sampleLen++] = b;
    this.pendingCount++;
  }

  private reportGarbage(sink: FrameSink): void {
    if (this.pendingCount === 0) return;
    sink.error({ kind: 'garbage' }, makeHex(this.sample.subarray(0, this.sampleLen)), this.pendingCount);
    this.sampleLen = 0;
    this.pendingCount = 0;
  }
}
