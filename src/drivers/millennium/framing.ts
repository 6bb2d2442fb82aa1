/**
 * Byte-level framing of Millennium replies (reference §1.3, §1.9). There is no terminator: the
 * framer hunts for a reply letter, checks the characters that follow against the reply's syntax
 * (piece letters, upper-case hex, a first checksum digit 0–7), takes the fixed length and
 * accepts the frame only when the XOR checksum matches; otherwise it moves on by one byte.
 * Parity is checked per frame in one of four modes. Chunk-fed, never throws, bounded buffer.
 *
 *   const framer = new MillenniumFramer(256, 'auto');
 *   framer.push(bytes, { frame: text => texts.push(text), error: (reason, hex, n) => log(reason, hex, n) });
 *   framer.finish(sink); // reports a reply left incomplete and trailing garbage
 */
import { makeHex, type ProtocolErrorReason } from '../observation.js';
import { ERROR_SAMPLE_BYTES } from '../observationExtra.js';
import { hasOddParity, IDENTIFY_REPLY, isPieceLetter, LF, parseHexDigit, xorChecksum } from './protocol.js';

/**
 * How bit 7 is read. 'odd': every byte carries odd parity (8N1 port, the reference's advice).
 * 'none': bit 7 is always clear (7O1 port whose driver strips it). 'auto' (default): a frame
 * passes if it fits either reading. 'ignore': bit 7 is masked off unchecked (eONE, UNVERIFIED).
 */
export type ParityMode = 'auto' | 'odd' | 'none' | 'ignore';

export const PARITY_MODES: readonly ParityMode[] = ['auto', 'odd', 'none', 'ignore'];

/** Longest fixed reply (`s`, 67 characters); the buffer cap may not be smaller. */
export const MIN_BUFFER_CAP = 67;

/** Default buffer cap; only the variable-length `i` reply can reach it. */
export const DEFAULT_BUFFER_CAP = 256;

/** A run of garbage is reported once it reaches this many bytes. */
export const GARBAGE_RUN_REPORT = 1024;

export interface FrameSink {
  /** A complete frame: its text (7-bit) and raw bytes (a view valid only during the call). */
  frame(text: string, bytes: Uint8Array): void;
  error(reason: ProtocolErrorReason, hex: string, count: number): void;
}

/** Syntax classes: P piece letter, H upper-case hex digit, C first checksum digit (0–7). */
const FORMAT: Readonly<Record<string, string>> = {
  s: 's' + 'P'.repeat(64) + 'CH',
  v: 'vHHHHCH',
  l: 'lCH',
  x: 'xCH',
  w: 'wHHHHCH',
  r: 'rHHHHCH',
};

const fits = (cls: string, code: number): boolean => {
  switch (cls) {
    case 'P':
      return isPieceLetter(code);
    case 'H':
      return parseHexDigit(code) !== undefined;
    case 'C':
      return code >= 0x30 && code <= 0x37;
    default:
      return code === cls.charCodeAt(0);
  }
};

const isStart = (code: number): boolean => code === 0x69 || Object.hasOwn(FORMAT, String.fromCharCode(code));

type Assessment =
  | { readonly kind: 'need-more' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'overflow' }
  | {
      readonly kind: 'complete';
      readonly length: number;
      readonly expected: number;
      readonly actual: number;
    };

/** The first byte breaking the parity reading `mode`, or undefined when all fit (bit 7 as received). */
export const findParityError = (bytes: Uint8Array, mode: ParityMode): number | undefined => {
  const oddBad = bytes.find(b => !hasOddParity(b));
  const clearBad = bytes.find(b => (b & 0x80) !== 0);
  switch (mode) {
    case 'ignore':
      return undefined;
    case 'odd':
      return oddBad;
    case 'none':
      return clearBad;
    case 'auto':
      return oddBad === undefined || clearBad === undefined ? undefined : oddBad;
  }
};

export class MillenniumFramer {
  private readonly buf: Uint8Array;
  private len = 0;
  private highWater = 0;
  /** Upcoming buffered bytes already quoted by an error, not to be counted as garbage again. */
  private quiet = 0;
  private readonly sample = new Uint8Array(ERROR_SAMPLE_BYTES);
  private sampleLen = 0;
  private pendingCount = 0;

