/**
 * A seeded, representative sample of the shared PGN corpus for tests that cannot afford every
 * game: for each file, a few games of every edge-case category that edge-case-index.csv lists for
 * it (en passant, under-promotion, stalemate, repetition...), about one game in SPREAD of the rest
 * chosen by a seeded hash, the first and last games, and every game of a small file. The same seed
 * gives the same sample on every machine; scripts sweep the whole corpus.
 *
 *   const picked = roundTripSample('twic0920.pgn', games.map(g => g.index));
 *   featuresOf('twic0920.pgn', picked); // the categories the sample holds
 */
import { readFileSync } from 'node:fs';
import { deriveSeed } from '../../src/engine/handling/prng.js';
import { sharedPath } from './shared.js';

/** Games of each category taken from each file. */
const PER_FEATURE = 3;
/** About one game in SPREAD is taken besides the categories. */
const SPREAD = 16;
/** Files with at most this many games are taken whole. */
const SMALL_FILE = 20;

interface IndexRow {
  readonly file: string;
  readonly game: number;
  readonly features: readonly string[];
}

/** Splits one CSV line, honouring double-quoted fields ("Carlsen,M"). */
const csvFields = (line: string): string[] => {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
};

let rows: IndexRow[] | undefined;

/** The rows of data/pgn/edge-case-index.csv (read once per worker). */
export const edgeCaseIndex = (): readonly IndexRow[] => {
  if (rows) return rows;
  const lines = readFileSync(sharedPath('data/pgn/edge-case-index.csv'), 'utf8').split(/\r?\n/);
  const header = csvFields(lines[0] ?? '');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`edge-case-index.csv: no column ${name} in its header`);
    return i;
  };
  const [file, game, features] = [col('file'), col('game_no'), col('features')];
  rows = lines
    .slice(1)
    .filter(l => l.trim() !== '')
    .map(l => {
      const f = csvFields(l);
      return {
        file: f[file] ?? '',
        game: Number(f[game]),
        features: (f[features] ?? '').split(/\s+/).filter(x => x !== ''),
      };
    });
  return rows;
};

/** Every category the index names. */
export const allFeatures = (): Set<string> => new Set(edgeCaseIndex().flatMap(r => r.features));

/** The categories of the index held by games `picked` of `file`. */
export const featuresOf = (file: string, picked: ReadonlySet<number>): Set<string> =>
  new Set(edgeCaseIndex().flatMap(r => (r.file === file && picked.has(r.game) ? r.features : [])));

/**
 * Game numbers (1-based) of `file` to sample among `available` (the games that read without
 * error), for `seed`.
 */
export const roundTripSample = (file: string, available: readonly number[], seed = 1): Set<number> => {
  const have = new Set(available);
  if (available.length <= SMALL_FILE) return have;
  const rank = (n: number): number => deriveSeed(seed, n);
  const picked = new Set<number>([Math.min(...available), Math.max(...available)]);
  for (const n of available) if (rank(n) % SPREAD === 0) picked.add(n);
  const byFeature = new Map<string, number[]>();
  for (const r of edgeCaseIndex()) {
    if (r.file !== file || !have.has(r.game)) continue;
    for (const f of r.features) byFeature.set(f, [...(byFeature.get(f) ?? []), r.game]);
  }
  for (const games of byFeature.values()) {
    for (const n of [...games].sort((a, b) => rank(a) - rank(b)).slice(0, PER_FEATURE)) picked.add(n);
  }
  return picked;
};
