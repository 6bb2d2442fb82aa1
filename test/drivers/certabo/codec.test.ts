/**
 * Byte-table tests of the Certabo decoder (STYLE item 13): the real start-position capture of
 * reference §2.9, the occupancy examples of §2.5, LED acknowledgements (§2.3), line endings
 * (errata 3), frames two to a chunk and split at every byte, and the error paths: wrong token
 * counts (errata 1), bad numbers, junk, the buffer cap and lines fed by a readline parser.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { makeCalibration } from '../../../src/drivers/certabo/calibration.js';
import { CertaboDecoder, type CertaboDecoderOptions } from '../../../src/drivers/certabo/codec.js';
import { parseWrappedCapture } from '../../../src/drivers/certabo/frames.js';
import {
  makeHex,
  OCCUPIED,
  EMPTY,
  START_SQUARES,
  type SquareContent,
} from '../../../src/drivers/observation.js';
import type { BoardObservation } from '../../../src/drivers/observationExtra.js';

const ascii = (s: string): Uint8Array => Uint8Array.from(s, c => c.charCodeAt(0));
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap(p => Array.from(p)));
const sq = (name: string): number => parseSquare(name)!;
const decodeAll = (bytes: Uint8Array, options: CertaboDecoderOptions = {}): BoardObservation[] => {
  const d = new CertaboDecoder(options);
  return [...d.push(bytes, 0), ...d.finish(0)];
};
const kinds = (obs: BoardObservation[]): string[] =>
  obs.map(o => (o.type === 'protocol-error' ? `error:${o.reason.kind}` : o.type));

// §2.9: a real capture from picochess's test suite, square by square in frame order.
const START_CAPTURE_TAGS: readonly (readonly number[])[] = [
  // rank 8: a8 r, b8 n, c8 b, d8 q, e8 k, f8 b, g8 n, h8 r
  [48, 0, 248, 71, 99],
  [48, 0, 248, 85, 159],
  [48, 0, 177, 203, 192],
  [48, 0, 177, 215, 17],
  [48, 0, 177, 117, 59],
  [48, 0, 177, 43, 7],
  [48, 0, 248, 222, 81],
  [48, 0, 247, 200, 86],
  // rank 7: pawns a7 … h7
  [48, 0, 248, 114, 180],
  [48, 0, 248, 155, 251],
  [48, 0, 248, 48, 74],
  [48, 0, 177, 236, 131],
  [48, 0, 177, 230, 12],
  [48, 0, 177, 187, 36],
  [48, 0, 248, 146, 97],
  [48, 0, 248, 89, 231],
  // ranks 6 … 3: empty
  ...Array.from({ length: 32 }, () => [0, 0, 0, 0, 0]),
  // rank 2: pawns a2 … h2
  [48, 0, 248, 85, 122],
  [48, 0, 248, 68, 117],
  [48, 0, 248, 201, 109],
  [48, 0, 248, 144, 65],
  [48, 0, 177, 231, 217],
  [48, 0, 248, 76, 179],
  [48, 0, 248, 161, 89],
  [48, 0, 94, 124, 14],
  // rank 1: a1 R, b1 N, c1 B, d1 Q, e1 K, f1 B, g1 N, h1 R
  [48, 0, 248, 98, 180],
  [48, 0, 248, 233, 43],
  [48, 0, 248, 86, 247],
  [48, 0, 248, 145, 6],
  [48, 0, 248, 104, 144],
  [48, 0, 248, 79, 194],
  [48, 0, 248, 134, 85],
  [48, 0, 177, 81, 73],
];

const START_LINE = `:${START_CAPTURE_TAGS.flat().join(' ')}\r\n`;
const tagText = (bytes: readonly number[]): string =>
  bytes.map(b => b.toString(16).toUpperCase().padStart(2, '0')).join('');

/** The §2.5 start-position occupancy line (with the trailing space of the Sentio capture). */
const OCCUPANCY_START = ':255 255 0 0 0 0 255 255 \r\n';
const occupancyStart: SquareContent[] = START_SQUARES.map(c => (c.kind === 'empty' ? EMPTY : OCCUPIED));

