/**
 * Every game of the shared corpora through the human-handling generator, recognition AND the
 * supervisor, with several seeds and at several dwell levels (how long a piece rests on a square
 * on its way): the published record (move and correction events) must be exactly the original
 * moves and the supervisor must raise no alert at all (the generator makes no breach: rook-first
 * castling, a real 4.4 breach, is switched off here). Games whose record goes on after the rules
 * ended them (a fivefold repetition nobody noticed) must end at that ply, with that ending
 * published. `possible` findings (inferred from timing, not alerts) are counted apart. Prints
 * accuracy, false alerts per 100 plies by dwell level, and sensor events per second through
 * recognition and supervision on one core.
 *
 *   npx tsx scripts/supervisionCorpus.ts [--seeds N] [--dwell 100,300,...] [--jobs N] [--file F]... [--limit N] [--report]
 *   npx tsx scripts/supervisionCorpus.ts --game carlsen.pgn:595 [--seed 1] [--dwell 1000] [--verbose]
 *
 * `--dwell L,...` runs each level L (ms): stops on the way rest L ± 20 %; `human` is the default
 * mix (0.3–2 s). `--game FILE:N` (repeatable) runs only game N of FILE (the number in the failure
 * list); `--seed S` runs only seed S; `--verbose` prints each failing run's alerts with the board
 * events of their evidence, and the plies where the recorded moves part from the original.
 * `--jobs N` splits the games over N processes.
 *
 * `--downtime S,...` (seconds) cuts the recogniser's input for S s in the middle of every game
 * (a restart, a pulled cable: handling/downtime.ts), at the human dwell; with `--board-log` the
 * board's log of its changes (a DGT board's EEPROM) comes back before its snapshot. A run then
 * passes when no game is ended by the daemon, no illegal move or penalty is counted, and the
 * published record is the game's (recovered), or a part of it with one mismatch for the arbiter
 * (left to the arbiter: with the candidate orders, or none when the board is beyond the catch-up's
 * reach); a record that departs from the game fails. With `--clock-readings` a physical clock
 * (90 min + 30 s, whole seconds) driven by the presses is read every second while the link is up,
 * as a DGT clock is read through its board.
 */
import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeRecorder, writeReportSection } from '../bench/report.js';
import { getProfile } from '../src/engine/editions.js';
import type { GameEvent } from '../src/engine/events.js';
import { withDowntime } from '../src/engine/handling/downtime.js';
import { deriveSeed, makeRng } from '../src/engine/handling/prng.js';
import { generateForGame } from '../src/engine/handling/generator.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../src/engine/supervisor/index.js';
import { expectedRecord, publishedSans, verifySupervision } from '../src/engine/supervisor/record.js';
import { type Edition, isEdition } from '../src/engine/types.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '3' },
    dwell: { type: 'string', default: 'human' },
    downtime: { type: 'string' },
    'board-log': { type: 'boolean', default: false },
    'clock-readings': { type: 'boolean', default: false },
    jobs: { type: 'string', default: '1' },
    shard: { type: 'string' },
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
const downtimes = values.downtime?.split(',').map(Number);
const levels = downtimes ? downtimes.map(d => `down${d}`) : values.dwell.split(',').map(s => s.trim());
for (const l of levels)
  if (!l.startsWith('down') && l !== 'human' && !(Number(l) > 0))
    throw new TypeError(`--dwell: expected ms or 'human', got ${l}`);
if (downtimes?.some(d => !(d > 0)))
  throw new TypeError(`--downtime: expected seconds, got ${values.downtime}`);
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

/** What one dwell level gave (summed over shards). */
interface LevelStats {
  runs: number;
  exact: number;
  endedEarly: number;
  plies: number;
  alerts: number;
  runsWithAlert: number;
  possible: number;
  wrongRecord: number;
  /** Passing downtime runs: the record left to the arbiter as one mismatch with the candidate orders. */
  leftWithOrders: number;
  /** Passing downtime runs: the record left to the arbiter as one mismatch, the board beyond reach. */
  leftUnreachable: number;
  /** Downtime runs where plies were inferred from the re-read board and the arbiter asked to check them. */
  inferred: number;
  /** Of those, runs whose record departs from the game. */
  inferredWrong: number;
  /** Downtime runs: plies made while the input was cut. */
  pliesDown: number;
  /** Downtime runs: games ended by the daemon where the rules did not end them. */
  endedByDaemon: number;
  /** Downtime runs: illegal moves counted (Art. 7), summed over both players. */
  illegalCounts: number;
  sensorEvents: number;
  seconds: number;
  /** alert code and article -> count */
  byCode: Record<string, number>;
  failures: string[];
}

