/**
 * Perft of the rules core (chessops underneath) against public reference counts: every position
 * of perftsuite.epd and tricky.perft (the X-FEN / Shredder-FEN entries as Chess960), plus the
 * double-check suite and the stress positions that perftsuite does not already hold. Each
 * (position, depth) whose expected count is at most NODE_CAP is checked; deeper ones are left to
 * `npm run perft:full`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type PerftCount, type PerftEntry, parsePerftFile } from '../../src/engine/epd.js';
import { parsePosition } from '../../src/engine/game.js';
import { hasChess960Castling, perft, perftDivide } from '../../src/engine/perft.js';
import { sharedPath } from '../support/shared.js';

const NODE_CAP = 300_000;

const load = (file: string): PerftEntry[] =>
  parsePerftFile(readFileSync(sharedPath(`data/perft/${file}`), 'utf8')).unwrap();

/** The counts at most NODE_CAP, and what perft finds at those depths. */
const check = (entry: PerftEntry): { expected: PerftCount[]; actual: PerftCount[] } => {
  const pos = parsePosition(entry.fen).unwrap();
  const expected = entry.counts.filter(c => c.nodes <= NODE_CAP);
  const actual = expected.map(({ depth }) => ({ depth, nodes: perft(pos, depth) }));
  return { expected, actual };
};

/** Board, side, castling and en passant: the FEN without move counters. */
const fenKey = (fen: string): string => fen.split(' ').slice(0, 4).join(' ');

const label = (e: PerftEntry): string => `${e.id}: ${e.fen}`;

const suite = load('perftsuite.epd');
const tricky = load('tricky.perft');
const doubleCheck = load('perft-double-check-ferdy.epd');
const suiteKeys = new Set(suite.map(e => fenKey(e.fen)));
const stressOnly = load('perft-stress.epd').filter(e => !suiteKeys.has(fenKey(e.fen)));

describe('reference files', () => {
  // perft-double-check-ferdy.epd: 184 positions (its 185th line is empty). perft-stress.epd:
  // 174 lines, of which 127 repeat a perftsuite position (only Kiwipete D6, over the cap, is new).
  it('hold the expected numbers of positions', () => {
    expect([suite.length, tricky.length, doubleCheck.length, stressOnly.length]).toEqual([126, 18, 184, 47]);
  });
});

describe('perftsuite.epd', () => {
  it.for(suite.map(e => [label(e), e] as const))('%s', ([, entry]) => {
    const { expected, actual } = check(entry);
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });
});

describe('tricky.perft', () => {
  const CHESS960_IDS = /^(xfen-|hside-)/;

  it.for(tricky.map(e => [label(e), e] as const))('%s', ([, entry]) => {
    const { expected, actual } = check(entry);
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });

  it('reads the X-FEN and Shredder-FEN entries as Chess960 castling, the rest as standard', () => {
    const chess960 = tricky.filter(e => hasChess960Castling(parsePosition(e.fen).unwrap())).map(e => e.id);
    expect(chess960).toEqual(tricky.map(e => e.id).filter(id => CHESS960_IDS.test(id)));
    expect(chess960).toHaveLength(6);
  });

  it('castles with the rook named by the Shredder-FEN field (hside: Ff = f1 and f8)', () => {
    const entry = tricky.find(e => e.id === 'hside-rook-blocks-aside-castling');
    const pos = parsePosition(entry?.fen ?? '').unwrap();
    expect([...pos.castles.castlingRights]).toEqual([5, 61]);
  });

  it('follows the prison position 32 plies deep', () => {
    const entry = tricky.find(e => e.id === 'prison');
    expect(entry?.counts.at(-1)).toEqual({ depth: 32, nodes: 1 });
    expect(perft(parsePosition(entry?.fen ?? '').unwrap(), 32)).toBe(1);
  });
});

describe('perft-double-check-ferdy.epd (side to move in double check)', () => {
  it.for(doubleCheck.map(e => [label(e), e] as const))('%s', ([, entry]) => {
    const { expected, actual } = check(entry);
    expect(actual).toEqual(expected);
  });
});

describe('perft-stress.epd, positions not in perftsuite', () => {
  it('includes the en passant discovered-check position', () => {
    expect(stressOnly.map(e => e.fen)).toContain('8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1');
  });

  it.for(stressOnly.map(e => [label(e), e] as const))('%s', ([, entry]) => {
    const { expected, actual } = check(entry);
    expect(actual).toEqual(expected);
  });
});

describe('castling is counted once', () => {
  const pos = parsePosition('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').unwrap();

  it('lists each castling as king-takes-rook only', () => {
    const kingDests = [...(pos.allDests().get(4) ?? [])].sort((a, b) => a - b);
    // a1 and h1 are the two castlings; c1 and g1 (the king's landing squares) are not listed.
    expect(kingDests).toEqual([0, 3, 5, 7, 11, 12, 13]);
  });

  it('gives one subtree per castling in perft divide', () => {
    const divide = perftDivide(pos, 1);
    expect([...divide.keys()].filter(uci => uci.startsWith('e1')).sort()).toEqual([
      'e1a1',
      'e1d1',
      'e1d2',
      'e1e2',
      'e1f1',
      'e1f2',
      'e1h1',
    ]);
    expect([...divide.values()].reduce((a, b) => a + b, 0)).toBe(26);
  });

  it('counts promotions as four moves', () => {
    // White pawn a7 with an empty a8: four promotions plus five king moves.
    expect(perft(parsePosition('7k/P7/8/8/8/8/8/4K3 w - - 0 1').unwrap(), 1)).toBe(9);
  });

  it('rejects a negative or fractional depth', () => {
    expect(() => perft(pos, -1)).toThrow(RangeError);
    expect(() => perft(pos, 1.5)).toThrow(RangeError);
    expect(perft(pos, 0)).toBe(1);
  });
});
