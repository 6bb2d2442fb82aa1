/**
 * Engine throughput: how many sensor events per second one core pushes through recognition alone
 * and through recognition + supervision, the path the daemon takes for every board input
 * (`engineSupervisor().step`, src/bridge/game/engine.ts). A fixed sample of corpus games (seeded)
 * is turned into human-handling event streams first, with the settle and gesture-hold ticks the
 * daemon would add (gameRun.ts); only feeding them is timed. Every round is checked: recognition
 * must give exactly the recorded moves with no false event, supervision the recorded moves up to
 * the ply where the rules end the game. A run that differs only after an Art. 4 alert is counted
 * apart (a judgement of the supervisor, not a recognition error); any other difference fails.
 *
 *   npx tsx bench/engineThroughput.ts                       # 1000 games, seed 1, 5 rounds
 *   npx tsx bench/engineThroughput.ts --games 200 --rounds 3 --only supervision
 *   npx tsx bench/engineThroughput.ts --report              # writes "Engine throughput" in docs/benchmarks.md
 *
 * Everything runs on one thread. Times are given both as wall-clock and as the process's CPU time
 * (which other load on the machine does not inflate); the report names the CPU, Node and the load
 * average at the start. A digest of everything published is printed, so that two builds can be
 * compared on the same inputs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { engineSupervisor } from '../src/bridge/game/engine.js';
import type { SupervisorState } from '../src/engine/supervisor/index.js';
import { getProfile } from '../src/engine/editions.js';
import type { GameEvent, GameSettings, SupervisorInput } from '../src/engine/events.js';
import type { Game } from '../src/engine/game.js';
import { generateForGame } from '../src/engine/handling/generator.js';
import { deriveSeed, makeRng } from '../src/engine/handling/prng.js';
import { verifyOutputs } from '../src/engine/handling/verify.js';
import { splitPgn } from '../src/engine/pgnLex.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import { type BoardEvent, isSensorEvent } from '../src/engine/recognition/boardEvent.js';
import type { RecognitionOutput } from '../src/engine/recognition/outputs.js';
import { DEFAULT_RECOGNITION, startRecognition } from '../src/engine/recognition/state.js';
import { step } from '../src/engine/recognition/step.js';
import { evaluateGame } from '../src/engine/status.js';
import { makeRecorder, writeReportSection } from './report.js';

const USAGE = `usage: tsx bench/engineThroughput.ts [--games N] [--seed S] [--rounds R] [--only recognition|supervision] [--no-ticks] [--shared DIR] [--report]
  --games N     corpus games sampled (default 1000)
  --seed S      sample and handling seed (default 1)
  --rounds R    timed rounds after one warm-up round; the median is reported (default 5)
  --only P      time one path only (for profiling)
  --no-ticks    feed the generated events alone, without the daemon's settle and hold ticks
  --shared DIR  the shared folder (default: $CHESSBRIDGE_SHARED or ../shared beside the checkout)
  --report      write the "Engine throughput" section of docs/benchmarks.md`;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const parseOptions = () => {
  const { values } = parseArgs({
    options: {
      games: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '5' },
      only: { type: 'string' },
      'no-ticks': { type: 'boolean', default: false },
      shared: { type: 'string' },
      report: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const games = Number(values.games);
  const seed = Number(values.seed);
  const rounds = Number(values.rounds);
  const only = values.only;
  const valid =
    Number.isInteger(games) &&
    games > 0 &&
    Number.isInteger(seed) &&
    Number.isInteger(rounds) &&
    rounds > 0 &&
    (only === undefined || only === 'recognition' || only === 'supervision');
  if (values.help || !valid) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(ROOT, '..', 'shared');
  return { games, seed, rounds, only, ticks: !values['no-ticks'], shared, report: values.report };
};

/** One game ready to feed: everything computed before the clock starts. */
interface Prepared {
  readonly label: string;
  readonly game: Game;
  readonly settings: GameSettings;
  /** Generated events with the daemon's settle and hold ticks between them. */
  readonly inputs: readonly BoardEvent[];
  readonly sensorEvents: number;
  /** The recorded moves up to the ply where the rules end the game (what supervision must publish). */
  readonly supervised: string;
}

/**
 * The daemon's ticks between the events (gameRun.ts): after each sensor event, one tick just after
 * the settle window and one just after the gesture hold, fed when due before the next event.
 */
