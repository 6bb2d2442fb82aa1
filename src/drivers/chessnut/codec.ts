/**
 * The Chessnut decoder: one HID input report (or BLE notification) per push, observations out
 * (reference §3.2–§3.7, errata 5–7). The header is checked at offset 0 only, never searched for.
 * Reports may come with their report id (node-hid) or without it (WebHID: use `pushReport`, or
 * let 'auto' recognise a position that lacks it). With `joinFragments`, a position cut by a small
 * BLE MTU is joined when its rest follows at once and makes the exact declared length.
 *
 *   const decoder = new ChessnutDecoder({ orientation: 'normal' });
 *   device.on('data', (report: Uint8Array) => handle(decoder.push(report, performance.now())));
 *   decoder.expectVersion('mcu'); // after writing 27 01 01: the next unknown reply is the version
 */
import { EMPTY, orientSquare, type Orientation, type SquareContent } from '../observation.js';
import { makeProtocolError, type BoardObservation } from '../observationExtra.js';
import { parseMessage, parseVersionText, type ChessnutMessage } from './messages.js';
import {
  contentFromCode,
  FILE_END,
  FILE_START,
  MSG,
  NIBBLE_SQUARE,
  POSITION_BLE,
  POSITION_MIN_LENGTH,
  POSITION_USB,
  VENDOR,
} from './protocol.js';

export interface ChessnutDecoderOptions {
  readonly orientation?: Orientation;
  /**
   * 'auto' (default): a report starting with a position length byte (3D or 24) is a position
   * without its report id. 'included': the first byte is always the report id.
   */
  readonly reportId?: 'auto' | 'included';
  /** Require a report to hold the whole declared length (errata 5; default true). */
  readonly strictLength?: boolean;
  /** Join a position cut into two notifications (BLE with MTU 23); default false. */
  readonly joinFragments?: boolean;
  /** The rest of a cut position must arrive within this many ms (default 50). */
  readonly joinWindowMs?: number;
  /** Longest report accepted (default 512, the BLE MTU the vendor asks for). */
  readonly bufferCap?: number;
}

export const DEFAULT_REPORT_CAP = 512;
export const DEFAULT_JOIN_WINDOW_MS = 50;

/** The 64 squares of a position's nibble codes, orientation applied. */
export const parsePositionCodes = (codes: readonly number[], orientation: Orientation): SquareContent[] => {
  const out = new Array<SquareContent>(64).fill(EMPTY);
  codes.forEach((c, s) => {
    out[orientSquare(NIBBLE_SQUARE[s] ?? 0, orientation)] = contentFromCode(c);
  });
  return out;
};

/** The observations one message yields. */
export const observeMessage = (
  m: ChessnutMessage,
  at: number,
  orientation: Orientation,
): BoardObservation[] => {
  switch (m.kind) {
    case 'position':
      return [{ type: 'snapshot', at, squares: parsePositionCodes(m.codes, orientation) }];
    case 'battery':
      // Errata 7: ignore level 0. Charging if either reading says so; the percent is masked.
      if (m.level === 0) return [];
      return [
        {
          type: 'battery',
          at,
          percent: (m.level & 0x7f) <= 100 ? m.level & 0x7f : undefined,
          charging: (m.level & 0x80) !== 0 || m.status === 1,
          minutesLeft: undefined,
          raw: [m.level, m.status],
        },
      ];
    case 'ack':
      return [{ type: 'command-ack', at, command: 'unknown', ok: m.code === 0 }];
    case 'start-confirm':
      return [{ type: 'command-ack', at, command: 'start', ok: m.code === 0 }];
    case 'game-count':
      return [{ type: 'vendor-message', at, vendor: VENDOR, name: 'game-count', data: [m.count] }];
    case 'file-mark': {
      const name = m.mark === FILE_START ? 'file-start' : m.mark === FILE_END ? 'file-end' : 'file-mark';
      return [{ type: 'vendor-message', at, vendor: VENDOR, name, data: [m.mark] }];
    }
    case 'version':
      return [
        m.which === 'mcu'
          ? { type: 'identity', at, vendor: VENDOR, firmware: m.text }
          : { type: 'identity', at, vendor: VENDOR, hardware: m.text },
      ];
    case 'vendor':
      return [{ type: 'vendor-message', at, vendor: VENDOR, name: m.name, data: m.data }];
  }
};

const isPositionHeader = (b: number | undefined): boolean => b === POSITION_USB || b === POSITION_BLE;

