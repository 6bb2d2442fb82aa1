/**
 * Acceptance point 2 on a sample of the corpus, with the supervisor in the loop: every sampled
 * game, played by the handling generator (no breach: rook-first castling off), must come out with
 * exactly its moves up to where the rules end it, that ending published, and no alert at all.
 * The whole corpus with three seeds is scripts/supervisionCorpus.ts (docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getProfile } from '../../../src/engine/editions.js';
import { generateForGame } from '../../../src/engine/handling/generator.js';
import { deriveSeed } from '../../../src/engine/handling/prng.js';
import { splitPgn } from '../../../src/engine/pgnLex.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';
import { expectedRecord, verifySupervision } from '../../../src/engine/supervisor/record.js';
import { sharedPath } from '../../support/shared.js';

/** Games per file, spread evenly over each file (about 300 in all). */
const PER_FILE: Record<string, number> = {
  'carlsen.pgn': 55,
  'kasparov.pgn': 40,
  'twic0920.pgn': 55,
  'twic1256.pgn': 75,
  'fide-womens-world-rapid-2024.pgn': 35,
  'lichess-2013-01-sample.pgn': 30,
  'engine-threefold-repetition.pgn': 2,
  'parser-edge-cases/kasparov-deep-blue-1997.pgn': 2,
  'parser-edge-cases/nepomniachtchi-liren-game1.pgn': 1,
  'parser-edge-cases/molinari-bordais-1979.pgn': 1,
};
const SEED = 1;

describe('supervision of the handled corpus (sample)', () => {
  it('every sampled game: exact record, automatic endings published, no alert', () => {
    const profile = getProfile('E23', 'standard');
    const failures: string[] = [];
    let runs = 0;
    for (const [file, count] of Object.entries(PER_FILE)) {
      const chunks = splitPgn(decodePgnBytes(readFileSync(sharedPath(`data/pgn/${file}`))));
      const stride = Math.max(1, Math.floor(chunks.length / count));
      // n: the game's number in its file, as in the corpus script (the seed derives from it).
      for (let n = 1, taken = 0; n <= chunks.length && taken < count; n += stride) {
        const r = readPgn(chunks[n - 1]?.text ?? '')[0];
        if (!r?.isOk) continue;
        const game = r.value.game;
        const run = generateForGame(game, { seed: deriveSeed(SEED, n), rates: { castlingRookFirst: 0 } });
        const { state } = startSupervision(
          { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full', startFen: game.start.fen },
          { game: game.truncate(0).unwrap() },
        );
        const problems = verifySupervision(
          expectedRecord(game, profile),
          runSupervision(state, run.events).events,
        );
        if (problems.length > 0) failures.push(`${file} game ${n} seed ${SEED}: ${problems.join('; ')}`);
        taken++;
        runs++;
      }
    }
    expect(failures).toEqual([]);
    expect(runs).toBeGreaterThanOrEqual(290);
  }, 240_000);
});