  constructor(
    readonly cap: number,
    readonly parity: ParityMode,
  ) {
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

  push(chunk: Uint8Array, sink: FrameSink): void {
    for (const b of chunk) {
      this.buf[this.len++] = b;
      if (this.len > this.highWater) this.highWater = this.len;
      this.drain(sink);
    }
  }

  finish(sink: FrameSink): void {
    this.flushGarbage(sink);
    if (this.len > 0) {
      const n = this.len;
      sink.error(
        { kind: 'incomplete', received: n },
        makeHex(this.buf.subarray(0, Math.min(n, ERROR_SAMPLE_BYTES))),
        n,
      );
    }
    this.len = 0;
    this.quiet = 0;
  }

  private drain(sink: FrameSink): void {
    while (this.len > 0) {
      const first = (this.buf[0] ?? 0) & 0x7f;
      if (!isStart(first)) {
        this.discardGarbage(sink);
        continue;
      }
      const a = first === IDENTIFY_REPLY.charCodeAt(0) ? this.assessIdentify() : this.assessFixed(first);
      switch (a.kind) {
        case 'need-more':
          return;
        case 'invalid':
          this.discardGarbage(sink);
          break;
        case 'overflow':
          this.flushGarbage(sink);
          this.reportBuffer(
            sink,
            { kind: 'overflow', id: first, declared: this.len, cap: this.cap },
            this.len,
          );
          this.quiet = Math.max(this.quiet - 1, this.len - 1);
          this.shift(1);
          break;
        case 'complete':
          this.complete(a, sink);
          break;
      }
    }
  }

  private complete(a: Extract<Assessment, { kind: 'complete' }>, sink: FrameSink): void {
    const { length } = a;
    this.flushGarbage(sink);
    if (a.expected !== a.actual) {
      this.reportBuffer(
        sink,
        { kind: 'checksum', expected: a.expected, actual: a.actual, address: undefined },
        length,
      );
      this.quiet = Math.max(this.quiet - 1, length - 1);
      this.shift(1);
      return;
    }
    const frame = this.buf.subarray(0, length);
    const bad = findParityError(frame, this.parity);
    if (bad !== undefined) {
      this.reportBuffer(sink, { kind: 'bad-field', field: 'parity', value: bad }, length);
    } else {
      const text = String.fromCharCode(...Array.from(frame, b => b & 0x7f));
      sink.frame(text, frame);
    }
    this.quiet = Math.max(0, this.quiet - length);
    this.shift(length);
  }

  private assessFixed(first: number): Assessment {
    const format = FORMAT[String.fromCharCode(first)] ?? '';
    const n = Math.min(this.len, format.length);
    for (let i = 1; i < n; i++)
      if (!fits(format[i] ?? '', (this.buf[i] ?? 0) & 0x7f)) return { kind: 'invalid' };
    if (this.len < format.length) return { kind: 'need-more' };
    return this.checksumOf(format.length);
  }

  /** `i` + hex digits + LF + 2 checksum digits; the checksum may or may not include the LF (UNVERIFIED). */
  private assessIdentify(): Assessment {
    let lf = -1;
    for (let i = 1; i < this.len; i++) {
      const c = (this.buf[i] ?? 0) & 0x7f;
      if (c === LF) {
        lf = i;
        break;
      }
      if (parseHexDigit(c) === undefined) return { kind: 'invalid' };
    }
    if (lf < 0) return this.len >= this.cap ? { kind: 'overflow' } : { kind: 'need-more' };
    const length = lf + 3;
    for (let i = lf + 1; i < Math.min(this.len, length); i++)
      if (!fits(i === lf + 1 ? 'C' : 'H', (this.buf[i] ?? 0) & 0x7f)) return { kind: 'invalid' };
    if (this.len < length) return this.len >= this.cap ? { kind: 'overflow' } : { kind: 'need-more' };
    const withLf = this.checksumOf(length);
    if (withLf.kind !== 'complete' || withLf.expected === withLf.actual) return withLf;
    const withoutLf = xorChecksum(this.buf, 0, lf);
    return withoutLf === withLf.actual ? { ...withLf, expected: withoutLf } : withLf;
  }

  /** Checksum of a complete candidate of `length` bytes whose last two are the hex checksum. */
  private checksumOf(length: number): Assessment {
    const hi = parseHexDigit((this.buf[length - 2] ?? 0) & 0x7f) ?? 0;
    const lo = parseHexDigit((this.buf[length - 1] ?? 0) & 0x7f) ?? 0;
    return { kind: 'complete', length, expected: xorChecksum(this.buf, 0, length - 2), actual: hi * 16 + lo };
  }

  private shift(n: number): void {
    this.buf.copyWithin(0, n, this.len);
    this.len -= n;
  }

  private discardGarbage(sink: FrameSink): void {
    const b = this.buf[0] ?? 0;
    this.shift(1);
    if (this.quiet > 0) {
      this.quiet--;
      return;
    }
    if (this.sampleLen < ERROR_SAMPLE_BYTES) this.sample[this.sampleLen++] = b;
    this.pendingCount++;
    if (this.pendingCount >= GARBAGE_RUN_REPORT) this.flushGarbage(sink);
  }

  private flushGarbage(sink: FrameSink): void {
    if (this.pendingCount === 0) return;
    sink.error({ kind: 'garbage' }, makeHex(this.sample.subarray(0, this.sampleLen)), this.pendingCount);
    this.sampleLen = 0;
    this.pendingCount = 0;
  }

  private reportBuffer(sink: FrameSink, reason: ProtocolErrorReason, length: number): void {
    sink.error(reason, makeHex(this.buf.subarray(0, Math.min(length, ERROR_SAMPLE_BYTES))), length);
  }
}
