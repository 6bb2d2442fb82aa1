/**
 * Chessnut host commands (reference §3.3, §3.6): exact bytes of every command, the LED examples
 * (bit 7 = a-file, the opposite of Certabo) and the turned board, round trips through
 * parseCommand, padding, and the stored-game commands that can be parsed but never made.
 */
import { parseSquare, SquareSet } from 'chessops';
import { describe, expect, it } from 'vitest';
import { makeCommand, parseCommand, type ChessnutCommand } from '../../../src/drivers/chessnut/commands.js';
import { isChessnutDevice, modelFromProductId } from '../../../src/drivers/chessnut/protocol.js';
import { makeHex, type Orientation } from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const sq = (name: string): number => parseSquare(name)!;
const squares = (...names: string[]): SquareSet => names.reduce((s, n) => s.with(sq(n)), SquareSet.empty());

describe('§3.3 command bytes', () => {
  it.each<[string, ChessnutCommand, string]>([
    ['start real-time mode', { kind: 'start' }, '21 01 00'],
    ['MCU version', { kind: 'version', which: 'mcu' }, '27 01 01'],
    ['BLE version', { kind: 'version', which: 'ble' }, '27 01 00'],
    ['battery', { kind: 'battery' }, '29 01 00'],
    ['stored game count', { kind: 'game-count' }, '31 01 00'],
    ['device name (UNVERIFIED)', { kind: 'device-name' }, '2B 01 00'],
    ['device time (UNVERIFIED)', { kind: 'device-time' }, '26 01 00'],
    [
      'beep 1000 Hz for 200 ms, big-endian',
      { kind: 'beep', frequency: 1000, duration: 200 },
      '0B 04 03 E8 00 C8',
    ],
  ])('%s', (_name, command, bytes) => {
    expect(makeHex(makeCommand(command))).toBe(bytes);
  });

  it('rejects a beep out of range', () => {
    expect(() => makeCommand({ kind: 'beep', frequency: 70000, duration: 1 })).toThrow(TypeError);
  });
});

describe('§3.6 LEDs', () => {
  it.each<[string, SquareSet, Orientation, string]>([
    ['e2 + e4', squares('e2', 'e4'), 'normal', '0A 08 00 00 00 00 08 00 08 00'],
    ['c3', squares('c3'), 'normal', '0A 08 00 00 00 00 00 20 00 00'],
    ['all off', SquareSet.empty(), 'normal', '0A 08 00 00 00 00 00 00 00 00'],
    ['a8 (bit 7 = a-file)', squares('a8'), 'normal', '0A 08 80 00 00 00 00 00 00 00'],
    [
      'e2 + e4 on a turned board (d7 + d5 of the board)',
      squares('e2', 'e4'),
      'rotated',
      '0A 08 00 10 00 10 00 00 00 00',
    ],
  ])('%s', (_name, set, orientation, bytes) => {
    expect(makeHex(makeCommand({ kind: 'leds', squares: set }, { orientation }))).toBe(bytes);
  });
});

describe('round trips', () => {
  const COMMANDS: readonly ChessnutCommand[] = [
    { kind: 'start' },
    { kind: 'leds', squares: squares('a1', 'b2', 'h8', 'e5') },
    { kind: 'beep', frequency: 0x1234, duration: 0xffff },
    { kind: 'version', which: 'mcu' },
    { kind: 'version', which: 'ble' },
    { kind: 'battery' },
    { kind: 'game-count' },
    { kind: 'device-name' },
    { kind: 'device-time' },
  ];

  it.each<Orientation>(['normal', 'rotated'])(
    'parseCommand(makeCommand(c)) gives c back (%s)',
    orientation => {
      for (const c of COMMANDS)
        expect(parseCommand(makeCommand(c, { orientation }), { orientation }).unwrap()).toEqual(c);
    },
  );

  it('ignores padding to the output report length (Windows, §3.2)', () => {
    const padded = new Uint8Array(64);
    padded.set(makeCommand({ kind: 'start' }));
    expect(parseCommand(padded).unwrap()).toEqual({ kind: 'start' });
  });

  // §3.9: stored-game retrieval deletes the file on the board; these are parsed, never made.
  it.each([
    ['21 01 01', 'upload-mode'],
    ['33 01 00', 'file-ready'],
    ['34 01 01', 'file-transfer'],
    ['39 01 00', 'delete-game'],
  ])('%s is the forbidden %s', (bytes, name) => {
    expect(parseCommand(hex(bytes)).unwrap()).toEqual({
      kind: 'forbidden',
      name,
      bytes: Array.from(hex(bytes)),
    });
  });

  it.each([
    ['an unknown id', '99 01 00', { kind: 'unknown-command', byte: 0x99 }],
    [
      'a wrong length byte',
      '0A 07 00 00 00 00 00 00 00',
      { kind: 'bad-length', id: 0x0a, declared: 7, expected: 8 },
    ],
    ['a short report', '0A 08 00', { kind: 'incomplete', received: 3, needed: 10 }],
    ['a bad mode', '21 01 05', { kind: 'bad-field', id: 0x21, value: 5 }],
  ])('reports %s', (_name, bytes, problem) => {
    const r = parseCommand(hex(bytes));
    expect(r.isErr && r.error).toMatchObject(problem);
  });
});

describe('§3.1 identification', () => {
  it.each([
    [0x8001, 'Air'],
    [0x8102, 'Pro'],
    [0x8200, 'Air+'],
    [0x8300, 'Evo'],
    [0x8501, 'Go'],
    [0x8400, undefined],
  ])('product id %i is %s', (pid, model) => {
    expect(isChessnutDevice(0x2d80, pid)).toBe(true);
    expect(modelFromProductId(pid)).toBe(model);
  });

  it('refuses other vendors and product ranges', () => {
    expect(isChessnutDevice(0x2d80, 0x8700)).toBe(false);
    expect(isChessnutDevice(0x10c4, 0x8000)).toBe(false);
  });
});
