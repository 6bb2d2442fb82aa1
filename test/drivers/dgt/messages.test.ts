/**
 * Encode-then-decode round trips of every board-to-host message (reference §3.2), the clock
 * payload encoders (§6.1, §6.4) and the EEPROM record format (§7).
 */
import { describe, expect, it } from 'vitest';
import {
  makeClockAckPayload,
  makeClockTimesPayload,
  makeDgtClockFace,
  parseClockPayload,
  type DgtClockTimes,
} from '../../../src/drivers/dgt/clock.js';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import {
  codeFromPiece,
  fieldToSquare,
  pieceFromCode,
  squareToField,
} from '../../../src/drivers/dgt/constants.js';
import { makeLogRecords, parseLogRecords, type DgtLogRecord } from '../../../src/drivers/dgt/eeprom.js';
import { makeMessage, parseMessage, type SingleMessage } from '../../../src/drivers/dgt/messages.js';
import { makeHex } from '../../../src/drivers/observation.js';
import { parseSquare } from 'chessops';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));

const TIMES: DgtClockTimes = {
  right: makeDgtClockFace(5_025_000, { timePerMove: true }),
  left: makeDgtClockFace(545_000, { flagShown: true }),
  status: 0x13,
};

const LOG: DgtLogRecord[] = [
  { kind: 'tag', tag: 'nop' },
  { kind: 'tag', tag: 'power-up' },
  { kind: 'piece', field: 52, code: 0, quick: false },
  { kind: 'piece', field: 36, code: 1, quick: true },
  { kind: 'time', side: 'left', hours: 1, minutes: 59, seconds: 7 },
  { kind: 'time', side: 'right', hours: 0, minutes: 0, seconds: 0 },
  { kind: 'tag', tag: 'begin-pos' },
  { kind: 'tag', tag: 'nop2' },
  { kind: 'unknown', byte: 0x15 },
  { kind: 'tag', tag: 'eof' },
];

/** One message of every single-board kind. */
const MESSAGES: SingleMessage[] = [
  { kind: 'board-dump', codes: Array.from({ length: 64 }, (_, i) => i % 16) },
  { kind: 'field-update', field: 63, code: 0x0c },
  { kind: 'clock', payload: Array.from(makeClockTimesPayload(TIMES)) },
  { kind: 'clock', payload: Array.from(makeClockAckPayload([0x10, 0x88, 0x05, 0x31])) },
  { kind: 'serial', text: '01025' },
  { kind: 'long-serial', text: '3.25A01025' },
  { kind: 'trademark', text: 'DGT Projects - This DGT board is produced by DGT Projects.\n' },
  { kind: 'version', major: 3, minor: 10 },
  { kind: 'hardware-version', major: 1, minor: 2 },
  { kind: 'bus-address', address: 16383 },
  { kind: 'battery', bytes: [85, 2, 30, 1, 0, 0, 0, 0, 1] },
  { kind: 'log', records: LOG },
];

describe('message round trips', () => {
  it.each(MESSAGES.map(m => [m.kind, m] as const))(
    'parseMessage(makeMessage(%s)) is the message',
    (_k, m) => {
      const r = parseMessage(makeMessage(m));
      expect(r.isOk && r.value).toEqual(m);
    },
  );

  it('writes the exact bytes of the reference examples', () => {
    // §10.2 and §1.3 examples.
    expect(makeHex(makeMessage({ kind: 'field-update', field: 0x34, code: 0 }))).toBe('8E 00 05 34 00');
    expect(makeHex(makeMessage({ kind: 'version', major: 3, minor: 10 }))).toBe('93 00 05 03 0A');
    expect(makeHex(makeMessage({ kind: 'bus-address', address: 1025 }))).toBe('90 00 05 08 01');
    expect(
      makeHex(makeMessage({ kind: 'board-dump', codes: new Array<number>(64).fill(0) })).slice(0, 8),
    ).toBe('86 00 43');
  });

  it('every encoded message decodes to observations without protocol errors', () => {
    const d = new DgtDecoder();
    for (const m of MESSAGES) {
      const out = d.push(makeMessage(m), 0);
      expect(out.filter(o => o.type === 'protocol-error')).toEqual([]);
      expect(out.length).toBeGreaterThan(0);
    }
  });

  it('parseMessage refuses a frame whose length disagrees with its header', () => {
    const r = parseMessage(hex('8E 00 05 34'));
    expect(r.isErr && r.error.reason).toEqual({ kind: 'bad-length', id: 0x8e, declared: 5, expected: '4' });
  });
});

