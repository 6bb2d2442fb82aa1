/**
 * Byte-table tests of the Millennium decoder (STYLE item 13): the worked example of the
 * reference §1.10 in both orientations, every reply kind of §1.3, several frames in one chunk and
 * every split position. Error paths (garbage, checksum, parity, overflow) are in resync.test.ts.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { MillenniumDecoder, parseStatusBoard } from '../../../src/drivers/millennium/codec.js';
import { makeReply } from '../../../src/drivers/millennium/messages.js';
import { makeWire } from '../../../src/drivers/millennium/protocol.js';
import {
  detectOrientation,
  EMPTY,
  makePiece,
  START_SQUARES,
  type Orientation,
} from '../../../src/drivers/observation.js';
import type { BoardObservation } from '../../../src/drivers/observationExtra.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const sq = (name: string): number => parseSquare(name)!;
const decodeAll = (bytes: Uint8Array, orientation: Orientation = 'normal'): BoardObservation[] => {
  const d = new MillenniumDecoder({ orientation });
  return [...d.push(bytes, 0), ...d.finish(0)];
};
const kinds = (obs: BoardObservation[]): string[] =>
  obs.map(o => (o.type === 'protocol-error' ? `error:${o.reason.kind}` : o.type));

// §1.10: the start position in orientation A, bytes on the wire with parity bits.
const START_A_BYTES = hex(`73 52 CE C2 CB 51 C2 CE 52
  D0 D0 D0 D0 D0 D0 D0 D0
  ${'AE '.repeat(32)}
  70 70 70 70 70 70 70 70
  F2 6E 62 6B F1 62 6E F2
  37 B3`);
const START_A_TEXT = 'sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr73';
// §1.10: the same position in orientation B (checksum also 73).
const START_B_TEXT = 'srnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR73';

/** Every reply kind (§1.3 table), as text with checksum, with the observation types it yields. */
const FRAMES: readonly { name: string; text: string; types: string[] }[] = [
  { name: 'status (§1.10)', text: START_A_TEXT, types: ['snapshot'] },
  { name: 'version (§1.4 real capture)', text: 'v010374', types: ['identity'] },
  { name: 'LED ack', text: makeReply({ kind: 'leds-ack' }), types: ['command-ack'] },
  { name: 'LEDs-off ack', text: makeReply({ kind: 'leds-off-ack' }), types: ['command-ack'] },
  {
    name: 'register written',
    text: makeReply({ kind: 'register-written', address: 2, value: 3 }),
    types: ['register'],
  },
  {
    name: 'register read',
    text: makeReply({ kind: 'register', address: 1, value: 0x14 }),
    types: ['register'],
  },
  {
    name: 'identify (Chesstimation "iFF" + LF)',
    text: makeReply({ kind: 'identify', text: 'FF' }),
    types: ['vendor-message'],
  },
];

describe('§1.10 worked example', () => {
  it('the reference bytes are the reference text with parity bits', () => {
    expect(makeWire(START_A_TEXT)).toEqual(START_A_BYTES);
  });

  it('decodes the start position in orientation A to the start squares', () => {
    expect(decodeAll(START_A_BYTES)).toEqual([{ type: 'snapshot', at: 0, squares: START_SQUARES }]);
  });

  it('decodes the orientation-B start position with a rotated decoder, and detects B with a normal one', () => {
    expect(decodeAll(makeWire(START_B_TEXT), 'rotated')).toEqual([
      { type: 'snapshot', at: 0, squares: START_SQUARES },
    ]);
    const [asNormal] = decodeAll(makeWire(START_B_TEXT));
    expect(asNormal?.type === 'snapshot' && detectOrientation(asNormal.squares)).toBe('rotated');
  });

  // §1.6: character i in orientation A is file h − (i mod 8), rank 1 + ⌊i/8⌋.
  it.each([
    [0, 'h1'],
    [3, 'e1'],
    [7, 'a1'],
    [8, 'h2'],
    [63, 'a8'],
  ])('status character %i is %s in orientation A', (i, name) => {
    const board = Array.from({ length: 64 }, (_, j) => (j === i ? 'Q' : '.')).join('');
    const squares = parseStatusBoard(board, 'normal');
    expect(squares[sq(name)]).toEqual(makePiece('white', 'queen'));
    expect(squares.filter(c => c.kind !== 'empty')).toHaveLength(1);
  });
});

