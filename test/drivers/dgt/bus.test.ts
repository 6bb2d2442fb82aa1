/**
 * Bus mode (reference §8): reply framing with address and checksum, per-board observations,
 * a bad checksum followed by recovery, and round trips of every bus reply.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import {
  DgtBusDecoder,
  makeBusMessage,
  parseBusFrame,
  type BusMessage,
  type BusObservation,
} from '../../../src/drivers/dgt/bus.js';
import { makeClockTimesPayload, makeDgtClockFace } from '../../../src/drivers/dgt/clock.js';
import { busChecksum } from '../../../src/drivers/dgt/constants.js';
import { EMPTY, makeHex, makePiece, START_SQUARES } from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const sq = (name: string): number => parseSquare(name)!;
const decodeAll = (bytes: Uint8Array, setup?: (d: DgtBusDecoder) => void): BusObservation[] => {
  const d = new DgtBusDecoder();
  setup?.(d);
  return [...d.push(bytes, 0), ...d.finish(0)];
};

// §10.1 capture A codes, field order.
const START_CODES = Array.from(
  hex(
    `08 09 0A 0C 0B 0A 09 08 ${'07 '.repeat(8)} ${'00 '.repeat(32)} ${'01 '.repeat(8)} 02 03 04 06 05 04 03 02`,
  ),
);

/** One reply of every bus kind. */
const REPLIES: BusMessage[] = [
  { kind: 'board-dump', codes: START_CODES },
  {
    kind: 'clock',
    payload: Array.from(
      makeClockTimesPayload({
        right: makeDgtClockFace(60_000),
        left: makeDgtClockFace(61_000),
        status: 0x01,
      }),
    ),
  },
  {
    kind: 'bus-update',
    even: false,
    records: [
      { kind: 'piece', field: 52, code: 0, quick: false },
      { kind: 'piece', field: 36, code: 1, quick: true },
    ],
  },
  {
    kind: 'bus-update',
    even: true,
    records: [{ kind: 'time', side: 'left', hours: 0, minutes: 4, seconds: 59 }],
  },
  {
    kind: 'bus-from-start',
    records: [
      { kind: 'tag', tag: 'start-tag' },
      { kind: 'piece', field: 52, code: 0, quick: false },
    ],
  },
  { kind: 'bus-ping' },
  { kind: 'bus-start-game-written' },
  { kind: 'bus-version', version: { major: 1, minor: 3 } },
  { kind: 'bus-version', version: undefined },
  { kind: 'hardware-version', major: 2, minor: 0 },
  { kind: 'serial', text: '01025' },
  { kind: 'trademark', text: 'DGT' },
  { kind: 'battery', bytes: [50, 1, 0, 0, 0, 0, 0, 0, 0] },
];

describe('bus checksums (§8)', () => {
  // §8.1 header example and §10.5 frames.
  it.each([
    ['81 10 06', 0x17],
    ['82 08 01', 0x0b],
    ['87 00 00', 0x07],
    ['87 00 06 08 01', 0x16],
  ])('checksum of %s is %i', (bytes, sum) => {
    expect(busChecksum(hex(bytes))).toBe(sum);
  });

  it('decodes the ping reply from board 1025 (§10.5)', () => {
    expect(decodeAll(hex('87 00 06 08 01 16'))).toEqual([
      { address: 1025, observation: { type: 'bus-reply', at: 0, reply: 'ping' } },
    ]);
  });

  it('reports a bad checksum with the address as read, then recovers on the next frame', () => {
    const out = decodeAll(hex('87 00 06 08 01 17 87 00 06 08 02 17'));
    expect(out).toEqual([
      {
        address: undefined,
        observation: {
          type: 'protocol-error',
          at: 0,
          reason: { kind: 'checksum', expected: 0x16, actual: 0x17, address: 1025 },
          hex: '87 00 06 08 01 17',
          count: 6,
        },
      },
      { address: 1026, observation: { type: 'bus-reply', at: 0, reply: 'ping' } },
    ]);
  });
});

describe('bus replies', () => {
  it.each(REPLIES.map(m => [m.kind, m] as const))('round-trips %s', (_k, m) => {
    const r = parseBusFrame(makeBusMessage(1025, m));
    expect(r.isOk && r.value).toEqual({ address: 1025, message: m });
  });

  it('writes the 70-byte board dump of §8.2', () => {
    const frame = makeBusMessage(1, { kind: 'board-dump', codes: START_CODES });
    expect(frame.length).toBe(70);
    expect(makeHex(frame.subarray(0, 5))).toBe('83 00 46 00 01');
  });

  it('keys observations by address and applies each board its own orientation', () => {
    const update: BusMessage = {
      kind: 'bus-update',
      even: false,
      records: [{ kind: 'piece', field: 52, code: 0, quick: false }],
    };
    const bytes = Uint8Array.from([...makeBusMessage(7, update), ...makeBusMessage(8, update)]);
    expect(decodeAll(bytes, d => d.setOrientation(8, 'rotated'))).toEqual([
      { address: 7, observation: { type: 'square', at: 0, square: sq('e2'), content: EMPTY } },
      { address: 8, observation: { type: 'square', at: 0, square: sq('d7'), content: EMPTY } },
    ]);
  });

  it('turns a change list into square observations plus one log of its other records', () => {
    const m: BusMessage = {
      kind: 'bus-update',
      even: false,
      records: [
        { kind: 'piece', field: 52, code: 0, quick: false },
        { kind: 'time', side: 'right', hours: 0, minutes: 1, seconds: 2 },
        { kind: 'piece', field: 36, code: 1, quick: true },
      ],
    };
    expect(decodeAll(makeBusMessage(3, m)).map(o => o.observation)).toEqual([
      { type: 'square', at: 0, square: sq('e2'), content: EMPTY },
      { type: 'square', at: 0, square: sq('e4'), content: makePiece('white', 'pawn') },
      {
        type: 'eeprom-log',
        at: 0,
        source: 'bus-update',
        records: [{ kind: 'time', side: 'right', ms: 62_000 }],
      },
    ]);
  });

  it('decodes a bus board dump to a snapshot', () => {
    expect(decodeAll(makeBusMessage(1025, { kind: 'board-dump', codes: START_CODES }))).toEqual([
      { address: 1025, observation: { type: 'snapshot', at: 0, squares: START_SQUARES } },
    ]);
  });

  it('decodes a reply split at every byte position', () => {
    const frame = makeBusMessage(1025, REPLIES[1]!);
    const whole = decodeAll(frame);
    expect(whole.map(o => o.observation.type)).toEqual(['clock']);
    for (let k = 1; k < frame.length; k++) {
      const d = new DgtBusDecoder();
      expect([...d.push(frame.subarray(0, k), 0), ...d.push(frame.subarray(k), 0)]).toEqual(whole);
    }
  });

  it('rejects a bus version of 7 bytes and an unknown id, then recovers', () => {
    const bad = hex('89 00 07 08 01 01 00');
    const unknown = hex('A5 00 06 08 01 00');
    const out = decodeAll(Uint8Array.from([...bad, ...unknown, ...hex('87 00 06 08 01 16')]));
    expect(
      out.map(o =>
        o.observation.type === 'protocol-error' ? o.observation.reason.kind : o.observation.type,
      ),
    ).toEqual(['bad-length', 'unknown-message', 'bus-reply']);
  });

  it('refuses an address beyond 14 bits', () => {
    expect(() => makeBusMessage(16384, { kind: 'bus-ping' })).toThrow(TypeError);
  });
});