interface ShardResult {
  readonly skipped: number;
  readonly levels: Record<string, LevelStats>;
}

const emptyLevel = (): LevelStats => ({
  runs: 0,
  exact: 0,
  endedEarly: 0,
  plies: 0,
  alerts: 0,
  runsWithAlert: 0,
  possible: 0,
  wrongRecord: 0,
  leftWithOrders: 0,
  leftUnreachable: 0,
  inferred: 0,
  inferredWrong: 0,
  pliesDown: 0,
  endedByDaemon: 0,
  illegalCounts: 0,
  sensorEvents: 0,
  seconds: 0,
  byCode: {},
  failures: [],
});

const dwellOf = (level: string): readonly [number, number] | undefined =>
  level === 'human' || level.startsWith('down')
    ? undefined
    : [Math.round(Number(level) * 0.8), Math.round(Number(level) * 1.2)];

/** Did the run ask the arbiter to check plies read off a re-read board or told by the clock? */
const asksArbiter = (events: readonly GameEvent[]): boolean =>
  events.some(e => (e.type === 'finding' || e.type === 'alert') && e.code === 'arbiter-decision-needed');

/**
 * A downtime run's verdict: problems (empty: it passes) and whether the record was left to the
 * arbiter. Allowed: the lost link's alert, one mismatch for the arbiter; never an end the rules do
 * not make, an illegal move or a penalty, or a record that departs from the game.
 */
const verifyDowntime = (
  want: { readonly sans: readonly string[]; readonly end: string | undefined },
  events: readonly GameEvent[],
): { problems: string[]; left: 'orders' | 'unreachable' | undefined } => {
  const problems: string[] = [];
  const got = publishedSans(events);
  const prefix = got.every((san, i) => san === want.sans[i]);
  const exact = prefix && got.length === want.sans.length;
  const withdrawn = new Set(events.flatMap(e => (e.type === 'alert-withdrawn' ? [e.alert] : [])));
  const open = events.filter(e => e.type === 'alert' && e.code === 'board-mismatch' && !withdrawn.has(e.seq));
  const orders = open.some(e => e.type === 'alert' && e.evidence?.orders !== undefined);
  const inferred = asksArbiter(events);
  if (!prefix)
    problems.push(
      `moves differ from the game (${got.length} of ${want.sans.length})${inferred ? ', flagged to the arbiter as inferred' : ''}`,
    );
  else if (!exact && open.length === 0)
    problems.push(`record stops at ply ${got.length} of ${want.sans.length}, no mismatch for the arbiter`);
  else if (!exact && open.length > 1)
    problems.push(`record stops at ply ${got.length} of ${want.sans.length}, ${open.length} mismatches open`);
  for (const e of events) {
    if (e.type === 'end' && (want.end === undefined || e.reason !== want.end))
      problems.push(`ended by ${e.reason}`);
    if (e.type === 'alert' && e.code !== 'board-missing' && e.code !== 'board-mismatch')
      problems.push(`alert ${e.code} ${e.article.article}: ${e.detail}`);
  }
  return { problems, left: exact || !prefix ? undefined : orders ? 'orders' : 'unreachable' };
};

/** A failing run in detail: its problems, each alert with the board events it was judged on, where the record parts. */
const explain = (
  what: string,
  problems: readonly string[],
  events: readonly GameEvent[],
  want: readonly string[],
): void => {
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
};

