/**
 * DGT e-Board protocol constants: message ids and sizes, command bytes, piece codes and the
 * board's field numbering. Values restated from the DGT protocol reference (sections in comments).
 *
 *   import { MSG, fieldToSquare, pieceFromCode } from './constants.js';
 *   if (frame[0] === MSG.FIELD_UPDATE) sq = fieldToSquare(frame[3]!, 'normal');
 *   pieceFromCode(0x05); // { kind: 'piece', color: 'white', role: 'king' }
 */
import type { Square } from 'chessops';
import { SquareSet } from 'chessops';
import { flipVertical } from 'chessops/transform';
import { EMPTY, makePiece, orientSquare, type Orientation, type SquareContent } from '../observation.js';

/** 9600 baud 8N1 moves at most 960 bytes a second (reference §1.1). */
export const LINK_BYTES_PER_SECOND = 960;

/** Largest total length the 14-bit size field can declare (§2). */
export const MAX_MESSAGE_LENGTH = 0x3fff;

/** Header bytes of every board-to-host message: id, size-hi, size-lo (§2). */
export const HEADER_LENGTH = 3;

/** Default decoder buffer cap: the largest message the size field can declare, plus one. */
export const DEFAULT_BUFFER_CAP = MAX_MESSAGE_LENGTH + 1;

/** Largest bus address (14 bits); 0 is the broadcast address of commands (§8.1). */
export const MAX_BUS_ADDRESS = 0x3fff;

/** Checksum of bus frames and commands: the sum of `bytes` modulo 128 (§8.1, §8.2). */
export const busChecksum = (bytes: Uint8Array | readonly number[]): number => {
  let sum = 0;
  for (const b of bytes) sum += b;
  return sum & 0x7f;
};

/** Board-to-host message ids in single-board mode (§3.2). */
export const MSG = {
  NONE: 0x80,
  BOARD_DUMP: 0x86,
  BWTIME: 0x8d,
  FIELD_UPDATE: 0x8e,
  EE_MOVES: 0x8f,
  BUSADRES: 0x90,
  SERIALNR: 0x91,
  TRADEMARK: 0x92,
  VERSION: 0x93,
  BOARD_DUMP_50B: 0x94,
  BOARD_DUMP_50W: 0x95,
  HARDWARE_VERSION: 0x96,
  BATTERY_STATUS: 0xa0,
  LONG_SERIALNR: 0xa2,
  I2C_CLOCK: 0xa3,
} as const;

/** Bus-mode reply ids (§8.1, §8.2); they overlap the single-board ids. */
export const BUS_MSG = {
  BRD_DUMP: 0x83,
  BWTIME: 0x84,
  UPDATE: 0x85,
  FROM_START: 0x86,
  PING: 0x87,
  START_GAME_WRITTEN: 0x88,
  VERSION: 0x89,
  BRD_DUMP_50B: 0x8a,
  /** 72002 P1.0 constants (UNVERIFIED): the even half of an alternating update sequence. */
  UPDATE_EVEN: 0x8b,
  HARDWARE_VERSION: 0x8c,
  SERIALNR: 0xb0,
  I2C: 0xb1,
  STATS: 0xb2,
  CONFIG: 0xb3,
  TRADEMARK: 0xb4,
  BATTERY: 0xb5,
} as const;

/** Host-to-board one-byte commands (§3.1). */
export const CMD = {
  RESET: 0x40,
  SEND_CLK: 0x41,
  SEND_BRD: 0x42,
  SEND_UPDATE: 0x43,
  SEND_UPDATE_BRD: 0x44,
  RETURN_SERIALNR: 0x45,
  RETURN_BUSADRES: 0x46,
  SEND_TRADEMARK: 0x47,
  REQ_HARDWARE_VERSION: 0x48,
  SEND_EE_MOVES: 0x49,
  TO_BUSMODE: 0x4a,
  SEND_UPDATE_NICE: 0x4b,
  SEND_BATTERY_STATUS: 0x4c,
  SEND_VERSION: 0x4d,
  STARTBOOTLOADER: 0x4e,
  SEND_BRD_50B: 0x50,
  SCAN_50B: 0x51,
  SEND_BRD_50W: 0x52,
  SCAN_50W: 0x53,
  SCAN_100: 0x54,
  RETURN_LONG_SERIALNR: 0x55,
  REQ_I2C_CLOCK: 0x56,
  REQ_UPDATE_I2C: 0x57,
  REQ_UPDATE_I2C_NICE: 0x58,
  CLOCK_MESSAGE: 0x2b,
  I2C_CLOCK_MESSAGE: 0x2c,
  SET_LEDS: 0x60,
} as const;

