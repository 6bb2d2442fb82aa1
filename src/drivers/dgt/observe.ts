/**
 * Interprets DGT messages as observations: field numbers become game squares for the board's
 * orientation, piece codes become pieces, clock payloads become clock readings or acks, and
 * identification replies become identity. Reserved bits and impossible values are reported as
 * protocol-error observations carrying the frame's bytes.
 *
 *   const ctx = { at: 1200, orientation: 'normal' as const, frame };
 *   observeMessage({ kind: 'field-update', field: 36, code: 1 }, ctx);
 *   // [{ type: 'square', at: 1200, square: 28 (e4), content: white pawn }]
 */
import type { Observation, Orientation, ProtocolErrorReason, SquareContent } from '../observation.js';
import { EMPTY, makeHex } from '../observation.js';
import { clockFaceFromDgt, describeClockAck, parseClockPayload, STATUS, ACK_OK } from './clock.js';
import { fieldToSquare, pieceFromCode } from './constants.js';
import type { DgtLogRecord } from './eeprom.js';
import type { DgtMessage } from './messages.js';
import { ERROR_SAMPLE_BYTES } from './framing.js';
import type { LogRecord } from '../observation.js';

export interface ObserveContext {
  readonly at: number;
  readonly orientation: Orientation;
  /** The complete frame, quoted by protocol errors. */
  readonly frame: Uint8Array;
}

export const VENDOR = 'DGT';

/** A protocol error about a whole frame. */
export const frameError = (reason: ProtocolErrorReason, ctx: ObserveContext): Observation => ({
  type: 'protocol-error',
  at: ctx.at,
  reason,
  hex: makeHex(ctx.frame.subarray(0, ERROR_SAMPLE_BYTES)),
  count: ctx.frame.length,
});

/** Piece codes use the low nibble; bits 4–6 are reserved (the undocumented "S bit", §3.3). */
const RESERVED_CODE_BITS = 0x70;

const logRecord = (r: DgtLogRecord, orientation: Orientation): LogRecord => {
  switch (r.kind) {
    case 'piece':
      return {
        kind: 'piece',
        square: fieldToSquare(r.field, orientation),
        content: pieceFromCode(r.code),
        quick: r.quick,
      };
    case 'time':
      return { kind: 'time', side: r.side, ms: ((r.hours * 60 + r.minutes) * 60 + r.seconds) * 1000 };
    case 'tag':
    case 'unknown':
      return r;
  }
};

const versionText = (major: number, minor: number): string => `${major}.${String(minor).padStart(2, '0')}`;

/** Serial numbers: v1.03 boards append " 1.0" (a storage version) to the 5 digits (§1.3). */
const serialText = (text: string): string => text.trim().split(/\s+/)[0] ?? '';

const observeClock = (payload: readonly number[], ctx: ObserveContext): Observation[] => {
  const decoded = parseClockPayload(Uint8Array.from(payload));
  const { at } = ctx;
  switch (decoded.kind) {
    case 'empty':
      return [{ type: 'clock-ack', at, ack: [0, 0, 0, 0], ok: false, event: { kind: 'empty' } }];
    case 'ack':
      return [
        {
          type: 'clock-ack',
          at,
          ack: decoded.ack,
          ok: decoded.ack[0] === ACK_OK,
          event: describeClockAck(decoded.ack),
        },
      ];
    case 'invalid':
      return [frameError({ kind: 'bad-field', field: decoded.field, value: decoded.value }, ctx)];
    case 'times': {
      const { left, right, status } = decoded.times;
      const out: Observation[] = [];
      if (status & STATUS.RESERVED)
        out.push(frameError({ kind: 'reserved-bits', field: 'clock-status', value: status }, ctx));
      // D1 = 1: the right lever is up and the right clock runs (§6.2; captures confirm the pairing).
      const lever = status & STATUS.RIGHT_HIGH ? 'right' : 'left';
      out.push({
        type: 'clock',
        at,
        connected: (status & STATUS.NO_CLOCK) === 0,
        left: clockFaceFromDgt(left),
        right: clockFaceFromDgt(right),
        running: status & STATUS.RUNNING ? lever : undefined,
        lever,
        batteryLow: (status & STATUS.BATTERY_LOW) !== 0,
        status,
      });
      return out;
    }
  }
};