/** Runs the games whose running number is `index mod count` (all of them for 0/1). */
const runShard = (index: number, count: number): ShardResult => {
  const out: Record<string, LevelStats> = Object.fromEntries(levels.map(l => [l, emptyLevel()]));
  let skipped = 0;
  let k = 0;
  for (const file of files) {
    let n = 0;
    for (const r of readPgn(decodePgnBytes(readFileSync(join(dir, file))))) {
      if (n >= limit) break;
      n++;
      const wanted = only.get(file);
      if (wanted && !wanted.has(r.isOk ? r.value.index : -1)) continue;
      if (k++ % count !== index) continue;
      if (r.isErr) {
        skipped++;
        continue;
      }
      const game = r.value.game;
      const want = expectedRecord(game, profile);
      for (const level of levels) {
        const s = out[level] ?? emptyLevel();
        const dwellMs = dwellOf(level);
        for (const seed of seedList) {
          const run = generateForGame(game, {
            seed: deriveSeed(seed, r.value.index),
            rates: { castlingRookFirst: 0 },
            ...(dwellMs ? { dwellMs } : {}),
          });
          // A downtime starts with a ply in the middle third of the game.
          const downMs = level.startsWith('down') ? Number(level.slice(4)) * 1000 : undefined;
          const rng = makeRng(deriveSeed(seed, r.value.index ^ 0x5eed));
          const pressAts = run.events.flatMap(e => (e.kind === 'press' || e.kind === 'square' ? [e.at] : []));
          const cutAt =
            pressAts[Math.floor(pressAts.length / 3) + rng.int(0, Math.floor(pressAts.length / 3))] ?? 0;
          const cut =
            downMs === undefined
              ? undefined
              : withDowntime(run.events, game.positionAt(0).board, {
                  from: cutAt,
                  ms: downMs,
                  log: values['board-log'],
                  ...(values['clock-readings'] && { clock: { baseMs: 5_400_000, incMs: 30_000 } }),
                });
          const inputs = cut?.inputs ?? run.events;
          if (cut) s.pliesDown += cut.presses;
          const { state } = startSupervision(
            {
              game: 'g',
              edition,
              gameType: 'standard',
              supervision: 'full',
              startFen: game.start.fen,
              ...(cut && values['clock-readings'] && { timeControl: '5400+30' }),
            },
            { game: game.truncate(0).unwrap() },
          );
          const t0 = process.cpuUsage();
          const result = runSupervision(state, inputs);
          const used = process.cpuUsage(t0);
          s.seconds += (used.user + used.system) / 1e6;
          s.sensorEvents += run.stats.sensorEvents;
          s.runs++;
          s.plies += want.sans.length;
          const alerts = result.events.flatMap(e =>
            e.type === 'alert' && !(cut && (e.code === 'board-missing' || e.code === 'board-mismatch'))
              ? [e]
              : [],
          );
          s.alerts += alerts.length;
          if (alerts.length > 0) s.runsWithAlert++;
          for (const a of alerts) {
            const key = `${a.code} ${a.article.article}`;
            s.byCode[key] = (s.byCode[key] ?? 0) + 1;
          }
          s.possible += result.events.filter(e => e.type === 'finding' && e.grade === 'possible').length;
          // The published record, not the recogniser's: it goes on tracking the board after the end.
          const verdict = cut ? verifyDowntime(want, result.events) : undefined;
          const problems = verdict?.problems ?? verifySupervision(want, result.events);
          if (problems.length === 0 && verdict?.left === 'orders') s.leftWithOrders++;
          if (problems.length === 0 && verdict?.left === 'unreachable') s.leftUnreachable++;
          if (problems.some(p => p.startsWith('moves differ'))) s.wrongRecord++;
          if (cut) {
            if (
              result.events.some(e => e.type === 'end' && (want.end === undefined || e.reason !== want.end))
            )
              s.endedByDaemon++;
            s.illegalCounts += result.state.illegal.white + result.state.illegal.black;
          }
          if (cut && asksArbiter(result.events)) {
            s.inferred++;
            if (problems.some(p => p.startsWith('moves differ'))) s.inferredWrong++;
          }
          if (problems.length === 0) {
            s.exact++;
            if (want.sans.length < game.length) s.endedEarly++;
          } else {
            if (s.failures.length < 40)
              s.failures.push(`${file} game ${r.value.index} seed ${seed}: ${problems[0]}`);
            if (values.verbose)
              explain(
                `${file} game ${r.value.index} seed ${seed} dwell ${level}`,
                problems,
                result.events,
                want.sans,
              );
          }
        }
      }
    }
  }
  return { skipped, levels: out };
};

const merge = (results: readonly ShardResult[]): ShardResult => {
  const levelsOut: Record<string, LevelStats> = Object.fromEntries(levels.map(l => [l, emptyLevel()]));
  for (const r of results) {
    for (const [level, s] of Object.entries(r.levels)) {
      const t = levelsOut[level] ?? emptyLevel();
      for (const key of Object.keys(s) as (keyof LevelStats)[]) {
        if (key === 'byCode') {
          for (const [code, n] of Object.entries(s.byCode)) t.byCode[code] = (t.byCode[code] ?? 0) + n;
        } else if (key === 'failures') t.failures.push(...s.failures);
        else t[key] += s[key];
      }
    }
  }
  return { skipped: results.reduce((n, r) => n + r.skipped, 0), levels: levelsOut };
};

const runAll = async (): Promise<ShardResult> => {
  const jobs = Math.max(1, Number(values.jobs));
  if (jobs === 1) return runShard(0, 1);
  const args = process.argv.slice(2).filter((a, i, all) => a !== '--jobs' && all[i - 1] !== '--jobs');
  const results = await Promise.all(
    Array.from(
      { length: jobs },
      (_, i) =>
        new Promise<ShardResult>((done, fail) => {
          const child = fork(fileURLToPath(import.meta.url), [...args, '--shard', `${i}/${jobs}`], {
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          });
          child.once('message', m => done(m as ShardResult));
          child.once('exit', code => {
            if (code !== 0) fail(new Error(`shard ${i} exited with ${code}`));
          });
        }),
    ),
  );
  return merge(results);
};

