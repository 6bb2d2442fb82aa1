import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { describe, expect, it } from 'vitest';
import {
  STANDARD_960,
  chess960Fen,
  chess960Game,
  chess960NumberOfBoard,
  chess960NumberOfFen,
  chess960NumberOfRank,
  chess960Rank,
  chess960StartFen,
} from '../../src/engine/chess960.js';

const boardOf = (fen: string) => Chess.fromSetup(parseFen(fen).unwrap()).unwrap().board;

describe('Chess960 start positions by number', () => {
  it('numbers the back ranks as the usual scheme does (518 standard, 0 and 959 at the ends)', () => {
    expect(chess960Rank(STANDARD_960)).toBe('RNBQKBNR');
    expect(chess960Rank(0)).toBe('BBQNNRKR');
    expect(chess960Rank(959)).toBe('RKRNNQBB');
    expect(chess960Rank(960)).toBeUndefined();
    expect(chess960Rank(-1)).toBeUndefined();
    expect(chess960Rank(1.5)).toBeUndefined();
  });

  it('gives 960 different legal back ranks, each read back to its number', () => {
    const seen = new Set<string>();
    for (let n = 0; n < 960; n++) {
      const rank = chess960Rank(n) ?? '';
      seen.add(rank);
      const bishops = [...rank].flatMap((p, i) => (p === 'B' ? [i % 2] : []));
      expect(bishops.sort()).toEqual([0, 1]);
      expect(rank).toMatch(/^[^K]*R[^R]*K[^R]*R[^K]*$/);
      expect(chess960NumberOfRank(rank)).toBe(n);
      const fen = chess960Fen(n) ?? '';
      expect(chess960NumberOfFen(fen)).toBe(n);
    }
    expect(seen.size).toBe(960);
  });

  it('reads the number off a board only at a Chess960 start', () => {
    expect(chess960NumberOfBoard(boardOf(chess960Fen(0) ?? ''))).toBe(0);
    expect(chess960NumberOfBoard(Chess.default().board)).toBe(STANDARD_960);
    // Black not mirroring White, a pawn missing, two kings' files swapped: none is a start.
    expect(
      chess960NumberOfBoard(boardOf('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1')),
    ).toBeUndefined();
    expect(
      chess960NumberOfBoard(boardOf('bbqnnrkr/ppppppp1/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1')),
    ).toBeUndefined();
    expect(
      chess960NumberOfBoard(boardOf('bbqnnkrr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNKRR w - - 0 1')),
    ).toBeUndefined();
    expect(chess960NumberOfFen('bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b KQkq - 0 1')).toBeUndefined();
  });
});

describe('Chess960 game records', () => {
  it('starts from a number, an X-FEN or a Shredder-FEN, writing X-FEN', () => {
    const byNumber = chess960Game({ position: 0 }).unwrap();
    expect(byNumber.start).toEqual({ fen: chess960Fen(0), chess960: true });
    const shredder = chess960Game({
      fen: 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1',
    }).unwrap();
    expect(shredder.start.fen).toBe(chess960Fen(0));
    expect(chess960StartFen().unwrap()).toBe(chess960Fen(STANDARD_960));
  });

  it('names a bad number or FEN', () => {
    const bad = chess960Game({ position: 960 });
    expect(bad.isErr && bad.error.message).toBe(
      'invalid Chess960 position 960: a Chess960 position is a whole number from 0 to 959',
    );
    const fen = chess960Game({ fen: 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKX w KQkq - 0 1' });
    expect(fen.isErr && fen.error.message).toMatch(/^invalid FEN "bbqnnrkr.*": bad piece placement field$/);
    // A FEN need not be a start position: any legal position with castling rights may be given.
    expect(chess960Game({ fen: '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1' }).isOk).toBe(true);
  });
});
