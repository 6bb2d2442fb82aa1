/**
 * Host-to-board DGT commands (reference §3.1, §6.5, §8.1, §9): `makeCommand` encodes every
 * command a host may send; `parseCommand` reads one back from the start of a byte array (the
 * board emulator's side). Commands that write the board's EEPROM or start its boot loader can be
 * parsed (as `forbidden`) but not made.
 *
 *   makeCommand({ kind: 'update-nice' }); // 4B
 *   makeCommand({ kind: 'clock', clock: { kind: 'version' } }); // 2B 03 03 09 00
 *   const r = parseCommand(bytes); // Result<{ command, length }, CommandError>
 */
import { Result } from '@badrap/result';
import { makeBusCommand, parseBusCommand, type BusCommand } from './busCommands.js';
import {
  makeClockBody,
  parseClockBody,
  type ClockCommand,
  type ClockCommandOptions,
} from './clockCommands.js';
import { CommandError } from './commandError.js';
import { CMD } from './constants.js';

/** One-byte commands, by name (§3.1). */
export const SIMPLE_COMMANDS = {
  reset: CMD.RESET,
  'send-clock': CMD.SEND_CLK,
  'send-board': CMD.SEND_BRD,
  update: CMD.SEND_UPDATE,
  'update-board': CMD.SEND_UPDATE_BRD,
  serial: CMD.RETURN_SERIALNR,
  'bus-address': CMD.RETURN_BUSADRES,
  trademark: CMD.SEND_TRADEMARK,
  'hardware-version': CMD.REQ_HARDWARE_VERSION,
  'log-moves': CMD.SEND_EE_MOVES,
  'to-bus-mode': CMD.TO_BUSMODE,
  'update-nice': CMD.SEND_UPDATE_NICE,
  'battery-status': CMD.SEND_BATTERY_STATUS,
  version: CMD.SEND_VERSION,
  'send-board-50b': CMD.SEND_BRD_50B,
  'send-board-50w': CMD.SEND_BRD_50W,
  'long-serial': CMD.RETURN_LONG_SERIALNR,
  'i2c-clock': CMD.REQ_I2C_CLOCK,
  'update-i2c': CMD.REQ_UPDATE_I2C,
  'update-i2c-nice': CMD.REQ_UPDATE_I2C_NICE,
} as const;

export type SimpleCommandKind = keyof typeof SIMPLE_COMMANDS;

/** Never sent: boot loader, and draughts scan modes that are written to EEPROM (§3.1). */
export const FORBIDDEN_COMMANDS = {
  'start-bootloader': CMD.STARTBOOTLOADER,
  'scan-50b': CMD.SCAN_50B,
  'scan-50w': CMD.SCAN_50W,
  'scan-100': CMD.SCAN_100,
} as const;

export type ForbiddenCommandKind = keyof typeof FORBIDDEN_COMMANDS;

export interface SimpleCommand {
  readonly kind: SimpleCommandKind;
}

/** A clock command wrapped in 0x2B (or 0x2C for the I2C clock variant, UNVERIFIED). */
export interface ClockMessageCommand {
  readonly kind: 'clock' | 'i2c-clock-message';
  readonly clock: ClockCommand;
}

/** Revelation II LEDs: `60 04 <pattern> <start> <end> 00`, fields in board numbering (§9). */
export interface LedCommand {
  readonly kind: 'leds';
  readonly pattern: number;
  readonly start: number;
  readonly end: number;
}

export type DgtCommand = SimpleCommand | ClockMessageCommand | LedCommand | BusCommand;

/** What a board may receive: any command, including ones we never make. */
export type ReceivedCommand =
  DgtCommand | { readonly kind: 'forbidden'; readonly name: ForbiddenCommandKind; readonly byte: number };

const SIMPLE_BY_BYTE: ReadonlyMap<number, SimpleCommandKind> = new Map(
  (Object.entries(SIMPLE_COMMANDS) as [SimpleCommandKind, number][]).map(([k, b]) => [b, k]),
);
const FORBIDDEN_BY_BYTE: ReadonlyMap<number, ForbiddenCommandKind> = new Map(
  (Object.entries(FORBIDDEN_COMMANDS) as [ForbiddenCommandKind, number][]).map(([k, b]) => [b, k]),
);

export const isSimpleCommand = (c: DgtCommand): c is SimpleCommand => Object.hasOwn(SIMPLE_COMMANDS, c.kind);

/** The LED command's length byte and total length. */
const LED_LENGTH_BYTE = 0x04;
const LED_COMMAND_LENGTH = 6;

/** Longest clock body accepted when parsing (REV2 ASCII is 15). */
const MAX_CLOCK_BODY = 0x0f;