const observeDump = (codes: readonly number[], ctx: ObserveContext): Observation[] => {
  const squares: SquareContent[] = new Array<SquareContent>(64).fill(EMPTY);
  let reserved: number | undefined;
  codes.forEach((code, field) => {
    if (field < 64) squares[fieldToSquare(field, ctx.orientation)] = pieceFromCode(code);
    if (code & RESERVED_CODE_BITS) reserved ??= code;
  });
  const out: Observation[] = [];
  if (reserved !== undefined)
    out.push(frameError({ kind: 'reserved-bits', field: 'piece', value: reserved }, ctx));
  out.push({ type: 'snapshot', at: ctx.at, squares });
  return out;
};

/** The observations one message yields. */
export const observeMessage = (m: DgtMessage, ctx: ObserveContext): Observation[] => {
  const { at, orientation } = ctx;
  switch (m.kind) {
    case 'board-dump':
      return observeDump(m.codes, ctx);
    case 'field-update': {
      if (m.field > 63) return [frameError({ kind: 'bad-field', field: 'field', value: m.field }, ctx)];
      const obs: Observation = {
        type: 'square',
        at,
        square: fieldToSquare(m.field, orientation),
        content: pieceFromCode(m.code),
      };
      return m.code & RESERVED_CODE_BITS
        ? [frameError({ kind: 'reserved-bits', field: 'piece', value: m.code }, ctx), obs]
        : [obs];
    }
    case 'clock':
      return observeClock(m.payload, ctx);
    case 'serial':
      return [{ type: 'identity', at, vendor: VENDOR, serial: serialText(m.text) }];
    case 'long-serial':
      return [{ type: 'identity', at, vendor: VENDOR, longSerial: m.text.trim() }];
    case 'trademark':
      return [{ type: 'identity', at, vendor: VENDOR, trademark: m.text }];
    case 'version':
      return [{ type: 'identity', at, vendor: VENDOR, firmware: versionText(m.major, m.minor) }];
    case 'hardware-version':
      return [{ type: 'identity', at, vendor: VENDOR, hardware: versionText(m.major, m.minor) }];
    case 'bus-address':
      return [{ type: 'identity', at, vendor: VENDOR, busAddress: m.address }];
    case 'battery': {
      const [percent, hours, minutes] = m.bytes;
      const status = m.bytes[8];
      const known = (x: number | undefined): x is number => x !== undefined && x !== 0x7f;
      return [
        {
          type: 'battery',
          at,
          percent: percent !== undefined && percent <= 100 ? percent : undefined,
          charging: status === undefined ? undefined : (status & 0x01) !== 0,
          minutesLeft: known(hours) && known(minutes) ? hours * 60 + minutes : undefined,
          raw: m.bytes,
        },
      ];
    }
    case 'log':
      return [
        { type: 'eeprom-log', at, source: 'dump', records: m.records.map(r => logRecord(r, orientation)) },
      ];
    case 'bus-from-start':
      return [
        {
          type: 'eeprom-log',
          at,
          source: 'bus-from-start',
          records: m.records.map(r => logRecord(r, orientation)),
        },
      ];
    case 'bus-update': {
      // Piece records are live changes: one square observation each. Anything else (time
      // records, tags) goes into one log observation so nothing is lost or reported twice.
      const out: Observation[] = [];
      const rest: LogRecord[] = [];
      for (const r of m.records) {
        const rec = logRecord(r, orientation);
        if (rec.kind === 'piece') out.push({ type: 'square', at, square: rec.square, content: rec.content });
        else rest.push(rec);
      }
      if (rest.length > 0) out.push({ type: 'eeprom-log', at, source: 'bus-update', records: rest });
      return out;
    }
    case 'bus-ping':
      return [{ type: 'bus-reply', at, reply: 'ping' }];
    case 'bus-start-game-written':
      return [{ type: 'bus-reply', at, reply: 'start-game-written' }];
    case 'bus-version':
      return [
        m.version === undefined
          ? { type: 'identity', at, vendor: VENDOR }
          : { type: 'identity', at, vendor: VENDOR, firmware: versionText(m.version.major, m.version.minor) },
      ];
  }
};
