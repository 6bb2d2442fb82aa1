import { Chess, type Move, type Position, parseUci } from 'chessops';
import { parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import {
  FIFTY_MOVES,
  SEVENTY_FIVE_MOVES,
  fiftyMoveClaim,
  halfmovesAfter,
  isZeroingMove,
  seventyFiveMoves,
} from '../../src/engine/moveCount.js';

const fromFen = (fen: string): Position => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
const san = (pos: Position, s: string): Move => {
  const move = parseSan(pos, s);
  if (!move) throw new Error(`bad move ${s}`);
  return move;
};

describe('isZeroingMove: pawn moves and captures reset the count (9.3)', () => {
  const cases: { source: string; fen: string; move: string; zeroing: boolean }[] = [
    // Reference §8.3 [impl]: any pawn move resets, including a promotion; castling does not.
    {
      source: 'pawn push',
      fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      move: 'e4',
      zeroing: true,
    },
    {
      source: 'quiet knight move',
      fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      move: 'Nf3',
      zeroing: false,
    },
    { source: 'piece capture', fen: '4k3/8/8/3p4/8/8/8/3QK3 w - - 7 40', move: 'Qxd5', zeroing: true },
    {
      source: 'en passant capture (S79 position)',
      fen: 'r1bqkbnr/ppp1pppp/2n5/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
      move: 'exd6',
      zeroing: true,
    },
    { source: 'promotion', fen: '4k3/1P6/8/8/8/8/8/4K3 w - - 12 60', move: 'b8=Q', zeroing: true },
    {
      source: 'under-promotion with capture',
      fen: 'r3k3/1P6/8/8/8/8/8/4K3 w - - 12 60',
      move: 'bxa8=N',
      zeroing: true,
    },
    {
      source: 'castling kingside',
      fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 30 50',
      move: 'O-O',
      zeroing: false,
    },
    {
      source: 'castling queenside',
      fen: 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 30 50',
      move: 'O-O-O',
      zeroing: false,
    },
    // Chess960: chessops writes castling as the king taking its own rook (here Kf1 "x" g1).
    {
      source: 'Chess960 castling, king next to its rook',
      fen: 'k7/8/8/8/8/8/8/4RKR1 w EG - 20 40',
      move: 'O-O',
      zeroing: false,
    },
  ];

  it.each(cases)('$source: $move', ({ fen, move, zeroing }) => {
    const pos = fromFen(fen);
    const m = san(pos, move);
    expect(isZeroingMove(pos, m)).toBe(zeroing);
    // Cross-check with chessops' own clock.
    const expected = halfmovesAfter(pos, m);
    const played = pos.clone();
    played.play(m);
    expect(expected).toBe(played.halfmoves);
    expect(expected).toBe(zeroing ? 0 : pos.halfmoves + 1);
  });

  it('Chess960 castling is king to own rook in chessops, and no capture', () => {
    const pos = fromFen('k7/8/8/8/8/8/8/4RKR1 w EG - 20 40');
    const m = san(pos, 'O-O');
    expect(m).toEqual(parseUci('f1g1'));
    expect(halfmovesAfter(pos, m)).toBe(21);
  });

  it('counts from a FEN that starts with a non-zero clock, or from a given count', () => {
    // S81: FEN halfmove clock 99.
    const pos = fromFen('8/8/4k3/8/8/8/3QK3/8 w - - 99 80');
    expect(halfmovesAfter(pos, san(pos, 'Qd3'))).toBe(100);
    expect(halfmovesAfter(pos, san(pos, 'Qd3'), 10)).toBe(11);
  });
});

describe('fiftyMoveClaim (9.3)', () => {
  const S81 = '8/8/4k3/8/8/8/3QK3/8 w - - 99 80';

  it('S81: White writes Qd3 with the count at 99 and claims before playing it', () => {
    const pos = fromFen(S81);
    expect(fiftyMoveClaim(99, { pos, move: san(pos, 'Qd3') }).unwrap()).toEqual({
      holds: true,
      basis: 'intendedMove',
      halfmoves: 100,
    });
  });

  const cases: {
    source: string;
    halfmoves: number;
    holds: boolean;
    basis: 'completed' | 'intendedMove' | undefined;
  }[] = [
    // S81, second half: once 100 is reached the player to move may claim without a move.
    { source: 'S81 after Qd3: 100', halfmoves: 100, holds: true, basis: 'completed' },
    { source: 'S81 before Qd3: 99, no intended move', halfmoves: 99, holds: false, basis: undefined },
    // carlsen.pgn game 1674 ends with the clock at 102 (data/pgn/README.md).
    { source: 'carlsen 1674: 102', halfmoves: 102, holds: true, basis: 'completed' },
  ];
  it.each(cases)('$source', ({ halfmoves, holds, basis }) => {
    expect(fiftyMoveClaim(halfmoves).unwrap()).toEqual({ holds, basis, halfmoves });
  });

  it('an intended pawn move or capture does not complete the fifty moves', () => {
    // Constructed: count 99, the intended move resets it.
    const pos = fromFen('8/8/4k3/8/8/8/3QKP2/8 w - - 99 80');
    expect(fiftyMoveClaim(99, { pos, move: san(pos, 'f4') }).unwrap()).toEqual({
      holds: false,
      basis: undefined,
      halfmoves: 0,
    });
    const cap = fromFen('8/8/4k3/8/8/3n4/3QK3/8 w - - 99 80');
    expect(fiftyMoveClaim(99, { pos: cap, move: san(cap, 'Qxd3') }).unwrap().holds).toBe(false);
  });

  it('an intended quiet move at 98 makes only 99', () => {
    const pos = fromFen(S81);
    expect(fiftyMoveClaim(98, { pos, move: san(pos, 'Qd3') }).unwrap()).toEqual({
      holds: false,
      basis: undefined,
      halfmoves: 99,
    });
  });

  it('with the fifty moves already made, an intended capture does not spoil the claim', () => {
    // 9.3 b holds on its own.
    const pos = fromFen('8/8/4k3/8/8/3n4/3QK3/8 w - - 100 80');
    expect(fiftyMoveClaim(100, { pos, move: san(pos, 'Qxd3') }).unwrap()).toEqual({
      holds: true,
      basis: 'completed',
      halfmoves: 100,
    });
  });

  it('an illegal intended move is an error value', () => {
    const pos = fromFen(S81);
    const r = fiftyMoveClaim(99, { pos, move: parseUci('d2h8')! });
    expect(r.isErr && r.error).toMatchObject({ kind: 'illegalIntendedMove', move: 'd2h8' });
  });

  it('uses the FIDE threshold', () => {
    expect(FIFTY_MOVES).toBe(100);
    expect(SEVENTY_FIVE_MOVES).toBe(150);
  });
});

describe('seventyFiveMoves (E14 9.6.b, E18/E23 9.6.2)', () => {
  // S84-S86 of the reference: Black to move, count 149.
  const FEN = '8/8/8/8/8/6k1/5q2/7K b - - 149 120';
  const cases: {
    source: string;
    fen: string;
    move: string;
    halfmoves: number;
    end: 'mate' | 'stalemate' | 'none';
    drawn: boolean;
  }[] = [
    // S84: 150th half-move, check but not mate: automatic draw.
    {
      source: 'S84 Qf3+ (check, not mate)',
      fen: FEN,
      move: 'Qf3+',
      halfmoves: 150,
      end: 'none',
      drawn: true,
    },
    // S85: mate on the 150th half-move without capture or pawn move: mate takes precedence.
    { source: 'S85 Qf1# (mate)', fen: FEN, move: 'Qf1#', halfmoves: 150, end: 'mate', drawn: false },
    // S86: the 150th half-move is a capture: the count resets, no draw.
    {
      source: 'S86 Qxf3+ (capture)',
      fen: '8/8/8/8/8/5Nk1/5q2/7K b - - 149 120',
      move: 'Qxf3+',
      halfmoves: 0,
      end: 'none',
      drawn: false,
    },
    // Constructed: one short, at 149.
    {
      source: 'count 148 -> 149',
      fen: '8/8/8/8/8/6k1/5q2/7K b - - 148 120',
      move: 'Qf3+',
      halfmoves: 149,
      end: 'none',
      drawn: false,
    },
    // Constructed: stalemate on the 150th half-move (Kh1, Kf2, Qg3) is a draw either way.
    {
      source: 'stalemate at 150',
      fen: '8/8/8/8/6q1/8/5k2/7K b - - 149 120',
      move: 'Qg3',
      halfmoves: 150,
      end: 'stalemate',
      drawn: true,
    },
  ];

  it.each(cases)('$source', ({ fen, move, halfmoves, end, drawn }) => {
    const pos = fromFen(fen);
    const m = san(pos, move);
    const n = halfmovesAfter(pos, m);
    pos.play(m);
    expect(n).toBe(halfmoves);
    expect(pos.isCheckmate()).toBe(end === 'mate');
    expect(pos.isStalemate()).toBe(end === 'stalemate');
    expect(seventyFiveMoves(n, pos.isCheckmate())).toBe(drawn);
  });

  it('a count carried over 150 still draws (a FEN may start high)', () => {
    expect(seventyFiveMoves(151, false)).toBe(true);
    expect(seventyFiveMoves(200, true)).toBe(false);
  });
});