describe('reply decoding', () => {
  it('reads the version reply as firmware 01.03 of an Exclusive (§1.8, BearChess thresholds)', () => {
    // §1.4 real capture: "v010374" = 76 B0 31 B0 B3 37 34.
    expect(decodeAll(hex('76 B0 31 B0 B3 37 34'))).toEqual([
      { type: 'identity', at: 0, vendor: 'Millennium', model: 'Exclusive', firmware: '01.03' },
    ]);
  });

  it.each([
    [0x01, 0x0f, 'Exclusive'],
    [0x01, 0x10, 'King Performance'],
    [0x02, 0x00, 'eONE'],
  ])('maps version %i.%i to %s (§1.8)', (major, minor, model) => {
    expect(decodeAll(makeWire(makeReply({ kind: 'version', major, minor })))).toMatchObject([{ model }]);
  });

  it('reads acks and registers', () => {
    const text = FRAMES.slice(2, 6)
      .map(f => f.text)
      .join('');
    expect(decodeAll(makeWire(text))).toEqual([
      { type: 'command-ack', at: 0, command: 'leds', ok: true },
      { type: 'command-ack', at: 0, command: 'leds-off', ok: true },
      { type: 'register', at: 0, address: 2, value: 3, written: true },
      { type: 'register', at: 0, address: 1, value: 0x14, written: false },
    ]);
  });

  // Errata 12: Chesstimation's iFF + LF carries its checksum after the LF; whether the LF is
  // part of the checksum is unknown, so both readings are accepted.
  it.each([
    ['LF counted', 'iFF\n' + '63'],
    ['LF not counted', 'iFF\n' + '69'],
  ])('reads the identify reply with the %s in the checksum', (_name, text) => {
    expect(decodeAll(makeWire(text))).toEqual([
      { type: 'vendor-message', at: 0, vendor: 'Millennium', name: 'identify', data: [0x46, 0x46] },
    ]);
  });

  it('reads a status report that arrives between a command and its ack (§1.3)', () => {
    const stream = makeWire(START_A_TEXT + makeReply({ kind: 'leds-ack' }));
    expect(kinds(decodeAll(stream))).toEqual(['snapshot', 'command-ack']);
  });

  it('reads a board whose pieces look like reply letters (r, b) and hex digits (B) (§1.9)', () => {
    const board = 'rrrrrrrrBBBBBBBB' + '.'.repeat(32) + 'bbbbbbbbRRRRRRRR';
    const out = decodeAll(makeWire(makeReply({ kind: 'status', board })));
    expect(kinds(out)).toEqual(['snapshot']);
  });

  it('reads frames sent without parity bits (a 7O1 reader that strips bit 7)', () => {
    expect(decodeAll(makeWire(START_A_TEXT, false))).toEqual([
      { type: 'snapshot', at: 0, squares: START_SQUARES },
    ]);
  });
});

describe('chunking', () => {
  const all = makeWire(FRAMES.map(f => f.text).join(''));

  it('decodes two frames in one chunk', () => {
    expect(kinds(decodeAll(makeWire('v010374' + START_A_TEXT)))).toEqual(['identity', 'snapshot']);
  });

  it('decodes all reply kinds back to back in one chunk', () => {
    expect(kinds(decodeAll(all))).toEqual(FRAMES.flatMap(f => f.types));
  });

  for (const f of FRAMES) {
    it(`decodes ${f.name} split at every byte position, with the 'at' of the completing chunk`, () => {
      const bytes = makeWire(f.text);
      const whole = decodeAll(bytes);
      expect(kinds(whole)).toEqual(f.types);
      for (let k = 1; k < bytes.length; k++) {
        const d = new MillenniumDecoder();
        expect(d.push(bytes.subarray(0, k), 10)).toEqual([]);
        expect(d.push(bytes.subarray(k), 20)).toEqual(whole.map(o => ({ ...o, at: 20 })));
      }
    });
  }

  it('decodes every frame fed one byte at a time', () => {
    const d = new MillenniumDecoder();
    const out = Array.from(all).flatMap(b => d.push(Uint8Array.of(b), 0));
    expect(out).toEqual(decodeAll(all));
  });

  it('decodes two frames split at every pair of positions', () => {
    const two = makeWire('v010374' + makeReply({ kind: 'register', address: 2, value: 0 }));
    const expected = decodeAll(two);
    for (let i = 1; i < two.length; i++) {
      for (let j = i; j < two.length; j++) {
        const d = new MillenniumDecoder();
        const got = [
          ...d.push(two.subarray(0, i), 0),
          ...d.push(two.subarray(i, j), 0),
          ...d.push(two.subarray(j), 0),
        ];
        expect(got).toEqual(expected);
      }
    }
  });

  it('applies an orientation change to later frames only', () => {
    const d = new MillenniumDecoder();
    const e2Empty = START_A_TEXT.slice(0, 1 + 8 + 3) + '.' + START_A_TEXT.slice(13, 65);
    const [a] = d.push(makeWire(makeReply({ kind: 'status', board: e2Empty.slice(1) })), 0);
    d.orientation = 'rotated';
    const [b] = d.push(makeWire(makeReply({ kind: 'status', board: e2Empty.slice(1) })), 1);
    expect(a?.type === 'snapshot' && a.squares[sq('e2')]).toEqual(EMPTY);
    expect(b?.type === 'snapshot' && b.squares[sq('d7')]).toEqual(EMPTY);
  });
});
