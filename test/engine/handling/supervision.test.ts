/**
 * Each way of handling the pieces, forced on every move it can apply to, through recognition and
 * the supervisor: no breach is made, so nothing may be reported and the record must be exact.
 * These patterns (knocked-over pieces, ghosts, captured pieces removed first, adjustments, blitz
 * replies within the settle window) once read as touches (docs/supervisor.md, "Evidence").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getProfile } from '../../../src/engine/editions.js';
import type { Game } from '../../../src/engine/game.js';
import {
  type HandlingRates,
  type Tempo,
  deriveSeed,
  factsOf,
  generateForGame,
} from '../../../src/engine/handling/index.js';
import { splitPgn } from '../../../src/engine/pgnLex.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';
import { expectedRecord, verifySupervision } from '../../../src/engine/supervisor/record.js';
import { sharedPath } from '../../support/shared.js';

/** Games of twic1256.pgn, every 41st, with what their moves offer the patterns. */
const GAMES = ((): { n: number; game: Game; enPassant: boolean; promotion: boolean }[] => {
  const chunks = splitPgn(decodePgnBytes(readFileSync(sharedPath('data/pgn/twic1256.pgn'))));
  const out: { n: number; game: Game; enPassant: boolean; promotion: boolean }[] = [];
  for (let n = 1; n <= chunks.length; n += 41) {
    const r = readPgn(chunks[n - 1]?.text ?? '')[0];
    if (!r?.isOk) continue;
    const game = r.value.game;
    const positions = game.positionsView();
    const kinds = game.moves.map((m, i) => {
      const pos = positions[i];
      return pos && 'from' in m.move ? factsOf(pos, m.move) : undefined;
    });
    out.push({
      n,
      game,
      enPassant: kinds.some(f => f?.kind === 'enPassant'),
      promotion: kinds.some(f => f?.move.promotion !== undefined),
    });
  }
  return out;
})();

const PATTERNS: readonly [string, Partial<HandlingRates>, 'enPassant' | 'promotion' | undefined][] = [
  ['a piece next to the destination knocked over after every move', { knockOver: 1 }, undefined],
  ['every captured piece leaving a ghost', { ghost: 1 }, undefined],
  ['every captured piece removed first', { captureDirect: 0, captureVictimFirst: 1, ghost: 0.5 }, undefined],
  [
    'every capturer lifted, the captured piece removed, the capturer placed',
    { captureDirect: 0, captureVictimFirst: 0, ghost: 0.5 },
    undefined,
  ],
  ['every moved piece adjusted first', { adjustMover: 1 }, undefined],
  ['a j’adoube before every move', { adjustAnnounced: 1 }, undefined],
  ['every destination flickering', { flicker: 1 }, undefined],
  ['stops on the way wherever possible', { stop: 1, captureStop: 1, slide: 1 }, undefined],
  ['every piece held long', { longHold: 1 }, undefined],
  ['en passant, the captured pawn removed first', { enPassantVictimFirst: 1 }, 'enPassant'],
  ['promotion with the pawn put on the last rank first', { promotionPawnFirst: 1 }, 'promotion'],
];

const RUNS: readonly { tempo: Tempo; clock: 'press' | 'none' }[] = [
  { tempo: 'blitz', clock: 'none' },
  { tempo: 'rapid', clock: 'press' },
];

describe('handling patterns through the supervisor', () => {
  const profile = getProfile('E23', 'standard');

  it.each(PATTERNS)('%s: no report, exact record', (_name, rates, needs) => {
    const games = GAMES.filter(g => needs === undefined || g[needs]).slice(0, 8);
    expect(games.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const { n, game } of games) {
      const want = expectedRecord(game, profile);
      for (const [k, { tempo, clock }] of RUNS.entries()) {
        const run = generateForGame(game, {
          seed: deriveSeed(k + 1, n),
          tempo,
          clock,
          rates: { castlingRookFirst: 0, ...rates },
        });
        const { state } = startSupervision(
          { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full', startFen: game.start.fen },
          { game: game.truncate(0).unwrap() },
        );
        const problems = verifySupervision(want, runSupervision(state, run.events).events);
        if (problems.length > 0) failures.push(`twic1256 #${n} ${tempo} ${clock}: ${problems[0]}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