if (values.shard !== undefined) {
  const [i, n] = values.shard.split('/').map(Number);
  const result = runShard(i ?? 0, n ?? 1);
  process.send?.(result, () => process.exit(0));
} else {
  const rec = makeRecorder();
  const result = await runAll();
  const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`;
  rec.log(
    `Run: \`npx tsx scripts/supervisionCorpus.ts --seeds ${seeds} ${downtimes ? `--downtime ${values.downtime}${values['board-log'] ? ' --board-log' : ''}${values['clock-readings'] ? ' --clock-readings' : ''}` : `--dwell ${values.dwell}`}\` on ${cpu}, Node ${process.version}, ${edition} standard; ${result.skipped} games skipped (illegal in the PGN). Dwell L: every stop on the way rests L ± 20 % (human: 0.3–2 s).`,
  );
  rec.log('');
  if (downtimes) {
    rec.log(
      `Downtime: the input cut for S s from a ply in the middle third of each game, handling at the human dwell; ${values['board-log'] ? "the board's log (EEPROM) read before its snapshot" : 'the snapshot alone (no board log)'}. Passing: no end the rules do not make, no illegal move or penalty, the record the game's, or a part of it with one mismatch for the arbiter (with the candidate orders, or none when the board is beyond the catch-up's reach of 8 plies).`,
    );
    rec.log('');
    rec.log(
      '| downtime | runs | passing | recovered (exact record) | left to the arbiter: candidates | left to the arbiter: beyond reach | failing | wrong records | games ended by the daemon | illegal-move counts | inferred, arbiter asked to check (wrong) | presses while down |',
    );
    rec.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const level of levels) {
      const s = result.levels[level] ?? emptyLevel();
      rec.log(
        `| ${level.slice(4)} s | ${s.runs} | ${s.exact} | ${s.exact - s.leftWithOrders - s.leftUnreachable} | ${s.leftWithOrders} | ${s.leftUnreachable} | ${s.runs - s.exact} | ${s.wrongRecord} | ${s.endedByDaemon} | ${s.illegalCounts} | ${s.inferred} (${s.inferredWrong}) | ${s.pliesDown} |`,
      );
    }
  }
  let allExact = true;
  if (downtimes) {
    for (const level of levels) {
      const s = result.levels[level] ?? emptyLevel();
      allExact &&= s.exact === s.runs;
    }
  } else {
    rec.log(
      '| dwell | runs (games × seeds) | exact, no alert | accuracy | wrong records | false alerts per 100 plies | runs with an alert | `possible` findings (not alerts) per 100 plies | ended by the rules before the record | events/s (CPU, one core) |',
    );
    rec.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const level of levels) {
      const s = result.levels[level] ?? emptyLevel();
      allExact &&= s.exact === s.runs;
      const per100 = (n: number): string => ((100 * n) / Math.max(1, s.plies)).toFixed(3);
      rec.log(
        `| ${level === 'human' ? '0.3–2 s' : `${Number(level) / 1000} s`} | ${s.runs} | ${s.exact} | ${((100 * s.exact) / Math.max(1, s.runs)).toFixed(2)} % | ${s.wrongRecord} | ${per100(s.alerts)} | ${s.runsWithAlert} | ${per100(s.possible)} | ${s.endedEarly} | ${Math.round(s.sensorEvents / Math.max(1e-9, s.seconds)).toLocaleString('en-US')} |`,
      );
    }
    rec.log('');
    rec.log(
      'These are figures about our own handling generator (src/engine/handling), which no breach is played in: a false alert is any alert at all. `possible` findings are what a board cannot prove (a piece resting on a square it could legally have been released on, then moved on): they are kept with the move for the console and replay, and are alerts only on a claim or where `laws.alerts: possible` is configured.',
    );
  }
  for (const level of levels) {
    const s = result.levels[level] ?? emptyLevel();
    const codes = Object.entries(s.byCode).sort((a, b) => b[1] - a[1]);
    if (codes.length > 0)
      rec.log(`\nAlerts at dwell ${level}: ${codes.map(([c, n]) => `${c} × ${n}`).join(', ')}`);
    for (const f of s.failures.slice(0, 20)) rec.log(`- ${f}`);
  }
  process.exitCode = allExact ? 0 : 1;
  const title = !downtimes
    ? 'Supervision on the corpus'
    : values['board-log']
      ? 'Supervision after downtime, with the board log'
      : values['clock-readings']
        ? 'Supervision after downtime, snapshot and clock readings'
        : 'Supervision after downtime, snapshot only';
  if (values.report) writeReportSection(title, rec.lines.join('\n'));
}
