/**
 * The Certabo emulator core against the decoder: the frames it streams, decoded with its
 * calibration (RFID) or as occupancy, give back its state in both orientations, with and without
 * noise on empty squares (reference §2.4), and with either line ending (errata 3).
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { CertaboDecoder } from '../../../src/drivers/certabo/codec.js';
import { CertaboEmulator } from '../../../src/drivers/certabo/emulator.js';
import {
  EMPTY,
  makePiece,
  OCCUPIED,
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

/** 1. e4 d5 2. exd5 Qxd5 3. Nc3 and a promotion-style queen placed on h8 later. */
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
  lift('h8'),
  put('h8', 'white', 'queen'),
];

const snapshots = (obs: BoardObservation[]): BoardObservation[] => obs.filter(o => o.type === 'snapshot');

describe('RFID board', () => {
  it.each<[Orientation, boolean]>([
    ['normal', false],
    ['rotated', false],
    ['normal', true],
    ['rotated', true],
  ])(
    'orientation %s, trailing space %s: every frame decodes to the emulator state',
    (orientation, trailingSpace) => {
      const board = new CertaboEmulator({ orientation, trailingSpace });
      const d = new CertaboDecoder({ orientation, calibration: board.calibration, voteFrames: 1 });
      expect(snapshots(d.push(board.frame(), 0))).toEqual([
        { type: 'snapshot', at: 0, squares: START_SQUARES },
      ]);
      for (const e of GAME)
        expect(snapshots(d.push(board.apply(e), 0))).toEqual([
          { type: 'snapshot', at: 0, squares: board.squares },
        ]);
      expect(board.squares[sq('h8')]).toEqual(makePiece('white', 'queen'));
    },
  );

  it('with noise on 12 empty squares, the 3-frame vote still gives the state after each settled move', () => {
    const board = new CertaboEmulator({ noise: { seed: 42, squares: 12 } });
    const d = new CertaboDecoder({ calibration: board.calibration });
    for (const e of GAME) {
      board.apply(e);
      const out = [0, 1, 2].flatMap(() => d.push(board.frame(), 0));
      expect(snapshots(out).at(-1)).toEqual({ type: 'snapshot', at: 0, squares: board.squares });
      expect(out.some(o => o.type === 'protocol-error')).toBe(false);
    }
  });

  it('gives a second queen of one colour its own tag', () => {
    const board = new CertaboEmulator();
    board.apply(put('e4', 'white', 'queen'));
    expect(board.tagAt(sq('e4'))).not.toBe(board.tagAt(sq('d1')));
    expect(board.calibration.pieces[board.tagAt(sq('e4')) ?? '']).toBe('Q');
  });

  it('refuses an occupant without identity', () => {
    expect(() => new CertaboEmulator().apply({ square: 0, content: OCCUPIED })).toThrow(TypeError);
  });
});

describe('occupancy board (Sentio, Tactum)', () => {
  it.each<Orientation>(['normal', 'rotated'])(
    'every frame decodes to the occupied squares (%s)',
    orientation => {
      const board = new CertaboEmulator({ sensing: 'occupancy', orientation, trailingSpace: true });
      const d = new CertaboDecoder({ orientation });
      const line = String.fromCharCode(...board.frame());
      expect(line).toBe(':255 255 0 0 0 0 255 255 \r\n'); // §2.5 start position, both orientations
      for (const e of GAME) {
        const [snap] = d.push(board.apply(e), 0);
        expect(snap).toEqual({ type: 'snapshot', at: 0, squares: board.squares });
        expect(board.squares.every(c => c.kind === 'empty' || c.kind === 'occupied')).toBe(true);
      }
    },
  );
});
