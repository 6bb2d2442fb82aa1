/**
 * Error paths of the Millennium decoder (STYLE item 13, reference §1.3 and §1.9): garbage before
 * and after frames, a cut-short frame, checksum and parity errors followed by recovery, the
 * parity modes, a missing zero pad, the buffer cap and lone bytes.
 */
import { describe, expect, it } from 'vitest';
import { MillenniumDecoder, type MillenniumDecoderOptions } from '../../../src/drivers/millennium/codec.js';
import { makeReply } from '../../../src/drivers/millennium/messages.js';
import { makeWire } from '../../../src/drivers/millennium/protocol.js';
import { START_SQUARES } from '../../../src/drivers/observation.js';
import type { BoardObservation } from '../../../src/drivers/observationExtra.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap(p => Array.from(p)));
const decodeAll = (bytes: Uint8Array, options: MillenniumDecoderOptions = {}): BoardObservation[] => {
  const d = new MillenniumDecoder(options);
  return [...d.push(bytes, 0), ...d.finish(0)];
};
const kinds = (obs: BoardObservation[]): string[] =>
  obs.map(o => (o.type === 'protocol-error' ? `error:${o.reason.kind}` : o.type));

const VERSION = hex('76 B0 31 B0 B3 37 34'); // §1.4 real capture "v010374"
const VERSION_OBS = { type: 'identity', at: 0, vendor: 'Millennium', model: 'Exclusive', firmware: '01.03' };
const START_TEXT = 'sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr73'; // §1.10

describe('resynchronisation', () => {
  it('skips garbage before a frame and reports it once', () => {
    expect(decodeAll(cat(hex('00 12 FF'), VERSION))).toEqual([
      { type: 'protocol-error', at: 0, reason: { kind: 'garbage' }, hex: '00 12 FF', count: 3 },
      VERSION_OBS,
    ]);
  });

  it('reports garbage after a frame when the next frame comes, or at finish', () => {
    expect(kinds(decodeAll(cat(VERSION, hex('01 02'), VERSION)))).toEqual([
      'identity',
      'error:garbage',
      'identity',
    ]);
    const d = new MillenniumDecoder();
    expect(kinds(d.push(cat(VERSION, hex('01 02')), 0))).toEqual(['identity']);
    expect(d.finish(5)).toEqual([
      { type: 'protocol-error', at: 5, reason: { kind: 'garbage' }, hex: '01 02', count: 2 },
    ]);
  });

  it('drops a frame with a bad checksum, reports it, and decodes the next one', () => {
    // "v010375": the checksum of v0103 is 74.
    const bad = makeWire('v010375');
    expect(decodeAll(cat(bad, VERSION))).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'checksum', expected: 0x74, actual: 0x75, address: undefined },
        hex: '76 B0 31 B0 B3 37 B5',
        count: 7,
      },
      VERSION_OBS,
    ]);
  });

  it('finds a frame that starts inside a frame with a bad checksum (moves on by one byte, §1.9)', () => {
    // A status report cut short after 20 characters, then a version reply and a full report.
    const cut = makeWire(START_TEXT.slice(0, 20));
    expect(kinds(decodeAll(cat(cut, VERSION, makeWire(START_TEXT))))).toEqual([
      'error:garbage',
      'identity',
      'snapshot',
    ]);
  });

  it('reports a checksum error once, not again as garbage, when a piece letter is corrupted', () => {
    const corrupted = START_TEXT.slice(0, 5) + 'q' + START_TEXT.slice(6); // K → q: same syntax, wrong checksum
    const out = decodeAll(cat(makeWire(corrupted), VERSION));
    expect(kinds(out)).toEqual(['error:checksum', 'identity']);
    expect(out[0]).toMatchObject({ count: 67 });
  });

  it('never mistakes a missing zero pad ("v01037" + 4) for a frame (§1.3)', () => {
    expect(kinds(decodeAll(cat(makeWire('v0103' + '74'.slice(1)), VERSION)))).toEqual([
      'error:garbage',
      'identity',
    ]);
  });

  it('rejects a checksum whose first digit is above 7 without waiting (errata 12)', () => {
    const d = new MillenniumDecoder();
    expect(kinds(d.push(makeWire('l8'), 0))).toEqual([]);
    expect(d.buffered).toBe(2); // both bytes noted as garbage, nothing held as a frame
    expect(kinds(d.push(makeWire('l6C'), 1))).toEqual(['error:garbage', 'command-ack']);
  });

  it('reports an incomplete frame at finish', () => {
    const d = new MillenniumDecoder();
    expect(d.push(VERSION.subarray(0, 4), 0)).toEqual([]);
    expect(d.finish(3)).toEqual([
      {
        type: 'protocol-error',
        at: 3,
        reason: { kind: 'incomplete', received: 4 },
        hex: '76 B0 31 B0',
        count: 4,
      },
    ]);
  });
});

