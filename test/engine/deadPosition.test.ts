import { readFileSync } from 'node:fs';
import { Chess } from 'chessops';
import { parseFen } from 'chessops/fen';
import { describe, expect, it } from 'vitest';
import {
  type DeadPositionOptions,
  deadPositionArticle,
  insufficientMaterial,
  isDeadPosition,
} from '../../src/engine/deadPosition.js';
import { EDITIONS } from '../../src/engine/types.js';
import { sharedPath } from '../support/shared.js';

const position = (fen: string): Chess => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

/** Splits one CSV line, honouring double-quoted fields (with "" for a quote inside). */
const csvFields = (line: string): string[] => {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
};

// CHA = test vectors of the Chess Unwinnability Analyzer (M. Ambrona, FUN 2022, public
// repository tests/test-vector.txt): "--" means neither side can helpmate. "Reference" = the FIDE
// Laws reference of this project (§4.1 list of typical dead positions, §5.3, S62-S65).
type Row = [fen: string, dead: 'yes' | 'no', method: string, source: string, opts?: DeadPositionOptions];
const always: DeadPositionOptions = { search: 'always' };
const rows: Row[] = [
  // Dead by material (reference §4.1).
  ['4k3/8/8/8/8/8/8/4K3 w - -', 'yes', 'material', 'reference §4.1: K v K'],
  ['4k3/8/8/8/8/8/8/2B1K3 w - -', 'yes', 'material', 'reference §4.1: K+B v K'],
  ['4k3/8/8/8/8/8/8/1N2K3 b - -', 'yes', 'material', 'reference §4.1: K+N v K'],
  ['4kb2/8/8/8/8/8/8/2B1K3 w - -', 'yes', 'material', 'reference §4.1: K+B v K+B, same colour'],
  ['8/8/8/8/8/1kB5/1B6/BKB5 w - -', 'yes', 'material', 'CHA --: four bishops, all on dark squares'],
  ['k4b2/2K5/5b2/6B1/5B2/b1b3B1/5B2/8 b - -', 'yes', 'material', 'CHA --: many bishops, one colour'],
  ['8/8/4k3/8/8/8/2B5/4K3 b - -', 'yes', 'material', "reference S65: White took Black's last pawn, K+B v K"],
  // Dead by pawn blockade.
  ['4k3/8/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - -', 'yes', 'blockade', 'CHA --: locked wall'],
  ['2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -', 'yes', 'blockade', 'CHA --: wall, bishops of both sides'],
  [
    '8/2k5/8/1p1p1p1p/1P1P1P1P/4B3/2K5/8 w - -',
    'yes',
    'blockade',
    'CHA --: the bishop cannot cross the wall',
  ],
  ['8/8/5k2/p3p1p1/Pp1pP1Pp/1P1P3P/2K5/8 b - -', 'yes', 'blockade', 'CHA --: staggered chain'],
  [
    '2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - -',
    'yes',
    'blockade',
    'CHA --: a pawn that can only close the wall',
  ],
  ['3k4/1p1p1p1p/1P1P1P1P/3p4/8/8/3P3P/4K3 w - -', 'yes', 'blockade', 'CHA --: loose pawns, no way through'],
  ['1k6/8/8/p1p1p1p1/P1P1P1P1/8/8/1K6 b - -', 'yes', 'blockade', 'CHA --'],
  ['8/4k3/4p2p/p2pP2P/P2P3K/8/8/8 w - -', 'yes', 'blockade', 'CHA --'],
  [
    '8/6b1/8/2k5/1p1p1p2/1PpP1Pp1/2P3P1/N2KNB2 b - -',
    'yes',
    'blockade',
    'CHA --: knights and bishops shut in',
  ],
  [
    '4k3/2b1p3/3pPp2/2pP1Pp1/1pP3Pp/pP5P/P1B5/1K6 b - -',
    'yes',
    'blockade',
    'CHA --: bishops confined to a colour',
  ],
  [
    '4kb2/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/4KB2 w - -',
    'yes',
    'blockade',
    'CHA --: bishops behind a full wall',
  ],
  // Dead, proven by walking every reachable position.
  ['Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - -', 'yes', 'exhausted', 'CHA --: pieces boxed in by pawns'],
  [
    '4K3/8/8/8/8/p1p2p1p/P1pppp1P/bnrqkrnb b - -',
    'yes',
    'exhausted',
    'CHA --: the whole black army is locked in',
  ],
  ['2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - -', 'yes', 'exhausted', 'CHA --: rook and king jammed on the h-file'],
  ['8/7p/k4p1P/5p1K/5Pp1/6P1/6P1/8 w - -', 'yes', 'exhausted', 'CHA --'],
  ['k3b1b1/Pp1b1b1p/1Pb1p1pP/1p1pP1P1/1P1P4/8/8/4K3 w - -', 'yes', 'exhausted', 'CHA --'],
  ['bqn1KN2/rrk1pB2/nb1pPp1p/p1pP1PpP/PpP3P1/1P2N1R1/4Q3/1R4B1 w - -', 'yes', 'exhausted', 'CHA --'],
  ['5b1k/p3p1p1/4P1P1/8/8/4p1p1/P3P1P1/5B1K w - -', 'yes', 'exhausted', 'CHA --'],
  ['Rk6/8/2K5/8/8/8/8/8 b - -', 'yes', 'exhausted', 'CHA --: Kxa8 is forced, then K v K'],
  ['1q2Q2k/8/5p1K/7P/8/8/8/8 b - -', 'yes', 'exhausted', 'CHA --: Qxe8 is forced and stalemates White'],
  ['k1K5/P7/8/8/8/8/8/8 b - -', 'yes', 'exhausted', 'CHA --: Kxa7 is forced, then K v K'],
  [
    'k7/P7/1K6/8/8/8/8/8 b - -',
    'yes',
    'terminal',
    'stalemate on the board (the game ended by 5.2.1 already)',
  ],
  // Not dead: a helpmate exists (reference §4.1 / §5.3).
  ['4k3/8/8/8/8/3n4/8/2B1K3 w - -', 'no', 'search', 'reference §4.1: K+B v K+N is not dead', always],
  ['2b1k3/8/8/8/8/8/8/2B1K3 w - -', 'no', 'search', 'reference §4.1: K+B v K+B, opposite colours', always],
  ['8/8/4k3/8/3n4/8/5N2/6K1 w - - 0 1', 'no', 'search', 'reference S64: K+N v K+N', always],
  ['8/8/4k3/8/3n4/8/7P/6K1 w - - 0 1', 'no', 'search', 'reference S63: K+N v K+P', always],
  ['8/8/4k3/8/8/8/3QK3/8 w - - 0 1', 'no', 'search', 'reference S62: K+Q v K', always],
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -', 'no', 'search', 'start position', always],
  [
    '8/2k5/8/1p1p1p2/1P1P1P2/4B3/2K5/8 w - -',
    'no',
    'search',
    'CHA WB: the open h-file breaks the wall',
    always,
  ],
  [
    'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
    'no',
    'terminal',
    "fool's mate on the board",
  ],
];

