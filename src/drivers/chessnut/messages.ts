/**
 * Chessnut messages (board → host, reference §3.4–§3.5) as values: `parseMessage` reads one HID
 * input report or BLE notification with the report id as its first byte, checking the header at
 * offset 0 only (errata 5: never search) and the declared length (byte 1 + 2, errata 6);
 * `makeMessage` writes one (the emulator's side).
 *
 *   parseMessage(Uint8Array.of(0x2a, 0x02, 0x55, 0x01)); // ok: { kind: 'battery', level: 0x55, status: 1 }
 *   makeMessage({ kind: 'ack', code: 0 }); // 23 01 00
 *   parseVersionText(reply); // ASCII from byte 3, as the vendor SDK reads it
 */
import { Result } from '@badrap/result';
import { ProtocolError } from '../observation.js';
import {
  MAX_PIECE_CODE,
  MSG,
  parsePositionBytes,
  makePositionBytes,
  POSITION_BYTES,
  POSITION_MIN_LENGTH,
  POSITION_USB,
} from './protocol.js';

export type ChessnutMessage =
  /** 64 piece codes in nibble order (board frame); `header` = byte 1 (0x3D USB, 0x24 BLE). */
  | {
      readonly kind: 'position';
      readonly header: number;
      readonly codes: readonly number[];
      readonly trailer: readonly number[];
    }
  /** `2A 02 LL SS` (vendor: LL bit 7 = charging; drivers: SS = 1 charging). */
  | { readonly kind: 'battery'; readonly level: number; readonly status: number }
  /** `23 01 cc`: 00 acknowledged / heartbeat, 01 not ready. */
  | { readonly kind: 'ack'; readonly code: number }
  /** `21 01 00` from the board: confirms the start command (BLE, ChessnutPy). */
  | { readonly kind: 'start-confirm'; readonly code: number }
  | { readonly kind: 'game-count'; readonly count: number }
  | { readonly kind: 'file-mark'; readonly mark: number }
  /** Version text; `which` from byte 2 (1 = MCU, 0 = BLE module). */
  | { readonly kind: 'version'; readonly which: 'mcu' | 'ble'; readonly text: string }
  /** Known but not modelled further: file size, file CRC, button, Chessnut Move replies. */
  | { readonly kind: 'vendor'; readonly id: number; readonly name: string; readonly data: readonly number[] };

const VENDOR_NAMES: ReadonlyMap<number, string> = new Map([
  [MSG.FILE_SIZE, 'file-size'],
  [MSG.FILE_CRC, 'file-crc'],
  [MSG.BUTTON, 'button'],
  [MSG.MOVE, 'move'],
]);

const KNOWN_IDS: ReadonlySet<number> = new Set([
  MSG.BATTERY,
  MSG.ACK,
  MSG.START_CONFIRM,
  MSG.GAME_COUNT,
  MSG.FILE_MARK,
  MSG.VERSION,
]);

export interface ParseMessageOptions {
  /**
   * Require the whole declared length (errata 5, default). When false a position needs only its
   * 34 bytes (§3.7 step 3: "do not insist on an exact report length").
   */
  readonly strictLength?: boolean;
}

const err = (
  reason: ConstructorParameters<typeof ProtocolError>[0],
): Result<ChessnutMessage, ProtocolError> => Result.err(new ProtocolError(reason));

/** ASCII text of bytes, stopping at the first NUL (reports are zero-padded). */
export const parseAsciiText = (bytes: Uint8Array): string => {
  const end = bytes.indexOf(0);
  return String.fromCharCode(...(end < 0 ? bytes : bytes.subarray(0, end))).trim();
};

/** A version reply read the vendor SDK's way: ASCII from byte 3 on. */
export const parseVersionText = (report: Uint8Array): string => parseAsciiText(report.subarray(3));

