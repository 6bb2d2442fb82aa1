/**
 * The Certabo / TabuTronic decoder: bytes (or lines from a readline parser) in, observations out
 * (reference §2.3–§2.5, errata 1–3). RFID frames are mapped through a calibration, unknown tags
 * count as empty, and each square is voted over the last 3 frames with the newest frame winning a
 * tie; without a calibration only raw `rfid-scan` observations come out (to calibrate from).
 * Occupancy frames (Sentio, Tactum) give occupied / empty squares. Never throws; bounded buffer.
 *
 *   const decoder = new CertaboDecoder({ calibration, orientation: 'normal' });
 *   for (const obs of decoder.push(chunk, performance.now())) handle(obs);
 *   decoder.pushLine(':255 255 0 0 0 0 255 255', now); // a line from @serialport/parser-readline
 */
import type { Square } from 'chessops';
import { EMPTY, OCCUPIED, orientSquare, type Orientation, type SquareContent } from '../observation.js';
import { latin1Text, makeProtocolError, pieceLetterOf, type BoardObservation } from '../observationExtra.js';
import { isKnownTag, lookupTag, type Calibration } from './calibration.js';
import { parseLine, type CertaboFrame } from './frames.js';
import { CertaboLineSplitter, type LineSink } from './lines.js';
import { DEFAULT_BUFFER_CAP, FRAME_SQUARE, occupancyByteBit, type RfidTag } from './protocol.js';

export interface CertaboDecoderOptions {
  readonly orientation?: Orientation;
  /** Tag → piece table; without it RFID frames only yield `rfid-scan` observations. */
  readonly calibration?: Calibration;
  /** Frames voted over per square (errata 2: 3; 1 turns voting off). */
  readonly voteFrames?: number;
  /** Also emit `rfid-scan` when calibrated (always emitted without a calibration). */
  readonly emitScans?: boolean;
  /** Hard cap on buffered bytes (default 4096, at least one RFID line). */
  readonly bufferCap?: number;
}

export const DEFAULT_VOTE_FRAMES = 3;

/** The tags of an RFID frame by game square. */
export const orientTags = (
  tags: readonly (RfidTag | null)[],
  orientation: Orientation,
): (RfidTag | null)[] => {
  const out = new Array<RfidTag | null>(64).fill(null);
  tags.forEach((t, i) => {
    out[orientSquare(FRAME_SQUARE[i] ?? 0, orientation)] = t;
  });
  return out;
};

/** The squares of an occupancy frame by game square. */
export const parseOccupancy = (ranks: readonly number[], orientation: Orientation): SquareContent[] => {
  const out = new Array<SquareContent>(64).fill(EMPTY);
  for (let board = 0; board < 64; board++) {
    const { byte, bit } = occupancyByteBit(board);
    if (((ranks[byte] ?? 0) >> bit) & 1) out[orientSquare(board, orientation)] = OCCUPIED;
  }
  return out;
};

const keyOf = (c: SquareContent): string => pieceLetterOf(c) ?? '.';

/** Per square, the content seen most often in `boards` (oldest first); ties go to the newest. */
export const voteSquares = (boards: readonly (readonly SquareContent[])[]): SquareContent[] => {
  const keys = boards.map(b => {
    const row = new Array<string>(64);
    for (let sq = 0; sq < 64; sq++) row[sq] = keyOf(b[sq] ?? EMPTY);
    return row;
  });
  const out = new Array<SquareContent>(64);
  for (let sq = 0; sq < 64; sq++) {
    let best: SquareContent = EMPTY;
    let bestCount = 0;
    for (let i = boards.length - 1; i >= 0; i--) {
      const key = keys[i]?.[sq];
      let count = 0;
      for (const row of keys) if (row[sq] === key) count++;
      if (count > bestCount) {
        best = boards[i]?.[sq] ?? EMPTY;
        bestCount = count;
      }
    }
    out[sq] = best;
  }
  return out;
};

export class CertaboDecoder {
  private orient: Orientation;
  private cal: Calibration | undefined;
  private readonly votes: number;
  private readonly emitScans: boolean;
  private readonly splitter: CertaboLineSplitter;
  private history: SquareContent[][] = [];
  private lastUnknown = '[]';
  private out: BoardObservation[] = [];
  private at = 0;
  private readonly sink: LineSink = {
    line: bytes => this.line(latin1Text(bytes), bytes),
    error: (reason, hex, count) => {
      this.out.push({ type: 'protocol-error', at: this.at, reason, hex, count });
    },
  };

