/**
 * The Millennium emulator core against the decoder and the command encoder: every command gets
 * the reply of reference §1.4, report modes follow register 02 (§1.5), and the bytes the emulator
 * sends, decoded, give back its state in both orientations and both parity readings.
 */
import { parseSquare, SquareSet } from 'chessops';
import { describe, expect, it } from 'vitest';
import { MillenniumDecoder } from '../../../src/drivers/millennium/codec.js';
import { makeCommand, makeLedCommand } from '../../../src/drivers/millennium/commands.js';
import { MillenniumEmulator } from '../../../src/drivers/millennium/emulator.js';
import {
  makeHex,
  EMPTY,
  makePiece,
  START_SQUARES,
  type Orientation,
} from '../../../src/drivers/observation.js';
import type { BoardObservation, SquareEvent } from '../../../src/drivers/observationExtra.js';

const sq = (name: string): number => parseSquare(name)!;
const lift = (name: string): SquareEvent => ({ square: sq(name), content: EMPTY });
const put = (
  name: string,
  color: 'white' | 'black',
  role: 'pawn' | 'knight' | 'bishop' | 'queen',
): SquareEvent => ({
  square: sq(name),
  content: makePiece(color, role),
});

/** 1. e4 d5 2. exd5 Qxd5 3. Nc3, as the sensors see it (lift, then place; captures lift the victim first). */
const GAME: readonly SquareEvent[] = [
  lift('e2'),
  put('e4', 'white', 'pawn'),
  lift('d7'),
  put('d5', 'black', 'pawn'),
  lift('d5'),
  lift('e4'),
  put('d5', 'white', 'pawn'),
  lift('d5'),
  lift('d8'),
  put('d5', 'black', 'queen'),
  lift('b1'),
  put('c3', 'white', 'knight'),
];

const decodeWith = (d: MillenniumDecoder, bytes: Uint8Array): BoardObservation[] => d.push(bytes, 0);

describe('commands and replies (§1.4)', () => {
  it('answers V with the version reply of the real capture', () => {
    const board = new MillenniumEmulator();
    expect(makeHex(board.receive(makeCommand({ kind: 'version' })))).toBe('76 B0 31 B0 B3 37 34');
  });

  it('answers S with its position, and reads registers after writing them', () => {
    const board = new MillenniumEmulator();
    const d = new MillenniumDecoder();
    expect(decodeWith(d, board.receive(makeCommand({ kind: 'status' })))).toEqual([
      { type: 'snapshot', at: 0, squares: START_SQUARES },
    ]);
    expect(decodeWith(d, board.receive(makeCommand({ kind: 'read-register', address: 1 })))).toEqual([
      { type: 'register', at: 0, address: 1, value: 0x14, written: false },
    ]);
    const w = board.receive(makeCommand({ kind: 'write-register', address: 2, value: 3 }));
    expect(decodeWith(d, w)).toEqual([{ type: 'register', at: 0, address: 2, value: 3, written: true }]);
    expect(board.register(2)).toBe(3);
  });

  it('lights LEDs on L, acknowledges with l, and clears them on X and T (T has no reply)', () => {
    const board = new MillenniumEmulator({ orientation: 'rotated' });
    const d = new MillenniumDecoder();
    const lit = SquareSet.fromSquare(sq('e2')).with(sq('g7'));
    const ack = board.receive(makeCommand(makeLedCommand([{ squares: lit, style: 'blink' }], 'rotated')));
    expect(decodeWith(d, ack)).toEqual([{ type: 'command-ack', at: 0, command: 'leds', ok: true }]);
    expect(board.litSquares).toEqual(lit);
    expect(decodeWith(d, board.receive(makeCommand({ kind: 'leds-off' })))).toMatchObject([
      { command: 'leds-off' },
    ]);
    expect(board.litSquares.isEmpty()).toBe(true);
    board.receive(makeCommand(makeLedCommand([{ squares: lit, style: 'steady' }], 'rotated')));
    expect(board.receive(makeCommand({ kind: 'reset' }))).toHaveLength(0);
    expect(board.litSquares.isEmpty()).toBe(true);
  });

  it('reads commands cut into single bytes, and stays silent on a bad checksum', () => {
    const board = new MillenniumEmulator();
    const bad = makeCommand({ kind: 'version' });
    bad[1] = 0x34; // "4" (odd weight, no parity bit): a wrong checksum digit with the right parity
    const stream = Uint8Array.from([...bad, ...makeCommand({ kind: 'version' })]);
    const replies = Array.from(stream).map(b => board.receive(Uint8Array.of(b)));
    expect(replies.map(r => r.length)).toEqual([...new Array<number>(stream.length - 1).fill(0), 7]);
  });
});

describe('report modes (§1.5)', () => {
  it.each<[number, string, number[]]>([
    // mode 0 (default): a report on every scan, changed or not.
    [0, 'every scan', [67, 67]],
    // mode 1: reports off (poll with S).
    [1, 'off', [0, 0]],
    // mode 2: at the register-03 interval (the transport's timer calls statusReport()).
    [2, 'interval', [0, 0]],
    // mode 3: on change only.
    [3, 'on change', [67, 0]],
  ])('mode %i (%s)', (mode, _name, lengths) => {
    const board = new MillenniumEmulator({ registers: { 2: mode } });
    expect([board.apply(lift('e2')).length, board.apply(lift('e2')).length]).toEqual(lengths);
  });
});

describe('emulator → decoder round trips', () => {
  it.each<[Orientation, boolean]>([
    ['normal', true],
    ['rotated', true],
    ['normal', false],
    ['rotated', false],
  ])('orientation %s, parity bits %s: every report decodes to the emulator state', (orientation, parity) => {
    const board = new MillenniumEmulator({ orientation, parity, registers: { 2: 3 } });
    const d = new MillenniumDecoder({ orientation, parity: parity ? 'odd' : 'none' });
    for (const e of GAME) {
      const out = decodeWith(d, board.apply(e));
      expect(out).toEqual([{ type: 'snapshot', at: 0, squares: board.squares }]);
    }
    expect(board.squares[sq('d5')]).toEqual(makePiece('black', 'queen'));
    expect(board.squares[sq('c3')]).toEqual(makePiece('white', 'knight'));
  });

  it('refuses contents a Millennium board cannot report', () => {
    const board = new MillenniumEmulator();
    expect(() => board.apply({ square: 0, content: { kind: 'occupied' } })).toThrow(TypeError);
  });
});
