/**
 * The Chessnut emulator core against the decoder and the command encoder (reference §3.3–§3.7):
 * silent until the start command, the reports it sends decode to its state over USB and BLE in
 * both orientations, LEDs, battery and version replies, and no stored-game command is obeyed.
 */
import { parseSquare, SquareSet } from 'chessops';
import { describe, expect, it } from 'vitest';
import { ChessnutDecoder } from '../../../src/drivers/chessnut/codec.js';
import { makeCommand } from '../../../src/drivers/chessnut/commands.js';
import { ChessnutEmulator } from '../../../src/drivers/chessnut/emulator.js';
import {
  EMPTY,
  makeHex,
  makePiece,
  START_SQUARES,
  type Orientation,
} from '../../../src/drivers/observation.js';
import type { BoardObservation, SquareEvent } from '../../../src/drivers/observationExtra.js';

const sq = (name: string): number => parseSquare(name)!;
const lift = (name: string): SquareEvent => ({ square: sq(name), content: EMPTY });
const put = (name: string, color: 'white' | 'black', role: 'pawn' | 'knight' | 'queen'): SquareEvent => ({
  square: sq(name),
  content: makePiece(color, role),
});

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

const decodeAll = (d: ChessnutDecoder, reports: Uint8Array[]): BoardObservation[] =>
  reports.flatMap(r => d.push(r, 0));

describe('start and replies', () => {
  it('sends nothing until started, then an ack and the position (§3.7 step 2)', () => {
    const board = new ChessnutEmulator();
    expect(board.apply(lift('e2'))).toEqual([]);
    const replies = board.receive(makeCommand({ kind: 'start' }));
    expect(replies.map(r => r.length)).toEqual([3, 63]);
    const d = new ChessnutDecoder();
    expect(decodeAll(d, replies)).toEqual([
      { type: 'command-ack', at: 0, command: 'unknown', ok: true },
      { type: 'snapshot', at: 0, squares: board.squares },
    ]);
  });

  it('answers battery and version queries', () => {
    const board = new ChessnutEmulator({ battery: { percent: 64, charging: true }, started: true });
    const d = new ChessnutDecoder();
    const battery = board.receive(makeCommand({ kind: 'battery' }));
    expect(makeHex(battery[0] ?? new Uint8Array())).toBe('2A 02 C0 01');
    expect(decodeAll(d, battery)).toMatchObject([{ type: 'battery', percent: 64, charging: true }]);
    expect(decodeAll(d, board.receive(makeCommand({ kind: 'version', which: 'mcu' })))).toEqual([
      { type: 'identity', at: 0, vendor: 'Chessnut', firmware: 'CN_DVT9_210659' },
    ]);
  });

  it('lights LEDs in its own frame and acknowledges them', () => {
    const board = new ChessnutEmulator({ orientation: 'rotated', started: true });
    const lit = SquareSet.fromSquare(sq('e2')).with(sq('b7'));
    const replies = board.receive(makeCommand({ kind: 'leds', squares: lit }, { orientation: 'rotated' }));
    expect(replies.map(r => makeHex(r))).toEqual(['23 01 00']);
    expect(board.litSquares).toEqual(lit);
  });

  it('records and ignores stored-game commands (§3.9)', () => {
    const board = new ChessnutEmulator({ started: true });
    expect(board.receive(Uint8Array.of(0x39, 0x01, 0x00))).toEqual([]);
    expect(board.forbiddenLog).toEqual([
      { kind: 'forbidden', name: 'delete-game', bytes: [0x39, 0x01, 0x00] },
    ]);
  });
});

describe('emulator → decoder round trips', () => {
  it.each<[Orientation, 'usb' | 'ble']>([
    ['normal', 'usb'],
    ['rotated', 'usb'],
    ['normal', 'ble'],
    ['rotated', 'ble'],
  ])('orientation %s over %s: every report decodes to the emulator state', (orientation, link) => {
    const board = new ChessnutEmulator({ orientation, link, started: true });
    const d = new ChessnutDecoder({ orientation });
    expect(decodeAll(d, [board.positionReport()])).toEqual([
      { type: 'snapshot', at: 0, squares: START_SQUARES },
    ]);
    for (const e of GAME)
      expect(decodeAll(d, board.apply(e))).toEqual([{ type: 'snapshot', at: 0, squares: board.squares }]);
    expect(board.squares[sq('d5')]).toEqual(makePiece('black', 'queen'));
  });

  it('refuses contents a Chessnut board cannot report', () => {
    expect(() => new ChessnutEmulator().apply({ square: 0, content: { kind: 'occupied' } })).toThrow(
      TypeError,
    );
  });
});
