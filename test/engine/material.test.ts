import {
  Board,
  Chess,
  type Color,
  type Role,
  SquareSet,
  bishopAttacks,
  kingAttacks,
  knightAttacks,
  makeSquare,
  parseSquare,
} from 'chessops';
import { makeFen, parseFen } from 'chessops/fen';
import { defaultSetup } from 'chessops/setup';
import { describe, expect, it } from 'vitest';
import { positionKey } from '../../src/engine/helpmate.js';
import { blockadeProof, hasMatingMaterial } from '../../src/engine/material.js';

const position = (fen: string): Chess => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

/** Seeded linear congruential generator, so every run sees the same positions. */
const prng = (seed: number) => {
  let state = seed;
  return (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return Math.floor((state / 0x80000000) * n);
  };
};

describe('hasMatingMaterial', () => {
  // [fen, white, black, where the case comes from]
  const cases: [string, 'yes' | 'no', 'yes' | 'no', string][] = [
    ['4k3/8/8/8/8/8/8/4K3 w - -', 'no', 'no', 'reference §4.1: K v K is dead'],
    ['4k3/8/8/8/8/8/8/2B1K3 w - -', 'no', 'no', 'reference §4.1: K+B v K'],
    ['4k3/8/8/8/8/8/8/1N2K3 w - -', 'no', 'no', 'reference §4.1: K+N v K'],
    ['4k3/8/8/8/8/8/8/1N2K3 b - -', 'no', 'no', 'K+N v K, the other side to move (material does not care)'],
    [
      '4kb2/8/8/8/8/8/8/2B1K3 w - -',
      'no',
      'no',
      'reference §4.1: K+B v K+B, both bishops on dark squares (c1, f8)',
    ],
    [
      '2b1k3/8/8/8/8/8/8/2B1K3 w - -',
      'yes',
      'yes',
      'reference §4.1: K+B v K+B of opposite colours (c1 dark, c8 light)',
    ],
    ['4k3/8/8/8/8/3n4/8/4KN2 w - -', 'yes', 'yes', 'reference §4.1 / S64: K+N v K+N is not dead'],
    ['4k3/8/8/8/8/3n4/8/2B1K3 w - -', 'yes', 'yes', 'reference §4.1: K+B v K+N is not dead'],
    [
      '4k3/8/8/8/3n4/8/7P/6K1 w - -',
      'yes',
      'yes',
      'reference S63: K+P v K+N, the knight mates with the pawn blocking',
    ],
    [
      '4k3/8/8/8/8/8/3p4/2B1K3 w - -',
      'yes',
      'yes',
      'reference §5.3: K+B v K+P, loss on the flag of the pawn side',
    ],
    ['4k3/8/8/8/8/8/8/BB2K3 w - -', 'yes', 'no', 'K+B+B of opposite colours mate a lone king'],
    [
      '4k3/8/8/8/8/8/1B6/B3K3 w - -',
      'no',
      'no',
      'K+B+B on one colour (a1, b2 dark): bishops only, one colour',
    ],
    ['4k3/8/8/8/8/8/8/2B1KN2 w - -', 'yes', 'no', 'K+B+N v K is the classical mate'],
    ['4k3/8/8/8/8/8/8/1N2KN2 w - -', 'yes', 'no', 'K+N+N v K: a helpmate exists (no forced mate)'],
    ['4k3/8/8/8/8/8/8/3QK3 w - -', 'yes', 'no', 'reference S62: K+Q v K, the bare king cannot mate'],
    ['4k3/8/8/8/8/8/8/R3K3 w - -', 'yes', 'no', 'K+R v K'],
    ['4k3/8/8/8/8/8/4P3/4K3 w - -', 'yes', 'no', 'K+P v K: the pawn may promote'],
    ['3qk3/8/8/8/8/8/8/1N2K3 w - -', 'no', 'yes', 'K+N v K+Q: chessops rule, proved in material.ts'],
    [
      '2qqk3/8/8/8/8/8/8/1N2K3 w - -',
      'no',
      'yes',
      'K+N v K+Q+Q: the same proof holds for any number of queens',
    ],
    ['3rk3/8/8/8/8/8/8/1N2K3 w - -', 'yes', 'yes', 'K+N v K+R: the rook can block (Kh8 Rh7 v Kf8 Ng6)'],
    ['3rk3/8/8/8/8/8/8/2B1K3 w - -', 'no', 'yes', 'K+B v K+R: bishops of one colour, no knight, no pawn'],
    ['3qk3/8/8/8/8/8/8/2B1K3 w - -', 'no', 'yes', 'K+B v K+Q: same bishop rule'],
    ['3qk3/8/8/8/8/8/3p4/2B1K3 w - -', 'yes', 'yes', 'K+B v K+Q+P: the pawn may become a blocker'],
  ];
  it.each(cases)('%s: white %s, black %s (%s)', (fen, white, black) => {
    const pos = position(fen);
    expect(hasMatingMaterial(pos, 'white')).toBe(white);
    expect(hasMatingMaterial(pos, 'black')).toBe(black);
  });

  it("classifies material exactly as chessops' hasInsufficientMaterial (400 random positions)", () => {
    const rand = prng(20260101);
    const roles: Role[] = ['pawn', 'knight', 'knight', 'bishop', 'bishop', 'bishop', 'rook', 'queen'];
    let compared = 0;
    let noes = 0;
    while (compared < 400) {
      const board = Board.empty();
      board.set(rand(64), { color: 'white', role: 'king' });
      const bk = rand(64);
      if (board.occupied.has(bk)) continue;
      board.set(bk, { color: 'black', role: 'king' });
      for (let i = rand(4); i > 0; i--) {
        const sq = rand(64);
        const role = roles[rand(roles.length)] ?? 'knight';
        if (board.occupied.has(sq) || (role === 'pawn' && (sq < 8 || sq >= 56))) continue;
        board.set(sq, { color: rand(2) === 0 ? 'white' : 'black', role });
      }
      const setup = { ...defaultSetup(), board, castlingRights: SquareSet.empty() };
      const pos = Chess.fromSetup(setup);
      if (pos.isErr) continue;
      for (const color of ['white', 'black'] as const) {
        const ours = hasMatingMaterial(pos.value, color);
        expect(ours === 'no', `${makeFen(pos.value.toSetup())} ${color}`).toBe(
          pos.value.hasInsufficientMaterial(color),
        );
        if (ours === 'no') noes++;
      }
      compared++;
    }
    expect(noes).toBeGreaterThan(50); // the comparison covered the insufficient cases too
  });

  // The two non-obvious 'no' rules, checked by brute force: no checkmate exists at all. The mated
  // king is taken on a1..d1..d4 (the 8 board symmetries preserve mate when there are no pawns).
  const triangle = ['a1', 'b1', 'c1', 'd1', 'b2', 'c2', 'd2', 'c3', 'd3', 'd4'].map(s => parseSquare(s) ?? 0);
  const noMateExists = (checker: Role, defender: Role): number => {
    let tried = 0;
    const mates: string[] = [];
    for (const bk of triangle) {
      // Only squares from which the checker gives check (on an empty board: a superset).
      const checks = checker === 'knight' ? knightAttacks(bk) : bishopAttacks(bk, SquareSet.empty());
      for (const c of checks) {
        for (let wk = 0; wk < 64; wk++) {
          if (wk === bk || wk === c) continue;
          for (let d = 0; d < 64; d++) {
            if (d === bk || d === c || d === wk) continue;
            // A bishop blocked by a king or the defender gives no check, and kings side by side
            // are no position: either would be set up only to be skipped below.
            if (kingAttacks(bk).has(wk)) continue;
            const occupied = SquareSet.fromSquare(bk).with(wk).with(c).with(d);
            if (checker !== 'knight' && !bishopAttacks(c, occupied).has(bk)) continue;
            const board = Board.empty();
            board.set(bk, { color: 'black', role: 'king' });
            board.set(wk, { color: 'white', role: 'king' });
            board.set(c, { color: 'white', role: checker });
            board.set(d, { color: 'black', role: defender });
            const pos = Chess.fromSetup({
              ...defaultSetup(),
              board,
              turn: 'black',
              castlingRights: SquareSet.empty(),
            });
            if (pos.isErr || !pos.value.isCheck()) continue;
            tried++;
            // Collected and asserted once: an expect per position cost a third of the walk.
            if (pos.value.isCheckmate()) mates.push(`${makeSquare(c)} ${makeSquare(d)}`);
          }
        }
      }
    }
    expect(mates).toEqual([]);
    return tried;
  };
  it('K+N v K+Q: no checkmate position exists (exhaustive)', () => {
    expect(noMateExists('knight', 'queen')).toBeGreaterThan(1000);
  });
  it('K+B v K+R: no checkmate position exists (exhaustive)', () => {
    expect(noMateExists('bishop', 'rook')).toBeGreaterThan(1000);
  });
});

