/**
 * Certabo / TabuTronic basics (reference §2.2–§2.5, §2.7): link settings, frame sizes, RFID tag
 * ids as text, the board's square orders (RFID frames in FEN order, occupancy bytes with bit 7 =
 * a-file, LED bytes with bit 0 = a-file) and the RGB LED grid.
 *
 *   makeTag([48, 0, 248, 71, 99]); // "3000F84763"; all zeros give null (an empty square)
 *   FRAME_SQUARE[0]; // 56 (a8): frame index 0 is the top-left square
 *   ledByteBit(parseSquare('e2')!); // { byte: 6, bit: 4 }
 */
import type { Square } from 'chessops';
import { flipVertical } from 'chessops/transform';
import { makeSquareTable } from '../observationExtra.js';

export const VENDOR = 'Certabo';

/** 38400 8N1 (§2.2). */
export const SERIAL_SETTINGS = { baudRate: 38400, dataBits: 8, parity: 'none', stopBits: 1 } as const;

/** The generic Silicon Labs CP210x id: always confirm a port by what it sends (§2.2, §2.8). */
export const USB_ID = { vendorId: 0x10c4, productId: 0xea60 } as const;

/** Numbers in an RFID frame (64 squares × 5 id bytes) and in an occupancy frame (8 ranks), §2.3. */
export const RFID_TOKENS = 320;
export const OCCUPANCY_TOKENS = 8;
export const TAG_BYTES = 5;

/** ':' starts a frame; lines end in LF (with CR and maybe a space before it). */
export const FRAME_START = 0x3a;
export const LF = 0x0a;

/** Longest RFID line is ":" + 320 × "255 " + CR LF = 1283 bytes; the default cap leaves room. */
export const DEFAULT_BUFFER_CAP = 4096;
export const MIN_BUFFER_CAP = 1300;

/** An RFID tag id: its 5 bytes as 10 upper-case hex digits, e.g. "3000F84763". */
export type RfidTag = string;

const TAG_PATTERN = /^[0-9A-F]{10}$/;

export const isTag = (s: string): boolean => TAG_PATTERN.test(s);

/** Two upper-case hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).toUpperCase().padStart(2, '0'));

/** The tag of the 5 id bytes from `start`, or null when they are all zero (an empty square, §2.4). */
export const makeTag = (bytes: ArrayLike<number>, start = 0): RfidTag | null => {
  let s = '';
  let zero = true;
  for (let i = start; i < start + TAG_BYTES; i++) {
    const b = (bytes[i] ?? 0) & 0xff;
    if (b !== 0) zero = false;
    s += HEX[b] ?? '';
  }
  return zero ? null : s;
};

/** The 5 bytes of a tag, or undefined when it is not one. */
export const parseTag = (tag: string): number[] | undefined => {
  if (!isTag(tag)) return undefined;
  const digit = (i: number): number => {
    const c = tag.charCodeAt(i);
    return c <= 0x39 ? c - 0x30 : c - 0x37;
  };
  const out: number[] = [];
  for (let i = 0; i < TAG_BYTES; i++) out.push(digit(2 * i) * 16 + digit(2 * i + 1));
  return out;
};

/** RFID frame index (a8, b8 … h8, a7 … h1: FEN order, §2.4) → chessops square, board frame. */
export const FRAME_SQUARE: readonly Square[] = makeSquareTable(flipVertical);

/** Occupancy token j = rank 8 − j, bit 7 = a-file (§2.5). */
export const occupancyByteBit = (square: Square): { readonly byte: number; readonly bit: number } => ({
  byte: 7 - (square >> 3),
  bit: 7 - (square & 7),
});

/** LED byte j = rank 8 − j, bit 0 = a-file: the opposite bit order to occupancy (§2.7). */
export const ledByteBit = (square: Square): { readonly byte: number; readonly bit: number } => ({
  byte: 7 - (square >> 3),
  bit: square & 7,
});

/** RGB frame of Spectrum boards (§2.7): FF 55, 81 × (R, G, B), 0D 0A. */
export const RGB_HEADER = [0xff, 0x55] as const;
export const RGB_TRAILER = [0x0d, 0x0a] as const;
export const RGB_LED_COUNT = 81;
export const RGB_FRAME_LENGTH = 2 + 3 * RGB_LED_COUNT + 2;

/** LED indices around a square (board frame): n = 9·r + c, r from the rank-1 edge, c from the h-file edge. */
export const rgbSquareLeds = (square: Square): readonly number[] => {
  const f = square & 7;
  const k = square >> 3;
  const out: number[] = [];
  for (const r of [k, k + 1]) for (const c of [7 - f, 8 - f]) out.push(9 * r + c);
  return out;
};
