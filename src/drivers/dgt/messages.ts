/**
 * Board-to-host DGT messages as values (reference §3.2), in the board's own frame and lossless:
 * field numbers, raw piece codes, the raw clock payload. `parseMessage` reads one complete
 * single-board frame; `makeMessage` writes one (the emulator's side, and round-trip tests).
 * Interpretation (orientation, piece identity, clock meaning) happens in observe.ts.
 *
 *   const r = parseMessage(Uint8Array.of(0x8e, 0x00, 0x05, 0x34, 0x00));
 *   if (r.isOk) r.value; // { kind: 'field-update', field: 52, code: 0 }
 *   makeMessage({ kind: 'version', major: 3, minor: 10 }); // 93 00 05 03 0A
 */
import { Result } from '@badrap/result';
import { ProtocolError } from '../observation.js';
import {
  FIXED_LENGTH,
  HEADER_LENGTH,
  LENGTH_RANGE,
  MAX_MESSAGE_LENGTH,
  MSG,
  UNSUPPORTED,
} from './constants.js';
import { makeLogRecords, parseLogRecords, type DgtLogRecord } from './eeprom.js';

/** Messages of both modes (the BusOnlyKind variants arise only in bus mode). */
export type DgtMessage =
  /** 64 piece codes, field 0 (a8 in the normal orientation) first. */
  | { readonly kind: 'board-dump'; readonly codes: readonly number[] }
  | { readonly kind: 'field-update'; readonly field: number; readonly code: number }
  /** The 7-byte BWTIME payload (clock.ts decodes it). */
  | { readonly kind: 'clock'; readonly payload: readonly number[] }
  | { readonly kind: 'serial'; readonly text: string }
  | { readonly kind: 'long-serial'; readonly text: string }
  | { readonly kind: 'trademark'; readonly text: string }
  | { readonly kind: 'version'; readonly major: number; readonly minor: number }
  | { readonly kind: 'hardware-version'; readonly major: number; readonly minor: number }
  | { readonly kind: 'bus-address'; readonly address: number }
  | { readonly kind: 'battery'; readonly bytes: readonly number[] }
  | { readonly kind: 'log'; readonly records: readonly DgtLogRecord[] }
  | { readonly kind: 'bus-update'; readonly records: readonly DgtLogRecord[]; readonly even: boolean }
  | { readonly kind: 'bus-from-start'; readonly records: readonly DgtLogRecord[] }
  | { readonly kind: 'bus-ping' }
  | { readonly kind: 'bus-start-game-written' }
  /** Bus version reply; firmware up to 1.2 sends it without data. */
  | {
      readonly kind: 'bus-version';
      readonly version: { readonly major: number; readonly minor: number } | undefined;
    };

/** The kinds only bus mode produces. */
export type BusOnlyKind =
  'bus-update' | 'bus-from-start' | 'bus-ping' | 'bus-start-game-written' | 'bus-version';

/** Messages a board sends in single-board mode. */
export type SingleMessage = Exclude<DgtMessage, { kind: BusOnlyKind }>;

/** Reads 7-bit ASCII. */
export const parseAscii = (bytes: Uint8Array | readonly number[]): string =>
  String.fromCharCode(...Array.from(bytes, b => b & 0x7f));

/** Writes 7-bit ASCII (characters outside it become '?'). */
export const makeAscii = (text: string): number[] =>
  Array.from(text, c => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? code : 0x3f;
  });

/** Wraps a payload in the 3-byte header (id, size-hi, size-lo). */
export const makeFrame = (id: number, payload: readonly number[] | Uint8Array): Uint8Array => {
  const total = payload.length + HEADER_LENGTH;
  if (total > MAX_MESSAGE_LENGTH) throw new TypeError(`message too long: ${total} > ${MAX_MESSAGE_LENGTH}`);
  const out = new Uint8Array(total);
  out[0] = id | 0x80;
  out[1] = (total >> 7) & 0x7f;
  out[2] = total & 0x7f;
  out.set(
    Array.from(payload, b => b & 0x7f),
    HEADER_LENGTH,
  );
  return out;
};

/** Whether a single-board message of this id may declare this total length (§3.2). */
export const checkLength = (id: number, declared: number): string | undefined => {
  const fixed = FIXED_LENGTH.get(id);
  if (fixed !== undefined) return declared === fixed ? undefined : String(fixed);
  const range = LENGTH_RANGE.get(id);
  if (range !== undefined)
    return declared >= range[0] && declared <= range[1] ? undefined : `${range[0]}..${range[1]}`;
  return undefined;
};

