/**
 * Chess960 games played through the human-handling generator and recognised back: every castling
 * geometry of the 960 back ranks (king or rook already on its end square, king and rook swapping,
 * the king landing where the rook stood, the rook where the king stood), made king first, both in
 * hand, or with only the king or the rook moving. Boards that identify pieces only: on a board that
 * sees occupancy alone, king and rook swapping leave every square as it was (docs/recognition.md).
 */
import { type NormalMove, kingCastlesTo } from 'chessops';
import { castlingSide } from 'chessops/chess';
import { rookCastlesTo } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import { chess960Game, chess960Rank } from '../../../src/engine/chess960.js';
import type { GameSettings } from '../../../src/engine/events.js';
import type { Game } from '../../../src/engine/game.js';
import { makeRng } from '../../../src/engine/handling/prng.js';
import { roundTrip } from '../../../src/engine/handling/verify.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';

/** The back rank of position `n` with only king and rooks left: castling is legal at once. */
const bare = (n: number): string => {
  const rank = (chess960Rank(n) ?? '').replace(/[BNQ]/g, '1');
  const fold = rank.replace(/1+/g, m => String(m.length));
  return `${fold.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${fold} w KQkq - 0 1`;
};

/** A random game of `plies` from `game`, castling whenever it may (the seed picks the rest). */
const randomGame = (game: Game, plies: number, seed: number): Game => {
  const rng = makeRng(seed);
  let g = game;
  for (let i = 0; i < plies; i++) {
    const pos = g.position();
    const moves: NormalMove[] = [];
    for (const [from, dests] of pos.allDests()) for (const to of dests) moves.push({ from, to });
    if (moves.length === 0 || pos.isInsufficientMaterial()) break;
    const castling = moves.filter(m => castlingSide(pos, m));
    const pool = castling.length > 0 && rng.chance(0.8) ? castling : moves;
    const move = pool[rng.int(0, pool.length - 1)] ?? moves[0];
    if (!move) break;
    const promoted = pos.board.pawn.has(move.from) && (move.to >> 3 === 0 || move.to >> 3 === 7);
    g = g.play(promoted ? { ...move, promotion: 'queen' } : move).unwrap();
  }
  return g;
};

/** The geometry of each castling of `g`: which pieces move, and onto whose square. */
const SETTINGS: GameSettings = {
  game: '960',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '5400+30',
  chess960: true,
};

const geometries = (g: Game): string[] =>
  g.moves.flatMap((m, i) => {
    const pos = g.positionAt(i);
    const move = m.move as NormalMove;
    const side = castlingSide(pos, move);
    if (!side) return [];
    const king = move.from;
    const rook = move.to;
    const kingTo = kingCastlesTo(pos.turn, side);
    const rookTo = rookCastlesTo(pos.turn, side);
    if (king === kingTo) return ['king stays'];
    if (rook === rookTo) return ['rook stays'];
    if (kingTo === rook && rookTo === king) return ['swap'];
    if (kingTo === rook) return ['king onto rook'];
    if (rookTo === king) return ['rook onto king'];
    return ['apart'];
  });

describe('Chess960 handling round trip', () => {
  it('recognises every castling of bare back ranks and of full games, exactly as played', () => {
    let positions = 0;
    const kinds = new Map<string, number>();
    const problems: string[] = [];
    for (let i = 0; i < 24; i++) {
      const n = (i * 389 + 17) % 960;
      const start = i % 2 === 0 ? chess960Game({ fen: bare(n) }) : chess960Game({ position: n });
      const game = randomGame(start.unwrap(), i % 2 === 0 ? 12 : 30, 1000 + i);
      positions += game.length;
      for (const k of geometries(game)) kinds.set(k, (kinds.get(k) ?? 0) + 1);
      const rt = roundTrip(game, { seed: 7 + i, rates: { castlingRookFirst: 0 } });
      if (!rt.ok) problems.push(`#${n}: ${rt.problems.join('; ')}`);
      // The supervisor, on the same events, finds no breach of Art. 4 in castling made king first.
      const settings = { ...SETTINGS, game: `g${n}`, startFen: game.start.fen };
      const { state } = startSupervision(settings);
      const run = runSupervision(state, rt.run.events);
      const sans = run.state.rec.game.moves.map(m => m.san).join(' ');
      if (sans !== game.moves.map(m => m.san).join(' ')) problems.push(`#${n}: supervised ${sans}`);
      const alerts = run.events.filter(e => e.type === 'alert');
      if (alerts.length > 0) problems.push(`#${n}: ${alerts.map(a => JSON.stringify(a)).join('; ')}`);
    }
    expect(problems).toEqual([]);
    expect(positions).toBeGreaterThan(300);
    for (const k of ['king stays', 'rook stays', 'swap', 'king onto rook', 'rook onto king', 'apart'])
      expect(kinds.get(k) ?? 0, k).toBeGreaterThan(0);
  });
});
