/**
 * Recognition and supervision measured against handling the engine's authors did not write: every
 * game (or a sample) of the shared PGN corpora is played by the independent handling model of
 * bench/humanModel (frequencies from the real captures of reference dgt-protocol.md §5.5; rests on
 * the way swept by dwell level), with a clock (presses) or without, and run through the supervisor
 * the way scripts/supervisionCorpus.ts does. No irregularity is played, so every alert is false.
 * Reports per dwell level: exact games, alerts per 100 plies by code and article, runs with invented
 * or lost plies, provisional wrong readings, `possible` findings per 100 plies; failing runs are
 * grouped by class (what went wrong, and the handling of the ply it went wrong on) and written as
 * replayable case files.
 *
 *   npx tsx bench/humanCheck.ts --limit 300 --seeds 2 --dwell 300,1000,2000 --jobs 2
 *   npx tsx bench/humanCheck.ts --clock both --rates stop=0.3,capturedFirst=20 --limit 50
 *   npx tsx bench/humanCheck.ts --game carlsen.pgn:12 --seed 1 --dwell 1000 --verbose
 *   npx tsx bench/humanCheck.ts --replay bench/humanModel/cases/some-case.json
 *
 * `--limit N` takes N games spread evenly over the whole corpus; `--dwell L,...` rests L ms ± 20 %
 * (`mix`: 0.3–2 s); `--clock on|off|both` (on: presses, under a 90 min + 30 s time control, as a
 * daemon's board with a clock; off: no press, no time control); `--quiet MS` the quiet time (config
 * `laws.quietSeconds`, default 4 s); `--rates key=value,...` overrides any frequency of
 * bench/humanModel/params.ts, and the think, press and travel times as ranges in ms
 * (`thinkMs=150-1500,pressMs=80-600,travelMs=100-400`: blitz hands); `--out DIR` is where failing
 * cases go (default bench/humanModel/out, not committed); `--cases N` caps the case files per level
 * (default 100).
 */
import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeRecorder, writeReportSection } from './report.js';
import { getProfile } from '../src/engine/editions.js';
import type { GameEvent, SupervisorInput } from '../src/engine/events.js';
import { Game } from '../src/engine/game.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../src/engine/supervisor/index.js';
import { expectedRecord } from '../src/engine/supervisor/record.js';
import { type FailureCase, readCase, writeCase } from './humanModel/cases.js';
import { judgeRun, type RunVerdict } from './humanModel/judge.js';
import { dwellOfLevel, defaultParams, withOverrides } from './humanModel/params.js';
import { type PlyTrace, playGame } from './humanModel/play.js';
import { seededRng } from './humanModel/rng.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '2' },
    seed: { type: 'string' },
    dwell: { type: 'string', default: '300,1000,2000' },
    clock: { type: 'string', default: 'on' },
    rates: { type: 'string', default: '' },
    jobs: { type: 'string', default: '1' },
    shard: { type: 'string' },
    limit: { type: 'string' },
    file: { type: 'string', multiple: true },
    game: { type: 'string', multiple: true },
    out: { type: 'string' },
    cases: { type: 'string', default: '100' },
    replay: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    report: { type: 'boolean', default: false },
    shared: { type: 'string' },
    quiet: { type: 'string' },
  },
});

const root = resolve(import.meta.dirname, '..');
/** The time control of the runs with a clock: classical, so the model's thinking never flags. */
const TIME_CONTROL = '5400+30';
/** The quiet time (GameSettings.quietMs, config `laws.quietSeconds`); the default when absent. */
const quietMs = values.quiet === undefined ? undefined : Number(values.quiet);
if (quietMs !== undefined && !(quietMs >= 2500 && quietMs <= 60_000))
  throw new TypeError(`--quiet: the quiet time in ms, 2500 to 60000, got ${values.quiet ?? ''}`);
const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(root, '..', 'shared');
const dir = join(shared, 'data', 'pgn');
const profile = getProfile('E23', 'standard');
const levels = values.dwell.split(',').map(s => s.trim());
for (const l of levels) dwellOfLevel(l);
if (!['on', 'off', 'both'].includes(values.clock))
  throw new TypeError(`--clock: on, off or both, got ${values.clock}`);
