/**
 * DGT bus mode, board-to-host side (reference §8.2): many boards share one line; each reply is
 * framed like a single-board message but carries the sender's 14-bit address after the size and
 * ends with a checksum (sum of all previous bytes, low 7 bits). Reply ids overlap the
 * single-board ids, so bus traffic needs this decoder, not DgtDecoder. Each observation comes
 * out keyed by the sending board's address, with that board's orientation applied.
 *
 *   const bus = new DgtBusDecoder();
 *   bus.setOrientation(1025, 'rotated');
 *   for (const { address, observation } of bus.push(chunk, now)) route(address, observation);
 */
import { Result } from '@badrap/result';
import type { Observation, Orientation } from '../observation.js';
import { ProtocolError } from '../observation.js';
import {
  BUS_MSG,
  busChecksum,
  DEFAULT_BUFFER_CAP,
  HEADER_LENGTH,
  MAX_BUS_ADDRESS,
  MAX_MESSAGE_LENGTH,
} from './constants.js';
import { makeLogRecords, parseLogRecords } from './eeprom.js';
import { DgtFramer, type FrameSink, type LengthVerdict } from './framing.js';
import { makeAscii, parseAscii, versionBytes, type DgtMessage } from './messages.js';
import { frameError, observeMessage } from './observe.js';

/** Id, two size bytes, two address bytes, checksum. */
export const BUS_OVERHEAD = HEADER_LENGTH + 3;

/** Messages a board sends in bus mode. */
export type BusMessage = Extract<
  DgtMessage,
  {
    kind:
      | 'board-dump'
      | 'clock'
      | 'serial'
      | 'trademark'
      | 'battery'
      | 'hardware-version'
      | 'bus-update'
      | 'bus-from-start'
      | 'bus-ping'
      | 'bus-start-game-written'
      | 'bus-version';
  }
>;

export interface AddressedMessage {
  readonly address: number;
  readonly message: BusMessage;
}

/** An observation from one board of the bus; `address` is undefined when no board can be named. */
export interface BusObservation {
  readonly address: number | undefined;
  readonly observation: Observation;
}

/** Fixed total lengths; [min, max] for the rest. Sizes of the 72002-P1.0 ids are UNVERIFIED. */
const BUS_LENGTHS: ReadonlyMap<number, readonly [number, number]> = new Map<
  number,
  readonly [number, number]
>([
  [BUS_MSG.BRD_DUMP, [70, 70]],
  [BUS_MSG.BWTIME, [13, 13]],
  [BUS_MSG.UPDATE, [BUS_OVERHEAD, MAX_MESSAGE_LENGTH]],
  [BUS_MSG.UPDATE_EVEN, [BUS_OVERHEAD, MAX_MESSAGE_LENGTH]],
  [BUS_MSG.FROM_START, [BUS_OVERHEAD, MAX_MESSAGE_LENGTH]],
  [BUS_MSG.PING, [6, 6]],
  [BUS_MSG.START_GAME_WRITTEN, [6, 6]],
  // 8 bytes; 6 (no data) up to firmware 1.2.
  [BUS_MSG.VERSION, [6, 8]],
  [BUS_MSG.HARDWARE_VERSION, [8, 8]],
  [BUS_MSG.SERIALNR, [BUS_OVERHEAD, 64]],
  [BUS_MSG.TRADEMARK, [BUS_OVERHEAD, MAX_MESSAGE_LENGTH]],
  [BUS_MSG.BATTERY, [BUS_OVERHEAD, 64]],
]);

const BUS_UNSUPPORTED: ReadonlyMap<number, string> = new Map([
  [BUS_MSG.BRD_DUMP_50B, 'BUS_BRD_DUMP_50B'],
  [BUS_MSG.I2C, 'BUS_I2C'],
  [BUS_MSG.STATS, 'BUS_STATS'],
  [BUS_MSG.CONFIG, 'BUS_CONFIG'],
]);

