/**
 * Host-to-board Certabo commands (reference §2.7): the 8-byte LED bitmap (byte 0 = rank 8,
 * bit 0 = a-file, no header or checksum) and the 247-byte RGB frame of Spectrum boards. Squares
 * are given in the game's frame; the encoder turns them for a rotated board. `parseCommand` and
 * `CertaboCommandReader` read them back (the emulator's side).
 *
 *   makeCommand({ kind: 'leds', squares: SquareSet.fromSquare(12).with(28) }); // e2 + e4: 00 00 00 00 10 00 10 00
 *   makeCommand({ kind: 'leds-rgb', colours: makeRgbColours(groups, 'normal') }); // FF 55 … 0D 0A
 *   parseCommand(bytes, { orientation: 'rotated' }); // Result<{ command, length }, CommandError>
 */
import { Result } from '@badrap/result';
import { SquareSet } from 'chessops';
import { orientSquare, type Orientation } from '../observation.js';
import { makeProblem, type LedGroup, type LedStyle } from '../observationExtra.js';
import {
  ledByteBit,
  RGB_FRAME_LENGTH,
  RGB_HEADER,
  RGB_LED_COUNT,
  RGB_TRAILER,
  rgbSquareLeds,
} from './protocol.js';

/** Red, green, blue 0–255. */
export type Rgb = readonly [number, number, number];

export type CertaboCommand =
  /** Ordinary LEDs: the squares to light, game frame. */
  | { readonly kind: 'leds'; readonly squares: SquareSet }
  /** Spectrum RGB LEDs: 81 colours, LED index order (board frame, see rgbSquareLeds). */
  | { readonly kind: 'leds-rgb'; readonly colours: readonly Rgb[] };

export interface CertaboCommandOptions {
  /** How the board stands (the bitmap is fixed to the board, §2.7); default 'normal'. */
  readonly orientation?: Orientation;
}

export const LED_COMMAND_LENGTH = 8;

/** Colours per style: picochess lights squares blue at 0x40; the two blinks get red and green. */
export const STYLE_COLOUR: Readonly<Record<LedStyle, Rgb>> = {
  steady: [0x00, 0x00, 0x40],
  blink: [0x40, 0x00, 0x00],
  'blink-inverse': [0x00, 0x40, 0x00],
};

/** The 8 LED bytes lighting `squares` (game frame) on a board standing as `orientation`. */
export const makeLedBytes = (squares: SquareSet, orientation: Orientation): Uint8Array => {
  const out = new Uint8Array(LED_COMMAND_LENGTH);
  for (const sq of squares) {
    const { byte, bit } = ledByteBit(orientSquare(sq, orientation));
    out[byte] = (out[byte] ?? 0) | (1 << bit);
  }
  return out;
};

/** The squares (game frame) 8 LED bytes light. */
export const parseLedBytes = (bytes: Uint8Array, orientation: Orientation): SquareSet => {
  let set = SquareSet.empty();
  for (let board = 0; board < 64; board++) {
    const { byte, bit } = ledByteBit(board);
    if (((bytes[byte] ?? 0) >> bit) & 1) set = set.with(orientSquare(board, orientation));
  }
  return set;
};

/** 81 colours lighting the groups' corners; shared corners take the brighter value per channel. */
export const makeRgbColours = (
  groups: readonly LedGroup[],
  orientation: Orientation,
  palette: Readonly<Record<LedStyle, Rgb>> = STYLE_COLOUR,
): Rgb[] => {
  const out: [number, number, number][] = Array.from({ length: RGB_LED_COUNT }, () => [0, 0, 0]);
  for (const g of groups) {
    const colour = palette[g.style];
    for (const sq of g.squares) {
      for (const n of rgbSquareLeds(orientSquare(sq, orientation))) {
        const led = out[n];
        if (led !== undefined)
          for (let ch = 0; ch < 3; ch++) led[ch] = Math.max(led[ch] ?? 0, colour[ch] ?? 0);
      }
    }
  }
  return out;
};

/** Encodes a command as the host sends it. Throws TypeError on impossible values. */
export const makeCommand = (c: CertaboCommand, options: CertaboCommandOptions = {}): Uint8Array => {
  switch (c.kind) {
    case 'leds':
      return makeLedBytes(c.squares, options.orientation ?? 'normal');
    case 'leds-rgb': {
      if (c.colours.length !== RGB_LED_COUNT)
        throw new TypeError(`leds-rgb needs ${RGB_LED_COUNT} colours, got ${c.colours.length}`);
      const out = new Uint8Array(RGB_FRAME_LENGTH);
      out.set(RGB_HEADER, 0);
      c.colours.forEach((rgb, n) => {
        rgb.forEach((v, ch) => {
          if (!Number.isInteger(v) || v < 0 || v > 255)
            throw new TypeError(`colour value must be a byte, got ${v}`);
          out[2 + 3 * n + ch] = v;
        });
      });
      out.set(RGB_TRAILER, RGB_FRAME_LENGTH - 2);
      return out;
    }
  }
};

