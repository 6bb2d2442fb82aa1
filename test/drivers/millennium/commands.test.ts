/**
 * Millennium host commands (reference §1.4, §1.7): the exact wire bytes of the reference table,
 * the LED addressing examples and the worked LED checksum, round trips through parseCommand,
 * and the chunked command reader the emulator uses.
 */
import { parseSquare, SquareSet } from 'chessops';
import { describe, expect, it } from 'vitest';
import {
  makeCommand,
  makeCommandText,
  makeLedCommand,
  MAX_COMMAND_LENGTH,
  MillenniumCommandReader,
  parseCommand,
  type MillenniumCommand,
} from '../../../src/drivers/millennium/commands.js';
import { makeLedPatterns, parseLedPatterns, squareLeds } from '../../../src/drivers/millennium/leds.js';
import { makeHex } from '../../../src/drivers/observation.js';

const sq = (name: string): number => parseSquare(name)!;
const squares = (...names: string[]): SquareSet => names.reduce((s, n) => s.with(sq(n)), SquareSet.empty());

describe('§1.4 wire bytes', () => {
  it.each<[string, MillenniumCommand, string, string]>([
    ['Version', { kind: 'version' }, 'V56', 'D6 B5 B6'],
    ['Status', { kind: 'status' }, 'S53', 'D3 B5 B3'],
    ['LEDs off', { kind: 'leds-off' }, 'X58', '58 B5 38'],
    ['Reset', { kind: 'reset' }, 'T54', '54 B5 34'],
    [
      'Auto report on change',
      { kind: 'write-register', address: 2, value: 3 },
      'W020356',
      '57 B0 32 B0 B3 B5 B6',
    ],
    ['Read report mode', { kind: 'read-register', address: 2 }, 'R0250', '52 B0 32 B5 B0'],
  ])('%s', (_name, command, text, bytes) => {
    expect(makeCommandText(command)).toBe(text);
    expect(makeHex(makeCommand(command))).toBe(bytes);
  });

  it('sends 7-bit bytes when the port adds parity itself', () => {
    expect(makeHex(makeCommand({ kind: 'version' }, { parity: false }))).toBe('56 35 36');
  });

  it('encodes the G en-passant field as rank − 1 then file index (errata 12: d6 = 53, d3 = 23)', () => {
    const base = {
      kind: 'set-position',
      board: '.'.repeat(64),
      flags: 0x08,
      halfmoveClock: 0,
      moveNumber: 1,
    } as const;
    expect(makeCommandText({ ...base, enPassant: sq('d6') }).slice(65, 69)).toBe('0853');
    expect(makeCommandText({ ...base, enPassant: sq('d3') }).slice(67, 69)).toBe('23');
    expect(makeCommandText({ ...base, enPassant: undefined }).slice(67, 77)).toBe('0000000001');
  });

  it('rejects impossible values as programmer errors', () => {
    expect(() => makeCommand({ kind: 'write-register', address: 256, value: 0 })).toThrow(TypeError);
    expect(() => makeCommand({ kind: 'leds', slotTime: 0x32, patterns: [0xff] })).toThrow(TypeError);
  });
});

