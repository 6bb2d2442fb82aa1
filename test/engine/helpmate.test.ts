import { readFileSync } from 'node:fs';
import { Board, Chess, type Color, type Role, SquareSet } from 'chessops';
import { makeFen, parseFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { defaultSetup } from 'chessops/setup';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_NODES,
  type HelpmateOptions,
  canCheckmate,
  findHelpmate,
  positionKey,
} from '../../src/engine/helpmate.js';
import { sharedPath } from '../support/shared.js';

const position = (fen: string): Chess => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

/** Replays a helpmate line and checks that it is legal and ends with `color` giving mate. */
const expectMatingLine = (fen: string, color: Color, opts: HelpmateOptions = {}): void => {
  const result = findHelpmate(position(fen), color, opts);
  if (result.method !== 'search') return;
  const pos = position(fen);
  for (const move of result.line) {
    expect(pos.isLegal(move), `${fen}: ${JSON.stringify(move)}`).toBe(true);
    pos.play(move);
  }
  expect(pos.isCheckmate()).toBe(true);
  expect(pos.turn).not.toBe(color);
};

// CHA = test vectors of the Chess Unwinnability Analyzer (M. Ambrona, "Chess Unwinnability
// Analyzer", FUN 2022; tests/test-vector.txt of its public repository), whose labels say which
// side can helpmate. "Reference" = the FIDE Laws reference of this project (§4.1, §5.3, §13.8).
type Row = [fen: string, white: 'yes' | 'no', black: 'yes' | 'no', source: string, opts?: HelpmateOptions];
const rows: Row[] = [
  [
    '8/8/4k3/8/8/8/3QK3/8 w - - 0 1',
    'yes',
    'no',
    'reference S62: flag of White against a bare king is a draw',
  ],
  [
    '8/8/4k3/8/3n4/8/7P/6K1 w - - 0 1',
    'yes',
    'yes',
    'reference S63: K+P v K+N, Black mates Kh1/Ph2 with Nf2, Kf1',
  ],
  ['8/8/4k3/8/3n4/8/5N2/6K1 w - - 0 1', 'yes', 'yes', 'reference S64: K+N v K+N, helpmate exists'],
  ['8/8/4k3/8/8/2b5/7P/6K1 w - - 0 1', 'yes', 'yes', 'reference §5.3: K+B v K+P, the bishop side can mate'],
  ['8/8/4k3/8/3n4/8/8/6K1 w - - 0 1', 'no', 'no', 'reference §5.3: K+N v K cannot mate'],
  ['2b1k3/8/8/8/8/8/8/2B1K3 w - -', 'yes', 'yes', 'reference §4.1: K+B v K+B, opposite colours'],
  ['4kb2/8/8/8/8/8/8/2B1K3 w - -', 'no', 'no', 'reference §4.1: K+B v K+B, same colour'],
  [
    'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
    'no',
    'yes',
    "fool's mate on the board: Black has mated",
  ],
  ['k7/P7/1K6/8/8/8/8/8 b - -', 'no', 'no', 'stalemate on the board (CHA: k1K5/P7 variant family)'],
  [
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -',
    'yes',
    'yes',
    "CHA WB: start position (fool's mate and friends)",
  ],
  ['6k1/6P1/6K1/8/8/8/8/8 w - -', 'yes', 'no', 'CHA W-'],
  ['8/8/8/8/8/5k2/q7/7K b - -', 'no', 'yes', 'CHA -B'],
  ['2k5/8/8/8/8/8/8/2KR4 w - -', 'yes', 'no', 'CHA W-: K+R v K'],
  ['2k5/3p4/8/8/8/8/8/2KB4 w - -', 'yes', 'yes', 'CHA WB: K+B v K+P, the pawn must under-promote to block'],
  ['1k3b2/8/8/8/8/8/8/1K3N2 w - -', 'yes', 'yes', 'CHA WB: K+N v K+B', { maxNodes: 40_000 }],
  ['8/8/3k4/8/5Q2/8/2K5/8 b - -', 'yes', 'no', 'CHA W-: K+Q v K'],
  ['8/8/8/8/2b5/1kB5/1B6/BKB5 w - -', 'yes', 'yes', 'CHA WB: four bishops v a bishop', { maxNodes: 40_000 }],
  ['k1K5/P7/8/8/8/8/8/8 w - -', 'yes', 'no', 'CHA W-'],
  ['8/8/pppp1p2/2pp4/8/K1k5/8/8 b - -', 'no', 'yes', 'CHA -B: only pawns, Black can promote'],
  ['Rk6/8/2K5/8/8/8/8/8 b - -', 'no', 'no', 'CHA --: Kxa8 is forced, then K v K'],
  ['5K1k/8/7P/8/8/8/8/8 w - -', 'yes', 'no', 'CHA W-'],
  ['4k2q/8/8/8/8/8/8/1N2K1N1 b - -', 'yes', 'yes', 'CHA WB: two knights v a queen'],
  ['1q2Q2k/8/5p1K/7P/8/8/8/8 b - -', 'no', 'no', 'CHA --: Qxe8 is forced and White is stalemated'],
  ['4Q2k/4q3/5p1K/7P/8/8/8/8 b - -', 'yes', 'yes', 'CHA WB'],
  ['k7/2K5/q7/8/8/8/5B2/8 b - -', 'no', 'yes', 'CHA -B: K+B v K+Q, the bishop side cannot mate'],
  ['B7/8/8/8/4r3/8/7p/5K1k w - -', 'yes', 'no', 'CHA W-'],
  ['8/8/8/4K3/4N3/4kp2/8/8 b - -', 'yes', 'yes', 'CHA WB: K+N v K+P'],
  ['8/3kb3/8/8/8/6P1/3K4/8 w - -', 'yes', 'yes', 'CHA WB: K+P v K+B'],
  ['rk6/1P6/2K5/8/8/8/8/8 w - -', 'yes', 'yes', 'CHA WB'],
  ['8/1K6/2Pn4/8/8/k7/8/8 w - -', 'yes', 'yes', 'CHA WB: K+P v K+N'],
  ['8/8/8/8/6k1/1n1P4/8/3K4 w - -', 'yes', 'yes', 'CHA WB: K+P v K+N'],
  ['8/2k5/5p2/2p1n3/2P1P3/2K5/5N2/8 w - -', 'yes', 'yes', 'CHA WB'],
  ['8/3kp3/8/8/8/4P3/3K4/8 w - -', 'yes', 'yes', 'CHA WB: K+P v K+P'],
  ['4k3/8/8/8/8/3K4/8/1NB5 w - -', 'yes', 'no', 'CHA W-: K+B+N v K'],
  ['6nk/8/8/8/4K3/8/3Q4/8 w - -', 'yes', 'no', 'CHA W-: K+N v K+Q, the knight side cannot mate'],
  ['4QQnk/5Q2/6Q1/8/8/8/P7/K7 w - -', 'yes', 'no', 'CHA W-: Black is boxed in'],
  ['4k3/8/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - -', 'no', 'no', 'CHA --: locked wall'],
];

