/**
 * Host-to-board Chessnut commands (reference §3.3, §3.6): each is one HID output report whose
 * first byte is the report id, written unchanged. LEDs take squares in the game's frame and are
 * turned for a rotated board. Commands that read or delete stored games can be parsed (as
 * `forbidden`) but not made: retrieval deletes the file on the board (§3.9).
 *
 *   makeCommand({ kind: 'start' }); // 21 01 00
 *   makeCommand({ kind: 'leds', squares: SquareSet.fromSquare(12).with(28) }); // 0A 08 00 00 00 00 08 00 08 00
 *   parseCommand(report); // Result<ReceivedCommand, CommandError>, for the emulator
 */
import { Result } from '@badrap/result';
import { SquareSet } from 'chessops';
import { orientSquare, type Orientation } from '../observation.js';
import { makeProblem } from '../observationExtra.js';
import { CMD, ledByteBit } from './protocol.js';

export type ChessnutCommand =
  /** Start real-time mode (`21 01 00`): nothing is reported before it. */
  | { readonly kind: 'start' }
  /** LEDs on these squares (game frame), all others off; on/off only, blink from the host. */
  | { readonly kind: 'leds'; readonly squares: SquareSet }
  /** Beep: frequency in Hz and duration in ms, big-endian 16-bit each. */
  | { readonly kind: 'beep'; readonly frequency: number; readonly duration: number }
  /** MCU (`27 01 01`) or BLE module (`27 01 00`) version. */
  | { readonly kind: 'version'; readonly which: 'mcu' | 'ble' }
  | { readonly kind: 'battery' }
  | { readonly kind: 'game-count' }
  /** `2B 01 00` / `26 01 00` (ChessnutPy only, UNVERIFIED). */
  | { readonly kind: 'device-name' }
  | { readonly kind: 'device-time' };

export type ForbiddenCommandName = 'upload-mode' | 'file-ready' | 'file-transfer' | 'delete-game';

export type ReceivedCommand =
  | ChessnutCommand
  | { readonly kind: 'forbidden'; readonly name: ForbiddenCommandName; readonly bytes: readonly number[] };

export interface ChessnutCommandOptions {
  /** How the board stands (the LED bitmap is fixed to it); default 'normal'. */
  readonly orientation?: Orientation;
}

/** The 8 LED bytes (rank 8 first, bit 7 = a-file) for squares in the game's frame. */
export const makeLedBytes = (squares: SquareSet, orientation: Orientation): number[] => {
  const out = new Array<number>(8).fill(0);
  for (const sq of squares) {
    const { byte, bit } = ledByteBit(orientSquare(sq, orientation));
    out[byte] = (out[byte] ?? 0) | (1 << bit);
  }
  return out;
};

export const parseLedBytes = (bytes: ArrayLike<number>, orientation: Orientation): SquareSet => {
  let set = SquareSet.empty();
  for (let board = 0; board < 64; board++) {
    const { byte, bit } = ledByteBit(board);
    if (((bytes[byte] ?? 0) >> bit) & 1) set = set.with(orientSquare(board, orientation));
  }
  return set;
};

const checkWord = (name: string, v: number): void => {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new TypeError(`${name} must be 0–65535, got ${v}`);
};

/** Encodes a command as one output report (report id first). */
export const makeCommand = (c: ChessnutCommand, options: ChessnutCommandOptions = {}): Uint8Array => {
  switch (c.kind) {
    case 'start':
      return Uint8Array.of(CMD.MODE, 0x01, 0x00);
    case 'leds':
      return Uint8Array.from([CMD.LEDS, 0x08, ...makeLedBytes(c.squares, options.orientation ?? 'normal')]);
    case 'beep':
      checkWord('frequency', c.frequency);
      checkWord('duration', c.duration);
      return Uint8Array.of(
        CMD.BEEP,
        0x04,
        c.frequency >> 8,
        c.frequency & 0xff,
        c.duration >> 8,
        c.duration & 0xff,
      );
    case 'version':
      return Uint8Array.of(CMD.VERSION, 0x01, c.which === 'mcu' ? 0x01 : 0x00);
    case 'battery':
      return Uint8Array.of(CMD.BATTERY, 0x01, 0x00);
    case 'game-count':
      return Uint8Array.of(CMD.GAME_COUNT, 0x01, 0x00);
    case 'device-name':
      return Uint8Array.of(CMD.DEVICE_NAME, 0x01, 0x00);
    case 'device-time':
      return Uint8Array.of(CMD.DEVICE_TIME, 0x01, 0x00);
  }
};