describe('clock payloads', () => {
  it('round-trips times', () => {
    const r = parseClockPayload(makeClockTimesPayload(TIMES));
    expect(r).toEqual({ kind: 'times', times: TIMES });
  });

  it('writes the constructed §10.3 example', () => {
    const t: DgtClockTimes = {
      right: makeDgtClockFace(5_025_000),
      left: makeDgtClockFace(545_000),
      status: 0x13,
    };
    expect(makeHex(makeClockTimesPayload(t))).toBe('01 23 45 00 09 05 13');
  });

  // §6.4 / §10.4: acks with and without high bits.
  it.each<[[number, number, number, number], string]>([
    [[0x10, 0x09, 0x20, 0x00], '0A 10 09 0A 20 00 00'],
    [[0x10, 0x88, 0x05, 0x31], '0A 10 08 2A 05 31 00'],
    [[0x90, 0x81, 0x85, 0xb1], '3A 10 01 3A 05 31 00'],
  ])('round-trips ack %j', (ack, bytes) => {
    expect(makeHex(makeClockAckPayload(ack))).toBe(bytes);
    expect(parseClockPayload(hex(bytes))).toEqual({ kind: 'ack', ack });
  });

  it('caps faces at 9:59:59 and rounds down to whole seconds', () => {
    expect(makeDgtClockFace(36_000_000)).toMatchObject({ hours: 9, minutes: 59, seconds: 59 });
    expect(makeDgtClockFace(1999)).toMatchObject({ hours: 0, minutes: 0, seconds: 1 });
  });
});

describe('EEPROM records (§7)', () => {
  it('round-trips a record list', () => {
    expect(parseLogRecords(makeLogRecords(LOG))).toEqual(LOG);
  });

  it('re-encodes any 7-bit byte string exactly (parsing is total and lossless)', () => {
    let seed = 12345;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 128;
    for (let n = 0; n < 200; n++) {
      const bytes = Uint8Array.from({ length: 1 + (n % 37) }, rnd);
      expect(makeLogRecords(parseLogRecords(bytes))).toEqual(bytes);
    }
  });

  it.each([
    ['piece record cut short', '41', [{ kind: 'unknown', byte: 0x41 }]],
    [
      'piece record with field 64',
      '41 40',
      [
        { kind: 'unknown', byte: 0x41 },
        { kind: 'unknown', byte: 0x40 },
      ],
    ],
    [
      'time record with a bad BCD digit',
      '60 0A 00',
      [
        { kind: 'unknown', byte: 0x60 },
        { kind: 'unknown', byte: 0x0a },
        { kind: 'tag', tag: 'nop2' },
      ],
    ],
    [
      'newer delay records (UNVERIFIED) are skipped byte by byte',
      '10 3F',
      [
        { kind: 'unknown', byte: 0x10 },
        { kind: 'unknown', byte: 0x3f },
      ],
    ],
  ])('parses a %s defensively', (_name, bytes, records) => {
    expect(parseLogRecords(hex(bytes))).toEqual(records);
  });
});

describe('piece codes and fields (§4)', () => {
  it('maps all 16 codes and back', () => {
    for (let code = 0; code < 16; code++) expect(codeFromPiece(pieceFromCode(code))).toBe(code);
    expect(pieceFromCode(0x05)).toEqual({ kind: 'piece', color: 'white', role: 'king' });
    expect(pieceFromCode(0x0c)).toEqual({ kind: 'piece', color: 'black', role: 'queen' });
    expect(codeFromPiece({ kind: 'occupied' })).toBeUndefined();
  });

  // §4.1 examples: a8 = 0, h8 = 7, e2 = 52, e4 = 36, a1 = 56, h1 = 63.
  it.each([
    [0, 'a8'],
    [7, 'h8'],
    [52, 'e2'],
    [36, 'e4'],
    [56, 'a1'],
    [63, 'h1'],
  ])('field %i is %s on a normal board', (field, name) => {
    expect(fieldToSquare(field, 'normal')).toBe(parseSquare(name));
    expect(squareToField(parseSquare(name)!, 'normal')).toBe(field);
  });

  it('maps field n on a rotated board to the normal square of field 63 - n, both ways', () => {
    for (let n = 0; n < 64; n++) {
      expect(fieldToSquare(n, 'rotated')).toBe(fieldToSquare(63 - n, 'normal'));
      expect(squareToField(fieldToSquare(n, 'rotated'), 'rotated')).toBe(n);
    }
  });
});
