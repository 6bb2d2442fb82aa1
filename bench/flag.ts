/**
 * Flag-decision benchmark: how many Art. 6.9 decisions per second the engine makes, each one a
 * "can the opponent still checkmate?" search followed by the edition's flag rule. Positions: the
 * final positions of real games (where flags fall) from the shared corpora, and the reference
 * positions of the edge-case index that end in insufficient material.
 *
 *   npx tsx bench/flag.ts [--shared DIR] [--games N] [--no-write]
 *
 * Writes the "Flag decisions" section of docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Chess } from 'chessops';
import { getProfile } from '../src/engine/editions.js';
import { decideFlag } from '../src/engine/flag.js';
import { parsePosition } from '../src/engine/game.js';
import { findHelpmate } from '../src/engine/helpmate.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import type { Color } from '../src/engine/types.js';
import { writeReportSection } from './report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SHARED = resolve(opt('--shared') ?? process.env.CHESSBRIDGE_SHARED ?? join(ROOT, '..', 'shared'));
const GAMES = Number(opt('--games') ?? 1000);

// Final positions of real games: where a flag falls, the question is asked of the current position.
const finals: Chess[] = [];
for (const file of ['twic1256.pgn', 'fide-womens-world-rapid-2024.pgn', 'lichess-2013-01-sample.pgn']) {
  for (const r of readPgn(decodePgnBytes(readFileSync(join(SHARED, 'data', 'pgn', file))))) {
    if (r.isOk && finals.length < GAMES) finals.push(r.value.game.position());
  }
}
// Reference positions: final positions the edge-case index marks as insufficient material.
const csv = readFileSync(join(SHARED, 'data', 'pgn', 'edge-case-index.csv'), 'utf8').split('\n');
const insufficient: Chess[] = [];
for (const line of csv) {
  if (!line.includes('end_insufficient_material')) continue;
  const fen = line.slice(line.lastIndexOf(',') + 1).trim();
  const pos = parsePosition(fen);
  if (pos.isOk) insufficient.push(pos.value);
}

const profile = getProfile('E23', 'rapid');

interface Tally {
  decisions: number;
  seconds: number;
  latencies: number[];
  verdicts: Record<string, number>;
  decisionsByKind: Record<string, number>;
}

const run = (positions: readonly Chess[]): Tally => {
  const t: Tally = { decisions: 0, seconds: 0, latencies: [], verdicts: {}, decisionsByKind: {} };
  const t0 = performance.now();
  for (const pos of positions) {
    for (const flagged of ['white', 'black'] as const satisfies readonly Color[]) {
      const s = performance.now();
      const opponent: Color = flagged === 'white' ? 'black' : 'white';
      const verdict = findHelpmate(pos, opponent).verdict;
      const decision = decideFlag({
        flaggedSide: flagged,
        bothFlags: false,
        lastPeriod: true,
        gameAlreadyOver: false,
        opponentCanMate: verdict,
        rules: profile.flag,
      });
      t.latencies.push(performance.now() - s);
      t.decisions++;
      t.verdicts[verdict] = (t.verdicts[verdict] ?? 0) + 1;
      t.decisionsByKind[decision.kind] = (t.decisionsByKind[decision.kind] ?? 0) + 1;
    }
  }
  t.seconds = (performance.now() - t0) / 1000;
  return t;
};

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const fmt = (t: Tally): string =>
  `| ${t.decisions} | ${Math.round(t.decisions / t.seconds).toLocaleString('en-US')} | ${pct(t.latencies, 50).toFixed(2)} | ${pct(t.latencies, 99).toFixed(1)} | ${Math.max(...t.latencies).toFixed(1)} | ${Object.entries(
    t.verdicts,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')} | ${Object.entries(t.decisionsByKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')} |`;

const real = run(finals);
const ref = run(insufficient);
const section = [
  `Run: \`npx tsx bench/flag.ts\` on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; rules: E23 rapid (flag 6.9 with the cannot-mate exception).`,
  "Each decision is one helpmate search for the flagged side's opponent (default budget) and the",
  "edition's flag rule; both sides are flagged in turn in every position.",
  '',
  '| positions | decisions | decisions/s | p50 ms | p99 ms | max ms | can the opponent mate? | decision |',
  '|---|---:|---:|---:|---:|---:|---|---|',
  `| final positions of ${finals.length} real games ${fmt(real)}`,
  `| ${insufficient.length} insufficient-material finals (edge-case index) ${fmt(ref)}`,
  '',
  "'unknown' means the search budget ran out without a proof; the decision is then left to the",
  "arbiter ('arbiter'), never guessed.",
].join('\n');
console.log(section);
if (!args.includes('--no-write')) {
  writeReportSection('Flag decisions', section);
  console.log('\nwritten to docs/benchmarks.md');
}
