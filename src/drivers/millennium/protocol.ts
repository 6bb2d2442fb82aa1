/**
 * Millennium ChessLink basics (reference §1.2–§1.6): odd parity in bit 7, the two-hex-digit XOR
 * block checksum, upper-case hex fields, reply and command lengths, E2ROM registers, piece
 * letters and the status report's square order.
 *
 *   makeWire(makeMessageText('V')); // D6 B5 B6 ("V56" with parity bits)
 *   hasOddParity(0xd6); // true
 *   STATUS_CHAR_SQUARE[0]; // 7 (h1): orientation A, the default
 */
import type { Square } from 'chessops';
import { flipHorizontal } from 'chessops/transform';
import { EMPTY, type SquareContent } from '../observation.js';
import { contentFromPieceLetter, makeSquareTable, pieceLetterOf, popcount8 } from '../observationExtra.js';

export const VENDOR = 'Millennium';

/** 38400 baud, 7 data bits, odd parity, 1 stop bit (§1.2); equal on the wire to 8N1 plus a parity bit. */
export const SERIAL_SETTINGS = { baudRate: 38400, dataBits: 7, parity: 'odd', stopBits: 1 } as const;

/** Total length in characters of each fixed-length reply, checksum included (§1.3). */
export const REPLY_LENGTH: Readonly<Record<string, number>> = { s: 67, v: 7, l: 3, x: 3, w: 7, r: 7 };

/** The `i` reply to `I00` runs to a line feed, then two checksum characters (§1.4, errata 12). */
export const IDENTIFY_REPLY = 'i';
export const LF = 0x0a;

/** Command letters (§1.4). */
export const CMD = {
  VERSION: 'V',
  STATUS: 'S',
  LEDS: 'L',
  LEDS_OFF: 'X',
  RESET: 'T',
  WRITE: 'W',
  READ: 'R',
  IDENTIFY: 'I',
  SET_POSITION: 'G',
} as const;

/** E2ROM registers (§1.5). Writes are permanent: read first, write only what differs. */
export const REGISTER = {
  SERIAL_SETUP: 0x00,
  SCAN_TIME: 0x01,
  REPORT_MODE: 0x02,
  REPORT_INTERVAL: 0x03,
  BRIGHTNESS: 0x04,
  /** eONE settings bitfield (mono424 only, UNVERIFIED). */
  EONE_SETTINGS: 0x06,
} as const;

/** Register 02, bits 2–0 (§1.5): 4–7 = on change after 2–5 stable scans. */
export const REPORT_MODE = { EVERY_SCAN: 0, OFF: 1, INTERVAL: 2, ON_CHANGE: 3 } as const;

/** Factory values of the registers the emulator models (§1.5; 03 and 04 are not documented). */
export const REGISTER_DEFAULTS: Readonly<Record<number, number>> = {
  0x00: 0x00,
  0x01: 0x14,
  0x02: REPORT_MODE.EVERY_SCAN,
  0x03: 0x00,
  0x04: 0x0f,
};

// ---------------------------------------------------------------------------------------------
// Parity, checksum, hex

/** The whole byte has an odd number of ones (§1.3). */
export const hasOddParity = (b: number): boolean => (popcount8(b) & 1) === 1;

/** Sets bit 7 of a 7-bit code so that the byte has odd parity. */
export const addParity = (code: number): number => {
  const c = code & 0x7f;
  return hasOddParity(c) ? c : c | 0x80;
};

/** XOR of the 7-bit codes in [start, end) (§1.3; bit 7 never counts). */
export const xorChecksum = (codes: ArrayLike<number>, start = 0, end = codes.length): number => {
  let x = 0;
  for (let i = start; i < end; i++) x ^= (codes[i] ?? 0) & 0x7f;
  return x;
};

const HEX_DIGITS = '0123456789ABCDEF';

/** Two upper-case hex digits, always zero-padded (§1.3: one public implementation forgot the padding). */
export const makeHexByte = (n: number): string =>
  (HEX_DIGITS[(n >> 4) & 0x0f] ?? '0') + (HEX_DIGITS[n & 0x0f] ?? '0');

/** The value of an upper-case hex digit (7-bit code), or undefined. */
export const parseHexDigit = (code: number): number | undefined => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  return undefined;
};

/** Reads `count` upper-case hex digits at `start` of a text; undefined if any is not one. */
export const parseHexField = (text: string, start: number, count: number): number | undefined => {
  let v = 0;
  for (let i = start; i < start + count; i++) {
    const d = parseHexDigit(text.charCodeAt(i));
    if (d === undefined) return undefined;
    v = v * 16 + d;
  }
  return v;
};

/** A body followed by its block checksum: `makeMessageText('V')` is "V56". */
export const makeMessageText = (body: string): string =>
  body + makeHexByte(xorChecksum(Array.from(body, c => c.charCodeAt(0))));

/** The bytes of an ASCII text, bit 7 carrying odd parity unless `parity` is false (7-bit UART). */
export const makeWire = (text: string, parity = true): Uint8Array =>
  Uint8Array.from(text, c => (parity ? addParity(c.charCodeAt(0)) : c.charCodeAt(0) & 0x7f));

/** The text of received bytes, parity bits masked off. */
export const parseWire = (bytes: Uint8Array): string =>
  String.fromCharCode(...Array.from(bytes, b => b & 0x7f));

// ---------------------------------------------------------------------------------------------
// Pieces and squares

/** Piece letters of the status report (§1.6); '.' is an empty square. */
export const PIECE_LETTERS = 'KQRBNPkqrbnp.';

export const isPieceLetter = (code: number): boolean =>
  code < 0x80 && PIECE_LETTERS.includes(String.fromCharCode(code));

/** The square content of a status letter ('.' and unknown letters are empty; the framer rejects the latter). */
export const contentFromLetter = (letter: string): SquareContent => contentFromPieceLetter(letter) ?? EMPTY;

/** The status letter of a square content; undefined for contents the report cannot show. */
export const letterFromContent = (c: SquareContent): string | undefined => {
  switch (c.kind) {
    case 'empty':
      return '.';
    case 'piece':
      return pieceLetterOf(c);
    case 'occupied':
    case 'result-piece':
      return undefined;
  }
};

/**
 * Status character i → square in orientation A (§1.6, errata 11: the default): h1, g1 … a1,
 * h2 … a8, i.e. square i mirrored left-right. Orientation B (the vendor's literal a8 … h1) is
 * A turned 180°, handled by `orientSquare(…, 'rotated')`.
 */
export const STATUS_CHAR_SQUARE: readonly Square[] = makeSquareTable(flipHorizontal);

/** Version → model by BearChess's thresholds (§1.8; UNVERIFIED at the edges, mono424 disagrees). */
export const modelFromVersion = (major: number, minor: number): string => {
  const v = (major << 8) | minor;
  if (v <= 0x010f) return 'Exclusive';
  if (v <= 0x01ff) return 'King Performance';
  return 'eONE';
};