describe('§2.9 worked example (RFID start position)', () => {
  it('is ASCII ":48 0 248 …" ending in "73" CR LF', () => {
    const bytes = ascii(START_LINE);
    expect(makeHex(bytes.subarray(0, 10))).toBe('3A 34 38 20 30 20 32 34 38 20');
    expect(makeHex(bytes.subarray(bytes.length - 4))).toBe('37 33 0D 0A');
  });

  it('decodes to a raw scan without a calibration: tags by square, empty squares null', () => {
    const [scan] = decodeAll(ascii(START_LINE));
    expect(scan?.type).toBe('rfid-scan');
    if (scan?.type !== 'rfid-scan') return;
    expect(scan.tags[sq('a8')]).toBe('3000F84763');
    expect(scan.tags[sq('h1')]).toBe(tagText([48, 0, 177, 81, 73]));
    expect(scan.tags[sq('e4')]).toBeNull();
    expect(scan.tags.filter(t => t !== null)).toHaveLength(32);
  });

  it('calibrates from 7 copies and then decodes to the start position, in both orientations', () => {
    const d = new CertaboDecoder();
    const scans = Array.from({ length: 7 }, (_, i) => d.push(ascii(START_LINE), i)).flat();
    const learned = makeCalibration(scans.flatMap(o => (o.type === 'rfid-scan' ? [o.tags] : [])));
    expect(learned.isOk).toBe(true);
    const calibration = learned.unwrap().calibration;
    expect(calibration.pieces['3000F84763']).toBe('r');
    expect(calibration.pieces[tagText([48, 0, 248, 104, 144])]).toBe('K');
    expect(decodeAll(ascii(START_LINE), { calibration })).toEqual([
      { type: 'snapshot', at: 0, squares: START_SQUARES },
    ]);
    // §2.4: on a turned board, frame index i is square 63 − i: White shows on ranks 7–8.
    const [rotated] = decodeAll(ascii(START_LINE), { calibration, orientation: 'rotated' });
    expect(rotated?.type === 'snapshot' && rotated.squares[sq('h8')]).toEqual(START_SQUARES[sq('a1')]);
  });
});

describe('occupancy frames (§2.5)', () => {
  it.each([
    ['start position', OCCUPANCY_START, occupancyStart],
    ['h1 empty', ':255 255 0 0 0 0 255 254\r\n', occupancyStart.map((c, i) => (i === sq('h1') ? EMPTY : c))],
  ])('%s', (_name, line, squares) => {
    expect(decodeAll(ascii(line))).toEqual([{ type: 'snapshot', at: 0, squares }]);
  });

  it('turns a rotated board: bit 7 of the first byte (a8) is h1', () => {
    const [obs] = decodeAll(ascii(':128 0 0 0 0 0 0 0\r\n'), { orientation: 'rotated' });
    expect(
      obs?.type === 'snapshot' && obs.squares.flatMap((c, i) => (c.kind === 'occupied' ? [i] : [])),
    ).toEqual([sq('h1')]);
  });
});

describe('acknowledgements and line endings', () => {
  // §2.3: L after an LED command on ordinary boards, D on RGB boards.
  it.each([
    ['L\r\n', 'leds'],
    ['D\r\n', 'leds-rgb'],
    ['L \r\n', 'leds'],
  ])('%j is an acknowledgement of %s', (line, command) => {
    expect(decodeAll(ascii(line))).toEqual([{ type: 'command-ack', at: 0, command, ok: true }]);
  });

  // Errata 3: space + CR LF, CR LF, and a bare LF all end a frame.
  it.each([':255 255 0 0 0 0 255 255 \r\n', ':255 255 0 0 0 0 255 255\r\n', ':255 255 0 0 0 0 255 255\n'])(
    'trims %j',
    line => {
      expect(kinds(decodeAll(ascii(line)))).toEqual(['snapshot']);
    },
  );

  it('reads an ack glued before a frame, and reports other junk before the last ":" (§2.3)', () => {
    expect(kinds(decodeAll(ascii('L' + OCCUPANCY_START)))).toEqual(['command-ack', 'snapshot']);
    expect(decodeAll(ascii('xy:12' + OCCUPANCY_START))).toEqual([
      { type: 'protocol-error', at: 0, reason: { kind: 'garbage' }, hex: '78 79 3A 31 32', count: 5 },
      { type: 'snapshot', at: 0, squares: occupancyStart },
    ]);
  });

  it('ignores blank lines and reports lines without a frame', () => {
    expect(kinds(decodeAll(ascii('\r\n\r\nhello\r\n')))).toEqual(['error:garbage']);
  });
});

