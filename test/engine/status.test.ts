import { describe, expect, it } from 'vitest';
import { getProfile } from '../../src/engine/editions.js';
import { Game } from '../../src/engine/game.js';
import { evaluateGame } from '../../src/engine/status.js';

const play = (g: Game, sans: string): Game =>
  sans
    .split(/\s+/)
    .filter(Boolean)
    .reduce((acc, san) => acc.playSan(san).unwrap(), g);
const SHUFFLE = 'Nf3 Nf6 Ng1 Ng8 '.repeat(4);

describe('game status: automatic endings with the article of the edition in force', () => {
  it.each([
    // [edition, start FEN or standard, moves, ending ply, kind, article] — sources: reference §4.1, §8.5, §13.9.
    ['E23', undefined, 'f3 e5 g4 Qh4', 4, 'checkmate', '5.1.1'],
    ['E09', undefined, 'f3 e5 g4 Qh4', 4, 'checkmate', '5.1.a'],
    // Stalemate: queen and king against the cornered king; Black to move has no legal move.
    ['E23', 'k7/8/1K6/8/8/8/2Q5/8 w - - 0 1', 'Qc7', 1, 'stalemate', '5.2.1'],
    ['E97', 'k7/8/1K6/8/8/8/2Q5/8 w - - 0 1', 'Qc7', 1, 'stalemate', '5.2'],
    // Dead position: the last black piece is captured, K+B v K.
    ['E23', '8/8/8/4k3/8/2n5/8/B3K3 w - - 0 60', 'Bxc3+', 1, 'deadPosition', '5.2.2'],
    ['E09', '8/8/8/4k3/8/2n5/8/B3K3 w - - 0 60', 'Bxc3+', 1, 'deadPosition', '5.2.b'],
    // Fivefold: automatic from E14 (9.6.a) and in E17+ wording (9.6.1); nothing before.
    ['E23', undefined, SHUFFLE, 16, 'fivefold', '9.6.1'],
    ['E18', undefined, SHUFFLE, 16, 'fivefold', '9.6.1'],
    ['E14', undefined, SHUFFLE, 16, 'fivefold', '9.6.a'],
    ['E09', undefined, SHUFFLE, undefined, undefined, undefined],
    ['E97', undefined, SHUFFLE, undefined, undefined, undefined],
  ] as const)('%s %s: %s', (edition, fen, moves, ply, kind, article) => {
    const start = fen ? Game.fromFen(fen).unwrap() : Game.standard();
    const statuses = evaluateGame(play(start, moves), getProfile(edition, 'standard'));
    const ended = statuses.find(s => s.end);
    if (ply === undefined) {
      expect(ended).toBeUndefined();
      return;
    }
    expect(ended?.ply).toBe(ply);
    expect(ended?.end).toMatchObject({ kind, article: { edition, article } });
  });

  it('75 moves: automatic draw at the 150th half-move (E14+), none before E14, and mate on that move wins', () => {
    // Rook endgame with the halfmove clock at 148: two quiet moves reach 150.
    const fen = '6k1/8/6K1/8/8/8/8/R7 w - - 148 120';
    const quiet = play(Game.fromFen(fen).unwrap(), 'Rb1 Kh8');
    const e23 = evaluateGame(quiet, getProfile('E23', 'standard'));
    expect(e23[2]?.end).toMatchObject({ kind: 'seventyFiveMoves', article: { article: '9.6.2' } });
    expect(evaluateGame(quiet, getProfile('E09', 'standard')).some(s => s.end)).toBe(false);
    // Same count, but the 150th half-move is a mate: the mate stands (E14 9.6.b, E18/E23 9.6.2).
    const mate = play(Game.fromFen('6k1/8/6K1/8/8/8/8/R7 w - - 149 120').unwrap(), 'Ra8');
    const s = evaluateGame(mate, getProfile('E23', 'standard'));
    expect(s[1]?.halfmoves).toBe(150);
    expect(s[1]?.end).toMatchObject({ kind: 'checkmate', winner: 'white' });
  });

  it('offers the claims the player to move may make: threefold (9.2) and fifty moves (9.3)', () => {
    const statuses = evaluateGame(
      play(Game.standard(), 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8'),
      getProfile('E23', 'standard'),
    );
    expect(statuses[7]?.claims).toEqual([]);
    expect(statuses[8]?.claims).toEqual([
      { kind: 'threefold', by: 'white', plies: [0, 4, 8], article: { edition: 'E23', article: '9.2' } },
    ]);
    const fifty = evaluateGame(
      play(Game.fromFen('6k1/8/6K1/8/8/8/8/R7 w - - 99 80').unwrap(), 'Rb1'),
      getProfile('E09', 'standard'),
    );
    expect(fifty[0]?.claims).toEqual([]);
    expect(fifty[1]?.claims).toEqual([
      { kind: 'fiftyMoves', by: 'black', halfmoves: 100, article: { edition: 'E09', article: '9.3' } },
    ]);
  });

  it('marks plies played after the end and stops offering claims', () => {
    const statuses = evaluateGame(
      play(Game.fromFen('8/8/8/4k3/8/2n5/8/B3K3 w - - 0 60').unwrap(), 'Bxc3+ Kd5 Kd2 Kc4'),
      getProfile('E23', 'standard'),
    );
    expect(statuses.map(s => s.afterEnd)).toEqual([false, false, true, true, true]);
    expect(statuses.filter(s => s.end)).toHaveLength(1);
  });

  it('reports mating material per side by fast rules', () => {
    const [s] = evaluateGame(
      Game.fromFen('8/8/8/4k3/8/8/8/1B2K3 w - - 0 1').unwrap(),
      getProfile('E23', 'standard'),
    );
    expect(s?.matingMaterial).toEqual({ white: 'no', black: 'no' });
    expect(s?.dead.verdict).toBe('yes');
  });
});