export const busLengthPolicy = (id: number, declared: number): LengthVerdict => {
  const name = BUS_UNSUPPORTED.get(id);
  if (name !== undefined) return { skip: { kind: 'unsupported-message', id, name } };
  const range = BUS_LENGTHS.get(id);
  if (range === undefined) return { skip: { kind: 'unknown-message', id } };
  if (declared === 7 && id === BUS_MSG.VERSION)
    return { skip: { kind: 'bad-length', id, declared, expected: '6 or 8' } };
  const [min, max] = range;
  if (declared >= min && declared <= max) return 'accept';
  return {
    skip: { kind: 'bad-length', id, declared, expected: min === max ? String(min) : `${min}..${max}` },
  };
};

const parseBusData = (id: number, d: Uint8Array): BusMessage | undefined => {
  switch (id) {
    case BUS_MSG.BRD_DUMP:
      return { kind: 'board-dump', codes: Array.from(d) };
    case BUS_MSG.BWTIME:
      return { kind: 'clock', payload: Array.from(d) };
    case BUS_MSG.UPDATE:
    case BUS_MSG.UPDATE_EVEN:
      return { kind: 'bus-update', records: parseLogRecords(d), even: id === BUS_MSG.UPDATE_EVEN };
    case BUS_MSG.FROM_START:
      return { kind: 'bus-from-start', records: parseLogRecords(d) };
    case BUS_MSG.PING:
      return { kind: 'bus-ping' };
    case BUS_MSG.START_GAME_WRITTEN:
      return { kind: 'bus-start-game-written' };
    case BUS_MSG.VERSION:
      return {
        kind: 'bus-version',
        version: d.length >= 2 ? { major: d[0] ?? 0, minor: d[1] ?? 0 } : undefined,
      };
    case BUS_MSG.HARDWARE_VERSION:
      return { kind: 'hardware-version', major: d[0] ?? 0, minor: d[1] ?? 0 };
    case BUS_MSG.SERIALNR:
      return { kind: 'serial', text: parseAscii(d) };
    case BUS_MSG.TRADEMARK:
      return { kind: 'trademark', text: parseAscii(d) };
    case BUS_MSG.BATTERY:
      return { kind: 'battery', bytes: Array.from(d) };
  }
  return undefined;
};

/** Parses one complete bus frame (header through checksum). */
export const parseBusFrame = (frame: Uint8Array): Result<AddressedMessage, ProtocolError> => {
  const id = frame[0] ?? 0;
  const declared = ((frame[1] ?? 0) << 7) | (frame[2] ?? 0);
  if (declared !== frame.length || declared < BUS_OVERHEAD) {
    return Result.err(
      new ProtocolError({
        kind: 'bad-length',
        id,
        declared,
        expected: `>= ${BUS_OVERHEAD} and the frame's length`,
      }),
    );
  }
  const address = ((frame[3] ?? 0) << 7) | (frame[4] ?? 0);
  const actual = frame[frame.length - 1] ?? 0;
  const expected = busChecksum(frame.subarray(0, frame.length - 1));
  if (actual !== expected)
    return Result.err(new ProtocolError({ kind: 'checksum', expected, actual, address }));
  const message = parseBusData(id, frame.subarray(5, frame.length - 1));
  if (message === undefined) return Result.err(new ProtocolError({ kind: 'unknown-message', id }));
  return Result.ok({ address, message });
};