export type CommandProblem =
  | { readonly kind: 'incomplete'; readonly received: number; readonly needed: number }
  | { readonly kind: 'unknown-command'; readonly byte: number }
  | { readonly kind: 'bad-length'; readonly id: number; readonly declared: number; readonly expected: number }
  | { readonly kind: 'bad-field'; readonly id: number; readonly value: number };

export type CommandError = Error & CommandProblem;

const fail = (problem: CommandProblem): Result<ReceivedCommand, CommandError> =>
  Result.err(makeProblem(`bad Chessnut command: ${problem.kind}`, problem));

/** Declared payload length of each command id. */
const LENGTH: ReadonlyMap<number, number> = new Map([
  [CMD.MODE, 1],
  [CMD.LEDS, 8],
  [CMD.BEEP, 4],
  [CMD.VERSION, 1],
  [CMD.BATTERY, 1],
  [CMD.GAME_COUNT, 1],
  [CMD.DEVICE_NAME, 1],
  [CMD.DEVICE_TIME, 1],
  [CMD.FILE_READY, 1],
  [CMD.FILE_TRANSFER, 1],
  [CMD.DELETE_GAME, 1],
]);

/** Reads one output report (bytes past the declared length are padding, as on Windows). */
export const parseCommand = (
  report: Uint8Array,
  options: ChessnutCommandOptions = {},
): Result<ReceivedCommand, CommandError> => {
  const id = report[0];
  if (id === undefined) return fail({ kind: 'incomplete', received: 0, needed: 2 });
  const expected = LENGTH.get(id);
  if (expected === undefined) return fail({ kind: 'unknown-command', byte: id });
  if (report.length < 2) return fail({ kind: 'incomplete', received: report.length, needed: 2 + expected });
  const declared = report[1] ?? 0;
  if (declared !== expected) return fail({ kind: 'bad-length', id, declared, expected });
  if (report.length < 2 + expected)
    return fail({ kind: 'incomplete', received: report.length, needed: 2 + expected });
  const body = report.subarray(2, 2 + expected);
  const b = body[0] ?? 0;
  const forbidden = (name: ForbiddenCommandName): Result<ReceivedCommand, CommandError> =>
    Result.ok({ kind: 'forbidden', name, bytes: Array.from(report.subarray(0, 2 + expected)) });
  const zero = (c: ChessnutCommand): Result<ReceivedCommand, CommandError> =>
    b === 0 ? Result.ok(c) : fail({ kind: 'bad-field', id, value: b });
  switch (id) {
    case CMD.MODE:
      return b === 0
        ? Result.ok({ kind: 'start' })
        : b === 1
          ? forbidden('upload-mode')
          : fail({ kind: 'bad-field', id, value: b });
    case CMD.LEDS:
      return Result.ok({ kind: 'leds', squares: parseLedBytes(body, options.orientation ?? 'normal') });
    case CMD.BEEP:
      return Result.ok({
        kind: 'beep',
        frequency: (b << 8) | (body[1] ?? 0),
        duration: ((body[2] ?? 0) << 8) | (body[3] ?? 0),
      });
    case CMD.VERSION:
      return b <= 1
        ? Result.ok({ kind: 'version', which: b === 1 ? 'mcu' : 'ble' })
        : fail({ kind: 'bad-field', id, value: b });
    case CMD.BATTERY:
      return zero({ kind: 'battery' });
    case CMD.GAME_COUNT:
      return zero({ kind: 'game-count' });
    case CMD.DEVICE_NAME:
      return zero({ kind: 'device-name' });
    case CMD.DEVICE_TIME:
      return zero({ kind: 'device-time' });
    case CMD.FILE_READY:
      return forbidden('file-ready');
    case CMD.FILE_TRANSFER:
      return forbidden('file-transfer');
    case CMD.DELETE_GAME:
      return forbidden('delete-game');
  }
  return fail({ kind: 'unknown-command', byte: id });
};
