/**
 * Every game of the shared corpora through the human-handling generator, recognition AND the
 * supervisor, with several seeds: the published record (move and correction events) must be
 * exactly the original moves and the supervisor must raise no alert at all (the generator makes
 * no breach: rook-first castling, a real 4.4 breach, is switched off here). Games whose record
 * goes on after the rules ended them (a fivefold repetition nobody noticed) must end at that ply,
 * with that ending published. Prints accuracy and sensor events per second through recognition
 * and supervision on one core.
 *
 *   npx tsx scripts/supervisionCorpus.ts [--seeds N] [--file F]... [--limit N] [--edition E23] [--report]
 *   npx tsx scripts/supervisionCorpus.ts --game carlsen.pgn:595 [--seed 1] [--verbose]
 *
 * `--game FILE:N` (repeatable) runs only game N of FILE (the number in the failure list);
 * `--seed S` runs only seed S; `--verbose` prints each failing run's alerts with the board
 * events of their evidence, and the plies where the recorded moves part from the original.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeRecorder, writeReportSection } from '../bench/report.js';
import { getProfile } from '../src/engine/editions.js';
import type { GameEvent } from '../src/engine/events.js';
import { deriveSeed } from '../src/engine/handling/prng.js';
import { generateForGame } from '../src/engine/handling/generator.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../src/engine/supervisor/index.js';
import { expectedRecord, publishedSans, verifySupervision } from '../src/engine/supervisor/record.js';
import { type Edition, isEdition } from '../src/engine/types.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '3' },
    file: { type: 'string', multiple: true },
    limit: { type: 'string' },
    edition: { type: 'string', default: 'E23' },
    shared: { type: 'string' },
    report: { type: 'boolean', default: false },
    game: { type: 'string', multiple: true },
    seed: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const seeds = Number(values.seeds);
const limit = values.limit === undefined ? Infinity : Number(values.limit);
const edition: Edition = isEdition(values.edition) ? values.edition : 'E23';
const root = resolve(import.meta.dirname, '..');
const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(root, '..', 'shared');
const dir = join(shared, 'data', 'pgn');
/** --game FILE:N filters: file -> the game numbers to run. */
const only = new Map<string, Set<number>>();
for (const g of values.game ?? []) {
  const at = g.lastIndexOf(':');
  const file = g.slice(0, at);
  const number = Number(g.slice(at + 1));
  if (at <= 0 || !Number.isInteger(number)) throw new TypeError(`--game: expected FILE:N, got ${g}`);
  only.set(file, (only.get(file) ?? new Set()).add(number));
}
const seedList =
  values.seed === undefined ? Array.from({ length: seeds }, (_, i) => i + 1) : [Number(values.seed)];
const files =
  (only.size > 0 ? [...only.keys()] : undefined) ??
  values.file ??
  [
    ...readdirSync(dir).filter(f => f.endsWith('.pgn')),
    ...readdirSync(join(dir, 'parser-edge-cases')).map(f => `parser-edge-cases/${f}`),
  ].sort();
const profile = getProfile(edition, 'standard');
const rec = makeRecorder();

let runs = 0;
let exact = 0;
let endedEarly = 0;
let skipped = 0;
let sensorEvents = 0;
/** CPU seconds in recognition + supervision: wall time would count the other processes of a busy machine. */
let seconds = 0;
const failures: string[] = [];

for (const file of files) {
  let n = 0;
  for (const r of readPgn(decodePgnBytes(readFileSync(join(dir, file))))) {
    if (n >= limit) break;
    n++;
    const wanted = only.get(file);
    if (wanted && !wanted.has(r.isOk ? r.value.index : -1)) continue;
    if (r.isErr) {
      skipped++;
      continue;
    }
    const game = r.value.game;
    const want = expectedRecord(game, profile);
    for (const seed of seedList) {
      const run = generateForGame(game, {
        seed: deriveSeed(seed, r.value.index),
        rates: { castlingRookFirst: 0 },
      });
      const { state } = startSupervision(
        { game: 'g', edition, gameType: 'standard', supervision: 'full', startFen: game.start.fen },
        { game: game.truncate(0).unwrap() },
      );
      const t0 = process.cpuUsage();
      const out = runSupervision(state, run.events);
      const used = process.cpuUsage(t0);
      seconds += (used.user + used.system) / 1e6;
      sensorEvents += run.events.filter(e => e.kind === 'square' || e.kind === 'snapshot').length;
      runs++;
      // The published record, not the recogniser's: it goes on tracking the board after the end.
      const problems = verifySupervision(want, out.events);
      if (problems.length === 0) {
        exact++;
        if (want.sans.length < game.length) endedEarly++;
      } else {
        if (failures.length < 50) failures.push(`${file} game ${r.value.index} seed ${seed}: ${problems[0]}`);
        if (values.verbose)
          explain(`${file} game ${r.value.index} seed ${seed}`, problems, out.events, want.sans);
      }
    }
  }
}

/** A failing run in detail: its problems, each alert with the board events it was judged on, where the record parts. */
function explain(
  what: string,
  problems: readonly string[],
  events: readonly GameEvent[],
  want: readonly string[],
): void {
  console.log(`== ${what}`);
  for (const p of problems) console.log(`  ${p}`);
  for (const a of events) {
    if (a.type !== 'alert') continue;
    console.log(
      `  alert ${a.code} at ${a.at}: move ${a.evidence?.move ?? '?'}, before ${a.evidence?.fenBefore ?? '?'}`,
    );
    for (const e of a.evidence?.events ?? []) console.log(`    ${JSON.stringify(e)}`);
  }
  const got = publishedSans(events);
  const split = got.findIndex((san, i) => san !== want[i]);
  const from = split < 0 ? Math.min(got.length, want.length) : split;
  if (got.length !== want.length || split >= 0)
    console.log(
      `  from ply ${from + 1}: recorded ${got.slice(from).join(' ') || '(nothing)'}; original ${want.slice(from).join(' ') || '(nothing)'}`,
    );
}

const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`;
rec.log(
  `Run: \`npx tsx scripts/supervisionCorpus.ts --seeds ${seeds}\` on ${cpu}, Node ${process.version}, ${edition} standard.`,
);
rec.log('');
rec.log(
  '| runs (games × seeds) | exact, no alert | accuracy | ended by the rules before the record | games skipped (illegal in the PGN) | sensor events | events/s through recognition + supervision (CPU time, one core) |',
);
rec.log('|---:|---:|---:|---:|---:|---:|---:|');
rec.log(
  `| ${runs} | ${exact} | ${((100 * exact) / Math.max(1, runs)).toFixed(2)} % | ${endedEarly} | ${skipped} | ${sensorEvents.toLocaleString('en-US')} | ${Math.round(sensorEvents / seconds).toLocaleString('en-US')} |`,
);
for (const f of failures) rec.log(`- ${f}`);
process.exitCode = exact === runs ? 0 : 1;
if (values.report) writeReportSection('Supervision on the corpus', rec.lines.join('\n'));