const busPayload = (m: BusMessage): { readonly id: number; readonly data: readonly number[] } => {
  switch (m.kind) {
    case 'board-dump':
      return { id: BUS_MSG.BRD_DUMP, data: m.codes };
    case 'clock':
      return { id: BUS_MSG.BWTIME, data: m.payload };
    case 'bus-update':
      return {
        id: m.even ? BUS_MSG.UPDATE_EVEN : BUS_MSG.UPDATE,
        data: Array.from(makeLogRecords(m.records)),
      };
    case 'bus-from-start':
      return { id: BUS_MSG.FROM_START, data: Array.from(makeLogRecords(m.records)) };
    case 'bus-ping':
      return { id: BUS_MSG.PING, data: [] };
    case 'bus-start-game-written':
      return { id: BUS_MSG.START_GAME_WRITTEN, data: [] };
    case 'bus-version':
      return { id: BUS_MSG.VERSION, data: m.version === undefined ? [] : versionBytes(m.version) };
    case 'hardware-version':
      return { id: BUS_MSG.HARDWARE_VERSION, data: versionBytes(m) };
    case 'serial':
      return { id: BUS_MSG.SERIALNR, data: makeAscii(m.text) };
    case 'trademark':
      return { id: BUS_MSG.TRADEMARK, data: makeAscii(m.text) };
    case 'battery':
      return { id: BUS_MSG.BATTERY, data: m.bytes };
  }
};

/** Encodes a bus reply from board `address` as the board sends it. */
export const makeBusMessage = (address: number, m: BusMessage): Uint8Array => {
  if (!Number.isInteger(address) || address < 0 || address > MAX_BUS_ADDRESS)
    throw new TypeError(`bus address out of range: ${address}`);
  const { id, data } = busPayload(m);
  const total = data.length + BUS_OVERHEAD;
  if (total > MAX_MESSAGE_LENGTH) throw new TypeError(`message too long: ${total} > ${MAX_MESSAGE_LENGTH}`);
  const out = new Uint8Array(total);
  out.set([id | 0x80, (total >> 7) & 0x7f, total & 0x7f, (address >> 7) & 0x7f, address & 0x7f]);
  out.set(
    Array.from(data, b => b & 0x7f),
    5,
  );
  out[total - 1] = busChecksum(out.subarray(0, total - 1));
  return out;
};

export interface DgtBusDecoderOptions {
  /** Orientation of boards without their own setting; default 'normal'. */
  readonly orientation?: Orientation;
  /** Hard cap on buffered message bytes (default 16384). */
  readonly bufferCap?: number;
}

export class DgtBusDecoder {
  /** Orientation of boards without their own setting. */
  defaultOrientation: Orientation;
  private readonly orientations = new Map<number, Orientation>();
  private readonly framer: DgtFramer;
  private out: BusObservation[] = [];
  private at = 0;
  private readonly sink: FrameSink = {
    frame: frame => {
      const parsed = parseBusFrame(frame);
      if (parsed.isErr) {
        this.out.push({
          address: undefined,
          observation: frameError(parsed.error.reason, {
            at: this.at,
            orientation: this.defaultOrientation,
            frame,
          }),
        });
        return;
      }
      const { address, message } = parsed.value;
      const ctx = { at: this.at, orientation: this.orientationOf(address), frame };
      for (const observation of observeMessage(message, ctx)) this.out.push({ address, observation });
    },
    error: (reason, hex, count) => {
      this.out.push({
        address: undefined,
        observation: { type: 'protocol-error', at: this.at, reason, hex, count },
      });
    },
  };

  constructor(options: DgtBusDecoderOptions = {}) {
    this.defaultOrientation = options.orientation ?? 'normal';
    this.framer = new DgtFramer(options.bufferCap ?? DEFAULT_BUFFER_CAP, busLengthPolicy);
  }

  setOrientation(address: number, orientation: Orientation): void {
    this.orientations.set(address, orientation);
  }

  orientationOf(address: number): Orientation {
    return this.orientations.get(address) ?? this.defaultOrientation;
  }

  push(chunk: Uint8Array, at: number): BusObservation[] {
    this.at = at;
    this.out = [];
    this.framer.push(chunk, this.sink);
    return this.out;
  }

  finish(at: number): BusObservation[] {
    this.at = at;
    this.out = [];
    this.framer.finish(this.sink);
    return this.out;
  }

  get bufferHighWater(): number {
    return this.framer.bufferHighWater;
  }
}