describe('numbers of a frame', () => {
  const ranksOf = (line: string): unknown => {
    const obs = decodeAll(ascii(line));
    return obs.map(o =>
      o.type === 'snapshot' ? 'snapshot' : o.type === 'protocol-error' ? o.reason : o.type,
    );
  };

  it('reads runs of spaces, leading zeros and spaces around the frame', () => {
    expect(ranksOf(':  255  255 0 0 0 0 255 255 \r\n')).toEqual(['snapshot']);
    expect(ranksOf(':255 255 000 0 0 00 255 255\r\n')).toEqual(['snapshot']);
  });

  it('names the first number that is not one: too large, too long, or not digits', () => {
    expect(ranksOf(':256 255 0 0 0 0 255 255\r\n')).toEqual([
      { kind: 'bad-field', field: 'token 0 "256"', value: 0 },
    ]);
    expect(ranksOf(':255 255 0 0 0 0 255 0255\r\n')).toEqual([
      { kind: 'bad-field', field: 'token 7 "0255"', value: 7 },
    ]);
    expect(ranksOf(':255 255 0 0 0 0 255 2x5\r\n')).toEqual([
      { kind: 'bad-field', field: 'token 7 "2x5"', value: 7 },
    ]);
    expect(ranksOf(':255 255 0 0 0 0 255 -1\r\n')).toEqual([
      { kind: 'bad-field', field: 'token 7 "-1"', value: 7 },
    ]);
    // A tab is not a separator: seven numbers, one of them "255\t255".
    expect(ranksOf(':255\t255 0 0 0 0 255 255\r\n')).toEqual([
      { kind: 'bad-length', id: 0x3a, declared: 7, expected: '320 or 8' },
    ]);
  });

  it('quotes bytes above 127 in a junk line as they came', () => {
    const obs = decodeAll(Uint8Array.from([0x80, 0x9f, 0xff, 0x0d, 0x0a]));
    expect(obs).toEqual([
      { type: 'protocol-error', at: 0, reason: { kind: 'garbage' }, hex: '80 9F FF', count: 3 },
    ]);
  });
});

describe('chunking', () => {
  const stream = ascii(OCCUPANCY_START + 'L\r\n' + START_LINE);
  const options = { emitScans: false };

  it('decodes two frames in one chunk', () => {
    expect(kinds(decodeAll(ascii(OCCUPANCY_START + OCCUPANCY_START)))).toEqual(['snapshot', 'snapshot']);
  });

  it('decodes back-to-back frames split at every byte position (errata 4)', () => {
    const whole = decodeAll(stream, options);
    expect(kinds(whole)).toEqual(['snapshot', 'command-ack', 'rfid-scan']);
    for (let k = 1; k < stream.length; k++) {
      const d = new CertaboDecoder(options);
      const got = [...d.push(stream.subarray(0, k), 10), ...d.push(stream.subarray(k), 20)];
      expect(got.map(o => ({ ...o, at: 0 }))).toEqual(whole);
    }
  });

  it('decodes a stream fed one byte at a time', () => {
    const d = new CertaboDecoder(options);
    expect(Array.from(stream).flatMap(b => d.push(Uint8Array.of(b), 0))).toEqual(decodeAll(stream, options));
  });

  it('takes lines from a readline parser (LF removed, CR kept)', () => {
    const d = new CertaboDecoder();
    expect(d.pushLine(OCCUPANCY_START.slice(0, -1), 5)).toEqual([
      { type: 'snapshot', at: 5, squares: occupancyStart },
    ]);
    expect(d.pushLine('D', 6)).toEqual([{ type: 'command-ack', at: 6, command: 'leds-rgb', ok: true }]);
  });
});

