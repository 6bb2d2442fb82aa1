/**
 * Byte-table tests of the single-board decoder (STYLE item 13): the worked examples of the DGT
 * reference §10, every message kind, several frames in one chunk and every split position.
 * Error paths (garbage, bad sizes, the buffer cap, lone bytes) are in resync.test.ts.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import { makeMessage } from '../../../src/drivers/dgt/messages.js';
import {
  EMPTY,
  detectOrientation,
  makePiece,
  START_SQUARES,
  type Observation,
  type Orientation,
} from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const sq = (name: string): number => parseSquare(name)!;
const decodeAll = (bytes: Uint8Array, orientation: Orientation = 'normal'): Observation[] => {
  const d = new DgtDecoder({ orientation });
  return [...d.push(bytes, 0), ...d.finish(0)];
};
const kinds = (obs: Observation[]): string[] =>
  obs.map(o => (o.type === 'protocol-error' ? `error:${o.reason.kind}` : o.type));

// §10.1 capture A: initial position, normal orientation.
const DUMP_NORMAL = hex(`86 00 43
  08 09 0A 0C 0B 0A 09 08  07 07 07 07 07 07 07 07
  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
  01 01 01 01 01 01 01 01  02 03 04 06 05 04 03 02`);
// §10.1 capture B: the same position on a rotated board.
const DUMP_ROTATED = hex(
  `86 00 43 02 03 04 05 06 04 03 02 ${'01 '.repeat(8)} ${'00 '.repeat(32)} ${'07 '.repeat(8)} 08 09 0A 0B 0C 0A 09 08`,
);

const WHITE_PAWN = makePiece('white', 'pawn');

/** Every frame kind the board sends, with the observation types it yields (reference §3.2). */
const FRAMES: readonly { name: string; bytes: Uint8Array; types: string[] }[] = [
  { name: 'board dump (§10.1)', bytes: DUMP_NORMAL, types: ['snapshot'] },
  { name: 'field update (§10.2)', bytes: hex('8E 00 05 34 00'), types: ['square'] },
  { name: 'clock times (§10.3)', bytes: hex('8D 00 0A 20 03 02 20 03 01 09'), types: ['clock'] },
  { name: 'clock ack (§10.4)', bytes: hex('8D 00 0A 0A 10 09 0A 20 00 00'), types: ['clock-ack'] },
  { name: 'serial number (§1.3)', bytes: hex('91 00 08 30 31 30 32 35'), types: ['identity'] },
  {
    name: 'long serial (§1.3)',
    bytes: makeMessage({ kind: 'long-serial', text: '3.25A00001' }),
    types: ['identity'],
  },
  { name: 'version (§1.3)', bytes: hex('93 00 05 03 0A'), types: ['identity'] },
  {
    name: 'trademark (§1.3)',
    bytes: makeMessage({ kind: 'trademark', text: 'DGT Projects' }),
    types: ['identity'],
  },
  { name: 'bus address (§1.3)', bytes: hex('90 00 05 08 01'), types: ['identity'] },
  { name: 'battery (§3.5)', bytes: hex('A0 00 0C 55 02 1E 01 00 00 00 00 01'), types: ['battery'] },
  { name: 'EEPROM log (§7)', bytes: hex('8F 00 08 6A 41 30 6B 00'), types: ['eeprom-log'] },
];