describe('isDeadPosition', () => {
  it.each(rows)('%s: dead %s by %s (%s)', (fen, dead, method, _source, opts) => {
    expect(isDeadPosition(position(fen), opts)).toEqual({ verdict: dead, method });
  });

  it('never calls a hard dead position live (CHA "--" it cannot prove: unknown, not no)', () => {
    for (const fen of [
      '8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - -',
      '1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - -',
      '8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - -',
    ]) {
      expect(isDeadPosition(position(fen), always).verdict, fen).not.toBe('no');
    }
  });

  it("by default ('auto') stays cheap on open positions and does not search them", () => {
    const pos = position('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3');
    expect(isDeadPosition(pos)).toEqual({ verdict: 'unknown', method: 'open' });
    expect(isDeadPosition(pos, { search: 'never' })).toEqual({ verdict: 'unknown', method: 'open' });
    expect(isDeadPosition(pos, always).verdict).toBe('no');
  });

  it('proves dead every final position tagged end_insufficient_material in the PGN corpora', () => {
    const lines = readFileSync(sharedPath('data/pgn/edge-case-index.csv'), 'utf8').split(/\r?\n/);
    const header = csvFields(lines[0] ?? '');
    const features = header.indexOf('features');
    const finalFen = header.indexOf('final_fen');
    expect(features).toBeGreaterThan(0);
    let tagged = 0;
    let dead = 0;
    for (const line of lines.slice(1)) {
      if (!line) continue;
      const fields = csvFields(line);
      if (!(fields[features] ?? '').split(' ').includes('end_insufficient_material')) continue;
      tagged++;
      const result = isDeadPosition(position(fields[finalFen] ?? ''));
      expect(result.verdict, fields[finalFen]).not.toBe('no');
      if (result.verdict === 'yes') dead++;
    }
    expect(tagged).toBe(62);
    expect(dead).toBe(62); // all of them: K v K, K+minor v K, K+minor v K+minor of one colour
  });
});

describe('insufficientMaterial (per side, Art. 6.9 / 7 / E23 5.1.2)', () => {
  // [fen, side, cannot mate?, source]
  const cases: [string, 'white' | 'black', 'yes' | 'no', string][] = [
    [
      '8/8/4k3/8/8/8/3QK3/8 w - - 0 1',
      'black',
      'yes',
      'reference S62: White flags against a bare king: draw',
    ],
    ['8/8/4k3/8/3n4/8/7P/6K1 w - - 0 1', 'black', 'no', 'reference S63: White flags, Black can mate: 0-1'],
    ['8/8/4k3/8/3n4/8/5N2/6K1 w - - 0 1', 'black', 'no', 'reference S64: K+N v K+N, 0-1'],
    ['8/8/4k3/8/3n4/8/8/6K1 w - - 0 1', 'black', 'yes', 'reference §5.3: K+N v K, draw'],
    ['8/8/4k3/8/8/2b5/7P/6K1 w - - 0 1', 'black', 'no', 'reference §5.3: K+B v K+P, loss'],
    ['6nk/8/8/8/4K3/8/3Q4/8 w - -', 'black', 'yes', 'CHA W-: K+N v K+Q, the knight cannot mate'],
    ['4k3/8/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - -', 'white', 'yes', 'CHA --: locked wall'],
  ];
  it.each(cases)('%s: %s cannot mate = %s (%s)', (fen, side, verdict) => {
    expect(insufficientMaterial(position(fen), side).verdict).toBe(verdict);
  });
});

describe('deadPositionArticle', () => {
  it('cites the dead-position rule of each edition', () => {
    expect(EDITIONS.map(e => deadPositionArticle(e).article)).toEqual([
      '9.6',
      '5.2.b',
      '5.2.b',
      '5.2.2',
      '5.2.2',
      '5.2.2',
    ]);
    expect(deadPositionArticle('E23')).toEqual({ edition: 'E23', article: '5.2.2' });
  });
});