describe('errors and recovery', () => {
  // Errata 1: LFs inside a wrapped frame, treated as whitespace, give 322–323 tokens: never accept.
  it('drops a frame with 322 numbers and decodes the next one', () => {
    const wrapped = START_LINE.replace('48 0 248 71 99', '48 0 248 7 1 99 9'); // two digits split by a space
    const out = decodeAll(ascii(wrapped + OCCUPANCY_START));
    expect(out[0]).toMatchObject({
      type: 'protocol-error',
      reason: { kind: 'bad-length', id: 0x3a, declared: 322, expected: '320 or 8' },
      count: wrapped.length - 1,
    });
    expect(kinds(out)).toEqual(['error:bad-length', 'snapshot']);
  });

  it('reads a wrapped capture when replaying it: LFs inside a frame are deleted, not spaces (errata 1)', () => {
    const frame = START_LINE.trimEnd(); // the first break falls inside "177", between two digits
    const wrapped = `${frame.slice(0, 38)}\n${frame.slice(38, 700)}\r\n${frame.slice(700)}\nL\n${OCCUPANCY_START}`;
    const lines = parseWrappedCapture(wrapped);
    expect(lines).toEqual([frame, OCCUPANCY_START.trim()]);
    const d = new CertaboDecoder();
    expect(lines.flatMap(l => kinds(d.pushLine(l, 0)))).toEqual(['rfid-scan', 'snapshot']);
  });

  it('drops a wrapped frame cut by an LF into two lines of wrong length', () => {
    const wrapped = START_LINE.slice(0, 400) + '\n' + START_LINE.slice(400);
    expect(kinds(decodeAll(ascii(wrapped + OCCUPANCY_START)))).toEqual([
      'error:bad-length',
      'error:garbage',
      'snapshot',
    ]);
  });

  it.each([
    ['a number above 255', ':255 256 0 0 0 0 255 255\r\n', 'token 1 "256"', 1],
    ['a sign', ':255 255 -1 0 0 0 255 255\r\n', 'token 2 "-1"', 2],
    ['a letter inside a number', ':255 2x5 0 0 0 0 255 255\r\n', 'token 1 "2x5"', 1],
  ])('drops a frame with %s', (_name, line, field, value) => {
    expect(decodeAll(ascii(line + OCCUPANCY_START))).toMatchObject([
      { type: 'protocol-error', reason: { kind: 'bad-field', field, value } },
      { type: 'snapshot' },
    ]);
  });

  it('drops a frame with 7 numbers', () => {
    expect(kinds(decodeAll(ascii(':255 255 0 0 0 0 255\r\n')))).toEqual(['error:bad-length']);
  });

  it('reports a line left without its LF at finish', () => {
    const d = new CertaboDecoder();
    expect(d.push(ascii(':255 255'), 0)).toEqual([]);
    expect(d.finish(1)).toMatchObject([
      { type: 'protocol-error', at: 1, reason: { kind: 'incomplete', received: 8 } },
    ]);
  });
});

describe('buffer cap', () => {
  it('drops junk before the last ":" when a line outgrows the cap, so the frame after it decodes', () => {
    const d = new CertaboDecoder({ bufferCap: 2000 });
    const junk = ascii('x'.repeat(5000));
    const out = d.push(cat(junk, ascii(START_LINE)), 0);
    expect(kinds(out)).toEqual(['error:overflow', 'rfid-scan']);
    expect(d.bufferHighWater).toBeLessThanOrEqual(2000);
  });

  it('keeps a frame that follows junk on the same line when the line outgrows the cap', () => {
    const d = new CertaboDecoder({ bufferCap: 1300 });
    const out = d.push(ascii('y'.repeat(1000) + START_LINE), 0);
    expect(kinds(out)).toEqual(['error:garbage', 'rfid-scan']);
    expect(out[0]).toMatchObject({ count: 1000 });
  });

  it('skips a frame longer than the cap up to the next ":" and recovers', () => {
    const d = new CertaboDecoder({ bufferCap: 1300 });
    const long = ':' + '1 '.repeat(700);
    const out = d.push(ascii(long + OCCUPANCY_START), 0);
    expect(kinds(out)).toEqual(['error:overflow', 'snapshot']);
    expect(out[0]).toMatchObject({ reason: { kind: 'overflow', id: 0x3a, cap: 1300 }, count: long.length });
    expect(d.bufferHighWater).toBeLessThanOrEqual(1300);
  });

  it('rejects a cap that cannot hold one RFID line', () => {
    expect(() => new CertaboDecoder({ bufferCap: 1000 })).toThrow(TypeError);
  });
});