describe('§10 worked examples', () => {
  it('decodes the initial position (capture A) to the start squares', () => {
    const [obs] = decodeAll(DUMP_NORMAL);
    expect(obs).toEqual({ type: 'snapshot', at: 0, squares: START_SQUARES });
  });

  it('decodes the rotated initial position (capture B) with a rotated orientation, and detects it', () => {
    const [obs] = decodeAll(DUMP_ROTATED, 'rotated');
    expect(obs).toEqual({ type: 'snapshot', at: 0, squares: START_SQUARES });
    const [asNormal] = decodeAll(DUMP_ROTATED, 'normal');
    expect(asNormal?.type === 'snapshot' && detectOrientation(asNormal.squares)).toBe('rotated');
  });

  // §10.2: e2-e4 as two field updates, on a normal and on a rotated board.
  it.each<[Orientation, string]>([
    ['normal', '8E 00 05 34 00 8E 00 05 24 01'],
    ['rotated', '8E 00 05 0B 00 8E 00 05 1B 01'],
  ])('decodes e2-e4 on a %s board', (orientation, bytes) => {
    expect(decodeAll(hex(bytes), orientation)).toEqual([
      { type: 'square', at: 0, square: sq('e2'), content: EMPTY },
      { type: 'square', at: 0, square: sq('e4'), content: WHITE_PAWN },
    ]);
  });

  // §10.3 clock messages: [bytes, left ms, right ms, running, lever, flags of the right face].
  it.each<
    [
      string,
      string,
      number,
      number,
      string | undefined,
      string,
      { flagFallen: boolean; timePerMove: boolean },
    ]
  >([
    [
      'capture A, left running',
      '8D 00 0A 20 03 02 20 03 01 09',
      181_000,
      182_000,
      'left',
      'left',
      { flagFallen: false, timePerMove: true },
    ],
    [
      'capture A, after the press',
      '8D 00 0A 20 03 02 20 03 01 13',
      181_000,
      182_000,
      'right',
      'right',
      { flagFallen: false, timePerMove: true },
    ],
    [
      'capture C, flag fall',
      '8D 00 0A 30 00 00 20 00 16 12',
      16_000,
      0,
      undefined,
      'right',
      { flagFallen: true, timePerMove: true },
    ],
    [
      'constructed 1:23:45 / 0:09:05',
      '8D 00 0A 01 23 45 00 09 05 13',
      545_000,
      5_025_000,
      'right',
      'right',
      { flagFallen: false, timePerMove: false },
    ],
  ])('decodes clock times: %s', (_name, bytes, leftMs, rightMs, running, lever, rightFlags) => {
    const [obs] = decodeAll(hex(bytes));
    expect(obs).toMatchObject({
      type: 'clock',
      connected: true,
      left: { ms: leftMs },
      right: { ms: rightMs, ...rightFlags },
      running,
      lever,
      batteryLow: false,
    });
  });

  it('decodes the DGT3000 version ack (§10.4) as version 2.0', () => {
    expect(decodeAll(hex('8D 00 0A 0A 10 09 0A 20 00 00'))).toEqual([
      {
        type: 'clock-ack',
        at: 0,
        ack: [0x10, 0x09, 0x20, 0x00],
        ok: true,
        event: { kind: 'version', main: 2, sub: 0 },
      },
    ]);
  });

  it('decodes the Back button auto-ack (§10.4), ack1 high bit carried in byte 6', () => {
    expect(decodeAll(hex('8D 00 0A 0A 10 08 2A 05 31 00'))).toEqual([
      {
        type: 'clock-ack',
        at: 0,
        ack: [0x10, 0x88, 0x05, 0x31],
        ok: true,
        event: { kind: 'button', button: 'back', held: 0x05 },
      },
    ]);
  });
});