/** Reads one message (report id first). Bytes beyond the declared length are padding. */
export const parseMessage = (
  report: Uint8Array,
  options: ParseMessageOptions = {},
): Result<ChessnutMessage, ProtocolError> => {
  const id = report[0];
  const len = report[1];
  if (id === undefined || len === undefined) return err({ kind: 'incomplete', received: report.length });
  const declared = len + 2;
  const strict = options.strictLength ?? true;
  const fixed = (n: number): ProtocolError['reason'] | undefined =>
    len === n ? undefined : { kind: 'bad-length', id, declared, expected: String(n + 2) };
  if (id === MSG.POSITION) {
    if (declared < POSITION_MIN_LENGTH)
      return err({ kind: 'bad-length', id, declared, expected: `>= ${POSITION_MIN_LENGTH}` });
    const needed = strict ? declared : POSITION_MIN_LENGTH;
    if (report.length < needed) return err({ kind: 'incomplete', received: report.length });
    const codes = parsePositionBytes(report.subarray(2, 2 + POSITION_BYTES));
    const bad = codes.find(c => c > MAX_PIECE_CODE);
    if (bad !== undefined) return err({ kind: 'bad-field', field: 'piece', value: bad });
    const trailer = Array.from(report.subarray(POSITION_MIN_LENGTH, Math.min(declared, report.length)));
    return Result.ok({ kind: 'position', header: len, codes, trailer });
  }
  const name = VENDOR_NAMES.get(id);
  if (name === undefined && !KNOWN_IDS.has(id)) return err({ kind: 'unknown-message', id });
  if (report.length < declared) return err({ kind: 'incomplete', received: report.length });
  const body = report.subarray(2, declared);
  const b2 = body[0] ?? 0;
  const check = (n: number, value: ChessnutMessage): Result<ChessnutMessage, ProtocolError> => {
    const bad = fixed(n);
    return bad === undefined ? Result.ok(value) : err(bad);
  };
  switch (id) {
    case MSG.BATTERY:
      return check(2, { kind: 'battery', level: b2, status: body[1] ?? 0 });
    case MSG.ACK:
      return check(1, { kind: 'ack', code: b2 });
    case MSG.START_CONFIRM:
      return check(1, { kind: 'start-confirm', code: b2 });
    case MSG.GAME_COUNT:
      return check(1, { kind: 'game-count', count: b2 });
    case MSG.FILE_MARK:
      return check(1, { kind: 'file-mark', mark: b2 });
    case MSG.VERSION:
      if (len < 1) return err({ kind: 'bad-length', id, declared, expected: '>= 3' });
      return Result.ok({
        kind: 'version',
        which: b2 === 1 ? 'mcu' : 'ble',
        text: parseAsciiText(body.subarray(1)),
      });
  }
  return Result.ok({ kind: 'vendor', id, name: name ?? 'unknown', data: Array.from(body) });
};

/** Trailer of a USB position report: 61 − 32 bytes of unknown meaning, zero here. */
export const USB_TRAILER_LENGTH = POSITION_USB - POSITION_BYTES;

/** Encodes a message as the board sends it (no padding). */
export const makeMessage = (m: ChessnutMessage): Uint8Array => {
  switch (m.kind) {
    case 'position':
      return Uint8Array.from([
        MSG.POSITION,
        POSITION_BYTES + m.trailer.length,
        ...makePositionBytes(m.codes),
        ...m.trailer,
      ]);
    case 'battery':
      return Uint8Array.of(MSG.BATTERY, 2, m.level, m.status);
    case 'ack':
      return Uint8Array.of(MSG.ACK, 1, m.code);
    case 'start-confirm':
      return Uint8Array.of(MSG.START_CONFIRM, 1, m.code);
    case 'game-count':
      return Uint8Array.of(MSG.GAME_COUNT, 1, m.count);
    case 'file-mark':
      return Uint8Array.of(MSG.FILE_MARK, 1, m.mark);
    case 'version': {
      const text = Array.from(m.text, c => c.charCodeAt(0) & 0x7f);
      return Uint8Array.from([MSG.VERSION, 1 + text.length, m.which === 'mcu' ? 1 : 0, ...text]);
    }
    case 'vendor':
      return Uint8Array.from([m.id, m.data.length, ...m.data]);
  }
};
