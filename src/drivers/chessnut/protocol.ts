/**
 * Chessnut basics (reference §3.1–§3.6): USB ids and models, message and command ids, piece
 * codes, the position layout (h8, g8 … a1, low nibble first) and the LED bitmap (byte 0 = rank 8,
 * bit 7 = a-file). The first byte of every message is also its HID report id.
 *
 *   modelFromProductId(0x8501); // 'Go'
 *   NIBBLE_SQUARE[0]; // 63 (h8)
 *   makePositionBytes(codes); // 32 bytes, two squares each
 */
import type { Square } from 'chessops';
import { rotate180 } from 'chessops/transform';
import { EMPTY, type SquareContent } from '../observation.js';
import {
  contentFromPieceLetter,
  makeSquareTable,
  pieceLetterOf,
  type PieceLetter,
} from '../observationExtra.js';

export const VENDOR = 'Chessnut';

export const USB_VENDOR_ID = 0x2d80;
/** Open only the interface with this usage page (§3.1). */
export const USAGE_PAGE = 0xff00;

/** Models by the high byte of the product id, as the vendor SDK lists them (§3.1, errata 8). */
export const MODEL_BY_PID: ReadonlyMap<number, string | undefined> = new Map([
  [0x8000, 'Air'],
  [0x8100, 'Pro'],
  [0x8200, 'Air+'],
  [0x8300, 'Evo'],
  [0x8400, undefined],
  [0x8500, 'Go'],
  [0x8600, undefined],
]);

export const isChessnutDevice = (vendorId: number, productId: number): boolean =>
  vendorId === USB_VENDOR_ID && MODEL_BY_PID.has(productId & 0xff00);

/** The model a product id names, undefined when the SDK does not name it. */
export const modelFromProductId = (productId: number): string | undefined =>
  MODEL_BY_PID.get(productId & 0xff00);

/** Board → host message ids (§3.4). */
export const MSG = {
  POSITION: 0x01,
  BUTTON: 0x0f,
  START_CONFIRM: 0x21,
  ACK: 0x23,
  /** Version reply: the id the emulator uses (UNVERIFIED: the SDK reads "ASCII from byte 3" of any reply). */
  VERSION: 0x27,
  BATTERY: 0x2a,
  GAME_COUNT: 0x32,
  FILE_SIZE: 0x36,
  FILE_MARK: 0x37,
  FILE_CRC: 0x38,
  MOVE: 0x41,
} as const;

/** Second byte of a position message: payload length over USB HID (61) and BLE (36). */
export const POSITION_USB = 0x3d;
export const POSITION_BLE = 0x24;
export const POSITION_BYTES = 32;
/** Header + position: the least a position report must hold. */
export const POSITION_MIN_LENGTH = 2 + POSITION_BYTES;

/** File transfer marks (`37 01 xx`). */
export const FILE_START = 0xbe;
export const FILE_END = 0xed;

/** Host → board command ids (§3.3). */
export const CMD = {
  MODE: 0x21,
  LEDS: 0x0a,
  BEEP: 0x0b,
  DEVICE_TIME: 0x26,
  VERSION: 0x27,
  BATTERY: 0x29,
  DEVICE_NAME: 0x2b,
  GAME_COUNT: 0x31,
  FILE_READY: 0x33,
  FILE_TRANSFER: 0x34,
  DELETE_GAME: 0x39,
} as const;

/** Piece codes 0–C (§3.5); D–F are invalid. */
export const PIECE_CODES: readonly (PieceLetter | null)[] = [
  null,
  'q',
  'k',
  'b',
  'p',
  'n',
  'R',
  'P',
  'r',
  'B',
  'N',
  'Q',
  'K',
];

export const MAX_PIECE_CODE = PIECE_CODES.length - 1;

export const contentFromCode = (code: number): SquareContent => {
  const letter = PIECE_CODES[code];
  return letter === undefined || letter === null ? EMPTY : (contentFromPieceLetter(letter) ?? EMPTY);
};

/** The code of a square content; undefined for contents a Chessnut board cannot report. */
export const codeFromContent = (c: SquareContent): number | undefined => {
  switch (c.kind) {
    case 'empty':
      return 0;
    case 'piece': {
      const letter = pieceLetterOf(c);
      const code = PIECE_CODES.indexOf(letter ?? null);
      return code > 0 ? code : undefined;
    }
    case 'occupied':
    case 'result-piece':
      return undefined;
  }
};

/** Nibble s (0 = byte 0 low, 1 = byte 0 high …) → square, board frame: h8, g8 … a8, h7 … a1. */
export const NIBBLE_SQUARE: readonly Square[] = makeSquareTable(rotate180);

/** The 64 nibble codes of 32 position bytes, nibble order. */
export const parsePositionBytes = (bytes: Uint8Array): number[] =>
  Array.from({ length: 64 }, (_, s) => ((bytes[s >> 1] ?? 0) >> ((s & 1) * 4)) & 0x0f);

/** 32 position bytes from 64 nibble codes. */
export const makePositionBytes = (codes: readonly number[]): Uint8Array => {
  const out = new Uint8Array(POSITION_BYTES);
  codes.forEach((c, s) => {
    out[s >> 1] = (out[s >> 1] ?? 0) | ((c & 0x0f) << ((s & 1) * 4));
  });
  return out;
};

/** LED byte 2 + (rank 8 − rank), bit 7 − file: bit 7 = a-file (§3.6). */
export const ledByteBit = (square: Square): { readonly byte: number; readonly bit: number } => ({
  byte: 7 - (square >> 3),
  bit: 7 - (square & 7),
});