describe('message decoding', () => {
  it.each([
    // §1.3: 2012 header, 5 digits.
    ['91 00 08 30 31 30 32 35', { serial: '01025' }],
    // §1.3: v1.03 header, 5 digits + space + storage version "1.0" (12 bytes).
    ['91 00 0C 30 30 31 33 37 20 31 2E 30', { serial: '00137' }],
    ['93 00 05 03 0A', { firmware: '3.10' }],
    ['93 00 05 01 50', { firmware: '1.80' }],
    ['96 00 05 02 01', { hardware: '2.01' }],
    ['90 00 05 08 01', { busAddress: 1025 }],
  ])('identity %s', (bytes, fields) => {
    expect(decodeAll(hex(bytes))).toEqual([{ type: 'identity', at: 0, vendor: 'DGT', ...fields }]);
  });

  it('decodes the battery status with 9 payload bytes and with 7 (both readings of §3.5)', () => {
    expect(decodeAll(hex('A0 00 0C 55 02 1E 01 00 00 00 00 01'))).toMatchObject([
      { type: 'battery', percent: 85, charging: true, minutesLeft: 150 },
    ]);
    expect(decodeAll(hex('A0 00 0A 40 7F 7F 01 00 00 00'))).toMatchObject([
      { type: 'battery', percent: 64, charging: undefined, minutesLeft: undefined },
    ]);
  });

  it('decodes the EEPROM log (§7) with orientation applied to piece records', () => {
    expect(decodeAll(hex('8F 00 0D 6A 41 30 52 0B 63 12 05 7A 6B'), 'rotated')).toEqual([
      {
        type: 'eeprom-log',
        at: 0,
        source: 'dump',
        records: [
          { kind: 'tag', tag: 'power-up' },
          // field 0x30 = 48 (a2 normal) is h7 on a rotated board.
          { kind: 'piece', square: sq('h7'), content: WHITE_PAWN, quick: false },
          { kind: 'piece', square: sq('e2'), content: makePiece('white', 'rook'), quick: true },
          { kind: 'time', side: 'right', ms: (3 * 3600 + 12 * 60 + 5) * 1000 },
          { kind: 'tag', tag: 'begin-pos-rotated' },
          { kind: 'tag', tag: 'eof' },
        ],
      },
    ]);
  });

  it('treats an all-zero clock message as an empty ack (§5.4 Q4), not as times', () => {
    expect(decodeAll(hex('8D 00 0A 00 00 00 00 00 00 00'))).toMatchObject([
      { type: 'clock-ack', ok: false, event: { kind: 'empty' } },
    ]);
  });

  it('reports "no clock" (status D5) as a disconnected clock', () => {
    expect(decodeAll(hex('8D 00 0A 00 00 00 00 00 00 20'))).toMatchObject([
      { type: 'clock', connected: false, running: undefined },
    ]);
  });

  it('decodes the magic result pieces (§4.2)', () => {
    expect(
      decodeAll(hex('8E 00 05 24 0E 8E 00 05 24 0F 8E 00 05 24 0D')).map(
        o => o.type === 'square' && o.content,
      ),
    ).toEqual([
      { kind: 'result-piece', result: '1-0' },
      { kind: 'result-piece', result: '0-1' },
      { kind: 'result-piece', result: '1/2-1/2' },
    ]);
  });
});

describe('chunking', () => {
  it('decodes two frames in one chunk', () => {
    expect(kinds(decodeAll(hex('8E 00 05 34 00 8D 00 0A 20 03 02 20 03 01 09')))).toEqual([
      'square',
      'clock',
    ]);
  });

  it('decodes all frame kinds back to back in one chunk', () => {
    const all = Uint8Array.from(FRAMES.flatMap(f => Array.from(f.bytes)));
    expect(kinds(decodeAll(all))).toEqual(FRAMES.flatMap(f => f.types));
  });

  for (const f of FRAMES) {
    it(`decodes ${f.name} split at every byte position, with the 'at' of the completing chunk`, () => {
      const whole = decodeAll(f.bytes);
      expect(kinds(whole)).toEqual(f.types);
      for (let k = 1; k < f.bytes.length; k++) {
        const d = new DgtDecoder();
        expect(d.push(f.bytes.subarray(0, k), 10)).toEqual([]);
        const rest = d.push(f.bytes.subarray(k), 20);
        expect(rest).toEqual(whole.map(o => ({ ...o, at: 20 })));
      }
    });
  }

  it('decodes every frame fed one byte at a time', () => {
    const d = new DgtDecoder();
    const all = Uint8Array.from(FRAMES.flatMap(f => Array.from(f.bytes)));
    const out = Array.from(all).flatMap(b => d.push(Uint8Array.of(b), 0));
    expect(out).toEqual(decodeAll(all));
  });

  it('decodes two frames split at every pair of positions', () => {
    const two = hex('8E 00 05 34 00 93 00 05 03 0A');
    const expected = decodeAll(two);
    for (let i = 1; i < two.length; i++) {
      for (let j = i; j < two.length; j++) {
        const d = new DgtDecoder();
        const got = [
          ...d.push(two.subarray(0, i), 0),
          ...d.push(two.subarray(i, j), 0),
          ...d.push(two.subarray(j), 0),
        ];
        expect(got).toEqual(expected);
      }
    }
  });
});
