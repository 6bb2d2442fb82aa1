/**
 * The Millennium ChessLink decoder: bytes in, observations out (reference §1). Chunk-fed and
 * incremental with a bounded buffer; it never throws, reports discarded bytes as protocol-error
 * observations, and resynchronises by hunting for the next reply letter whose checksum holds.
 * The output for a byte stream does not depend on how it was cut into chunks (only `at` does).
 *
 *   const decoder = new MillenniumDecoder({ orientation: 'normal', parity: 'auto' });
 *   for (const obs of decoder.push(chunk, performance.now())) handle(obs);
 *   decoder.orientation = 'rotated'; // orientation B, after detecting it from the start position
 */
import type { Orientation, SquareContent } from '../observation.js';
import { EMPTY, orientSquare } from '../observation.js';
import { makeProtocolError, type BoardObservation } from '../observationExtra.js';
import { DEFAULT_BUFFER_CAP, MillenniumFramer, type FrameSink, type ParityMode } from './framing.js';
import { parseReply, type MillenniumReply } from './messages.js';
import { contentFromLetter, makeHexByte, modelFromVersion, STATUS_CHAR_SQUARE, VENDOR } from './protocol.js';

export interface MillenniumDecoderOptions {
  /** 'normal' = orientation A (h1 first, the default of every driver), 'rotated' = B (a8 first). */
  readonly orientation?: Orientation;
  /** How bit 7 is read (see ParityMode); default 'auto'. */
  readonly parity?: ParityMode;
  /** Hard cap on buffered bytes (at least 67; default 256). */
  readonly bufferCap?: number;
}

/** The 64 squares of a status board string, orientation applied. */
export const parseStatusBoard = (board: string, orientation: Orientation): SquareContent[] => {
  const squares = new Array<SquareContent>(64).fill(EMPTY);
  for (let i = 0; i < 64; i++)
    squares[orientSquare(STATUS_CHAR_SQUARE[i] ?? 0, orientation)] = contentFromLetter(board[i] ?? '.');
  return squares;
};

/** The observations one reply yields. */
export const observeReply = (
  r: MillenniumReply,
  at: number,
  orientation: Orientation,
): BoardObservation[] => {
  switch (r.kind) {
    case 'status':
      return [{ type: 'snapshot', at, squares: parseStatusBoard(r.board, orientation) }];
    case 'version':
      return [
        {
          type: 'identity',
          at,
          vendor: VENDOR,
          model: modelFromVersion(r.major, r.minor),
          firmware: `${makeHexByte(r.major)}.${makeHexByte(r.minor)}`,
        },
      ];
    case 'leds-ack':
      return [{ type: 'command-ack', at, command: 'leds', ok: true }];
    case 'leds-off-ack':
      return [{ type: 'command-ack', at, command: 'leds-off', ok: true }];
    case 'register-written':
    case 'register':
      return [
        { type: 'register', at, address: r.address, value: r.value, written: r.kind === 'register-written' },
      ];
    case 'identify':
      return [
        {
          type: 'vendor-message',
          at,
          vendor: VENDOR,
          name: 'identify',
          data: Array.from(r.text, c => c.charCodeAt(0)),
        },
      ];
  }
};

export class MillenniumDecoder {
  orientation: Orientation;
  private readonly framer: MillenniumFramer;
  private out: BoardObservation[] = [];
  private at = 0;
  private readonly sink: FrameSink = {
    frame: (text, bytes) => {
      const r = parseReply(text);
      if (r.isOk) for (const o of observeReply(r.value, this.at, this.orientation)) this.out.push(o);
      else this.out.push(makeProtocolError(this.at, r.error.reason, bytes));
    },
    error: (reason, hex, count) => {
      this.out.push({ type: 'protocol-error', at: this.at, reason, hex, count });
    },
  };

  constructor(options: MillenniumDecoderOptions = {}) {
    this.orientation = options.orientation ?? 'normal';
    this.framer = new MillenniumFramer(options.bufferCap ?? DEFAULT_BUFFER_CAP, options.parity ?? 'auto');
  }

  /** Feeds bytes received at `at` (ms); returns the observations they complete. */
  push(chunk: Uint8Array, at: number): BoardObservation[] {
    this.at = at;
    this.out = [];
    this.framer.push(chunk, this.sink);
    return this.out;
  }

  /** Ends the stream: reports a reply left incomplete and trailing garbage. */
  finish(at: number): BoardObservation[] {
    this.at = at;
    this.out = [];
    this.framer.finish(this.sink);
    return this.out;
  }

  get parity(): ParityMode {
    return this.framer.parity;
  }

  get bufferHighWater(): number {
    return this.framer.bufferHighWater;
  }

  get buffered(): number {
    return this.framer.buffered;
  }

  get bufferCap(): number {
    return this.framer.cap;
  }
}
