/**
 * Acceptance point 2 on a sample (the whole corpus runs in scripts/recognitionCorpus.ts): real
 * games from the shared PGN corpora, every file represented, plus, from every file, up to
 * PER_FEATURE games (chosen by a seeded hash) of each of en passant, under-promotion and castling
 * on both sides as edge-case-index.csv lists them, each turned into a realistic board-event stream
 * by the handling generator with three seeds, must come out of the recogniser with exactly the
 * original moves and no false event (no correction, mismatch or result; pending states only where
 * castling, promotion or en passant was played).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Game } from '../../../src/engine/game.js';
import { deriveSeed } from '../../../src/engine/handling/index.js';
import { roundTrip } from '../../../src/engine/handling/verify.js';
import { splitPgn } from '../../../src/engine/pgnLex.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { edgeCaseIndex } from '../../support/pgnSample.js';
import { sharedPath } from '../../support/shared.js';

const PGN_DIR = sharedPath('data/pgn');
const SEEDS = [1, 2, 3];
/** Games taken from each file at even spacing (parser edge-case files: all their games). */
const PER_FILE = 12;
const FEATURES = ['en_passant', 'underpromotion', 'castling_both_sides'];
/**
 * Featured games taken per file and feature. Every listed game (1,637, three seeds each) took 55 s
 * here; scripts/recognitionCorpus.ts runs them all.
 */
const PER_FEATURE = 10;

const FILES = [
  ...readdirSync(PGN_DIR)
    .filter(f => f.endsWith('.pgn'))
    .sort(),
  ...readdirSync(join(PGN_DIR, 'parser-edge-cases'))
    .filter(f => f.endsWith('.pgn'))
    .sort()
    .map(f => `parser-edge-cases/${f}`),
];

/** Every game (1-based) per file and feature listed in edge-case-index.csv, for FEATURES. */
const listed = (): Map<string, Map<string, number[]>> => {
  const out = new Map<string, Map<string, number[]>>();
  for (const row of edgeCaseIndex()) {
    for (const f of row.features.filter(x => FEATURES.includes(x))) {
      const byFeature = out.get(row.file) ?? new Map<string, number[]>();
      byFeature.set(f, [...(byFeature.get(f) ?? []), row.game]);
      out.set(row.file, byFeature);
    }
  }
  return out;
};

/** Up to PER_FEATURE games per file and feature, the same ones on every run (seeded order). */
const featured = (): Map<string, Set<number>> => {
  const out = new Map<string, Set<number>>();
  for (const [file, byFeature] of listed()) {
    const set = new Set<number>();
    for (const games of byFeature.values()) {
      const order = [...games].sort((a, b) => deriveSeed(1, a) - deriveSeed(1, b));
      for (const n of order.slice(0, PER_FEATURE)) set.add(n);
    }
    out.set(file, set);
  }
  return out;
};

interface Sampled {
  readonly file: string;
  readonly number: number;
  readonly game: Game;
}

/** Only the chosen games are parsed: splitting the texts is cheap, replaying every game is not. */
const sample = (): { games: Sampled[]; skipped: string[] } => {
  const wanted = featured();
  const games: Sampled[] = [];
  const skipped: string[] = [];
  for (const file of FILES) {
    const chunks = splitPgn(decodePgnBytes(readFileSync(join(PGN_DIR, file))));
    const pick = new Set(wanted.get(file));
    const stride = file.startsWith('parser-edge-cases/')
      ? 1
      : Math.max(1, Math.floor(chunks.length / PER_FILE));
    for (let n = 1; n <= chunks.length; n += stride) pick.add(n);
    for (const n of [...pick].sort((a, b) => a - b)) {
      const chunk = chunks[n - 1];
      const result = chunk ? readPgn(chunk.text)[0] : undefined;
      if (result?.isOk) games.push({ file, number: n, game: result.value.game });
      else skipped.push(`${file} game ${n}`);
    }
  }
  return { games, skipped };
};

describe('recognition corpus sample', () => {
  const { games, skipped } = sample();

  it('samples every file and every featured game', () => {
    expect(new Set(games.map(g => g.file))).toEqual(
      new Set(FILES.filter(f => !f.endsWith('anastasian-lewis.pgn'))),
    );
    const wanted = [...featured().values()].reduce((n, s) => n + s.size, 0);
    expect(games.length).toBeGreaterThan(wanted);
    // Every feature listed for a file is in that file's sample.
    const taken = new Set(games.map(g => `${g.file}#${g.number}`));
    const missing = [...listed()].flatMap(([file, byFeature]) =>
      [...byFeature].flatMap(([f, ns]) => (ns.some(n => taken.has(`${file}#${n}`)) ? [] : [`${file} ${f}`])),
    );
    expect(missing).toEqual([]);
    // The corpus's illegal game (null move) is rejected by the reader and reported, not run.
    expect(skipped).toEqual(['parser-edge-cases/anastasian-lewis.pgn game 1']);
  });

  it.each(FILES)('%s: every sampled game, three seeds, exactly the original moves', file => {
    const failures: string[] = [];
    for (const g of games.filter(x => x.file === file)) {
      for (const seed of SEEDS) {
        const trip = roundTrip(g.game, { seed: deriveSeed(seed, g.number) });
        if (!trip.ok) failures.push(`game ${g.number} seed ${seed}: ${trip.problems[0] ?? ''}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('occupancy-only boards: a smaller sample without under-promotions', () => {
    const failures: string[] = [];
    const plain = games.filter((g, i) => i % 2 === 0 && !g.game.moves.some(m => /=[RBN]/.test(m.san)));
    for (const g of plain) {
      const trip = roundTrip(g.game, {
        seed: deriveSeed(4, g.number),
        occupancy: true,
        rates: { knockOver: 0 },
      });
      if (!trip.ok) failures.push(`${g.file} game ${g.number}: ${trip.problems[0] ?? ''}`);
    }
    expect(plain.length).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });
});