/** Encodes a command as the host sends it. */
export const makeCommand = (c: DgtCommand, options: ClockCommandOptions = {}): Uint8Array => {
  if (isSimpleCommand(c)) return Uint8Array.of(SIMPLE_COMMANDS[c.kind]);
  switch (c.kind) {
    case 'clock':
    case 'i2c-clock-message': {
      const body = makeClockBody(c.clock, options);
      return Uint8Array.from([
        c.kind === 'clock' ? CMD.CLOCK_MESSAGE : CMD.I2C_CLOCK_MESSAGE,
        body.length,
        ...body,
      ]);
    }
    case 'leds':
      return Uint8Array.of(
        CMD.SET_LEDS,
        LED_LENGTH_BYTE,
        c.pattern & 0x7f,
        c.start & 0x7f,
        c.end & 0x7f,
        0x00,
      );
    case 'bus':
      return makeBusCommand(c);
  }
};

export interface ParsedCommand {
  readonly command: ReceivedCommand;
  /** Bytes the command occupied. */
  readonly length: number;
}

const incomplete = (received: number, needed: number | undefined): Result<ParsedCommand, CommandError> =>
  Result.err(new CommandError({ kind: 'incomplete', received, needed }, 0));

/** Reads the command at the start of `bytes`; `incomplete` errors mean "wait for more bytes". */
export const parseCommand = (
  bytes: Uint8Array,
  options: ClockCommandOptions = {},
): Result<ParsedCommand, CommandError> => {
  const b = bytes[0];
  if (b === undefined) return incomplete(0, undefined);
  if (b & 0x80) return parseBusCommand(bytes).map(command => ({ command, length: 4 }));
  const simple = SIMPLE_BY_BYTE.get(b);
  if (simple !== undefined) return Result.ok({ command: { kind: simple }, length: 1 });
  const forbidden = FORBIDDEN_BY_BYTE.get(b);
  if (forbidden !== undefined)
    return Result.ok({ command: { kind: 'forbidden', name: forbidden, byte: b }, length: 1 });
  if (b === CMD.CLOCK_MESSAGE || b === CMD.I2C_CLOCK_MESSAGE) {
    const len = bytes[1];
    if (len === undefined) return incomplete(1, undefined);
    if (len < 3 || len > MAX_CLOCK_BODY)
      return Result.err(new CommandError({ kind: 'bad-length', declared: len, expected: 3 }, 1));
    const total = len + 2;
    if (bytes.length < total) return incomplete(bytes.length, total);
    const kind = b === CMD.CLOCK_MESSAGE ? 'clock' : 'i2c-clock-message';
    const body = parseClockBody(bytes.subarray(2, total), options);
    if (body.isErr) return Result.err(new CommandError(body.error.problem, total));
    return Result.ok({ command: { kind, clock: body.value }, length: total });
  }
  if (b === CMD.SET_LEDS) {
    if (bytes.length < 2) return incomplete(bytes.length, undefined);
    if (bytes[1] !== LED_LENGTH_BYTE)
      return Result.err(
        new CommandError({ kind: 'bad-length', declared: bytes[1] ?? 0, expected: LED_LENGTH_BYTE }, 1),
      );
    if (bytes.length < LED_COMMAND_LENGTH) return incomplete(bytes.length, LED_COMMAND_LENGTH);
    const command: LedCommand = {
      kind: 'leds',
      pattern: bytes[2] ?? 0,
      start: bytes[3] ?? 0,
      end: bytes[4] ?? 0,
    };
    return Result.ok({ command, length: LED_COMMAND_LENGTH });
  }
  return Result.err(new CommandError({ kind: 'unknown-command', byte: b }, 1));
};

/** What a command reader reports. */
export type CommandReadEvent =
  | { readonly kind: 'command'; readonly command: ReceivedCommand; readonly bytes: Uint8Array }
  | { readonly kind: 'error'; readonly error: CommandError; readonly bytes: Uint8Array };

/** Longest command (REV2 ASCII: 2 + 15 bytes); a reader never holds more. */
export const MAX_COMMAND_LENGTH = 2 + MAX_CLOCK_BODY;

/**
 * Chunk-fed reader of host commands for the board emulator: buffers at most one partial
 * command and skips unreadable bytes with an error event.
 *
 *   const reader = new DgtCommandReader();
 *   for (const e of reader.push(bytesFromHost)) if (e.kind === 'command') answer(e.command);
 */
export class DgtCommandReader {
  private pending = new Uint8Array(0);

  constructor(private readonly options: ClockCommandOptions = {}) {}

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
      } else if (r.error.problem.kind === 'incomplete') {
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

  /** Bytes held while waiting for the rest of a command (never more than MAX_COMMAND_LENGTH). */
  get buffered(): number {
    return this.pending.length;
  }
}