describe('canCheckmate on reference positions', () => {
  it.each(rows)('%s: white %s, black %s (%s)', (fen, white, black, _source, opts) => {
    const pos = position(fen);
    expect(canCheckmate(pos, 'white', opts)).toBe(white);
    expect(canCheckmate(pos, 'black', opts)).toBe(black);
    for (const color of ['white', 'black'] as const) expectMatingLine(fen, color, opts);
  });

  it('says how it decided', () => {
    expect(findHelpmate(position('8/8/4k3/8/3n4/8/8/6K1 w - - 0 1'), 'black').method).toBe('material');
    expect(findHelpmate(position('4k3/8/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - -'), 'white').method).toBe(
      'blockade',
    );
    expect(findHelpmate(position('Rk6/8/2K5/8/8/8/8/8 b - -'), 'white').method).toBe('exhausted');
    expect(findHelpmate(position('k7/P7/1K6/8/8/8/8/8 b - -'), 'white').method).toBe('terminal');
    expect(findHelpmate(position('8/8/4k3/8/3n4/8/5N2/6K1 w - - 0 1'), 'black').method).toBe('search');
  });

  it('keeps to its node budget and answers unknown when it runs out', () => {
    const pos = position('2k5/3p4/8/8/8/8/8/2KB4 w - -');
    const result = findHelpmate(pos, 'white', { maxNodes: 300 });
    expect(result.verdict).toBe('unknown');
    expect(result.method).toBe('budget');
    expect(result.nodes).toBeLessThanOrEqual(300);
    expect(findHelpmate(pos, 'white').nodes).toBeLessThanOrEqual(DEFAULT_MAX_NODES);
  });

  it('does not change the position it is given', () => {
    const pos = position('8/8/4k3/8/3n4/8/7P/6K1 w - - 0 1');
    const before = makeFen(pos.toSetup());
    findHelpmate(pos, 'black');
    expect(makeFen(pos.toSetup())).toBe(before);
  });

  it('answers typical game positions cheaply (median under a tenth of the node budget)', () => {
    // Counted in positions created, not in wall time: the test must hold on a busy machine too.
    // The time per position is measured by a script (docs/benchmarks.md), not here.
    const games = parsePgn(readFileSync(sharedPath('data/pgn/carlsen.pgn'), 'latin1')).slice(0, 25);
    const nodes: number[] = [];
    for (const game of games) {
      const pos = startingPosition(game.headers).unwrap();
      let ply = 0;
      for (const node of game.moves.mainline()) {
        const move = parseSan(pos, node.san);
        if (!move || ++ply > 50) break;
        pos.play(move);
      }
      for (const color of ['white', 'black'] as const) {
        const result = findHelpmate(pos, color);
        expect(result.verdict).not.toBe('no');
        nodes.push(result.nodes);
      }
    }
    nodes.sort((a, b) => a - b);
    expect(nodes[nodes.length >> 1]).toBeLessThan(DEFAULT_MAX_NODES / 10);
  });
});

