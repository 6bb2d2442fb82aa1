import { SquareSet } from 'chessops';
import { parseSquare } from 'chessops';
import { rotate180 } from 'chessops/transform';
import { describe, expect, it } from 'vitest';
import {
  detectOrientation,
  EMPTY,
  makeHex,
  makePiece,
  occupancyOf,
  OCCUPIED,
  orientSquare,
  orientSquares,
  START_SQUARES,
  type SquareContent,
} from '../../src/drivers/observation.js';

const sq = (name: string): number => parseSquare(name)!;

describe('orientSquare', () => {
  it('is the identity for a normal board', () => {
    for (let s = 0; s < 64; s++) expect(orientSquare(s, 'normal')).toBe(s);
  });

  it('agrees with chessops rotate180 and is an involution on a rotated board', () => {
    for (let s = 0; s < 64; s++) {
      const r = orientSquare(s, 'rotated');
      expect(SquareSet.fromSquare(r).equals(rotate180(SquareSet.fromSquare(s)))).toBe(true);
      expect(orientSquare(r, 'rotated')).toBe(s);
    }
  });

  // Table: board-frame square -> game square on a turned board (reference §4.1: field 63 - n).
  it.each([
    ['a1', 'h8'],
    ['e2', 'd7'],
    ['h1', 'a8'],
    ['d4', 'e5'],
  ])('rotated %s is %s', (from, to) => {
    expect(orientSquare(sq(from), 'rotated')).toBe(sq(to));
  });
});

describe('START_SQUARES', () => {
  it('holds the standard start position', () => {
    expect(START_SQUARES[sq('e1')]).toEqual(makePiece('white', 'king'));
    expect(START_SQUARES[sq('d8')]).toEqual(makePiece('black', 'queen'));
    expect(START_SQUARES[sq('g2')]).toEqual(makePiece('white', 'pawn'));
    expect(START_SQUARES[sq('e4')]).toEqual(EMPTY);
    expect(
      occupancyOf(START_SQUARES).equals(
        SquareSet.fromRank(0)
          .union(SquareSet.fromRank(1))
          .union(SquareSet.fromRank(6))
          .union(SquareSet.fromRank(7)),
      ),
    ).toBe(true);
  });
});

describe('detectOrientation', () => {
  it('recognises the start position either way round', () => {
    expect(detectOrientation(START_SQUARES)).toBe('normal');
    expect(detectOrientation(orientSquares(START_SQUARES, 'rotated'))).toBe('rotated');
  });

  it('gives undefined for anything else', () => {
    const moved: SquareContent[] = [...START_SQUARES];
    moved[sq('e2')] = EMPTY;
    moved[sq('e4')] = makePiece('white', 'pawn');
    expect(detectOrientation(moved)).toBeUndefined();
    // King and queen swapped is a mirrored, not a rotated, set-up.
    const mirrored: SquareContent[] = [...START_SQUARES];
    mirrored[sq('d1')] = makePiece('white', 'king');
    mirrored[sq('e1')] = makePiece('white', 'queen');
    expect(detectOrientation(mirrored)).toBeUndefined();
    // Occupancy-only boards cannot tell.
    expect(detectOrientation(START_SQUARES.map(c => (c.kind === 'empty' ? c : OCCUPIED)))).toBeUndefined();
  });
});

describe('makeHex', () => {
  it('writes upper-case pairs separated by spaces', () => {
    expect(makeHex(Uint8Array.of(0x86, 0x00, 0x43, 0x0a))).toBe('86 00 43 0A');
    expect(makeHex([])).toBe('');
  });
});