export type CommandProblem =
  | { readonly kind: 'incomplete'; readonly received: number; readonly needed: number }
  | { readonly kind: 'bad-trailer'; readonly bytes: readonly number[] };

export type CommandError = Error & CommandProblem & { readonly consumed: number };

export interface ParsedCommand {
  readonly command: CertaboCommand;
  readonly length: number;
}

export interface ParseCommandOptions extends CertaboCommandOptions {
  /** A Spectrum board: `FF 55` starts a 247-byte RGB frame (default false: every 8 bytes are LEDs). */
  readonly rgb?: boolean;
}

const commandError = (problem: CommandProblem, consumed: number): CommandError =>
  makeProblem(`bad Certabo command: ${problem.kind}`, { ...problem, consumed });

const incomplete = (received: number, needed: number): Result<ParsedCommand, CommandError> =>
  Result.err(commandError({ kind: 'incomplete', received, needed }, 0));

/** Where the next RGB header starts after a bad frame (a lost byte puts it inside the frame), else the frame's end. */
const nextHeader = (bytes: Uint8Array): number => {
  for (let i = 1; i + 1 < bytes.length; i++)
    if (bytes[i] === RGB_HEADER[0] && bytes[i + 1] === RGB_HEADER[1]) return i;
  return RGB_FRAME_LENGTH;
};

/**
 * Reads the command at the start of `bytes`. On an RGB board a mono command that itself starts
 * with FF 55 is ambiguous (UNVERIFIED how real boards cope); it is read as an RGB header.
 */
export const parseCommand = (
  bytes: Uint8Array,
  options: ParseCommandOptions = {},
): Result<ParsedCommand, CommandError> => {
  const orientation = options.orientation ?? 'normal';
  if (
    options.rgb === true &&
    bytes[0] === RGB_HEADER[0] &&
    (bytes.length < 2 || bytes[1] === RGB_HEADER[1])
  ) {
    if (bytes.length < RGB_FRAME_LENGTH) return incomplete(bytes.length, RGB_FRAME_LENGTH);
    const trailer = [bytes[RGB_FRAME_LENGTH - 2] ?? 0, bytes[RGB_FRAME_LENGTH - 1] ?? 0];
    if (trailer[0] !== RGB_TRAILER[0] || trailer[1] !== RGB_TRAILER[1])
      return Result.err(commandError({ kind: 'bad-trailer', bytes: trailer }, nextHeader(bytes)));
    const colours = Array.from({ length: RGB_LED_COUNT }, (_, n): Rgb => [
      bytes[2 + 3 * n] ?? 0,
      bytes[3 + 3 * n] ?? 0,
      bytes[4 + 3 * n] ?? 0,
    ]);
    return Result.ok({ command: { kind: 'leds-rgb', colours }, length: RGB_FRAME_LENGTH });
  }
  if (bytes.length < LED_COMMAND_LENGTH) return incomplete(bytes.length, LED_COMMAND_LENGTH);
  const squares = parseLedBytes(bytes.subarray(0, LED_COMMAND_LENGTH), orientation);
  return Result.ok({ command: { kind: 'leds', squares }, length: LED_COMMAND_LENGTH });
};

export type CommandReadEvent =
  | { readonly kind: 'command'; readonly command: CertaboCommand; readonly bytes: Uint8Array }
  | { readonly kind: 'error'; readonly error: CommandError; readonly bytes: Uint8Array };

/**
 * Chunk-fed reader of host commands for the emulator; holds at most one partial command.
 *
 *   const reader = new CertaboCommandReader({ rgb: false });
 *   for (const e of reader.push(bytesFromHost)) if (e.kind === 'command') show(e.command);
 */
export class CertaboCommandReader {
  private pending = new Uint8Array(0);

  constructor(private readonly options: ParseCommandOptions = {}) {}

  push(chunk: Uint8Array): CommandReadEvent[] {
    const data = new Uint8Array(this.pending.length + chunk.length);
    data.set(this.pending);
    data.set(chunk, this.pending.length);
    const out: CommandReadEvent[] = [];
    let i = 0;
    while (i < data.length) {
      const rest = data.subarray(i);
      const r = parseCommand(rest, this.options);
      if (r.isOk) {
        out.push({ kind: 'command', command: r.value.command, bytes: rest.slice(0, r.value.length) });
        i += r.value.length;
      } else if (r.error.kind === 'incomplete') {
        break;
      } else {
        const n = Math.max(1, r.error.consumed);
        out.push({ kind: 'error', error: r.error, bytes: rest.slice(0, n) });
        i += n;
      }
    }
    this.pending = data.slice(i);
    return out;
  }

  get buffered(): number {
    return this.pending.length;
  }
}