describe('blockadeProof', () => {
  // [fen, white proven unable, black proven unable, source]
  const cases: [string, boolean, boolean, string][] = [
    ['4k3/8/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - -', true, true, 'CHA test vectors: locked wall, kings apart'],
    [
      '2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -',
      true,
      true,
      'CHA test vectors: wall and bishops of the same side',
    ],
    [
      '8/2k5/8/1p1p1p1p/1P1P1P1P/4B3/2K5/8 w - -',
      true,
      true,
      'CHA test vectors: the bishop never crosses the wall',
    ],
    [
      '8/2k5/8/1p1p1p2/1P1P1P2/4B3/2K5/8 w - -',
      false,
      false,
      'CHA test vectors (both can mate): the h-file is open',
    ],
    ['8/8/5k2/p3p1p1/Pp1pP1Pp/1P1P3P/2K5/8 b - -', true, true, 'CHA test vectors: staggered chain'],
    [
      '2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - -',
      true,
      true,
      'CHA test vectors: a free pawn that can only lock',
    ],
    [
      '3k4/1p1p1p1p/1P1P1P1P/3p4/8/8/3P3P/4K3 w - -',
      true,
      true,
      'CHA test vectors: a loose pawn the king may take',
    ],
    ['1k6/8/8/p1p1p1p1/P1P1P1P1/8/8/1K6 b - -', true, true, 'CHA test vectors'],
    ['8/4k3/4p2p/p2pP2P/P2P3K/8/8/8 w - -', true, true, 'CHA test vectors'],
    [
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -',
      false,
      false,
      'start position: pawns can capture',
    ],
    ['4k3/8/8/8/8/8/8/4K3 w - -', false, false, 'no pawns: nothing to prove by structure'],
    [
      '4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K2R w - -',
      false,
      false,
      'the rook reaches squares the pawns attack: no proof',
    ],
    ['7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - -', false, true, 'CHA test vectors (only White can mate)'],
    ['3k4/1b6/8/1p1p1p1p/1P1P1P1P/4B3/b4B2/3K4 b - -', true, false, 'CHA test vectors (only Black can mate)'],
    ['8/4k3/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - -', true, true, 'edge wall variant: kings on both sides'],
    ['8/8/8/1p1p1p1p/1P1P1P1P/4k3/8/4K3 w - -', false, false, 'a king inside the enemy camp can take pawns'],
  ];
  it.each(cases)('%s: white %s, black %s (%s)', (fen, white, black) => {
    expect(blockadeProof(position(fen))).toEqual({ white, black });
  });

  it('never proves a side unable to mate while the king is in check or an en passant capture is open', () => {
    expect(blockadeProof(position('4k3/8/8/1p1p1p1p/1P1P1P1P/8/3p4/4K3 w - -'))).toEqual({
      white: false,
      black: false,
    });
    expect(blockadeProof(position('4k3/8/8/pPp1p1p1/P3P1P1/8/8/4K3 w - c6'))).toEqual({
      white: false,
      black: false,
    });
  });

  /** Breadth-first walk: does `color` ever mate? true / false (space exhausted) / undefined (cap). */
  const mates = (root: Chess, color: Color, cap: number): boolean | undefined => {
    const seen = new Set([positionKey(root)]);
    const queue = [root];
    for (let head = 0; head < queue.length; head++) {
      const pos = queue[head] ?? root;
      for (const [from, dests] of pos.allDests()) {
        for (const to of dests) {
          const promotion = pos.board.pawn.has(from) && (to < 8 || to >= 56) ? 'queen' : undefined;
          const next = pos.clone();
          next.play({ from, to, promotion });
          if (next.isCheckmate()) {
            if (next.turn !== color) return true;
            continue;
          }
          const key = positionKey(next);
          if (seen.has(key)) continue;
          seen.add(key);
          if (seen.size > cap) return undefined;
          queue.push(next);
        }
      }
    }
    return false;
  };

  it('property: whenever a side is proven unable to mate, an exhaustive walk finds no mate for it', () => {
    const rand = prng(424242);
    const roles: Role[] = ['pawn', 'bishop', 'bishop', 'knight', 'rook'];
    let proofs = 0;
    let walked = 0;
    for (let made = 0; made < 1500;) {
      const board = Board.empty();
      let rank = 2 + rand(3);
      for (let file = 0; file < 8; file++) {
        rank = Math.max(1, Math.min(5, rank + rand(3) - 1));
        if (rand(10) === 0) continue;
        board.set(rank * 8 + file, { color: 'white', role: 'pawn' });
        board.set((rank + 1) * 8 + file, { color: 'black', role: 'pawn' });
      }
      for (let i = rand(3); i > 0; i--) {
        const sq = rand(64);
        const role = roles[rand(roles.length)] ?? 'bishop';
        if (board.occupied.has(sq) || (role === 'pawn' && (sq < 8 || sq >= 56))) continue;
        board.set(sq, { color: rand(2) === 0 ? 'white' : 'black', role });
      }
      const wk = rand(24);
      const bk = 40 + rand(24);
      if (board.occupied.has(wk) || board.occupied.has(bk)) continue;
      board.set(wk, { color: 'white', role: 'king' });
      board.set(bk, { color: 'black', role: 'king' });
      const turn: Color = rand(2) === 0 ? 'white' : 'black';
      const pos = Chess.fromSetup({ ...defaultSetup(), board, turn, castlingRights: SquareSet.empty() });
      if (pos.isErr) continue;
      made++;
      const proof = blockadeProof(pos.value);
      for (const color of ['white', 'black'] as const) {
        if (!proof[color]) continue;
        proofs++;
        const found = mates(pos.value, color, 4000);
        expect(found, `${makeFen(pos.value.toSetup())} ${color}`).not.toBe(true);
        if (found === false) walked++;
      }
    }
    expect(proofs).toBeGreaterThan(40);
    expect(walked).toBeGreaterThan(30); // most proofs were confirmed by a complete walk
  });
});
