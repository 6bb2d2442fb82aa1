/**
 * The raw capture format (docs/capture-format.md): one read per line, receipt time in ms then
 * hex bytes, `#` comments; errors name the line.
 */
import { describe, expect, it } from 'vitest';
import {
  makeCapture,
  makeCaptureLine,
  parseCapture,
  type CaptureProblem,
} from '../../../src/drivers/capture.js';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';

describe('capture format', () => {
  it('parses reads, comments and blank lines', () => {
    const text = [
      '# DGT e-Board, capture A',
      '',
      '0 8E 00 05 34 00   # e2 lifted',
      '12.5 8e0005',
      '13 2401',
      '',
    ].join('\n');
    const r = parseCapture(text);
    expect(r.isOk && r.value).toEqual([
      { at: 0, bytes: Uint8Array.of(0x8e, 0x00, 0x05, 0x34, 0x00) },
      { at: 12.5, bytes: Uint8Array.of(0x8e, 0x00, 0x05) },
      { at: 13, bytes: Uint8Array.of(0x24, 0x01) },
    ]);
  });

  it('round-trips through makeCapture', () => {
    const reads = [
      { at: 0, bytes: Uint8Array.of(0x86, 0x00, 0x43) },
      { at: 1.25, bytes: Uint8Array.of(0xff) },
      { at: 1.25, bytes: Uint8Array.of(0x00, 0x7f) },
    ];
    const text = makeCapture(reads, ['recorded by a test']);
    expect(text).toBe('# recorded by a test\n0 86 00 43\n1.25 FF\n1.25 00 7F\n');
    const r = parseCapture(text);
    expect(r.isOk && r.value).toEqual(reads);
    expect(makeCaptureLine(reads[0]!)).toBe('0 86 00 43\n');
  });

  it('accepts CRLF line ends', () => {
    const r = parseCapture('0 42\r\n5 4B\r\n');
    expect(r.isOk && r.value.length).toBe(2);
  });

  it.each<[string, string, CaptureProblem]>([
    ['a bad time', '0 42\nabc 42', { kind: 'bad-time', line: 2, text: 'abc' }],
    ['a negative time', '-1 42', { kind: 'bad-time', line: 1, text: '-1' }],
    ['time going back', '10 42\n# note\n9 42', { kind: 'time-goes-back', line: 3, at: 9, previous: 10 }],
    ['an odd number of hex digits', '0 4', { kind: 'bad-hex', line: 1, text: '4' }],
    ['non-hex characters', '0 8E 0G', { kind: 'bad-hex', line: 1, text: '8E 0G' }],
    ['a read without bytes', '\n\n7   # nothing', { kind: 'no-bytes', line: 3 }],
  ])('names the line of %s', (_name, text, problem) => {
    const r = parseCapture(text);
    expect(r.isErr && r.error.problem).toEqual(problem);
    expect(r.isErr && r.error.message).toContain(`line ${problem.line}`);
  });

  it('replays a capture through the decoder with each read at its own time', () => {
    const r = parseCapture('100 8E 00\n130 05 34 00\n131 8E 00 05 24 01');
    const d = new DgtDecoder();
    const out = (r.isOk ? r.value : []).flatMap(read => d.push(read.bytes, read.at));
    expect(out.map(o => [o.type, o.at])).toEqual([
      ['square', 130],
      ['square', 131],
    ]);
  });
});
