/**
 * Every game of the shared corpora through the human-handling generator, recognition AND the
 * supervisor, with several seeds: the recorded moves must be exactly the original ones and the
 * supervisor must raise no alert at all (the generator makes no breach: rook-first castling, a
 * real 4.4 breach, is switched off here). Games whose record goes on after the rules ended them
 * (a fivefold repetition nobody noticed) must end at that ply. Prints accuracy and sensor events
 * per second through recognition and supervision on one core.
 *
 *   npx tsx scripts/supervisionCorpus.ts [--seeds N] [--file F]... [--limit N] [--edition E23] [--report]
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
import { evaluateGame } from '../src/engine/status.js';
import { runSupervision, startSupervision } from '../src/engine/supervisor/index.js';
import { type Edition, isEdition } from '../src/engine/types.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '3' },
    file: { type: 'string', multiple: true },
    limit: { type: 'string' },
    edition: { type: 'string', default: 'E23' },
    shared: { type: 'string' },
    report: { type: 'boolean', default: false },
  },
});
const seeds = Number(values.seeds);
const limit = values.limit === undefined ? Infinity : Number(values.limit);
const edition: Edition = isEdition(values.edition) ? values.edition : 'E23';
const root = resolve(import.meta.dirname, '..');
const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(root, '..', 'shared');
const dir = join(shared, 'data', 'pgn');
const files =
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
let seconds = 0;
const failures: string[] = [];

for (const file of files) {
  let n = 0;
  for (const r of readPgn(decodePgnBytes(readFileSync(join(dir, file))))) {
    if (n >= limit) break;
    n++;
    if (r.isErr) {
      skipped++;
      continue;
    }
    const game = r.value.game;
    const end = evaluateGame(game, profile).find(s => s.end)?.ply;
    const expected = game.moves.slice(0, end ?? game.length).map(m => m.san);
    for (let seed = 1; seed <= seeds; seed++) {
      const run = generateForGame(game, {
        seed: deriveSeed(seed, r.value.index),
        rates: { castlingRookFirst: 0 },
      });
      const { state } = startSupervision(
        { game: 'g', edition, gameType: 'standard', supervision: 'full', startFen: game.start.fen },
        { game: game.truncate(0).unwrap() },
      );
      const t0 = performance.now();
      const out = runSupervision(state, run.events);
      seconds += (performance.now() - t0) / 1000;
      sensorEvents += run.events.filter(e => e.kind === 'square' || e.kind === 'snapshot').length;
      runs++;
      const got = out.state.rec.game.moves.map(m => m.san);
      const alerts = out.events.filter((e): e is Extract<GameEvent, { type: 'alert' }> => e.type === 'alert');
      const problems: string[] = [];
      if (got.join(' ') !== expected.join(' '))
        problems.push(`moves differ (${got.length} of ${expected.length})`);
      for (const a of alerts) problems.push(`alert ${a.code} ${a.article.article}: ${a.detail}`);
      if (problems.length === 0) {
        exact++;
        if (end !== undefined && end < game.length) endedEarly++;
      } else if (failures.length < 50)
        failures.push(`${file} game ${r.value.index} seed ${seed}: ${problems[0]}`);
    }
  }
}

const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`;
rec.log(
  `Run: \`npx tsx scripts/supervisionCorpus.ts --seeds ${seeds}\` on ${cpu}, Node ${process.version}, ${edition} standard.`,
);
rec.log('');
rec.log(
  '| runs (games × seeds) | exact, no alert | accuracy | ended by the rules before the record | games skipped (illegal in the PGN) | sensor events | events/s through recognition + supervision (one core) |',
);
rec.log('|---:|---:|---:|---:|---:|---:|---:|');
rec.log(
  `| ${runs} | ${exact} | ${((100 * exact) / Math.max(1, runs)).toFixed(2)} % | ${endedEarly} | ${skipped} | ${sensorEvents.toLocaleString('en-US')} | ${Math.round(sensorEvents / seconds).toLocaleString('en-US')} |`,
);
for (const f of failures) rec.log(`- ${f}`);
process.exitCode = exact === runs ? 0 : 1;
if (values.report) writeReportSection('Supervision on the corpus', rec.lines.join('\n'));
