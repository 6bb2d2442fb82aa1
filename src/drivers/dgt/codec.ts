/**
 * The single-board DGT decoder: bytes in, observations out. Chunk-fed and incremental, with a
 * hard cap on buffered bytes; it never throws, reports every discarded byte as a protocol-error
 * observation, and resynchronises on the next byte with bit 7 set (reference §2). The output for
 * a byte stream does not depend on how the stream was cut into chunks (only `at` does).
 *
 *   const decoder = new DgtDecoder({ orientation: 'normal' });
 *   for (const obs of decoder.push(chunk, performance.now())) handle(obs);
 *   decoder.orientation = 'rotated'; // after detecting a rotated start position
 */
import type { Observation, Orientation } from '../observation.js';
import { DEFAULT_BUFFER_CAP, MSG, UNSUPPORTED } from './constants.js';
import { DgtFramer, type FrameSink, type LengthVerdict } from './framing.js';
import { checkLength, parseMessage } from './messages.js';
import { frameError, observeMessage } from './observe.js';

export interface DgtDecoderOptions {
  /** How the board stands; default 'normal'. Can be changed later (e.g. after detection). */
  readonly orientation?: Orientation;
  /** Hard cap on buffered message bytes; longer messages are skipped (default 16384). */
  readonly bufferCap?: number;
}

const KNOWN_IDS: ReadonlySet<number> = new Set([
  MSG.BOARD_DUMP,
  MSG.BWTIME,
  MSG.FIELD_UPDATE,
  MSG.EE_MOVES,
  MSG.BUSADRES,
  MSG.SERIALNR,
  MSG.TRADEMARK,
  MSG.VERSION,
  MSG.HARDWARE_VERSION,
  MSG.BATTERY_STATUS,
  MSG.LONG_SERIALNR,
]);

/** Single-board length rules: known ids must declare a plausible length; others are skipped. */
export const singleLengthPolicy = (id: number, declared: number): LengthVerdict => {
  const name = UNSUPPORTED.get(id);
  if (name !== undefined) return { skip: { kind: 'unsupported-message', id, name } };
  if (!KNOWN_IDS.has(id)) return { skip: { kind: 'unknown-message', id } };
  const expected = checkLength(id, declared);
  return expected === undefined ? 'accept' : { skip: { kind: 'bad-length', id, declared, expected } };
};

export class DgtDecoder {
  orientation: Orientation;
  private readonly framer: DgtFramer;
  private out: Observation[] = [];
  private at = 0;
  private readonly sink: FrameSink = {
    frame: frame => {
      const ctx = { at: this.at, orientation: this.orientation, frame };
      const parsed = parseMessage(frame);
      if (parsed.isOk) for (const o of observeMessage(parsed.value, ctx)) this.out.push(o);
      else this.out.push(frameError(parsed.error.reason, ctx));
    },
    error: (reason, hex, count) => {
      this.out.push({ type: 'protocol-error', at: this.at, reason, hex, count });
    },
  };

  constructor(options: DgtDecoderOptions = {}) {
    this.orientation = options.orientation ?? 'normal';
    this.framer = new DgtFramer(options.bufferCap ?? DEFAULT_BUFFER_CAP, singleLengthPolicy);
  }

  /** Feeds bytes received at `at` (ms); returns the observations they complete. */
  push(chunk: Uint8Array, at: number): Observation[] {
    this.at = at;
    this.out = [];
    this.framer.push(chunk, this.sink);
    return this.out;
  }

  /** Ends the stream: reports a message left incomplete or trailing garbage. */
  finish(at: number): Observation[] {
    this.at = at;
    this.out = [];
    this.framer.finish(this.sink);
    return this.out;
  }

  /** The most bytes ever buffered (bounded by the cap). */
  get bufferHighWater(): number {
    return this.framer.bufferHighWater;
  }

  /** Bytes buffered right now. */
  get buffered(): number {
    return this.framer.buffered;
  }

  get bufferCap(): number {
    return this.framer.cap;
  }
}