const clocks = values.clock === 'both' ? [true, false] : [values.clock === 'on'];
withOverrides(defaultParams, values.rates);
const seedList =
  values.seed !== undefined
    ? [Number(values.seed)]
    : Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);
const outDir = values.out ?? join(root, 'bench', 'humanModel', 'out');
const maxCases = Number(values.cases);
const only = new Map<string, Set<number>>();
for (const g of values.game ?? []) {
  const at = g.lastIndexOf(':');
  const n = Number(g.slice(at + 1));
  if (at <= 0 || !Number.isInteger(n)) throw new TypeError(`--game: expected FILE:N, got ${g}`);
  only.set(g.slice(0, at), (only.get(g.slice(0, at)) ?? new Set()).add(n));
}
const files =
  only.size > 0
    ? [...only.keys()]
    : (values.file ??
      [
        ...readdirSync(dir).filter(f => f.endsWith('.pgn')),
        ...readdirSync(join(dir, 'parser-edge-cases')).map(f => `parser-edge-cases/${f}`),
      ].sort());

/** Figures of one row (a dwell level and clock mode). */
interface Row {
  runs: number;
  exact: number;
  plies: number;
  alerts: number;
  runsWithAlert: number;
  withdrawn: number;
  possible: number;
  provisional: number;
  invented: number;
  lost: number;
  wrongRecord: number;
  ended: number;
  sensorEvents: number;
  seconds: number;
  byCode: Record<string, number>;
  /** class -> [count, example case file] */
  classes: Record<string, [number, string]>;
  casesWritten: number;
}
const emptyRow = (): Row => ({
  runs: 0,
  exact: 0,
  plies: 0,
  alerts: 0,
  runsWithAlert: 0,
  withdrawn: 0,
  possible: 0,
  provisional: 0,
  invented: 0,
  lost: 0,
  wrongRecord: 0,
  ended: 0,
  sensorEvents: 0,
  seconds: 0,
  byCode: {},
  classes: {},
  casesWritten: 0,
});
const rowKey = (level: string, clock: boolean): string => `${level}${clock ? '' : ' no clock'}`;

/** The ply whose handling was under way at `at` (the last one begun by then). */
const plyAt = (plies: readonly PlyTrace[], at: number): PlyTrace | undefined =>
  plies.filter(p => p.beganAt <= at).at(-1);

/** A failing run's class: its first problem and the handling of the ply it happened on. */
const classOf = (v: RunVerdict, plies: readonly PlyTrace[]): string => {
  const issue = v.issues[0];
  if (!issue) return 'none';
  const ply =
    issue.ply !== undefined
      ? plies[issue.ply - 1]
      : issue.at !== undefined
        ? plyAt(plies, issue.at)
        : undefined;
  const tags = [...new Set(ply?.tags.filter(t => t !== 'blitz-reply-next') ?? [])].sort();
  return `${issue.kind} | ${tags.length > 0 ? tags.join('+') : 'plain'}`;
};

/**
 * The run as the daemon supervises it: with a clock, under the hall's time control (every daemon
 * game has one; its board's clock is known from the start, as GameSettings.clock says); without
 * one, as a board that has no clock (the no-clock rules).
 */
const supervise = (startFen: string, inputs: readonly SupervisorInput[], clock: boolean): GameEvent[] => {
  const start = Game.fromFen(startFen).unwrap();
  const { state } = startSupervision(
    {
      game: 'g',
      edition: 'E23',
      gameType: 'standard',
      supervision: 'full',
      startFen,
      ...(clock ? { timeControl: TIME_CONTROL } : {}),
      ...(quietMs === undefined ? {} : { quietMs }),
    },
    { game: start },
  );
  return runSupervision(state, inputs).events;
};

