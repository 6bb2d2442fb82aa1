/**
 * Host-to-board Millennium commands (reference §1.4): `makeCommand` encodes every command with
 * its checksum and (by default) the parity bit; `parseCommand` reads one back from the start of
 * a byte array (the emulator's side); `MillenniumCommandReader` does so for a chunked stream.
 *
 *   makeCommand({ kind: 'version' }); // D6 B5 B6 ("V56")
 *   makeCommand({ kind: 'write-register', address: 2, value: 3 }); // "W020356"
 *   makeCommand(makeLedCommand([{ squares, style: 'blink' }], 'normal')); // "L32…" (167 chars)
 */
import { Result } from '@badrap/result';
import type { Square } from 'chessops';
import type { Orientation } from '../observation.js';
import { makeProblem, type LedGroup } from '../observationExtra.js';
import { DEFAULT_SLOT_TIME, LED_COUNT, makeLedPatterns } from './leds.js';
import {
  CMD,
  hasOddParity,
  isPieceLetter,
  makeHexByte,
  makeMessageText,
  makeWire,
  parseHexDigit,
  parseHexField,
  xorChecksum,
} from './protocol.js';

export type MillenniumCommand =
  | { readonly kind: 'version' }
  | { readonly kind: 'status' }
  | { readonly kind: 'leds-off' }
  /** Hardware reset: no reply, the board is deaf for about 3 s. */
  | { readonly kind: 'reset' }
  /** All 81 LEDs: slot time (4.096 ms units) and one pattern per LED, LED 1 first (board frame). */
  | { readonly kind: 'leds'; readonly slotTime: number; readonly patterns: readonly number[] }
  /** Writes a register permanently (§1.5): read it first and write only when it differs. */
  | { readonly kind: 'write-register'; readonly address: number; readonly value: number }
  | { readonly kind: 'read-register'; readonly address: number }
  /** `I00` (UNVERIFIED purpose). */
  | { readonly kind: 'identify' }
  /**
   * `G` (BearChess only, UNVERIFIED): a position for eONE-style boards. `board` is 64 letters
   * (`.` empty) a8…h8, a7…h1; flags 01 W O-O, 02 W O-O-O, 08 Black to move, 10 B O-O, 20 B O-O-O.
   */
  | {
      readonly kind: 'set-position';
      readonly board: string;
      readonly flags: number;
      readonly enPassant: Square | undefined;
      readonly halfmoveClock: number;
      readonly moveNumber: number;
    };

export interface CommandOptions {
  /** Set bit 7 as odd parity (8N1 port, the default); false for a 7O1 port that adds it. */
  readonly parity?: boolean;
}

/** Total length of each command in characters; `L` and `G` are the long ones. */
export const COMMAND_LENGTH: Readonly<Record<string, number>> = {
  V: 3,
  S: 3,
  X: 3,
  T: 3,
  W: 7,
  R: 5,
  I: 5,
  L: 1 + 2 + 2 * LED_COUNT + 2,
  G: 1 + 64 + 2 + 2 + 4 + 4 + 2,
};

/** Syntax of each command after its letter: H hex, C first checksum digit 0–7, P piece letter, D digit 0–7. */
const COMMAND_FORMAT: Readonly<Record<string, string>> = {
  V: 'CH',
  S: 'CH',
  X: 'CH',
  T: 'CH',
  W: 'HHHHCH',
  R: 'HHCH',
  I: 'HHCH',
  L: 'H'.repeat(2 + 2 * LED_COUNT) + 'CH',
  G: 'P'.repeat(64) + 'HHDDHHHHHHHHCH',
};

/** Whether the characters received so far can still be the start of a command (early resync). */
const prefixFits = (format: string, text: string): boolean => {
  for (let i = 1; i < text.length && i <= format.length; i++) {
    const code = text.charCodeAt(i);
    const ok = ((): boolean => {
      switch (format.charAt(i - 1)) {
        case 'H':
          return parseHexDigit(code) !== undefined;
        case 'C':
        case 'D':
          return code >= 0x30 && code <= 0x37;
        default:
          return isPieceLetter(code);
      }
    })();
    if (!ok) return false;
  }
  return true;
};

const hex4 = (n: number): string => makeHexByte(n >> 8) + makeHexByte(n);

/** En passant field (errata 12): rank − 1 then file index, "00" for none (d6 = "53"). */
const makeEnPassant = (sq: Square | undefined): string => (sq === undefined ? '00' : `${sq >> 3}${sq & 7}`);

const checkByte = (name: string, v: number): void => {
  if (!Number.isInteger(v) || v < 0 || v > 0xff) throw new TypeError(`${name} must be a byte, got ${v}`);
};