  constructor(options: CertaboDecoderOptions = {}) {
    this.orient = options.orientation ?? 'normal';
    this.cal = options.calibration;
    this.votes = options.voteFrames ?? DEFAULT_VOTE_FRAMES;
    if (!Number.isInteger(this.votes) || this.votes < 1)
      throw new TypeError(`voteFrames must be a positive integer, got ${this.votes}`);
    this.emitScans = options.emitScans ?? false;
    this.splitter = new CertaboLineSplitter(options.bufferCap ?? DEFAULT_BUFFER_CAP);
  }

  get orientation(): Orientation {
    return this.orient;
  }

  /** Changing the orientation restarts the vote. */
  set orientation(o: Orientation) {
    this.orient = o;
    this.history = [];
  }

  get calibration(): Calibration | undefined {
    return this.cal;
  }

  /** Changing the calibration restarts the vote. */
  set calibration(c: Calibration | undefined) {
    this.cal = c;
    this.history = [];
    this.lastUnknown = '[]';
  }

  /** Feeds raw bytes received at `at`; returns the observations completed lines yield. */
  push(chunk: Uint8Array, at: number): BoardObservation[] {
    this.at = at;
    this.out = [];
    this.splitter.push(chunk, this.sink);
    return this.out;
  }

  /** Feeds one line already split by the transport (LF removed; CR and spaces are trimmed here). */
  pushLine(line: string, at: number): BoardObservation[] {
    this.at = at;
    this.out = [];
    this.line(
      line,
      Uint8Array.from(line, c => c.charCodeAt(0) & 0xff),
    );
    return this.out;
  }

  /** Ends the stream: reports a line left without its LF. */
  finish(at: number): BoardObservation[] {
    this.at = at;
    this.out = [];
    this.splitter.finish(this.sink);
    return this.out;
  }

  get bufferHighWater(): number {
    return this.splitter.bufferHighWater;
  }

  get buffered(): number {
    return this.splitter.buffered;
  }

  get bufferCap(): number {
    return this.splitter.cap;
  }

  private line(text: string, bytes: Uint8Array): void {
    for (const item of parseLine(text)) {
      switch (item.kind) {
        case 'ack':
          this.out.push({
            type: 'command-ack',
            at: this.at,
            command: item.letter === 'L' ? 'leds' : 'leds-rgb',
            ok: true,
          });
          break;
        case 'junk':
          this.out.push(
            makeProtocolError(
              this.at,
              { kind: 'garbage' },
              Uint8Array.from(item.text, c => c.charCodeAt(0)),
            ),
          );
          break;
        case 'error':
          this.out.push(makeProtocolError(this.at, item.reason, bytes));
          break;
        case 'rfid':
        case 'occupancy':
          this.frame(item);
          break;
      }
    }
  }

  private frame(f: CertaboFrame): void {
    const at = this.at;
    switch (f.kind) {
      case 'occupancy':
        this.out.push({ type: 'snapshot', at, squares: parseOccupancy(f.ranks, this.orient) });
        return;
      case 'rfid': {
        const tags = orientTags(f.tags, this.orient);
        const cal = this.cal;
        if (cal === undefined || this.emitScans) this.out.push({ type: 'rfid-scan', at, tags });
        if (cal === undefined) return;
        this.reportUnknown(cal, tags);
        this.history.push(tags.map(t => lookupTag(cal, t)));
        if (this.history.length > this.votes) this.history.shift();
        this.out.push({ type: 'snapshot', at, squares: voteSquares(this.history) });
        return;
      }
    }
  }

  /** Reports unknown tags when the set changes (errata 2: counted as empty, never flagged). */
  private reportUnknown(cal: Calibration, tags: readonly (RfidTag | null)[]): void {
    const unknown: { square: Square; tag: RfidTag }[] = [];
    tags.forEach((tag, square) => {
      if (tag !== null && !isKnownTag(cal, tag)) unknown.push({ square, tag });
    });
    const key = JSON.stringify(unknown);
    if (key === this.lastUnknown) return;
    this.lastUnknown = key;
    this.out.push({ type: 'rfid-unknown', at: this.at, tags: unknown });
  }
}