const runShard = (index: number, count: number): Record<string, Row> => {
  const rows: Record<string, Row> = {};
  for (const level of levels) for (const clock of clocks) rows[rowKey(level, clock)] = emptyRow();
  // Split each file at its `[Event ` tags and parse only the games picked (parsing a whole corpus costs a minute).
  const texts = files.map(f => {
    const text = decodePgnBytes(readFileSync(join(dir, f)));
    const starts = [...text.matchAll(/^\[Event /gm)].map(m => m.index);
    const chunks =
      starts.length === 0 ? [text] : starts.map((at, i) => text.slice(at, starts[i + 1] ?? text.length));
    return { file: f, chunks };
  });
  const total = texts.reduce((n, t) => n + t.chunks.length, 0);
  const stride = values.limit === undefined ? 1 : Math.max(1, total / Number(values.limit));
  let global = 0;
  let nextPick = 0;
  let k = 0;
  for (const { file, chunks } of texts) {
    for (const [ci, chunk] of chunks.entries()) {
      const g = global++;
      if (g < Math.floor(nextPick)) continue;
      nextPick += stride;
      const wanted = only.get(file);
      if (wanted && !wanted.has(ci + 1)) continue;
      if (k++ % count !== index) continue;
      const r = readPgn(chunk)[0];
      if (!r || r.isErr) continue;
      const game = r.value.game;
      if (game.start.chess960) continue;
      const want = expectedRecord(game, profile);
      const startFen = game.start.fen;
      for (const clock of clocks)
        for (const seed of seedList)
          for (const level of levels) {
            const row = rows[rowKey(level, clock)] ?? emptyRow();
            const params = withOverrides(defaultParams, values.rates, { dwellMs: dwellOfLevel(level) });
            const played = playGame(game, seededRng(`${file}:${ci + 1}:${seed}`), params, { clock });
            const t0 = process.cpuUsage();
            const events = supervise(startFen, played.inputs, clock);
            const used = process.cpuUsage(t0);
            row.seconds += (used.user + used.system) / 1e6;
            row.sensorEvents += played.sensorEvents;
            const v = judgeRun(events, played.plies, want, { clock });
            row.runs++;
            row.plies += want.sans.length;
            row.alerts += v.alerts.length;
            if (v.alerts.length > 0) row.runsWithAlert++;
            for (const a of v.alerts) row.byCode[a] = (row.byCode[a] ?? 0) + 1;
            row.withdrawn += v.withdrawn;
            row.possible += v.possible;
            row.provisional += v.provisional;
            if (v.invented) row.invented++;
            if (v.lost) row.lost++;
            if (v.wrongRecord) row.wrongRecord++;
            if (v.unexpectedEnd !== undefined) row.ended++;
            if (v.exact) {
              row.exact++;
              continue;
            }
            const kind = classOf(v, played.plies);
            const c: FailureCase = {
              file,
              game: ci + 1,
              seed,
              dwell: level,
              clock,
              rates: values.rates,
              startFen,
              want,
              kind,
              problems: v.problems,
              plies: played.plies,
              inputs: played.inputs,
            };
            let path = '';
            if (row.casesWritten < maxCases) {
              path = writeCase(outDir, c);
              row.casesWritten++;
            }
            const seen = row.classes[kind];
            row.classes[kind] = seen ? [seen[0] + 1, seen[1] || path] : [1, path];
            if (values.verbose) {
              console.log(
                `== ${file} game ${ci + 1} seed ${seed} dwell ${level}${clock ? '' : ' no clock'}: ${kind}`,
              );
              for (const p of v.problems.slice(0, 8)) console.log(`   ${p}`);
            }
          }
    }
  }
  return rows;
};

const mergeRows = (parts: readonly Record<string, Row>[]): Record<string, Row> => {
  const out: Record<string, Row> = {};
  for (const part of parts)
    for (const [key, row] of Object.entries(part)) {
      const t = (out[key] ??= emptyRow());
      for (const f of Object.keys(row) as (keyof Row)[]) {
        if (f === 'byCode')
          for (const [c, n] of Object.entries(row.byCode)) t.byCode[c] = (t.byCode[c] ?? 0) + n;
        else if (f === 'classes')
          for (const [c, [n, p]] of Object.entries(row.classes)) {
            const seen = t.classes[c];
            t.classes[c] = seen ? [seen[0] + n, seen[1] || p] : [n, p];
          }
        else t[f] += row[f];
      }
    }
  return out;
};

const report = (rows: Record<string, Row>, seconds: number): void => {
  const rec = makeRecorder();
  // The command as run, without the machine's own output folder.
  const shown = process.argv
    .slice(2)
    .filter((a, i, all) => a !== '--out' && all[i - 1] !== '--out' && a !== '--report');
  const cmd = `npx tsx bench/humanCheck.ts ${shown.join(' ')}`.trim();
  rec.log(
    `Run: \`${cmd}\` on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; ${seconds.toFixed(0)} s wall.`,
  );
  rec.log(
    'Handling: bench/humanModel (independent of src/engine/handling), no irregularity played: every alert is false.',
  );
  rec.log(
    "The model was written from the frequencies measured in real DGT captures (reference dgt-protocol.md §5.5) without reading the engine's generator, recogniser or supervisor; its default frequencies are those of the captures, the dwell is swept. It is still this project's model, not held-back handling. Provisional wrong readings: a move shown for a ply still in the hands (a stop), revised later. Failing runs are written as replayable cases (bench/humanModel/cases/README.md).\n",
  );
  rec.log(
    '| dwell | runs | exact | exact % | alerts /100 plies | runs with an alert | withdrawn | invented plies (runs) | lost plies (runs) | wrong records | ended by the daemon | provisional wrong readings /100 plies | possible findings /100 plies | events/s |',
  );
  rec.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [key, s] of Object.entries(rows)) {
    const per100 = (n: number): string => ((100 * n) / Math.max(1, s.plies)).toFixed(2);
    rec.log(
      `| ${key} | ${s.runs} | ${s.exact} | ${((100 * s.exact) / Math.max(1, s.runs)).toFixed(1)} % | ${per100(s.alerts)} | ${s.runsWithAlert} | ${s.withdrawn} | ${s.invented} | ${s.lost} | ${s.wrongRecord} | ${s.ended} | ${per100(s.provisional)} | ${per100(s.possible)} | ${Math.round(s.sensorEvents / Math.max(1e-9, s.seconds))} |`,
    );
  }
  for (const [key, s] of Object.entries(rows)) {
    const codes = Object.entries(s.byCode).sort((a, b) => b[1] - a[1]);
    rec.log(
      `\nDwell ${key}: ${s.plies} plies. Alerts per 100 plies: ${codes.map(([c, n]) => `${c} ${((100 * n) / Math.max(1, s.plies)).toFixed(2)} (${n})`).join(', ') || 'none'}`,
    );
    const classes = Object.entries(s.classes).sort((a, b) => b[1][0] - a[1][0]);
    for (const [c, [n, p]] of classes.slice(0, 25))
      rec.log(
        `  ${String(n).padStart(4)}  ${c}${p ? `  e.g. ${p.startsWith(root) ? relative(root, p) : basename(p)}` : ''}`,
      );
  }
  if (values.report) writeReportSection('Recognition against independent handling', rec.lines.join('\n'));
};

