/**
 * Byte-table tests of the single-board decoder's error paths (STYLE item 13, DGT reference §2):
 * garbage before and after frames, interrupted frames, bad sizes, unknown ids, bad fields,
 * lone bytes and the buffer cap.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import { makeMessage } from '../../../src/drivers/dgt/messages.js';
import { EMPTY, makePiece, type Observation } from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const sq = (name: string): number => parseSquare(name)!;
const decodeAll = (bytes: Uint8Array): Observation[] => {
  const d = new DgtDecoder();
  return [...d.push(bytes, 0), ...d.finish(0)];
};
const kinds = (obs: Observation[]): string[] =>
  obs.map(o => (o.type === 'protocol-error' ? `error:${o.reason.kind}` : o.type));

const WHITE_PAWN = makePiece('white', 'pawn');

describe('resynchronisation', () => {
  it('skips garbage before a frame and reports it once', () => {
    expect(decodeAll(hex('00 12 7F 8E 00 05 34 00'))).toEqual([
      { type: 'protocol-error', at: 0, reason: { kind: 'garbage' }, hex: '00 12 7F', count: 3 },
      { type: 'square', at: 0, square: sq('e2'), content: EMPTY },
    ]);
  });

  it('reports garbage after a frame when the next frame starts, or at finish', () => {
    expect(kinds(decodeAll(hex('8E 00 05 34 00 01 02 8E 00 05 24 01')))).toEqual([
      'square',
      'error:garbage',
      'square',
    ]);
    const d = new DgtDecoder();
    expect(kinds(d.push(hex('8E 00 05 34 00 01 02'), 0))).toEqual(['square']);
    expect(d.finish(5)).toEqual([
      { type: 'protocol-error', at: 5, reason: { kind: 'garbage' }, hex: '01 02', count: 2 },
    ]);
  });

  it('abandons a frame interrupted by a new id and decodes the new one', () => {
    expect(decodeAll(hex('8E 00 05 34 8E 00 05 24 01'))).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'interrupted', id: 0x8e, declared: 5, received: 4 },
        hex: '8E 00 05 34',
        count: 4,
      },
      { type: 'square', at: 0, square: sq('e4'), content: WHITE_PAWN },
    ]);
  });

  it('abandons a header interrupted by a new id', () => {
    expect(kinds(decodeAll(hex('86 00 93 00 05 03 0A')))).toEqual(['error:interrupted', 'identity']);
  });

  // Bad sizes (§2 step 3): < 3, wrong for a fixed-size id, absurd.
  it.each([
    [
      'declared length below 3',
      '8E 00 02',
      { kind: 'bad-length', id: 0x8e, declared: 2, expected: '>= 3' },
      3,
    ],
    [
      'field update declaring 6',
      '8E 00 06 34 00 00',
      { kind: 'bad-length', id: 0x8e, declared: 6, expected: '5' },
      6,
    ],
    [
      'board dump declaring 16383, cut by the next frame',
      '86 7F 7F 01 02 03',
      { kind: 'bad-length', id: 0x86, declared: 16383, expected: '67' },
      6,
    ],
    [
      'version declaring only its header',
      '93 00 03',
      { kind: 'bad-length', id: 0x93, declared: 3, expected: '5' },
      3,
    ],
  ])('rejects a %s and recovers', (_name, bytes, reason, count) => {
    const out = decodeAll(Uint8Array.from([...hex(bytes), ...hex('8E 00 05 24 01')]));
    expect(out).toEqual([
      { type: 'protocol-error', at: 0, reason, hex: bytes, count },
      { type: 'square', at: 0, square: sq('e4'), content: WHITE_PAWN },
    ]);
  });

  it('skips unknown and unsupported ids by their length', () => {
    expect(decodeAll(hex('81 00 05 01 02 94 00 04 00 8E 00 05 24 01'))).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'unknown-message', id: 0x81 },
        hex: '81 00 05 01 02',
        count: 5,
      },
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'unsupported-message', id: 0x94, name: 'BOARD_DUMP_50B' },
        hex: '94 00 04 00',
        count: 4,
      },
      { type: 'square', at: 0, square: sq('e4'), content: WHITE_PAWN },
    ]);
  });

  it('drops a field update naming a field beyond 63', () => {
    expect(decodeAll(hex('8E 00 05 40 01'))).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'bad-field', field: 'field', value: 0x40 },
        hex: '8E 00 05 40 01',
        count: 5,
      },
    ]);
  });

  it('masks piece codes to the low nibble and reports reserved bits (§3.3)', () => {
    expect(decodeAll(hex('8E 00 05 24 11'))).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'reserved-bits', field: 'piece', value: 0x11 },
        hex: '8E 00 05 24 11',
        count: 5,
      },
      { type: 'square', at: 0, square: sq('e4'), content: WHITE_PAWN },
    ]);
  });

  it('drops clock times with impossible BCD digits (§5.4 Q5)', () => {
    expect(decodeAll(hex('8D 00 0A 00 6A 00 00 00 00 01'))).toMatchObject([
      { type: 'protocol-error', reason: { kind: 'bad-field', field: 'right-minutes', value: 0x6a } },
    ]);
  });

  it('ignores lone bytes until they complete something', () => {
    const d = new DgtDecoder();
    expect(d.push(hex('8E'), 0)).toEqual([]);
    expect(d.finish(1)).toEqual([
      { type: 'protocol-error', at: 1, reason: { kind: 'incomplete', received: 1 }, hex: '8E', count: 1 },
    ]);
    expect(d.push(hex('00'), 2)).toEqual([]);
    expect(kinds(d.push(hex('8E 00 05 24 01'), 3))).toEqual(['error:garbage', 'square']);
  });
});

describe('buffer cap', () => {
  it('skips a message longer than the cap without buffering it, then recovers', () => {
    const d = new DgtDecoder({ bufferCap: 32 });
    const long = makeMessage({ kind: 'trademark', text: 'x'.repeat(60) });
    const out = d.push(Uint8Array.from([...long, ...hex('8E 00 05 24 01')]), 7);
    expect(out).toEqual([
      {
        type: 'protocol-error',
        at: 7,
        reason: { kind: 'overflow', id: 0x92, declared: 63, cap: 32 },
        hex: expect.any(String) as string,
        count: 63,
      },
      { type: 'square', at: 7, square: sq('e4'), content: WHITE_PAWN },
    ]);
    expect(d.bufferHighWater).toBeLessThanOrEqual(32);
  });

  it('accepts a message of exactly the cap', () => {
    const msg = makeMessage({ kind: 'trademark', text: 'x'.repeat(29) });
    const d = new DgtDecoder({ bufferCap: 32 });
    expect(d.push(msg, 0)).toEqual([{ type: 'identity', at: 0, vendor: 'DGT', trademark: 'x'.repeat(29) }]);
    expect(d.bufferHighWater).toBe(32);
  });

  it('swallows a spurious 8 KB EEPROM dump with the default cap (§5.4 Q7)', () => {
    const payload = new Array<number>(0x1f00).fill(0x7f);
    payload[payload.length - 1] = 0x6b;
    const d = new DgtDecoder();
    const out = d.push(Uint8Array.from([...hex('8F 3E 03'), ...payload]), 0);
    expect(out).toHaveLength(1);
    expect(out[0]?.type === 'eeprom-log' && out[0].records.length).toBe(0x1f00);
  });

  it('rejects a cap below the header size', () => {
    expect(() => new DgtDecoder({ bufferCap: 2 })).toThrow(TypeError);
  });
});