describe('parity (§1.2, §1.3)', () => {
  // v010374 with bit 7 of "1" (31, odd already) wrongly set: B1 has even parity.
  const BAD_PARITY = hex('76 B0 B1 B0 B3 37 34');

  it.each<[string, MillenniumDecoderOptions['parity']]>([
    ['auto', 'auto'],
    ['odd', 'odd'],
  ])('%s: drops a frame with a wrong parity bit and decodes the next one', (_name, parity) => {
    expect(decodeAll(cat(BAD_PARITY, VERSION), { parity })).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'bad-field', field: 'parity', value: 0xb1 },
        hex: '76 B0 B1 B0 B3 37 34',
        count: 7,
      },
      VERSION_OBS,
    ]);
  });

  it('ignore: masks bit 7 and relies on the checksum (eONE, UNVERIFIED)', () => {
    expect(decodeAll(cat(BAD_PARITY, VERSION), { parity: 'ignore' })).toEqual([VERSION_OBS, VERSION_OBS]);
  });

  it.each<[MillenniumDecoderOptions['parity'], boolean, string[]]>([
    // auto accepts both readings of the wire.
    ['auto', true, ['snapshot']],
    ['auto', false, ['snapshot']],
    // odd: a stripped stream breaks parity on every byte whose 7 bits hold an even number of ones.
    ['odd', true, ['snapshot']],
    ['odd', false, ['error:bad-field']],
    // none: a stream with parity bits has bit 7 set on some bytes.
    ['none', true, ['error:bad-field']],
    ['none', false, ['snapshot']],
  ])('mode %s with parity bits sent = %s', (parity, withBits, expected) => {
    expect(kinds(decodeAll(makeWire(START_TEXT, withBits), { parity }))).toEqual(expected);
  });

  it('auto: a frame mixing both readings is a parity error', () => {
    const mixed = makeWire(START_TEXT);
    mixed[1] = 0x52 | 0x80; // "R" has odd weight: with bit 7 set the byte is even
    expect(kinds(decodeAll(cat(mixed, makeWire(START_TEXT))))).toEqual(['error:bad-field', 'snapshot']);
  });
});

describe('buffer cap', () => {
  it('holds at most one status report (67 bytes) whatever the input', () => {
    const d = new MillenniumDecoder();
    const stream = cat(
      ...Array.from({ length: 20 }, () => makeWire(START_TEXT)),
      hex('73 ' + '52 '.repeat(80)),
    );
    const out = d.push(stream, 0);
    expect(out.filter(o => o.type === 'snapshot')).toHaveLength(20);
    expect(out.find(o => o.type === 'snapshot')).toEqual({ type: 'snapshot', at: 0, squares: START_SQUARES });
    expect(d.bufferHighWater).toBeLessThanOrEqual(67);
  });

  it('skips an identify reply longer than the cap with an overflow error, then recovers', () => {
    const d = new MillenniumDecoder({ bufferCap: 70 });
    const long = makeWire('i' + 'F'.repeat(80) + '\n00');
    const out = d.push(cat(long, VERSION), 7);
    expect(kinds(out)).toEqual(['error:overflow', 'error:garbage', 'identity']);
    expect(out[0]).toMatchObject({
      reason: { kind: 'overflow', id: 0x69, declared: 70, cap: 70 },
      count: 70,
    });
    expect(d.bufferHighWater).toBeLessThanOrEqual(70);
  });

  it('rejects a cap below the longest reply', () => {
    expect(() => new MillenniumDecoder({ bufferCap: 66 })).toThrow(TypeError);
  });

  it('ignores lone bytes until they complete something', () => {
    const d = new MillenniumDecoder();
    expect(d.push(makeWire('s'), 0)).toEqual([]);
    expect(d.push(makeWire('v'), 1)).toEqual([]);
    expect(kinds(d.push(makeWire(makeReply({ kind: 'leds-ack' })), 2))).toEqual([
      'error:garbage',
      'command-ack',
    ]);
  });
});