/** Parses the payload of a single-board message with id `id` (the framer already checked the length). */
export const parsePayload = (id: number, p: Uint8Array): Result<SingleMessage, ProtocolError> => {
  switch (id) {
    case MSG.BOARD_DUMP:
      return Result.ok({ kind: 'board-dump', codes: Array.from(p) });
    case MSG.FIELD_UPDATE:
      return Result.ok({ kind: 'field-update', field: p[0] ?? 0, code: p[1] ?? 0 });
    case MSG.BWTIME:
      return Result.ok({ kind: 'clock', payload: Array.from(p) });
    case MSG.SERIALNR:
      return Result.ok({ kind: 'serial', text: parseAscii(p) });
    case MSG.LONG_SERIALNR:
      return Result.ok({ kind: 'long-serial', text: parseAscii(p) });
    case MSG.TRADEMARK:
      return Result.ok({ kind: 'trademark', text: parseAscii(p) });
    case MSG.VERSION:
      return Result.ok({ kind: 'version', major: p[0] ?? 0, minor: p[1] ?? 0 });
    case MSG.HARDWARE_VERSION:
      return Result.ok({ kind: 'hardware-version', major: p[0] ?? 0, minor: p[1] ?? 0 });
    case MSG.BUSADRES:
      return Result.ok({ kind: 'bus-address', address: ((p[0] ?? 0) << 7) | (p[1] ?? 0) });
    case MSG.BATTERY_STATUS:
      return Result.ok({ kind: 'battery', bytes: Array.from(p) });
    case MSG.EE_MOVES:
      return Result.ok({ kind: 'log', records: parseLogRecords(p) });
  }
  const name = UNSUPPORTED.get(id);
  return Result.err(
    new ProtocolError(
      name !== undefined ? { kind: 'unsupported-message', id, name } : { kind: 'unknown-message', id },
    ),
  );
};

/** Parses one complete single-board frame (header included). */
export const parseMessage = (frame: Uint8Array): Result<SingleMessage, ProtocolError> => {
  const id = frame[0] ?? 0;
  const declared = ((frame[1] ?? 0) << 7) | (frame[2] ?? 0);
  const expected = declared === frame.length ? checkLength(id, declared) : String(frame.length);
  if (expected !== undefined || declared < HEADER_LENGTH) {
    return Result.err(new ProtocolError({ kind: 'bad-length', id, declared, expected: expected ?? '>= 3' }));
  }
  return parsePayload(id, frame.subarray(HEADER_LENGTH));
};

export const versionBytes = (v: { readonly major: number; readonly minor: number }): number[] => [
  v.major,
  v.minor,
];

/** The id and payload of a single-board message. */
export const makePayload = (
  m: SingleMessage,
): { readonly id: number; readonly payload: readonly number[] } => {
  switch (m.kind) {
    case 'board-dump':
      return { id: MSG.BOARD_DUMP, payload: m.codes };
    case 'field-update':
      return { id: MSG.FIELD_UPDATE, payload: [m.field, m.code] };
    case 'clock':
      return { id: MSG.BWTIME, payload: m.payload };
    case 'serial':
      return { id: MSG.SERIALNR, payload: makeAscii(m.text) };
    case 'long-serial':
      return { id: MSG.LONG_SERIALNR, payload: makeAscii(m.text) };
    case 'trademark':
      return { id: MSG.TRADEMARK, payload: makeAscii(m.text) };
    case 'version':
      return { id: MSG.VERSION, payload: versionBytes(m) };
    case 'hardware-version':
      return { id: MSG.HARDWARE_VERSION, payload: versionBytes(m) };
    case 'bus-address':
      return { id: MSG.BUSADRES, payload: [(m.address >> 7) & 0x7f, m.address & 0x7f] };
    case 'battery':
      return { id: MSG.BATTERY_STATUS, payload: m.bytes };
    case 'log':
      return { id: MSG.EE_MOVES, payload: Array.from(makeLogRecords(m.records)) };
  }
};

/** Encodes a single-board message as the board sends it. */
export const makeMessage = (m: SingleMessage): Uint8Array => {
  const { id, payload } = makePayload(m);
  return makeFrame(id, payload);
};