/** The ASCII text of a command, checksum included. Throws TypeError on impossible values. */
export const makeCommandText = (c: MillenniumCommand): string => {
  switch (c.kind) {
    case 'version':
      return makeMessageText(CMD.VERSION);
    case 'status':
      return makeMessageText(CMD.STATUS);
    case 'leds-off':
      return makeMessageText(CMD.LEDS_OFF);
    case 'reset':
      return makeMessageText(CMD.RESET);
    case 'leds':
      checkByte('slotTime', c.slotTime);
      if (c.patterns.length !== LED_COUNT)
        throw new TypeError(`leds needs ${LED_COUNT} patterns, got ${c.patterns.length}`);
      c.patterns.forEach(p => checkByte('pattern', p));
      return makeMessageText(CMD.LEDS + makeHexByte(c.slotTime) + c.patterns.map(makeHexByte).join(''));
    case 'write-register':
      checkByte('address', c.address);
      checkByte('value', c.value);
      return makeMessageText(CMD.WRITE + makeHexByte(c.address) + makeHexByte(c.value));
    case 'read-register':
      checkByte('address', c.address);
      return makeMessageText(CMD.READ + makeHexByte(c.address));
    case 'identify':
      return makeMessageText(`${CMD.IDENTIFY}00`);
    case 'set-position':
      if (c.board.length !== 64 || !Array.from(c.board).every(ch => isPieceLetter(ch.charCodeAt(0))))
        throw new TypeError('set-position board must be 64 piece letters or dots');
      checkByte('flags', c.flags);
      return makeMessageText(
        CMD.SET_POSITION +
          c.board +
          makeHexByte(c.flags) +
          makeEnPassant(c.enPassant) +
          hex4(c.halfmoveClock) +
          hex4(c.moveNumber),
      );
  }
};

/** Encodes a command as the host sends it. */
export const makeCommand = (c: MillenniumCommand, options: CommandOptions = {}): Uint8Array =>
  makeWire(makeCommandText(c), options.parity ?? true);

/** An `L` command lighting the groups (steady FF, blink CC, blink-inverse 33) for a board orientation. */
export const makeLedCommand = (
  groups: readonly LedGroup[],
  orientation: Orientation,
  slotTime: number = DEFAULT_SLOT_TIME,
): MillenniumCommand => ({ kind: 'leds', slotTime, patterns: makeLedPatterns(groups, orientation) });

// ---------------------------------------------------------------------------------------------
// Parsing (the board's side)

export type CommandProblem =
  | { readonly kind: 'unknown-command'; readonly byte: number }
  | { readonly kind: 'incomplete'; readonly received: number; readonly needed: number }
  | { readonly kind: 'checksum'; readonly expected: number; readonly actual: number }
  | { readonly kind: 'parity'; readonly byte: number }
  | { readonly kind: 'bad-field'; readonly field: string; readonly offset: number };

/** A command that could not be read; `consumed` = bytes to drop before trying again (0: wait for more). */
export type CommandError = Error & CommandProblem & { readonly consumed: number };

const commandError = (problem: CommandProblem, consumed: number): CommandError =>
  makeProblem(`bad Millennium command: ${problem.kind}`, { ...problem, consumed });

export interface ParsedCommand {
  readonly command: MillenniumCommand;
  readonly length: number;
}

const parseEnPassant = (text: string): Square | undefined | false => {
  if (text === '00') return undefined;
  const rank = text.charCodeAt(0) - 0x30;
  const file = text.charCodeAt(1) - 0x30;
  return rank >= 0 && rank < 8 && file >= 0 && file < 8 ? rank * 8 + file : false;
};

