/**
 * Certabo host commands (reference §2.7): the LED byte examples (with the opposite bit order to
 * occupancy), the turned board, the RGB frame layout and its LED indices, round trips through
 * parseCommand, and the emulator's command reader; the emulator's acknowledgements (§2.3).
 */
import { parseSquare, SquareSet } from 'chessops';
import { describe, expect, it } from 'vitest';
import {
  CertaboCommandReader,
  makeCommand,
  makeRgbColours,
  parseCommand,
  type CertaboCommand,
  type Rgb,
} from '../../../src/drivers/certabo/commands.js';
import { CertaboEmulator } from '../../../src/drivers/certabo/emulator.js';
import { rgbSquareLeds } from '../../../src/drivers/certabo/protocol.js';
import { makeHex, type Orientation } from '../../../src/drivers/observation.js';

const sq = (name: string): number => parseSquare(name)!;
const squares = (...names: string[]): SquareSet => names.reduce((s, n) => s.with(sq(n)), SquareSet.empty());

describe('§2.7 LED bytes', () => {
  it.each<[string, SquareSet, Orientation, string]>([
    ['e2 + e4', squares('e2', 'e4'), 'normal', '00 00 00 00 10 00 10 00'],
    ['d2 + d4', squares('d2', 'd4'), 'normal', '00 00 00 00 08 00 08 00'],
    ['all off', SquareSet.empty(), 'normal', '00 00 00 00 00 00 00 00'],
    ['all on', SquareSet.full(), 'normal', 'FF FF FF FF FF FF FF FF'],
    ['a8 only (bit 0 = a-file)', squares('a8'), 'normal', '01 00 00 00 00 00 00 00'],
    // picochess set_leds on a turned board: d2 + d4 → 00 10 00 10 00 00 00 00.
    ['d2 + d4 on a turned board', squares('d2', 'd4'), 'rotated', '00 10 00 10 00 00 00 00'],
  ])('%s', (_name, set, orientation, bytes) => {
    expect(makeHex(makeCommand({ kind: 'leds', squares: set }, { orientation }))).toBe(bytes);
  });

  it('the calibration pattern lights ranks 8, 7, 2, 1 and d6, d3 (§2.6 step 2)', () => {
    const set = SquareSet.fromRank(0)
      .union(SquareSet.fromRank(1))
      .union(SquareSet.fromRank(6))
      .union(SquareSet.fromRank(7));
    expect(makeHex(makeCommand({ kind: 'leds', squares: set.with(sq('d6')).with(sq('d3')) }))).toBe(
      'FF FF 08 00 00 08 FF FF',
    );
  });
});

describe('§2.7 RGB frame', () => {
  // LED index examples: n = 9·r + c, c counted from the h-file edge.
  it.each([
    ['h1', [0, 1, 9, 10]],
    ['e2', [12, 13, 21, 22]],
    ['e4', [30, 31, 39, 40]],
    ['a8', [70, 71, 79, 80]],
  ])('%s uses LEDs %j', (name, leds) => {
    expect([...rgbSquareLeds(sq(name))].sort((a, b) => a - b)).toEqual(leds);
  });

  it('is FF 55 + 81 × RGB + 0D 0A, colour bytes of LED n at 2 + 3n', () => {
    const colours = makeRgbColours([{ squares: squares('e2'), style: 'steady' }], 'normal');
    const bytes = makeCommand({ kind: 'leds-rgb', colours });
    expect(bytes).toHaveLength(247);
    expect(makeHex(bytes.subarray(0, 2))).toBe('FF 55');
    expect(makeHex(bytes.subarray(245))).toBe('0D 0A');
    expect(makeHex(bytes.subarray(2 + 3 * 12, 2 + 3 * 13))).toBe('00 00 40'); // picochess blue
    expect(Array.from(bytes.subarray(2, 245)).filter(b => b !== 0)).toHaveLength(4);
  });

  it('rejects a frame of the wrong size', () => {
    expect(() => makeCommand({ kind: 'leds-rgb', colours: [[0, 0, 0]] })).toThrow(TypeError);
  });
});

describe('round trips', () => {
  const rgb: Rgb[] = Array.from({ length: 81 }, (_, n): Rgb => [n, 255 - n, n % 7]);
  const COMMANDS: readonly CertaboCommand[] = [
    { kind: 'leds', squares: squares('a1', 'h8', 'e4', 'd5') },
    { kind: 'leds', squares: SquareSet.empty() },
    { kind: 'leds-rgb', colours: rgb },
  ];

  it.each<Orientation>(['normal', 'rotated'])(
    'parseCommand(makeCommand(c)) gives c back (%s)',
    orientation => {
      for (const c of COMMANDS) {
        const bytes = makeCommand(c, { orientation });
        expect(parseCommand(bytes, { orientation, rgb: true }).unwrap()).toEqual({
          command: c,
          length: bytes.length,
        });
      }
    },
  );

  it('reads a stream of commands cut at every position', () => {
    const stream = Uint8Array.from(COMMANDS.flatMap(c => Array.from(makeCommand(c))));
    for (let k = 0; k <= stream.length; k += 7) {
      const reader = new CertaboCommandReader({ rgb: true });
      const events = [...reader.push(stream.subarray(0, k)), ...reader.push(stream.subarray(k))];
      expect(events.map(e => e.kind === 'command' && e.command)).toEqual([...COMMANDS]);
    }
  });

  it('drops a frame whose trailer is wrong and resynchronises on the next header', () => {
    const good = makeCommand({ kind: 'leds-rgb', colours: rgb });
    const bad = good.slice();
    bad[246] = 0x00;
    const reader = new CertaboCommandReader({ rgb: true });
    const events = reader.push(Uint8Array.from([...bad, ...good]));
    expect(events.map(e => e.kind)).toEqual(['error', 'command']);
    expect(events[0]).toMatchObject({
      kind: 'error',
      error: { kind: 'bad-trailer', bytes: [0x0d, 0x00], consumed: 247 },
    });
    // A frame that lost a byte: the next header falls inside its 247 bytes.
    const cut = Uint8Array.from([...good.subarray(0, 100), ...good.subarray(101), ...good]);
    const again = new CertaboCommandReader({ rgb: true }).push(cut);
    expect(again.map(e => e.kind)).toEqual(['error', 'command']);
    expect(again[1]).toMatchObject({ command: { kind: 'leds-rgb', colours: rgb } });
  });
});

describe('emulator acknowledgements (§2.3)', () => {
  it('a mono board lights squares and answers L', () => {
    const board = new CertaboEmulator({ orientation: 'rotated' });
    const lit = squares('c3', 'f6');
    const ack = board.receive(makeCommand({ kind: 'leds', squares: lit }, { orientation: 'rotated' }));
    expect(String.fromCharCode(...ack)).toBe('L\r\n');
    expect(board.litSquares).toEqual(lit);
  });

  it('a Spectrum board takes RGB frames and answers D', () => {
    const board = new CertaboEmulator({ leds: 'rgb' });
    const colours = makeRgbColours([{ squares: squares('e4'), style: 'blink' }], 'normal');
    const bytes = makeCommand({ kind: 'leds-rgb', colours });
    const acks = [...bytes].map(b => board.receive(Uint8Array.of(b))).filter(a => a.length > 0);
    expect(acks.map(a => String.fromCharCode(...a))).toEqual(['D\r\n']);
    expect(board.rgbColours).toEqual(colours);
  });
});
