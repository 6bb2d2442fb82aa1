/**
 * Byte-table tests of the Chessnut decoder (STYLE item 13): the worked examples of reference
 * §3.10 over BLE and USB and on a turned board, report ids present or not (§3.2, errata 9), every
 * message of §3.4, and the error paths: headers checked at offset 0 only (errata 5), reports cut
 * at every byte (rejected; joined with `joinFragments`), invalid codes, short reports, the cap.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { ChessnutDecoder, type ChessnutDecoderOptions } from '../../../src/drivers/chessnut/codec.js';
import { makeMessage } from '../../../src/drivers/chessnut/messages.js';
import { detectOrientation, START_SQUARES, type Orientation } from '../../../src/drivers/observation.js';
import type { BoardObservation } from '../../../src/drivers/observationExtra.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap(p => Array.from(p)));
const sq = (name: string): number => parseSquare(name)!;
const decode = (reports: Uint8Array[], options: ChessnutDecoderOptions = {}): BoardObservation[] => {
  const d = new ChessnutDecoder(options);
  return [...reports.flatMap(r => d.push(r, 0)), ...d.finish(0)];
};
const kinds = (obs: BoardObservation[]): string[] =>
  obs.map(o => (o.type === 'protocol-error' ? `error:${o.reason.kind}` : o.type));

// §3.10: the start position, 32 payload bytes.
const START_PAYLOAD = hex(`58 23 31 85  44 44 44 44  ${'00 '.repeat(16)}  77 77 77 77  A6 C9 9B 6A`);
// §3.10: the same with the board turned round.
const ROTATED_PAYLOAD = hex(`A6 B9 9C 6A  77 77 77 77  ${'00 '.repeat(16)}  44 44 44 44  58 13 32 85`);
const BLE_START = cat(hex('01 24'), START_PAYLOAD, hex('FF FF FF FF'));
const USB_START = cat(hex('01 3D'), START_PAYLOAD, new Uint8Array(29));
const START_OBS = { type: 'snapshot', at: 0, squares: START_SQUARES };

describe('§3.10 worked example', () => {
  it.each([
    ['BLE, 38 bytes (errata 6)', BLE_START],
    ['USB HID, report id 01 + 01 3D + 32 + padding to 63', USB_START],
    ['USB HID, 65 bytes as O\u2019Neill counts them', cat(USB_START, hex('00 00'))],
  ])('decodes the start position: %s', (_name, report) => {
    expect(decode([report])).toEqual([START_OBS]);
  });

  it.each<[string, Orientation]>([
    ['normal', 'normal'],
    ['rotated', 'rotated'],
  ])('decodes the turned-round payload with a %s decoder', (_name, orientation) => {
    const [obs] = decode([cat(hex('01 24'), ROTATED_PAYLOAD, hex('FF FF FF FF'))], { orientation });
    if (orientation === 'rotated') expect(obs).toEqual(START_OBS);
    else expect(obs?.type === 'snapshot' && detectOrientation(obs.squares)).toBe('rotated');
  });

  // §3.5: byte 0 low = h8, byte 0 high = g8, byte 3 high = a8, byte 31 high = a1.
  it.each([
    [0, 0x0c, 'h8'],
    [0, 0xc0, 'g8'],
    [3, 0xc0, 'a8'],
    [31, 0xc0, 'a1'],
  ])('byte %i = %i puts the white king on %s', (byte, value, name) => {
    const payload = new Uint8Array(32);
    payload[byte] = value;
    const [obs] = decode([cat(hex('01 24'), payload, hex('00 00 00 00'))]);
    expect(
      obs?.type === 'snapshot' && obs.squares.flatMap((c, i) => (c.kind === 'piece' ? [i] : [])),
    ).toEqual([sq(name)]);
  });
});

describe('report ids (§3.2, errata 9)', () => {
  it('takes WebHID data (report id apart) through pushReport', () => {
    const d = new ChessnutDecoder();
    expect(d.push(USB_START, 0)).toEqual([START_OBS]);
    expect(d.pushReport(0x01, USB_START.subarray(1), 0)).toEqual([START_OBS]);
    expect(d.pushReport(0x2a, hex('02 50 00'), 1)).toMatchObject([{ type: 'battery', percent: 80 }]);
  });

  it("'auto' recognises a position without its report id; 'included' does not", () => {
    expect(decode([USB_START.subarray(1)])).toEqual([START_OBS]);
    expect(kinds(decode([USB_START.subarray(1)], { reportId: 'included' }))).toEqual([
      'error:unknown-message',
    ]);
  });
});

describe('messages (§3.4)', () => {
  it.each<[string, string, object[]]>([
    // Vendor doc: LL bit 7 = charging. picochess / ChessnutPy: SS = 1 charging. Either counts.
    [
      'battery 85 %, not charging',
      '2A 02 55 00',
      [{ type: 'battery', percent: 85, charging: false, raw: [0x55, 0] }],
    ],
    ['battery, vendor charging bit', '2A 02 D5 00', [{ type: 'battery', percent: 85, charging: true }]],
    ['battery, driver charging byte', '2A 02 55 01', [{ type: 'battery', percent: 85, charging: true }]],
    // Errata 7: level 0 is ignored (a Chessnut Move's reply, dropped by the SDK).
    ['battery level 0', '2A 02 00 01', []],
    ['ack / heartbeat', '23 01 00', [{ type: 'command-ack', command: 'unknown', ok: true }]],
    ['board not ready', '23 01 01', [{ type: 'command-ack', command: 'unknown', ok: false }]],
    ['start confirmation (BLE)', '21 01 00', [{ type: 'command-ack', command: 'start', ok: true }]],
    ['stored game count', '32 01 03', [{ type: 'vendor-message', name: 'game-count', data: [3] }]],
    ['file transfer start', '37 01 BE', [{ type: 'vendor-message', name: 'file-start' }]],
    ['file transfer end', '37 01 ED', [{ type: 'vendor-message', name: 'file-end' }]],
    ['button (Air)', '0F 01 02', [{ type: 'vendor-message', name: 'button', data: [2] }]],
    ['file size', '36 08 10 00 00 00 00 00 00 00', [{ type: 'vendor-message', name: 'file-size' }]],
  ])('%s', (_name, bytes, expected) => {
    expect(decode([hex(bytes)])).toMatchObject(expected);
  });

  it('reads the MCU version reply, and any unknown reply once a version is expected (the SDK way)', () => {
    const reply = makeMessage({ kind: 'version', which: 'mcu', text: 'CN_DVT9_210659' });
    expect(decode([reply])).toEqual([
      { type: 'identity', at: 0, vendor: 'Chessnut', firmware: 'CN_DVT9_210659' },
    ]);
    const d = new ChessnutDecoder();
    const unknown = cat(
      hex('55 0F 00'),
      Uint8Array.from('CNCA100_V201', c => c.charCodeAt(0)),
      new Uint8Array(4),
    );
    expect(kinds(d.push(unknown, 0))).toEqual(['error:unknown-message']);
    d.expectVersion('ble');
    expect(d.push(hex('23 01 00'), 1)).toMatchObject([{ type: 'command-ack' }]);
    expect(d.push(unknown, 2)).toEqual([
      { type: 'identity', at: 2, vendor: 'Chessnut', hardware: 'CNCA100_V201' },
    ]);
  });

  it('ignores bytes past the declared length (padding; a second message in one report is not read)', () => {
    expect(decode([cat(hex('23 01 00'), hex('2A 02 55 00'))])).toEqual([
      { type: 'command-ack', at: 0, command: 'unknown', ok: true },
    ]);
  });
});

describe('errors and recovery', () => {
  it('rejects a position with a code D–F and decodes the next report (§3.5)', () => {
    const bad = USB_START.slice();
    bad[20] = 0x0d;
    expect(decode([bad, USB_START])).toEqual([
      {
        type: 'protocol-error',
        at: 0,
        reason: { kind: 'bad-field', field: 'piece', value: 0x0d },
        hex: expect.any(String) as string,
        count: 63,
      },
      START_OBS,
    ]);
  });

  it('never searches for a header: a report of garbage before a position is rejected whole (errata 5)', () => {
    expect(kinds(decode([cat(hex('00 12'), BLE_START), BLE_START]))).toEqual([
      'error:unknown-message',
      'snapshot',
    ]);
  });

  it('rejects a report shorter than its declared length (errata 5), unless told not to insist (§3.7)', () => {
    const short = USB_START.subarray(0, 40);
    expect(decode([short])).toMatchObject([
      { type: 'protocol-error', reason: { kind: 'incomplete', received: 40 }, count: 40 },
    ]);
    expect(decode([short], { strictLength: false })).toEqual([START_OBS]);
  });

  it.each([
    [
      'a position declaring fewer than 32 bytes',
      '01 10 00 00',
      { kind: 'bad-length', id: 1, declared: 18, expected: '>= 34' },
    ],
    [
      'a battery report of the wrong length',
      '2A 03 55 00 00',
      { kind: 'bad-length', id: 0x2a, declared: 5, expected: '4' },
    ],
    ['a lone byte', '23', { kind: 'incomplete', received: 1 }],
    ['an unknown id', '99 01 00', { kind: 'unknown-message', id: 0x99 }],
  ])('reports %s', (_name, bytes, reason) => {
    expect(decode([hex(bytes)])).toEqual([
      { type: 'protocol-error', at: 0, reason, hex: bytes, count: hex(bytes).length },
    ]);
  });

  it('skips a report longer than the cap', () => {
    const d = new ChessnutDecoder({ bufferCap: 64 });
    expect(kinds([...d.push(cat(USB_START, new Uint8Array(10)), 0), ...d.push(USB_START, 1)])).toEqual([
      'error:overflow',
      'snapshot',
    ]);
    expect(d.bufferHighWater).toBeLessThanOrEqual(64);
    expect(() => new ChessnutDecoder({ bufferCap: 10 })).toThrow(TypeError);
  });
});

describe('reports cut in two', () => {
  it.each([
    ['BLE', BLE_START],
    ['USB', USB_START],
  ])(
    '%s: a cut position is rejected at every cut, never decoded wrongly, and the next one decodes',
    (_name, report) => {
      for (let k = 1; k < report.length; k++) {
        const out = decode([report.subarray(0, k), report.subarray(k), report]);
        // Cut right after the report id, the rest is a whole position without its id ('auto').
        expect(out.filter(o => o.type === 'snapshot')).toEqual(
          k === 1 ? [START_OBS, START_OBS] : [START_OBS],
        );
        expect(kinds(out.slice(0, -1)).every(t => t.startsWith('error:') || k === 1)).toBe(true);
        expect(out.at(-1)).toEqual(START_OBS);
      }
    },
  );

  it.each([
    ['BLE', BLE_START],
    ['USB', USB_START],
  ])('%s with joinFragments: a position cut at any byte is joined (MTU 23, §3.8)', (_name, report) => {
    for (let k = 1; k < report.length; k++) {
      const d = new ChessnutDecoder({ joinFragments: true });
      expect(d.push(report.subarray(0, k), 0)).toEqual([]);
      expect(d.push(report.subarray(k), 5)).toEqual([{ ...START_OBS, at: 5 }]);
      expect(d.buffered).toBe(0);
    }
  });

  it('joinFragments: a lost rest, or a rest that comes too late, drops the fragment', () => {
    const d = new ChessnutDecoder({ joinFragments: true });
    expect(d.push(BLE_START.subarray(0, 20), 0)).toEqual([]);
    expect(kinds(d.push(BLE_START.subarray(0, 20), 10))).toEqual(['error:incomplete']); // 20 + 20 ≠ 38
    expect(kinds(d.push(BLE_START.subarray(20), 200))).toEqual(['error:incomplete', 'error:unknown-message']); // too late
    expect(d.push(BLE_START, 300)).toEqual([{ ...START_OBS, at: 300 }]);
    d.push(BLE_START.subarray(0, 20), 400);
    expect(kinds(d.finish(401))).toEqual(['error:incomplete']);
  });
});