const replay = (path: string): void => {
  const c = readCase(path);
  const events = supervise(c.startFen, c.inputs, c.clock);
  const v = judgeRun(events, c.plies, c.want, { clock: c.clock });
  console.log(
    `${c.file} game ${c.game} seed ${c.seed} dwell ${c.dwell}${c.clock ? '' : ' no clock'}: ${v.exact ? 'exact' : classOf(v, c.plies)}`,
  );
  for (const p of v.problems) console.log(`  ${p}`);
  if (values.verbose) for (const e of events) if (e.type !== 'clock') console.log(`  > ${JSON.stringify(e)}`);
};

if (values.replay !== undefined) replay(values.replay);
else if (values.shard !== undefined) {
  const [i, n] = values.shard.split('/').map(Number);
  const rows = runShard(i ?? 0, n ?? 1);
  process.send?.(rows, () => process.exit(0));
} else {
  const t0 = Date.now();
  const jobs = Math.max(1, Number(values.jobs));
  const args = process.argv.slice(2).filter((a, i, all) => a !== '--jobs' && all[i - 1] !== '--jobs');
  const parts =
    jobs === 1
      ? [runShard(0, 1)]
      : await Promise.all(
          Array.from(
            { length: jobs },
            (_, i) =>
              new Promise<Record<string, Row>>((done, fail) => {
                const child = fork(fileURLToPath(import.meta.url), [...args, '--shard', `${i}/${jobs}`], {
                  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
                });
                child.once('message', m => done(m as Record<string, Row>));
                child.once('exit', code => {
                  if (code !== 0) fail(new Error(`shard ${i} exited with ${code}`));
                });
              }),
          ),
        );
  report(mergeRows(parts), (Date.now() - t0) / 1000);
}
