import { describe, expect, it } from 'vitest';
import { Game, describeGameError } from '../../src/engine/game.js';

const play = (g: Game, ...sans: string[]): Game => sans.reduce((acc, san) => acc.playSan(san).unwrap(), g);

describe('Game record', () => {
  it('records SAN, UCI and the FEN after each move', () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Nf3');
    expect(g.length).toBe(3);
    expect(g.moves.map(m => [m.ply, m.san, m.uci])).toEqual([
      [1, 'e4', 'e2e4'],
      [2, 'e5', 'e7e5'],
      [3, 'Nf3', 'g1f3'],
    ]);
    expect(g.moves[2]?.fen).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    expect(g.turn).toBe('black');
  });

  it("writes check and mate marks in SAN (scholar's mate)", () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7');
    expect(g.moves.at(-1)?.san).toBe('Qxf7#');
    expect(g.position().isCheckmate()).toBe(true);
  });

  it('writes castling as e1g1 in standard chess and king-to-rook in Chess960', () => {
    const std = play(Game.standard(), 'e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'O-O');
    expect(std.moves.at(-1)?.uci).toBe('e1g1');
    expect(std.moves.at(-1)?.san).toBe('O-O');
    // Chess960: king on f1, rooks on a1 and h1, castling rights by rook file (Shredder-FEN).
    const c960 = Game.fromFen('4k3/8/8/8/8/8/8/R4K1R w HA - 0 1', { chess960: true }).unwrap();
    const castled = c960.playSan('O-O').unwrap();
    expect(castled.moves.at(-1)?.uci).toBe('f1h1');
    expect(castled.moves.at(-1)?.fen).toBe('4k3/8/8/8/8/8/8/R4RK1 b - - 1 1');
  });

  it('accepts UCI input, castling either as e1g1 or e1h1', () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5');
    expect(g.playUci('e1g1').unwrap().moves.at(-1)?.san).toBe('O-O');
    expect(g.playUci('e1h1').unwrap().moves.at(-1)?.san).toBe('O-O');
    expect(g.playUci('e7e8q').isErr).toBe(true);
  });

  it('keeps timestamps, clock readings and comments, and annotates later', () => {
    const g = Game.standard().playSan('d4', { at: 1200, clockMs: 5_399_000, comment: 'fast' }).unwrap();
    expect(g.moves[0]).toMatchObject({ at: 1200, clockMs: 5_399_000, comment: 'fast' });
    const annotated = g.annotate(1, { elapsedMs: 1000 }).unwrap();
    expect(annotated.moves[0]).toMatchObject({ at: 1200, elapsedMs: 1000 });
    expect(g.moves[0]?.elapsedMs).toBeUndefined(); // the original record is unchanged
    expect(g.annotate(2, {}).isErr).toBe(true);
  });

  it('truncates (takeback) and replaces from ply N without branching', () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Nf3', 'Nc6');
    const back = g.truncate(2).unwrap();
    expect(back.length).toBe(2);
    expect(back.fenAt(2)).toBe(g.fenAt(2));
    expect(g.length).toBe(4); // immutable
    const corrected = g.replaceFrom(3, ['Bc4', 'Bc5']).unwrap();
    expect(corrected.moves.map(m => m.san)).toEqual(['e4', 'e5', 'Bc4', 'Bc5']);
    expect(g.truncate(5).isErr).toBe(true);
    expect(g.truncate(-1).isErr).toBe(true);
  });

  it('starts from any legal FEN and keeps move numbers from it', () => {
    const g = Game.fromFen('8/8/8/4k3/8/8/4P3/4K3 w - - 5 40').unwrap();
    const next = g.playSan('e4').unwrap();
    expect(next.moves[0]?.fen).toBe('8/8/8/4k3/4P3/8/8/4K3 b - - 0 40');
    expect(g.positionAt(0).fullmoves).toBe(40);
    expect(() => g.positionAt(1)).toThrow(RangeError);
  });
});

describe('Game record: bad input gives typed errors naming what and where', () => {
  it.each([
    // [fen, kind, text in the message]
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'invalidFen', 'bad side-to-move field'],
    ['rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'invalidFen', 'bad piece placement field'],
    ['not a fen', 'invalidFen', 'not a fen'],
    ['8/8/8/8/8/8/8/8 w - - 0 1', 'illegalPosition', 'the board is empty'],
    ['4k3/8/8/8/8/8/8/4K2K w - - 0 1', 'illegalPosition', 'exactly one king'],
    ['4k3/8/8/8/8/8/8/4QK2 w - - 0 1', 'illegalPosition', 'the side not to move is in check'],
    ['P3k3/8/8/8/8/8/8/4K3 w - - 0 1', 'illegalPosition', 'pawns on the first or last rank'],
  ])('FEN %s -> %s', (fen, kind, text) => {
    const r = Game.fromFen(fen);
    expect(r.isErr).toBe(true);
    if (r.isErr) {
      expect(r.error.kind).toBe(kind);
      expect(r.error.message).toContain(text);
    }
  });

  it('an illegal SAN names the move, the ply and the position', () => {
    const g = play(Game.standard(), 'e4', 'e5');
    const r = g.playSan('Ke3');
    expect(r.isErr).toBe(true);
    if (r.isErr) {
      expect(r.error).toMatchObject({ kind: 'illegalSan', san: 'Ke3', ply: 3 });
      expect(r.error.message).toBe(
        'illegal or ambiguous move "Ke3" at ply 3 in position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
      );
    }
  });

  it('an ambiguous SAN is refused, its disambiguated form accepted', () => {
    // Rooks on a1 and a5 both reach a3.
    const g = Game.fromFen('4k3/8/8/R7/8/8/8/R3K3 w - - 0 1').unwrap();
    expect(g.playSan('Ra3').isErr).toBe(true);
    expect(g.playSan('R1a3').unwrap().moves[0]?.san).toBe('R1a3');
  });

  it('describes every error kind', () => {
    expect(describeGameError({ kind: 'plyOutOfRange', ply: 9, length: 4 })).toBe(
      'ply 9 is outside the game (0..4)',
    );
    expect(describeGameError({ kind: 'illegalMove', move: 'e2e5', ply: 1, fen: 'F' })).toBe(
      'illegal move e2e5 at ply 1 in position F',
    );
  });
});