export class ChessnutDecoder {
  orientation: Orientation;
  private readonly reportId: 'auto' | 'included';
  private readonly strictLength: boolean;
  private readonly join: boolean;
  private readonly window: number;
  readonly bufferCap: number;
  private held: Uint8Array | undefined;
  private heldAt = 0;
  private highWater = 0;
  private readonly versions: ('mcu' | 'ble')[] = [];

  constructor(options: ChessnutDecoderOptions = {}) {
    this.orientation = options.orientation ?? 'normal';
    this.reportId = options.reportId ?? 'auto';
    this.strictLength = options.strictLength ?? true;
    this.join = options.joinFragments ?? false;
    this.window = options.joinWindowMs ?? DEFAULT_JOIN_WINDOW_MS;
    this.bufferCap = options.bufferCap ?? DEFAULT_REPORT_CAP;
    if (!Number.isInteger(this.bufferCap) || this.bufferCap < 64)
      throw new TypeError(`bufferCap must be an integer >= 64, got ${this.bufferCap}`);
  }

  /** After sending a version query: the next reply of an unknown kind is read as its answer (as the SDK does). */
  expectVersion(which: 'mcu' | 'ble'): void {
    if (this.versions.length < 4) this.versions.push(which);
  }

  /** One report as delivered by node-hid (report id first) or a BLE notification. */
  push(report: Uint8Array, at: number): BoardObservation[] {
    const out: BoardObservation[] = [];
    if (this.held !== undefined) {
      const held = this.held;
      this.held = undefined;
      const total = held.length + report.length;
      const joined = new Uint8Array(total);
      joined.set(held);
      joined.set(report, held.length);
      if (at - this.heldAt <= this.window && total >= 2 && total === (joined[1] ?? 0) + 2) {
        this.note(total);
        return this.decode(joined, at);
      }
      out.push(makeProtocolError(at, { kind: 'incomplete', received: held.length }, held));
    }
    const full =
      this.reportId === 'auto' && isPositionHeader(report[0]) && report.length >= POSITION_MIN_LENGTH - 1
        ? Uint8Array.from([MSG.POSITION, ...report])
        : report;
    if (full.length > this.bufferCap) {
      out.push(
        makeProtocolError(
          at,
          { kind: 'overflow', id: full[0] ?? 0, declared: full.length, cap: this.bufferCap },
          full,
        ),
      );
      return out;
    }
    if (this.join && this.isCutPosition(full)) {
      this.held = full.slice();
      this.heldAt = at;
      this.note(full.length);
      return out;
    }
    this.note(full.length);
    for (const o of this.decode(full, at)) out.push(o);
    return out;
  }

  /** A report without its id (WebHID `inputreport`: reportId and data apart). */
  pushReport(reportId: number, data: Uint8Array, at: number): BoardObservation[] {
    const report = new Uint8Array(data.length + 1);
    report[0] = reportId;
    report.set(data, 1);
    return this.push(report, at);
  }

  /** Ends the stream: reports a cut position still waiting for its rest. */
  finish(at: number): BoardObservation[] {
    const held = this.held;
    this.held = undefined;
    return held === undefined
      ? []
      : [makeProtocolError(at, { kind: 'incomplete', received: held.length }, held)];
  }

  get bufferHighWater(): number {
    return this.highWater;
  }

  get buffered(): number {
    return this.held?.length ?? 0;
  }

  private note(n: number): void {
    if (n > this.highWater) this.highWater = n;
  }

  /** A position header (or a lone report-id byte 01) with fewer bytes than it declares. */
  private isCutPosition(r: Uint8Array): boolean {
    if (r[0] !== MSG.POSITION) return false;
    if (r.length === 1) return true;
    return isPositionHeader(r[1]) && r.length < (r[1] ?? 0) + 2;
  }

  private decode(report: Uint8Array, at: number): BoardObservation[] {
    const parsed = parseMessage(report, { strictLength: this.strictLength });
    if (parsed.isOk) {
      if (parsed.value.kind === 'version') this.versions.shift();
      return observeMessage(parsed.value, at, this.orientation);
    }
    const which = this.versions[0];
    if (which !== undefined && parsed.error.reason.kind === 'unknown-message') {
      this.versions.shift();
      return observeMessage({ kind: 'version', which, text: parseVersionText(report) }, at, this.orientation);
    }
    return [makeProtocolError(at, parsed.error.reason, report)];
  }
}
