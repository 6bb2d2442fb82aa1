/**
 * Every game of the shared PGN corpora through the human-handling generator and the recogniser,
 * with several seeds: the recognised moves must be exactly the original ones, with no false
 * event. Prints accuracy, games/s and sensor events/s (recognition only, generation excluded),
 * and exits 1 on any difference (a failing game is a bug to fix, never one to exclude). Games
 * the PGN reader rejects (the corpus has two illegal ones) are reported as skipped.
 *
 *   npx tsx scripts/recognitionCorpus.ts                      # all games, seeds 1 2 3
 *   npx tsx scripts/recognitionCorpus.ts --seeds 5 --file carlsen.pgn --limit 200
 *   npx tsx scripts/recognitionCorpus.ts --occupancy          # occupancy-only boards (see docs/recognition.md)
 *   npx tsx scripts/recognitionCorpus.ts --report             # also write the figures into docs/benchmarks.md
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { makeRecorder, writeReportSection } from '../bench/report.js';
import type { Game } from '../src/engine/game.js';
import { addStats, deriveSeed, emptyStats, type HandlingStats } from '../src/engine/handling/index.js';
import { roundTrip } from '../src/engine/handling/verify.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';

const USAGE = `usage: tsx scripts/recognitionCorpus.ts [--seeds N] [--file F]... [--limit N] [--occupancy] [--settle MS] [--shared DIR] [--report] [--verbose]
  --seeds N     seeds 1..N per game (default 3)
  --file F      a file in <shared>/data/pgn (repeatable; default: every file, parser-edge-cases included)
  --limit N     at most N games per file
  --occupancy   boards that report occupancy only (under-promotions cannot be seen: such games are skipped;
                no knocked-over pieces)
  --settle MS   the settle window (default 300)
  --shared DIR  the shared folder (default: $CHESSBRIDGE_SHARED or ../shared beside the checkout)
  --report      write the figures into docs/benchmarks.md
  --verbose     print every problem, not only the first per game`;

const rec = makeRecorder();

const parseOptions = () => {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '3' },
      file: { type: 'string', multiple: true },
      limit: { type: 'string' },
      occupancy: { type: 'boolean', default: false },
      settle: { type: 'string', default: '300' },
      shared: { type: 'string' },
      report: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const seeds = Number(values.seeds);
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  const settleMs = Number(values.settle);
  if (values.help || !Number.isInteger(seeds) || seeds < 1 || !(limit > 0) || !(settleMs > 0)) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const root = resolve(import.meta.dirname, '..');
  const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(root, '..', 'shared');
  return { ...values, seeds, limit, settleMs, shared };
};

const corpusFiles = (dir: string): string[] => [
  ...readdirSync(dir)
    .filter(f => f.endsWith('.pgn'))
    .sort(),
  ...readdirSync(join(dir, 'parser-edge-cases'))
    .filter(f => f.endsWith('.pgn'))
    .sort()
    .map(f => `parser-edge-cases/${f}`),
];

const hasUnderPromotion = (game: Game): boolean => game.moves.some(m => /=[RBN]/.test(m.san));

const main = (): void => {
  const opts = parseOptions();
  const dir = join(opts.shared, 'data', 'pgn');
  const files = opts.file ?? corpusFiles(dir);
  let games = 0;
  let runs = 0;
  let failed = 0;
  let skipped = 0;
  let plies = 0;
  let recognitionMs = 0;
  let stats: HandlingStats = emptyStats();
  const started = performance.now();
  for (const file of files) {
    const results = readPgn(decodePgnBytes(readFileSync(join(dir, file))));
    let fileFailed = 0;
    let fileGames = 0;
    for (const r of results.slice(0, opts.limit)) {
      if (r.isErr) {
        skipped++;
        rec.log(`  skipped ${file}: ${r.error.message}`);
        continue;
      }
      const { game, index } = r.value;
      if (opts.occupancy && hasUnderPromotion(game)) {
        skipped++;
        continue;
      }
      games++;
      fileGames++;
      for (let seed = 1; seed <= opts.seeds; seed++) {
        const trip = roundTrip(
          game,
          {
            seed: deriveSeed(seed, games),
            occupancy: opts.occupancy,
            settleMs: opts.settleMs,
            // A knocked-over piece next to a square it could be captured on looks like that capture
            // on an occupancy-only board (docs/recognition.md, limits).
            ...(opts.occupancy ? { rates: { knockOver: 0 } } : {}),
          },
          { settleMs: opts.settleMs },
          () => performance.now(),
        );
        runs++;
        plies += game.length;
        recognitionMs += trip.elapsedMs;
        stats = addStats(stats, trip.run.stats);
        if (!trip.ok) {
          failed++;
          fileFailed++;
          const shown = opts.verbose ? trip.problems : trip.problems.slice(0, 1);
          rec.log(
            `  FAIL ${file} game ${index} seed ${seed} (${trip.run.tempo}, clock ${trip.run.clock}): ${shown.join(' | ')}`,
          );
        }
      }
    }
    rec.log(`${file}: ${fileGames} games, ${fileFailed} failed runs`);
  }
  const wall = (performance.now() - started) / 1000;
  const seconds = recognitionMs / 1000;
  const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
  const lines = [
    '',
    `Runs: ${runs} (${games} games x ${opts.seeds} seeds${opts.occupancy ? ', occupancy-only boards' : ''}), skipped games: ${skipped}`,
    `Accuracy: ${pct(runs - failed, runs)} of runs with exactly the original moves and no false event (${failed} failed)`,
    `Plies: ${plies}; sensor events: ${stats.sensorEvents} (${(stats.sensorEvents / Math.max(1, plies)).toFixed(2)} per ply); presses: ${stats.presses}`,
    `Recognition: ${seconds.toFixed(1)} s, ${(runs / seconds).toFixed(0)} games/s, ${Math.round(stats.sensorEvents / seconds)} sensor events/s on one core (${cpus()[0]?.model ?? 'unknown CPU'})`,
    `Wall time with PGN reading and generation: ${wall.toFixed(1)} s`,
    `Captures ${stats.captures}: direct ${pct(stats.captureDirect, stats.captures)}, captured piece first ${pct(stats.captureVictimFirst, stats.captures)}, lift-remove-place ${pct(stats.captureLiftRemovePlace, stats.captures)}, ghosts ${pct(stats.ghosts, stats.captures)}`,
    `Quiet moves ${stats.quiet}: stops ${pct(stats.stops, stats.quiet)} (legal ${pct(stats.legalStops - 0, stats.stops + stats.captureStops)}), slides ${stats.slides}, place-before-lift ${stats.placeBeforeLift}`,
    `Castlings ${stats.castlings} (rook first ${stats.castlingRookFirst}), promotions ${stats.promotions} (pawn first ${stats.promotionPawnFirst}, under ${stats.underPromotions}), en passant ${stats.enPassant} (captured first ${stats.enPassantVictimFirst}, lift-remove-place ${stats.enPassantLiftRemovePlace})`,
    `Adjustments ${stats.adjustments} (announced ${stats.announcedAdjustments}), knocked over ${stats.knockOvers}, flickers ${stats.flickers}, replies within one window ${stats.repliesInWindow}`,
  ];
  for (const line of lines) rec.log(line);
  if (opts.report) {
    const body = [
      'Written by `npx tsx scripts/recognitionCorpus.ts`.',
      '',
      '```',
      ...rec.lines.slice(-lines.length + 1),
      '```',
    ].join('\n');
    rec.log(
      `report written to ${writeReportSection(opts.occupancy ? 'Recognition corpus (occupancy-only)' : 'Recognition corpus', body)}`,
    );
  }
  process.exit(failed === 0 ? 0 : 1);
};

main();
