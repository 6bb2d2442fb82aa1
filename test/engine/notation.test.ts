import { readFileSync } from 'node:fs';
import { Chess, type Move, parseUci } from 'chessops';
import { makeBoardFen, makeFen, parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { Game } from '../../src/engine/game.js';
import { makeBoardFenOf, makeFenOf, makeSanBetween } from '../../src/engine/notation.js';
import { readPgn } from '../../src/engine/pgnRead.js';
import { sharedPath } from '../support/shared.js';

const position = (fen: string): Chess => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

const after = (pos: Chess, move: Move): Chess => {
  const next = pos.clone();
  next.play(move);
  return next;
};

/** Our SAN and FEN next to chessops' for one move. */
const both = (fen: string, uci: string) => {
  const pos = position(fen);
  const move = parseUci(uci);
  if (!move) throw new TypeError(uci);
  const next = after(pos, move);
  return {
    san: [makeSanBetween(pos, move, next), makeSan(pos, move)],
    fen: [makeFenOf(next), makeFen(next.toSetup())],
  };
};

describe('SAN and FEN written from the positions', () => {
  // Each row: a position, a move in chessops' UCI (castling king-to-rook), the SAN expected.
  const rows: [string, string, string, string][] = [
    ['knights on b1 and f3 both reach d2', 'r3k2r/8/8/8/8/5N2/8/RN2K2R w KQkq - 0 1', 'b1d2', 'Nbd2'],
    ['rooks on one file: the rank decides', 'k7/8/3R4/8/8/8/3R4/K7 w - - 0 1', 'd2d4', 'R2d4'],
    ['three queens: file and rank', 'k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1', 'c3d2', 'Qc3d2'],
    ['a pinned rival needs no disambiguation', '4k3/4r3/8/8/8/2N5/4N3/4K3 w - - 0 1', 'c3d5', 'Nd5'],
    ['castling short, giving check', '5k2/8/8/8/8/8/8/4K2R w K - 0 1', 'e1h1', 'O-O+'],
    ['castling long', 'r3k3/8/8/8/8/8/8/4K3 b q - 0 1', 'e8a8', 'O-O-O'],
    ['promotion to a knight with check', '8/4P1k1/8/8/8/8/8/K7 w - - 0 1', 'e7e8n', 'e8=N+'],
    ['capture and promotion with mate', '1r5k/P5pp/8/8/8/8/8/K5R1 w - - 0 1', 'a7b8q', 'axb8=Q#'],
    ['en passant', 'k7/8/8/3pP3/8/8/8/K7 w - d6 0 2', 'e5d6', 'exd6'],
    ['back-rank mate', '6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1', 'd1d8', 'Rd8#'],
  ];
  it.each(rows)('%s', (_, fen, uci, expected) => {
    const r = both(fen, uci);
    expect(r.san).toEqual([expected, expected]);
    expect(r.fen[0]).toBe(r.fen[1]);
  });

  it('writes the en-passant square only when the capture is legal, and clamps the counters', () => {
    // d7d5 next to the e5 pawn: capturable. h7h5 with no pawn beside it: not written.
    expect(both('k7/3p3p/8/4P3/8/8/8/K7 b - - 0 1', 'd7d5').fen).toEqual([
      'k7/7p/8/3pP3/8/8/8/K7 w - d6 0 2',
      'k7/7p/8/3pP3/8/8/8/K7 w - d6 0 2',
    ]);
    expect(both('k7/3p3p/8/4P3/8/8/8/K7 b - - 0 1', 'h7h5').fen[0]).toBe('k7/3p4/8/4P2p/8/8/8/K7 w - - 0 2');
    const long = position('k7/8/8/8/8/8/8/K6R w - - 0 1');
    long.halfmoves = 199;
    long.fullmoves = 12_000;
    expect(makeFenOf(long)).toBe(makeFen(long.toSetup()));
    expect(makeFenOf(long).endsWith(' 150 9999')).toBe(true);
  });

  it('writes Chess960 castling rights as chessops does', () => {
    const pos = position('1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1');
    expect(makeFenOf(pos)).toBe(makeFen(pos.toSetup()));
  });

  it('marks promoted pieces on the board field as chessops does', () => {
    const board = parseFen('4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1').unwrap().board;
    expect(makeBoardFenOf(board)).toBe(makeBoardFen(board));
  });

  it('agrees with chessops on every move of 300 corpus games', () => {
    const text = readFileSync(sharedPath('data/pgn/twic0920.pgn'), 'latin1');
    let checked = 0;
    for (const r of readPgn(text).slice(0, 300)) {
      if (r.isErr) continue;
      const positions = r.value.game.positionsView();
      r.value.game.moves.forEach((rec, i) => {
        const before = positions[i] as Chess;
        const next = positions[i + 1] as Chess;
        expect(makeSanBetween(before, rec.move, next)).toBe(makeSan(before, rec.move));
        expect(makeFenOf(next)).toBe(makeFen(next.toSetup()));
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(20_000);
  });
});

describe('Game records sharing one line', () => {
  const play = (g: Game, ...sans: string[]): Game => sans.reduce((acc, san) => acc.playSan(san).unwrap(), g);

  it('never changes what an earlier record sees when later ones play on', () => {
    const base = play(Game.standard(), 'e4', 'e5');
    const a = play(base, 'Nf3');
    const b = play(base, 'Bc4'); // a second move from the same record: its own line
    const c = play(base.truncate(1).unwrap(), 'c5'); // a takeback, then another reply
    expect(base.moves.map(m => m.san)).toEqual(['e4', 'e5']);
    expect(a.moves.map(m => m.san)).toEqual(['e4', 'e5', 'Nf3']);
    expect(b.moves.map(m => m.san)).toEqual(['e4', 'e5', 'Bc4']);
    expect(c.moves.map(m => m.san)).toEqual(['e4', 'c5']);
    expect(base.positionsView()).toHaveLength(3);
    expect(a.positionView(3)?.board.knight.has(21)).toBe(true);
    expect(b.positionView(3)?.board.bishop.has(26)).toBe(true);
    expect(base.positionView(3)).toBeUndefined();
    expect(base.moveAt(3)).toBeUndefined();
    expect(a.moveAt(3)?.san).toBe('Nf3');
    expect(play(a, 'Nc6').moveAt(4)?.san).toBe('Nc6');
    expect(a.length).toBe(3);
  });

  it('hands out arrays that later moves leave alone', () => {
    const g = play(Game.standard(), 'd4');
    const moves = g.moves;
    const positions = g.positionsView();
    play(g, 'd5', 'c4');
    expect(moves).toHaveLength(1);
    expect(positions).toHaveLength(2);
    expect(g.moves).toBe(moves);
  });
});