const parseBody = (text: string): MillenniumCommand | { bad: string; offset: number } => {
  const hexAt = (start: number, count: number): number | undefined => parseHexField(text, start, count);
  switch (text.charAt(0)) {
    case 'V':
      return { kind: 'version' };
    case 'S':
      return { kind: 'status' };
    case 'X':
      return { kind: 'leds-off' };
    case 'T':
      return { kind: 'reset' };
    case 'W': {
      const address = hexAt(1, 2);
      const value = hexAt(3, 2);
      return address === undefined || value === undefined
        ? { bad: 'hex', offset: 1 }
        : { kind: 'write-register', address, value };
    }
    case 'R': {
      const address = hexAt(1, 2);
      return address === undefined ? { bad: 'hex', offset: 1 } : { kind: 'read-register', address };
    }
    case 'I':
      return text.slice(1, 3) === '00' ? { kind: 'identify' } : { bad: 'parameter', offset: 1 };
    case 'L': {
      const slotTime = hexAt(1, 2);
      const patterns = Array.from({ length: LED_COUNT }, (_, i) => hexAt(3 + 2 * i, 2));
      const bad = patterns.findIndex(p => p === undefined);
      if (slotTime === undefined) return { bad: 'hex', offset: 1 };
      if (bad >= 0) return { bad: 'hex', offset: 3 + 2 * bad };
      return { kind: 'leds', slotTime, patterns: patterns.map(p => p ?? 0) };
    }
    case 'G': {
      const board = text.slice(1, 65);
      const badPiece = Array.from(board).findIndex(ch => !isPieceLetter(ch.charCodeAt(0)));
      if (badPiece >= 0) return { bad: 'piece', offset: 1 + badPiece };
      const flags = hexAt(65, 2);
      const enPassant = parseEnPassant(text.slice(67, 69));
      const halfmoveClock = hexAt(69, 4);
      const moveNumber = hexAt(73, 4);
      if (flags === undefined) return { bad: 'hex', offset: 65 };
      if (enPassant === false) return { bad: 'en-passant', offset: 67 };
      if (halfmoveClock === undefined || moveNumber === undefined) return { bad: 'hex', offset: 69 };
      return { kind: 'set-position', board, flags, enPassant, halfmoveClock, moveNumber };
    }
    default:
      return { bad: 'letter', offset: 0 };
  }
};

/**
 * Reads the command at the start of `bytes`. Parity is accepted when every byte has odd parity
 * or every byte has bit 7 clear (a host on a 7-bit port); the board drops anything else.
 */
export const parseCommand = (bytes: Uint8Array): Result<ParsedCommand, CommandError> => {
  const first = bytes[0];
  if (first === undefined) return Result.err(commandError({ kind: 'incomplete', received: 0, needed: 1 }, 0));
  const letter = String.fromCharCode(first & 0x7f);
  const length = COMMAND_LENGTH[letter];
  const format = COMMAND_FORMAT[letter];
  if (length === undefined || format === undefined)
    return Result.err(commandError({ kind: 'unknown-command', byte: first }, 1));
  const seen = String.fromCharCode(...Array.from(bytes.subarray(0, length), b => b & 0x7f));
  if (!prefixFits(format, seen))
    return Result.err(commandError({ kind: 'bad-field', field: 'syntax', offset: 0 }, 1));
  if (bytes.length < length)
    return Result.err(commandError({ kind: 'incomplete', received: bytes.length, needed: length }, 0));
  const raw = bytes.subarray(0, length);
  const text = String.fromCharCode(...Array.from(raw, b => b & 0x7f));
  const hi = parseHexDigit(text.charCodeAt(length - 2));
  const lo = parseHexDigit(text.charCodeAt(length - 1));
  const expected = xorChecksum(raw, 0, length - 2);
  if (hi === undefined || lo === undefined || hi * 16 + lo !== expected)
    return Result.err(commandError({ kind: 'checksum', expected, actual: (hi ?? 0) * 16 + (lo ?? 0) }, 1));
  const oddBad = raw.find(b => !hasOddParity(b));
  const clearBad = raw.find(b => (b & 0x80) !== 0);
  if (oddBad !== undefined && clearBad !== undefined)
    return Result.err(commandError({ kind: 'parity', byte: oddBad }, length));
  const body = parseBody(text);
  if ('bad' in body)
    return Result.err(commandError({ kind: 'bad-field', field: body.bad, offset: body.offset }, length));
  return Result.ok({ command: body, length });
};

export type CommandReadEvent =
  | { readonly kind: 'command'; readonly command: MillenniumCommand; readonly bytes: Uint8Array }
  | { readonly kind: 'error'; readonly error: CommandError; readonly bytes: Uint8Array };

/** Longest command (`L`, 167 bytes); a reader never holds more. */
export const MAX_COMMAND_LENGTH = Math.max(...Object.values(COMMAND_LENGTH));

/**
 * Chunk-fed reader of host commands for the emulator: holds at most one partial command and
 * moves on by one byte after a bad checksum (the board stays silent on bad commands, §1.3).
 *
 *   const reader = new MillenniumCommandReader();
 *   for (const e of reader.push(bytesFromHost)) if (e.kind === 'command') answer(e.command);
 */
export class MillenniumCommandReader {
  private pending = new Uint8Array(0);

  push(chunk: Uint8Array): CommandReadEvent[] {
    const data = new Uint8Array(this.pending.length + chunk.length);
    data.set(this.pending);
    data.set(chunk, this.pending.length);
    const out: CommandReadEvent[] = [];
    let i = 0;
    while (i < data.length) {
      const rest = data.subarray(i);
      const r = parseCommand(rest);
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
