/**
 * DGT bus-mode commands (reference §8.1): always 4 bytes, command (bit 7 set), 14-bit board
 * address in two 7-bit bytes, checksum = sum of the first three bytes modulo 128. Address 0 is
 * the broadcast address where a command allows it.
 *
 *   makeBusCommand({ kind: 'bus', command: 'send-board', address: 1025 }); // 82 08 01 0B
 *   parseBusCommand(Uint8Array.of(0x87, 0x00, 0x00, 0x07)); // ok: broadcast ping
 *   BUS_REPLY['send-changes']; // 0x85
 */
import { Result } from '@badrap/result';
import { CommandError } from './commandError.js';
import { BUS_MSG, busChecksum, MAX_BUS_ADDRESS } from './constants.js';

/** Bus command bytes. The 0x91–0x9B group comes from the 72002 P1.0 constants (UNVERIFIED). */
export const BUS_COMMANDS = {
  'send-clock': 0x81,
  'send-board': 0x82,
  'send-changes': 0x83,
  'repeat-changes': 0x84,
  'set-start-game': 0x85,
  'send-from-start': 0x86,
  ping: 0x87,
  'end-bus-mode': 0x88,
  reset: 0x89,
  'ignore-next-ping': 0x8a,
  'send-version': 0x8b,
  'send-board-50b': 0x8c,
  'send-all': 0x8d,
  serial: 0x91,
  rping: 0x92,
  'i2c-clock': 0x93,
  'i2c-button': 0x94,
  'i2c-ack': 0x95,
  stats: 0x96,
  trademark: 0x97,
  battery: 0x98,
  'repeat-i2c-button': 0x99,
  'repeat-i2c-ack': 0x9a,
  'hardware-version': 0x9b,
} as const;

export type BusCommandKind = keyof typeof BUS_COMMANDS;

export interface BusCommand {
  readonly kind: 'bus';
  readonly command: BusCommandKind;
  /** 1–16383 for one board, 0 for all boards where allowed. */
  readonly address: number;
}

export const BUS_COMMAND_LENGTH = 4;

const BY_BYTE: ReadonlyMap<number, BusCommandKind> = new Map(
  (Object.entries(BUS_COMMANDS) as [BusCommandKind, number][]).map(([k, b]) => [b, k]),
);

/** The reply id each command expects (§8.1); commands without a reply are absent. */
export const BUS_REPLY: Partial<Record<BusCommandKind, number>> = {
  'send-clock': BUS_MSG.BWTIME,
  'send-board': BUS_MSG.BRD_DUMP,
  'send-changes': BUS_MSG.UPDATE,
  'repeat-changes': BUS_MSG.UPDATE,
  'set-start-game': BUS_MSG.START_GAME_WRITTEN,
  'send-from-start': BUS_MSG.FROM_START,
  ping: BUS_MSG.PING,
  'ignore-next-ping': BUS_MSG.PING,
  'send-version': BUS_MSG.VERSION,
  'send-board-50b': BUS_MSG.BRD_DUMP_50B,
  serial: BUS_MSG.SERIALNR,
  rping: BUS_MSG.PING,
  stats: BUS_MSG.STATS,
  trademark: BUS_MSG.TRADEMARK,
  battery: BUS_MSG.BATTERY,
  'hardware-version': BUS_MSG.HARDWARE_VERSION,
};

export const makeBusCommand = (c: BusCommand): Uint8Array => {
  if (!Number.isInteger(c.address) || c.address < 0 || c.address > MAX_BUS_ADDRESS) {
    throw new TypeError(`bus address out of range: ${c.address}`);
  }
  const head = [BUS_COMMANDS[c.command], (c.address >> 7) & 0x7f, c.address & 0x7f];
  return Uint8Array.from([...head, busChecksum(head)]);
};

/** Reads one bus command from the start of `bytes` (extra bytes are ignored). */
export const parseBusCommand = (bytes: Uint8Array): Result<BusCommand, CommandError> => {
  for (let i = 1; i < Math.min(bytes.length, BUS_COMMAND_LENGTH); i++) {
    if ((bytes[i] ?? 0) & 0x80) return Result.err(new CommandError({ kind: 'interrupted', received: i }, i));
  }
  if (bytes.length < BUS_COMMAND_LENGTH) {
    return Result.err(
      new CommandError({ kind: 'incomplete', received: bytes.length, needed: BUS_COMMAND_LENGTH }, 0),
    );
  }
  const [b0, b1, b2, b3] = [bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0];
  const expected = busChecksum([b0, b1, b2]);
  if (expected !== b3)
    return Result.err(new CommandError({ kind: 'checksum', expected, actual: b3 }, BUS_COMMAND_LENGTH));
  const command = BY_BYTE.get(b0);
  if (command === undefined)
    return Result.err(new CommandError({ kind: 'unknown-command', byte: b0 }, BUS_COMMAND_LENGTH));
  return Result.ok({ kind: 'bus', command, address: (b1 << 7) | b2 });
};
