/**
 * Every game of the shared PGN corpora (10,845 games) is parsed, replayed and written back, and
 * checked against pgn-extract, an independent C program: same number of plies, same final
 * position, and our written PGN passes pgn-extract without errors. Known-bad games are reported
 * with a clear error and never stop the run. Our own reader reads our written PGN back to the same
 * games on a seeded sample that holds, for every file, games of each edge-case category of
 * edge-case-index.csv (en passant, under-promotion, stalemate, repetition...); every game of the
 * corpus goes through that round trip in scripts/pgnRoundTrip.ts.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePgnBytes, type ImportedGame, readPgn } from '../../src/engine/pgnRead.js';
import { type ResultToken, makePgn } from '../../src/engine/pgnWrite.js';
import { type ExtractedGame, extractGames } from '../support/pgnExtract.js';
import { allFeatures, featuresOf, roundTripSample } from '../support/pgnSample.js';
import { sharedPath } from '../support/shared.js';

const PGN_DIR = sharedPath('data/pgn');
const FILES = [
  ...readdirSync(PGN_DIR)
    .filter(f => f.endsWith('.pgn'))
    .sort(),
  ...readdirSync(join(PGN_DIR, 'parser-edge-cases'))
    .filter(f => f.endsWith('.pgn'))
    .sort()
    .map(f => `parser-edge-cases/${f}`),
];

/** Games both we and pgn-extract reject, from data/pgn/README.md: file -> game numbers and the move. */
const KNOWN_BAD: Record<string, { game: number; text: RegExp }[]> = {
  'twic1256.pgn': [
    { game: 524, text: /game 524 \(Valsecchi,A - Basso,Pier Luigi\): illegal move 30\.\.\. O-O-O/ },
  ],
  'parser-edge-cases/anastasian-lewis.pgn': [{ game: 1, text: /game 1 \(.*\): illegal move 41\.\.\. --/ }],
};

/** Game counts per file from data/pgn/README.md (python-chess and pgn-extract agree on them). */
const EXPECTED_GAMES: Record<string, number> = {
  'twic0920.pgn': 2245,
  'twic1256.pgn': 3276,
  'carlsen.pgn': 1782,
  'kasparov.pgn': 2110,
  'fide-womens-world-rapid-2024.pgn': 605,
  'lichess-2013-01-sample.pgn': 100,
  'engine-threefold-repetition.pgn': 713,
};

const tmp = mkdtempSync(join(tmpdir(), 'corpus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let totalGames = 0;
let sampledGames = 0;
const sampledFeatures = new Set<string>();

const finalFen = (g: ImportedGame): string => g.game.fenAt(g.game.length);

/**
 * Every game's differences, asserted once per file: an expect per game and field took a large part
 * of this file's time (tens of thousands of them) and named no more than the list does.
 */
const compareWithExtract = (ours: ImportedGame[], theirs: ExtractedGame[], what: string): void => {
  expect(theirs.length, `${what}: games accepted by pgn-extract`).toBe(ours.length);
  const differences: string[] = [];
  const differ = (where: string, field: string, got: unknown, want: unknown): void => {
    if (got !== want) differences.push(`${where}: ${field} ${String(got)}, expected ${String(want)}`);
  };
  ours.forEach((g, i) => {
    const t = theirs[i]!;
    const where = `${what} game ${g.index} (${g.headers.get('White')} - ${g.headers.get('Black')})`;
    differ(where, 'alignment (White)', t.tags.White, g.headers.get('White') ?? '?');
    differ(where, 'plies', t.plies, g.game.length);
    if (g.game.length > 0) differ(where, 'final position', t.finalFen, finalFen(g));
  });
  expect(differences).toEqual([]);
};

const resultOf = (g: ImportedGame): ResultToken => g.result as ResultToken;

describe('PGN corpora against pgn-extract', () => {
  it.each(FILES)('%s: replayed, written back, and equal to pgn-extract', file => {
    const path = join(PGN_DIR, file);
    const results = readPgn(decodePgnBytes(readFileSync(path)));
    if (EXPECTED_GAMES[file] !== undefined) expect(results.length).toBe(EXPECTED_GAMES[file]);
    totalGames += results.length;

    const ours = results.filter(r => r.isOk).map(r => r.unwrap());
    const failures = results.flatMap(r => (r.isErr ? [r.error] : []));
    const knownBad = KNOWN_BAD[file] ?? [];
    expect(failures.map(f => f.game)).toEqual(knownBad.map(k => k.game));
    failures.forEach((f, i) => expect(f.message).toMatch(knownBad[i]!.text));

    // 1. The original file read by pgn-extract: same plies and final position for every game.
    const original = extractGames(path);
    compareWithExtract(ours, original.games, `${file} (original)`);

    // 2. Our written PGN read by pgn-extract: no errors, same plies and final positions.
    const writtenOf = new Map(
      ours.map(g => [
        g,
        makePgn(g.game, {
          tags: Object.fromEntries([...g.headers].filter(([k]) => k !== 'FEN' && k !== 'SetUp')),
          result: resultOf(g),
        }),
      ]),
    );
    const written = [...writtenOf.values()].join('\n');
    const long = written.split('\n').filter(line => !line.startsWith('[') && line.length > 80);
    expect(long, `${file}: movetext lines over 80 characters`).toEqual([]);
    const out = join(tmp, file.replace('/', '_'));
    writeFileSync(out, written, 'utf8');
    const back = extractGames(out);
    // pgn-extract also warns when a Result tag contradicts a mate on the board: twic1256 game 418
    // says 1/2-1/2 after 25...Qc2# (data/pgn/README.md). We keep the recorded result, so that one
    // warning is expected; anything else in the log is an error in our output.
    const entries = back.errors
      .join('\n')
      .split(/(?<=Line number: \d+)(?!\d)\n?/)
      .filter(e => e.trim() !== '');
    const unexpected = entries.filter(
      e => !(file === 'twic1256.pgn' && /inconsistent with checkmate/.test(e) && /Ahmed,Najah/.test(e)),
    );
    expect(unexpected, `${file}: pgn-extract errors on our output`).toEqual([]);
    compareWithExtract(ours, back.games, `${file} (written)`);

    // 3. Our own reader reads our output back to the same games: the seeded sample, written as one
    // file (reading is the cost here: the whole corpus twice took 40% of this file's time).
    const picked = roundTripSample(
      file,
      ours.map(g => g.index),
    );
    const chosen = ours.filter(g => picked.has(g.index));
    const reread = readPgn(chosen.map(g => writtenOf.get(g)).join('\n'));
    expect(reread.every(r => r.isOk)).toBe(true);
    expect(reread.map(r => finalFen(r.unwrap()))).toEqual(chosen.map(finalFen));
    sampledGames += chosen.length;
    for (const f of featuresOf(file, picked)) sampledFeatures.add(f);
  });

  it('covered the whole corpus, and every edge-case category in the read-back sample', () => {
    expect(totalGames).toBe(10_845);
    // The one game of the index that does not read (twic1256 game 524, KNOWN_BAD) has no category
    // of its own to read back.
    const readable = [...allFeatures()].filter(f => f !== 'parse_error_or_illegal_move');
    expect([...sampledFeatures].sort()).toEqual(readable.sort());
    expect(sampledGames).toBeGreaterThan(500);
  });
});