/** Total lengths of fixed-size single-board messages (§3.2). */
export const FIXED_LENGTH: ReadonlyMap<number, number> = new Map([
  [MSG.BOARD_DUMP, 67],
  [MSG.BWTIME, 10],
  [MSG.FIELD_UPDATE, 5],
  [MSG.BUSADRES, 5],
  [MSG.VERSION, 5],
  [MSG.HARDWARE_VERSION, 5],
  [MSG.LONG_SERIALNR, 13],
]);

/** Inclusive total-length ranges of variable single-board messages. */
export const LENGTH_RANGE: ReadonlyMap<number, readonly [number, number]> = new Map([
  // 8 bytes in the 2012 header, 12 in v1.03 (§1.3): accept any short ASCII reply.
  [MSG.SERIALNR, [4, 64]],
  [MSG.TRADEMARK, [3, MAX_MESSAGE_LENGTH]],
  [MSG.EE_MOVES, [3, MAX_MESSAGE_LENGTH]],
  // 12 by the payload layout, 10 by the header constant (§3.5, UNVERIFIED): accept both.
  [MSG.BATTERY_STATUS, [4, 64]],
]);

/** Known messages we skip by length instead of decoding. */
export const UNSUPPORTED: ReadonlyMap<number, string> = new Map([
  [MSG.NONE, 'NONE'],
  [MSG.BOARD_DUMP_50B, 'BOARD_DUMP_50B'],
  [MSG.BOARD_DUMP_50W, 'BOARD_DUMP_50W'],
  [MSG.I2C_CLOCK, 'I2C_CLOCK'],
]);

// ---------------------------------------------------------------------------------------------
// Piece codes (§4.2)

export const PIECE_CODE = {
  EMPTY: 0x00,
  WPAWN: 0x01,
  WROOK: 0x02,
  WKNIGHT: 0x03,
  WBISHOP: 0x04,
  WKING: 0x05,
  WQUEEN: 0x06,
  BPAWN: 0x07,
  BROOK: 0x08,
  BKNIGHT: 0x09,
  BBISHOP: 0x0a,
  BKING: 0x0b,
  BQUEEN: 0x0c,
  DRAW: 0x0d,
  WHITE_WINS: 0x0e,
  BLACK_WINS: 0x0f,
} as const;

/** Square contents for the 16 piece codes, indexed by code. */
const CODE_CONTENT: readonly SquareContent[] = [
  EMPTY,
  makePiece('white', 'pawn'),
  makePiece('white', 'rook'),
  makePiece('white', 'knight'),
  makePiece('white', 'bishop'),
  makePiece('white', 'king'),
  makePiece('white', 'queen'),
  makePiece('black', 'pawn'),
  makePiece('black', 'rook'),
  makePiece('black', 'knight'),
  makePiece('black', 'bishop'),
  makePiece('black', 'king'),
  makePiece('black', 'queen'),
  { kind: 'result-piece', result: '1/2-1/2' },
  { kind: 'result-piece', result: '1-0' },
  { kind: 'result-piece', result: '0-1' },
];

/** Content for a piece code; only the low nibble counts (§3.3 defensive rule). */
export const pieceFromCode = (code: number): SquareContent => CODE_CONTENT[code & 0x0f] ?? EMPTY;

/** Piece code for a content; 'occupied' has no DGT code and maps to undefined. */
export const codeFromPiece = (content: SquareContent): number | undefined => {
  switch (content.kind) {
    case 'empty':
      return PIECE_CODE.EMPTY;
    case 'occupied':
      return undefined;
    case 'piece':
    case 'result-piece': {
      const i = CODE_CONTENT.findIndex(
        c =>
          (c.kind === 'piece' &&
            content.kind === 'piece' &&
            c.color === content.color &&
            c.role === content.role) ||
          (c.kind === 'result-piece' && content.kind === 'result-piece' && c.result === content.result),
      );
      return i < 0 ? undefined : i;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Field numbering (§4.1): field 0 = a8 … 63 = h1 in the normal orientation.

/** Field n names the chessops square flipVertical(n); computed with chessops' transform. */
const FIELD_SQUARE: readonly Square[] = Array.from(
  { length: 64 },
  (_, n) => flipVertical(SquareSet.fromSquare(n)).first() ?? n,
);

/** The game square of board field `field` (0–63) for the given orientation (§4.1). */
export const fieldToSquare = (field: number, orientation: Orientation): Square =>
  orientSquare(FIELD_SQUARE[field & 63] ?? 0, orientation);

/** The board field that reports game square `sq` (inverse of fieldToSquare). */
export const squareToField = (sq: Square, orientation: Orientation): number =>
  FIELD_SQUARE[orientSquare(sq & 63, orientation)] ?? 0;