describe('§1.7 LEDs', () => {
  // §1.7 examples in orientation A.
  it.each([
    ['h1', [0, 1, 9, 10]],
    ['e2', [28, 29, 37, 38]],
    ['e4', [30, 31, 39, 40]],
    ['a8', [70, 71, 79, 80]],
  ])('%s uses LEDs %j', (name, leds) => {
    expect([...squareLeds(sq(name), 'normal')].sort((a, b) => a - b)).toEqual(leds);
  });

  it('uses 80 − n on a board in orientation B', () => {
    expect([...squareLeds(sq('h1'), 'rotated')].sort((a, b) => a - b)).toEqual([70, 71, 79, 80]);
  });

  it('encodes e2 and e4 steady with TT = 0x32 as the worked example: 167 characters, checksum 4D', () => {
    const text = makeCommandText(
      makeLedCommand([{ squares: squares('e2', 'e4'), style: 'steady' }], 'normal'),
    );
    expect(text).toHaveLength(167);
    expect(text.slice(0, 3)).toBe('L32');
    expect(text.slice(-2)).toBe('4D');
    const lit = [28, 29, 37, 38, 30, 31, 39, 40];
    for (let n = 0; n < 81; n++) expect(text.slice(3 + 2 * n, 5 + 2 * n)).toBe(lit.includes(n) ? 'FF' : '00');
  });

  it('combines shared corners of two styles and reads the lit squares back', () => {
    const patterns = makeLedPatterns(
      [
        { squares: squares('e2'), style: 'blink' },
        { squares: squares('e3'), style: 'blink-inverse' },
      ],
      'rotated',
    );
    expect(patterns.filter(p => p === 0xff)).toHaveLength(2); // the two shared corners
    expect(patterns.filter(p => p === 0xcc)).toHaveLength(2);
    expect(patterns.filter(p => p === 0x33)).toHaveLength(2);
    expect(parseLedPatterns(patterns, 'rotated')).toEqual(squares('e2', 'e3'));
  });
});

describe('round trips', () => {
  const COMMANDS: readonly MillenniumCommand[] = [
    { kind: 'version' },
    { kind: 'status' },
    { kind: 'leds-off' },
    { kind: 'reset' },
    { kind: 'identify' },
    { kind: 'write-register', address: 0x10, value: 0xab },
    { kind: 'read-register', address: 0x04 },
    makeLedCommand([{ squares: squares('a1', 'h8', 'd4'), style: 'blink' }], 'normal', 0x22),
    {
      kind: 'set-position',
      board: 'rnbqkbnrpppppppp' + '.'.repeat(32) + 'PPPPPPPPRNBQKBNR',
      flags: 0x33,
      enPassant: sq('e3'),
      halfmoveClock: 0x12,
      moveNumber: 0x1234,
    },
  ];

  it.each(COMMANDS.map(c => [c.kind, c] as const))('parseCommand(makeCommand(%s)) gives it back', (_k, c) => {
    for (const parity of [true, false]) {
      const bytes = makeCommand(c, { parity });
      expect(parseCommand(bytes).unwrap()).toEqual({ command: c, length: bytes.length });
    }
  });

  it('reads all commands from a stream cut at every position, skipping garbage and bad checksums', () => {
    const parts = COMMANDS.map(c => makeCommand(c));
    const corrupt = makeCommand({ kind: 'version' });
    corrupt[2] = 0x37; // "7": checksum 57 instead of 56
    const stream = Uint8Array.from([0x00, 0x41, ...corrupt, ...parts.flatMap(p => Array.from(p))]);
    for (const cut of [1, 5, 50, 166, 200, stream.length - 1]) {
      const reader = new MillenniumCommandReader();
      const events = [...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))];
      expect(events.flatMap(e => (e.kind === 'command' ? [e.command] : []))).toEqual([...COMMANDS]);
      expect(events.flatMap(e => (e.kind === 'error' ? [e.error.kind] : []))).toContain('checksum');
      expect(reader.buffered).toBe(0);
    }
  });

  it('resynchronises early on a stray command letter instead of waiting for 167 bytes', () => {
    const reader = new MillenniumCommandReader();
    const events = reader.push(Uint8Array.from([0x4c, ...makeCommand({ kind: 'status' })])); // "L" then S53
    expect(events.map(e => e.kind)).toEqual(['error', 'command']);
    expect(reader.buffered).toBeLessThanOrEqual(MAX_COMMAND_LENGTH);
  });

  it('drops a command whose parity bits mix both readings', () => {
    const bytes = makeCommand({ kind: 'status' });
    bytes[1] = 0x35; // "5" sent without the parity bit "S" carries
    const r = parseCommand(bytes);
    expect(r.isErr && r.error).toMatchObject({ kind: 'parity', byte: 0x35 });
  });
});
