/**
 * Every game of the shared PGN corpora written back by our writer and read again by our reader:
 * the same number of games, every one readable, the same final position. test/engine/corpus.test.ts
 * checks this on a seeded sample (every edge-case category of edge-case-index.csv in every file)
 * and checks every game against pgn-extract; this script is the whole sweep of the read-back.
 * Exits 1 on any difference and names the game.
 *
 *   npx tsx scripts/pgnRoundTrip.ts            # every file, parser-edge-cases included
 *   npx tsx scripts/pgnRoundTrip.ts --report   # also write the figures into docs/benchmarks.md
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { makeRecorder, writeReportSection } from '../bench/report.js';
import { decodePgnBytes, type ImportedGame, readPgn } from '../src/engine/pgnRead.js';
import { makePgn, type ResultToken } from '../src/engine/pgnWrite.js';

const { values } = parseArgs({
  options: { shared: { type: 'string' }, report: { type: 'boolean', default: false } },
});
const SHARED = resolve(
  values.shared ?? process.env.CHESSBRIDGE_SHARED ?? join(process.cwd(), '..', 'shared'),
);
const PGN_DIR = join(SHARED, 'data', 'pgn');
const files = [
  ...readdirSync(PGN_DIR)
    .filter(f => f.endsWith('.pgn'))
    .sort(),
  ...readdirSync(join(PGN_DIR, 'parser-edge-cases'))
    .filter(f => f.endsWith('.pgn'))
    .sort()
    .map(f => `parser-edge-cases/${f}`),
];

const finalFen = (g: ImportedGame): string => g.game.fenAt(g.game.length);
const { log, lines } = makeRecorder();
const problems: string[] = [];
let games = 0;
let rejected = 0;
let readMs = 0;
let rereadMs = 0;
for (const file of files) {
  let t = performance.now();
  const results = readPgn(decodePgnBytes(readFileSync(join(PGN_DIR, file))));
  readMs += performance.now() - t;
  const ours = results.filter(r => r.isOk).map(r => r.unwrap());
  rejected += results.length - ours.length;
  const written = ours
    .map(g =>
      makePgn(g.game, {
        tags: Object.fromEntries([...g.headers].filter(([k]) => k !== 'FEN' && k !== 'SetUp')),
        result: g.result as ResultToken,
      }),
    )
    .join('\n');
  t = performance.now();
  const back = readPgn(written);
  rereadMs += performance.now() - t;
  if (back.length !== ours.length)
    problems.push(`${file}: ${ours.length} games written, ${back.length} read back`);
  back.forEach((r, i) => {
    const g = ours[i];
    if (!g) return;
    if (r.isErr) problems.push(`${file} game ${g.index}: ${r.error.message}`);
    else if (finalFen(r.value) !== finalFen(g))
      problems.push(`${file} game ${g.index}: final position differs`);
  });
  games += ours.length;
}
log(
  `${games} games read back from our own PGN (${rejected} rejected on first reading, as listed in data/pgn/README.md),`,
);
log(`${files.length} files; ${problems.length} differences.`);
log(
  `Reading ${(readMs / 1000).toFixed(1)} s, reading back ${(rereadMs / 1000).toFixed(1)} s, on ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}.`,
);
for (const p of problems.slice(0, 20)) log(`- ${p}`);
if (values.report) {
  const body = [
    'Every game of the corpora written by our writer and read again by our reader (the test reads back',
    'a seeded sample holding every edge-case category). Run: `npx tsx scripts/pgnRoundTrip.ts --report`.',
    '',
    ...lines,
  ].join('\n');
  log(`wrote ${writeReportSection('PGN round trip', body)}`);
}
process.exit(problems.length === 0 ? 0 : 1);