const withDaemonTicks = (events: readonly BoardEvent[], settleMs: number, holdMs: number): BoardEvent[] => {
  const out: BoardEvent[] = [];
  let ticks: number[] = [];
  let last = -Infinity;
  const feed = (e: BoardEvent): void => {
    const at = Math.max(e.at, last);
    out.push(at === e.at ? e : { ...e, at });
    last = at;
    ticks = ticks.filter(t => t > at);
    if (isSensorEvent(e))
      ticks = [...new Set([...ticks, at + settleMs + 1, at + holdMs + 1])].sort((a, b) => a - b);
  };
  for (const e of events) {
    while (ticks[0] !== undefined && ticks[0] < e.at) feed({ kind: 'tick', at: ticks[0] });
    feed(e);
  }
  while (ticks[0] !== undefined) feed({ kind: 'tick', at: ticks[0] });
  return out;
};

/** A seeded sample of `n` games from every PGN file of the corpus (parser edge cases left out). */
const sampleGames = (dir: string, n: number, seed: number): { label: string; game: Game }[] => {
  const chunks = readdirSync(dir)
    .filter(f => f.endsWith('.pgn'))
    .sort()
    .flatMap(file =>
      splitPgn(decodePgnBytes(readFileSync(join(dir, file)))).map((chunk, i) => ({
        label: `${file} #${i + 1}`,
        text: chunk.text,
        bad: chunk.syntaxError !== undefined,
      })),
    );
  const order = chunks.map((_, i) => i);
  const rng = makeRng(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const picked: { at: number; label: string; game: Game }[] = [];
  for (const at of order) {
    if (picked.length >= n) break;
    const c = chunks[at];
    if (!c || c.bad) continue;
    const r = readPgn(c.text)[0];
    if (r?.isOk && r.value.game.length > 0) picked.push({ at, label: c.label, game: r.value.game });
  }
  return picked.sort((a, b) => a.at - b.at);
};

const prepare = (
  sample: readonly { label: string; game: Game }[],
  seed: number,
  ticks: boolean,
): Prepared[] => {
  const settleMs = DEFAULT_RECOGNITION.settleMs;
  const profile = getProfile('E23', 'standard');
  return sample.map(({ label, game }, k) => {
    const run = generateForGame(game, { seed: deriveSeed(seed, k), rates: { castlingRookFirst: 0 } });
    const end = evaluateGame(game, profile).find(s => s.end)?.ply ?? game.length;
    return {
      label,
      game,
      settings: {
        game: `bench-${k + 1}`,
        edition: 'E23',
        gameType: 'standard',
        supervision: 'full',
        startFen: game.start.fen,
      },
      inputs: ticks ? withDaemonTicks(run.events, settleMs, DEFAULT_RECOGNITION.gestureHoldMs) : run.events,
      sensorEvents: run.stats.sensorEvents,
      supervised: game.moves
        .slice(0, end)
        .map(m => m.san)
        .join(' '),
    };
  });
};

// ---------------------------------------------------------------------------------------------
// The two paths, each fed one game's inputs; latencies (ms per input) recorded when asked.

interface Fed<T> {
  readonly result: T;
  /** Wall-clock time of the feeding. */
  readonly ms: number;
  /** CPU time of the process during the feeding (this thread and the garbage collector's helpers). */
  readonly cpuMs: number;
}

interface Recognised {
  readonly game: Game;
  readonly outputs: readonly RecognitionOutput[];
}

interface Supervised {
  /** The moves as published (see `publishedMoves`). */
  readonly sans: string;
  readonly events: readonly GameEvent[];
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Feeds `inputs` from `start` through `next`, collecting what each step publishes (`outputs` of
 * its result); with `lat`, the time of each step goes to `lat[offset + i]`.
 */
const feedAll = <S, E, R extends { readonly state: S }, O>(
  start: S,
  inputs: readonly E[],
  next: (state: S, input: E) => R,
  outputs: (r: R) => readonly O[],
  lat?: Float64Array,
  offset = 0,
): Fed<{ state: S; out: O[] }> => {
  let state = start;
  const out: O[] = [];
  const c0 = cpuNow();
  const t0 = performance.now();
  for (let i = 0; i < inputs.length; i++) {
    const t = lat ? performance.now() : 0;
    const r = next(state, inputs[i] as E);
    if (lat) lat[offset + i] = performance.now() - t;
    state = r.state;
    for (const o of outputs(r)) out.push(o);
  }
  return { result: { state, out }, ms: performance.now() - t0, cpuMs: cpuNow() - c0 };
};

const recognise = (p: Prepared, lat?: Float64Array, offset = 0): Fed<Recognised> => {
  const start = startRecognition(p.game.truncate(0).unwrap(), { settleMs: DEFAULT_RECOGNITION.settleMs });
  const fed = feedAll(start, p.inputs, step, r => r.outputs, lat, offset);
  return { ...fed, result: { game: fed.result.state.game, outputs: fed.result.out } };
};

const ENGINE = engineSupervisor();

const supervise = (p: Prepared, lat?: Float64Array, offset = 0): Fed<Supervised> => {
  const inputs = p.inputs as readonly SupervisorInput[];
  const next = (st: SupervisorState, input: SupervisorInput) => ENGINE.step(st, input);
  const fed = feedAll(ENGINE.start(p.settings).state, inputs, next, r => r.events, lat, offset);
  return { ...fed, result: { sans: publishedMoves(fed.result.out), events: fed.result.out } };
};

/**
 * The record as published: moves and corrections applied in order. (The recogniser's own game may
 * hold one more ply, published in the same step as the move that ended the game.)
 */
const publishedMoves = (events: readonly GameEvent[]): string => {
  const sans: string[] = [];
  for (const e of events) {
    if (e.type === 'move') sans.splice(e.ply - 1, Infinity, e.san);
    else if (e.type === 'correction') sans.splice(e.fromPly - 1, Infinity, ...e.moves.map(m => m.san));
  }
  return sans.join(' ');
};

// ---------------------------------------------------------------------------------------------
// Checks.

interface Check {
  exact: number;
  /** Supervision only: moves differ, after an Art. 4 or other alert (the supervisor's judgement). */
  afterAlert: number;
  wrong: string[];
  alerts: number;
  /** FNV-1a over everything published, to compare two builds on the same inputs. */
  digest: number;
}

const fnv = (h: number, text: string): number => {
  let x = h;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return x;
};

const emptyCheck = (): Check => ({ exact: 0, afterAlert: 0, wrong: [], alerts: 0, digest: 0x811c9dc5 });

const checkRecognition = (c: Check, p: Prepared, r: Recognised): void => {
  const problems = verifyOutputs(p.game, r.outputs, r.game);
  c.digest = fnv(c.digest, JSON.stringify(r.outputs));
  if (problems.length === 0) c.exact++;
  else c.wrong.push(`${p.label}: ${problems[0] ?? ''}`);
};

const checkSupervision = (c: Check, p: Prepared, r: Supervised): void => {
  const alerts = r.events.filter(e => e.type === 'alert').length;
  c.alerts += alerts;
  for (const e of r.events) c.digest = fnv(c.digest, JSON.stringify(e));
  if (r.sans === p.supervised) c.exact++;
  else if (alerts > 0) c.afterAlert++;
  else c.wrong.push(`${p.label}: supervised moves differ with no alert`);
};

// ---------------------------------------------------------------------------------------------
// Rounds.

interface PathFigures {
  readonly name: string;
  readonly seconds: number[];
  readonly cpuSeconds: number[];
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly check: Check;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const percentile = (sorted: Float64Array, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

const runPath = <T>(
  name: string,
  games: readonly Prepared[],
  rounds: number,
  feed: (p: Prepared, lat?: Float64Array, offset?: number) => Fed<T>,
  check: (c: Check, p: Prepared, r: T) => void,
): PathFigures => {
  const seconds: number[] = [];
  const cpuSeconds: number[] = [];
  let last = emptyCheck();
  // Round 0 warms the JIT up and is not counted.
  for (let round = 0; round <= rounds; round++) {
    const c = emptyCheck();
    let ms = 0;
    let cpuMs = 0;
    for (const p of games) {
      const fed = feed(p);
      ms += fed.ms;
      cpuMs += fed.cpuMs;
      check(c, p, fed.result);
    }
    if (round > 0) {
      seconds.push(ms / 1000);
      cpuSeconds.push(cpuMs / 1000);
    }
    if (round > 0 && last.digest !== 0x811c9dc5 && c.digest !== last.digest)
      c.wrong.push(
        `${name}: round ${round} published other events than the round before (not deterministic)`,
      );
    last = c;
  }
  // One more pass timing each input on its own (the timer costs a little, so it is kept apart).
  const total = games.reduce((n, p) => n + p.inputs.length, 0);
  const lat = new Float64Array(total);
  let offset = 0;
  for (const p of games) {
    feed(p, lat, offset);
    offset += p.inputs.length;
  }
  lat.sort();
  return {
    name,
    seconds,
    cpuSeconds,
    p50: percentile(lat, 0.5),
    p99: percentile(lat, 0.99),
    max: lat[lat.length - 1] ?? 0,
    check: last,
  };
};

const main = (): void => {
  const opts = parseOptions();
  const rec = makeRecorder();
  const load = loadavg()[0] ?? 0;
  const t0 = performance.now();
  const sample = sampleGames(join(opts.shared, 'data', 'pgn'), opts.games, opts.seed);
  const games = prepare(sample, opts.seed, opts.ticks);
  const prepSeconds = (performance.now() - t0) / 1000;
  const plies = games.reduce((n, p) => n + p.game.length, 0);
  const sensor = games.reduce((n, p) => n + p.sensorEvents, 0);
  const inputs = games.reduce((n, p) => n + p.inputs.length, 0);
  console.log(
    `prepared ${games.length} games, ${plies} plies, ${sensor} sensor events, ${inputs} inputs in ${prepSeconds.toFixed(1)} s`,
  );

  const paths: PathFigures[] = [];
  if (opts.only !== 'supervision')
    paths.push(runPath('recognition alone', games, opts.rounds, recognise, checkRecognition));
  if (opts.only !== 'recognition')
    paths.push(runPath('recognition + supervision', games, opts.rounds, supervise, checkSupervision));

  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const us = (ms: number): string => (ms * 1000).toFixed(1);
  const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`;
  const command = `npx tsx bench/engineThroughput.ts --games ${opts.games} --seed ${opts.seed} --rounds ${opts.rounds}${opts.ticks ? '' : ' --no-ticks'}`;
  const fed = opts.ticks
    ? 'presses, a closing tick, and the settle and gesture-hold ticks the daemon adds'
    : 'presses and a closing tick, no daemon ticks';
  const rows = paths.map(p => {
    const [s, c] = [median(p.seconds), median(p.cpuSeconds)];
    return `| ${p.name} | ${s.toFixed(2)} | ${c.toFixed(2)} | ${fmt(sensor / s)} | ${fmt(sensor / c)} | ${fmt(plies / s)} | ${us(p.p50)} | ${us(p.p99)} | ${us(p.max)} |`;
  });
  const text = [
    `Run: \`${command}\` on ${cpu}, Node ${process.version}, one thread; load average ${load.toFixed(2)} at the start.`,
    '',
    `${games.length} corpus games (seeded sample), ${fmt(plies)} plies, ${fmt(sensor)} sensor events and ${fmt(inputs)} inputs in all`,
    `(${fed}); E23 standard, full supervision, advise mode.`,
    'Event streams are generated before timing. Times are the median of the rounds after a warm-up: wall-clock, and the',
    "process's CPU time (this thread and the garbage collector's helpers), which other load on the machine does not inflate.",
    '',
    '| path | wall s | CPU s | sensor events/s (wall) | sensor events/s per CPU second | plies/s (wall) | latency per input p50 µs | p99 µs | max µs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'Latency is per input (ticks included); the max holds garbage-collection pauses, and a dead-position walk in a sparse',
    'endgame (status.ts) takes a few milliseconds up to about 20.',
    '',
    'Aim (issue 3): 200,000 sensor events/s per core through recognition + supervision. Where the time goes: docs/recognition.md, "Performance".',
    '',
  ];
  for (const line of text) rec.log(line);
  let failed = 0;
  for (const p of paths) {
    const c = p.check;
    const apart =
      p.name === 'recognition alone' ? '' : `, ${c.afterAlert} differ after an alert (${c.alerts} alerts)`;
    rec.log(`- ${p.name}: ${c.exact} of ${games.length} games exact${apart}, ${c.wrong.length} wrong.`);
    for (const w of c.wrong.slice(0, 10)) rec.log(`  - ${w}`);
    failed += c.wrong.length;
  }
  for (const p of paths) console.log(`digest ${p.name}: ${p.check.digest.toString(16)}`);
  if (opts.report) {
    if (failed > 0) console.error('not written: some runs were wrong');
    else console.log(`report written to ${writeReportSection('Engine throughput', rec.lines.join('\n'))}`);
  }
  process.exitCode = failed === 0 ? 0 : 1;
};

main();