describe('canCheckmate property: never "no" when a short helpmate exists', () => {
  /** Seeded linear congruential generator. */
  const prng = (seed: number) => {
    let state = seed;
    return (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
      return Math.floor((state / 0x80000000) * n);
    };
  };

  /** Exhaustive reference: can `color` mate within `plies` plies (every move of both sides)? */
  const mateWithin = (root: Chess, color: Color, plies: number): boolean => {
    let level = [root];
    const seen = new Set([positionKey(root)]);
    for (let depth = 0; depth < plies; depth++) {
      const next: Chess[] = [];
      for (const pos of level) {
        for (const [from, dests] of pos.allDests()) {
          for (const to of dests) {
            const promotions: (Role | undefined)[] =
              pos.board.pawn.has(from) && (to < 8 || to >= 56)
                ? ['queen', 'rook', 'bishop', 'knight']
                : [undefined];
            for (const promotion of promotions) {
              const child = pos.clone();
              child.play({ from, to, promotion });
              if (child.isCheckmate()) {
                if (child.turn !== color) return true;
                continue;
              }
              // The last ply's positions are only looked at for mate, never expanded.
              if (depth === plies - 1) continue;
              const key = positionKey(child);
              if (!seen.has(key)) {
                seen.add(key);
                next.push(child);
              }
            }
          }
        }
      }
      level = next;
    }
    return false;
  };

  it('holds on 300 random small positions (kings + 1-3 men), mates within 3 plies', () => {
    const rand = prng(77);
    const roles: Role[] = ['pawn', 'knight', 'bishop', 'rook', 'rook', 'queen', 'queen'];
    let made = 0;
    let withMate = 0;
    let proven = 0;
    while (made < 300) {
      const board = Board.empty();
      // One king on the edge, where short mates are common, the other anywhere.
      const edge = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 48, 56, 57, 58, 59, 60, 61, 62, 63, 15, 23, 31, 39, 47, 55,
      ];
      const onEdge = edge[rand(edge.length)] ?? 0;
      const [wk, bk] = rand(2) === 0 ? [onEdge, rand(64)] : [rand(64), onEdge];
      if (wk === bk) continue;
      board.set(wk, { color: 'white', role: 'king' });
      board.set(bk, { color: 'black', role: 'king' });
      for (let i = 1 + rand(3); i > 0; i--) {
        const sq = rand(64);
        const role = roles[rand(roles.length)] ?? 'pawn';
        if (board.occupied.has(sq) || (role === 'pawn' && (sq < 8 || sq >= 56))) continue;
        board.set(sq, { color: rand(2) === 0 ? 'white' : 'black', role });
      }
      const turn: Color = rand(2) === 0 ? 'white' : 'black';
      const setup = Chess.fromSetup({ ...defaultSetup(), board, turn, castlingRights: SquareSet.empty() });
      if (setup.isErr || setup.value.isEnd()) continue;
      const pos = setup.value;
      made++;
      for (const color of ['white', 'black'] as const) {
        const verdict = canCheckmate(pos, color, { maxNodes: 2_000 });
        if (verdict === 'no') proven++;
        if (mateWithin(pos, color, 3)) {
          withMate++;
          expect(verdict, `${makeFen(pos.toSetup())} ${color}`).not.toBe('no');
        }
      }
    }
    // The property was exercised both ways: short mates exist, and some sides were proven unable.
    expect(withMate).toBeGreaterThan(30);
    expect(proven).toBeGreaterThan(30);
  });
});
