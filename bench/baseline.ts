/**
 * Issue 9, items (c) and (e): move recognition on the shared PGN corpora with human handling,
 * ours side by side with a baseline that recognises moves the way today's tools do, on the same
 * event streams, in one run.
 *
 * The streams: each sampled game goes through the human-handling generator (src/engine/handling,
 * the rates measured in real captures: touch-downs on the way, captures in every order, ghosts,
 * flickers, knocked-over pieces, long holds, blitz replies landing within one settle window),
 * with one seed per run, exactly as scripts/recognitionCorpus.ts drives our recogniser.
 *
 * The baseline (bench/baseline/chessjsRecognizer.ts, on chess.js) follows the rules of desktop
 * board apps and common drivers, at their best:
 *   1. it keeps the game's current position and the board as the sensors report it;
 *   2. once the board has been still for the settle window (the same 300 ms debounce as ours, so
 *      it never judges a transient that ours would not see either), it compares the board's piece
 *      placement with the placement after every legal move;
 *   3. the current position: nothing to do; exactly one legal move matches: it is played and
 *      announced; nothing matches (a piece in the hand, half a capture, two plies at once): it
 *      waits for the board to change and be still again;
 *   4. nothing announced is ever corrected or taken back.
 * It gets full piece identities (a DGT-style board) and no clock presses: neither of those would
 * help its rules. Its legal moves and their placements are computed once per position.
 *
 * Per recogniser: games exactly right (the final record is the game played and no wrong move was
 * ever announced); plies wrong (a different move at that ply in the final record), missed (plies
 * played but not in it) and extra (in it but never played); fake moves (announced and not the
 * move played at that ply: a piece put down on the way, a board read mid-move; for ours this
 * counts moves published and corrected later too); CPU time per 1,000 events and events/s of the
 * recognition alone (generation excluded). "Events" are every board event fed (squares, presses,
 * ticks), the same streams for both.
 *
 *   npx tsx bench/baseline.ts                       # 300 games spread over the corpus, seed 1
 *   npx tsx bench/baseline.ts --games all --report  # every game (10,843 readable) x 1 seed
 *   npx tsx bench/baseline.ts --games 50 --seeds 2 --file carlsen.pgn --verbose
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { makeBoardFen } from 'chessops/fen';
import type { Game } from '../src/engine/game.js';
import { deriveSeed, generateForGame } from '../src/engine/handling/index.js';
import type { BoardEvent } from '../src/engine/recognition/boardEvent.js';
import type { RecognitionOutput } from '../src/engine/recognition/outputs.js';
import { startRecognition } from '../src/engine/recognition/state.js';
import { runRecognition } from '../src/engine/recognition/step.js';
import { splitPgn } from '../src/engine/pgnLex.js';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import { ChessJsRecognizer } from './baseline/chessjsRecognizer.js';
import { makeRecorder, writeReportSection } from './report.js';

const USAGE = `usage: tsx bench/baseline.ts [--games N|all] [--seeds N] [--file F]... [--settle MS] [--baseline-settle MS,...] [--shared DIR] [--report] [--verbose]
  --games N     games sampled evenly over the corpus (default 300; "all" = every game)
  --seeds N     handling seeds 1..N per game (default 1)
  --file F      a file in <shared>/data/pgn (repeatable; default every file, parser-edge-cases included)
  --settle MS   our settle window, which the handling's timing respects (default 300)
  --baseline-settle MS,...
                the baseline's debounce, one baseline row each (default: the same as --settle)
  --shared DIR  the shared folder (default: $CHESSBRIDGE_SHARED or ../shared beside the checkout)
  --report      write the section "Baseline recogniser (chess.js) vs ours" of docs/benchmarks.md
  --verbose     print the first problem of every game either recogniser gets wrong`;

const SECTION = 'Baseline recogniser (chess.js) vs ours';

const parseOptions = () => {
  const { values } = parseArgs({
    options: {
      games: { type: 'string', default: '300' },
      seeds: { type: 'string', default: '1' },
      file: { type: 'string', multiple: true },
      settle: { type: 'string', default: '300' },
      'baseline-settle': { type: 'string' },
      shared: { type: 'string' },
      report: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const games = values.games === 'all' ? Infinity : Number(values.games);
  const seeds = Number(values.seeds);
  const settleMs = Number(values.settle);
  const baselineSettles = (values['baseline-settle'] ?? values.settle).split(',').map(Number);
  if (
    values.help ||
    !(games >= 1) ||
    !Number.isInteger(seeds) ||
    seeds < 1 ||
    !(settleMs > 0) ||
    !baselineSettles.every(ms => ms > 0)
  ) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const root = resolve(import.meta.dirname, '..');
  const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(root, '..', 'shared');
  return { ...values, games, seeds, settleMs, baselineSettles, shared };
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

interface Sampled {
  readonly file: string;
  /** 1-based game number in its file. */
  readonly number: number;
  readonly text: string;
}

/** Every game's text (lexing only), then `count` of them at an even stride over the whole corpus. */
const sample = (dir: string, files: readonly string[], count: number): Sampled[] => {
  const all: Sampled[] = [];
  for (const file of files) {
    splitPgn(decodePgnBytes(readFileSync(join(dir, file)))).forEach((chunk, i) =>
      all.push({ file, number: i + 1, text: chunk.text }),
    );
  }
  if (count >= all.length) return all;
  const stride = all.length / count;
  return Array.from({ length: count }, (_, i) => all[Math.floor(i * stride)]).filter(
    (s): s is Sampled => s !== undefined,
  );
};

/** What one recogniser made of one stream. */
interface Outcome {
  /** Moves (SAN) of the final record. */
  readonly record: readonly string[];
  /** Placements of still boards that matched no legal move (the baseline only). */
  readonly unmatched?: readonly string[];
  /** Every move announced, in order, with its ply (published, including those later corrected). */
  readonly announced: readonly { readonly ply: number; readonly san: string }[];
  readonly cpuMicros: number;
  readonly wallMs: number;
}

interface Tally {
  runs: number;
  exact: number;
  plies: number;
  /** Plies of the final record equal to the game's, counted from the start up to the first difference. */
  rightPrefix: number;
  wrong: number;
  missed: number;
  extra: number;
  fake: number;
  /** Runs whose first error was a fake move (else: the recogniser stopped recording). */
  firstErrorFake: number;
  /** Runs that stopped recording at a still board showing the position two plies on. */
  stalledTwoAhead: number;
  events: number;
  sensorEvents: number;
  cpuMicros: number;
  wallMs: number;
}

const emptyTally = (): Tally => ({
  runs: 0,
  exact: 0,
  plies: 0,
  rightPrefix: 0,
  wrong: 0,
  missed: 0,
  extra: 0,
  fake: 0,
  firstErrorFake: 0,
  stalledTwoAhead: 0,
  events: 0,
  sensorEvents: 0,
  cpuMicros: 0,
  wallMs: 0,
});

const cpuMicros = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return d.user + d.system;
};

const runOurs = (game: Game, events: readonly BoardEvent[], settleMs: number): Outcome => {
  const start = startRecognition(game.truncate(0).unwrap(), { occupancyOnly: false, settleMs });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { state, outputs } = runRecognition(start, events);
  const wallMs = performance.now() - t0;
  const cpu = cpuMicros(c0);
  return {
    record: state.game.moves.map(m => m.san),
    announced: announcedOf(outputs),
    cpuMicros: cpu,
    wallMs,
  };
};

/** Moves a viewer of our outputs saw announced: each published move, and each move of a correction. */
const announcedOf = (outputs: readonly RecognitionOutput[]): { ply: number; san: string }[] => {
  const out: { ply: number; san: string }[] = [];
  for (const o of outputs) {
    if (o.type === 'move') out.push({ ply: o.ply, san: o.san });
    if (o.type === 'correction') o.moves.forEach((m, i) => out.push({ ply: o.fromPly + i, san: m.san }));
  }
  return out;
};

const runBaseline = (events: readonly BoardEvent[], settleMs: number): Outcome => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = new ChessJsRecognizer({ settleMs });
  for (const e of events) r.push(e);
  r.finish(events.at(-1)?.at ?? 0);
  const wallMs = performance.now() - t0;
  const cpu = cpuMicros(c0);
  return { record: r.sans, announced: r.moves, unmatched: r.unmatched, cpuMicros: cpu, wallMs };
};

/** Adds one run to the tally; returns the first problem, if any. */
const score = (
  t: Tally,
  game: Game,
  o: Outcome,
  events: number,
  sensorEvents: number,
): string | undefined => {
  const played = game.moves.map(m => m.san);
  t.runs++;
  t.plies += played.length;
  t.events += events;
  t.sensorEvents += sensorEvents;
  t.cpuMicros += o.cpuMicros;
  t.wallMs += o.wallMs;
  let prefix = 0;
  while (prefix < played.length && o.record[prefix] === played[prefix]) prefix++;
  t.rightPrefix += prefix;
  const common = Math.min(played.length, o.record.length);
  for (let i = 0; i < common; i++) if (o.record[i] !== played[i]) t.wrong++;
  t.missed += Math.max(0, played.length - o.record.length);
  t.extra += Math.max(0, o.record.length - played.length);
  const fakes = o.announced.filter(m => played[m.ply - 1] !== m.san);
  t.fake += fakes.length;
  const exact = fakes.length === 0 && prefix === played.length && o.record.length === played.length;
  if (exact) {
    t.exact++;
    return undefined;
  }
  const firstFake = fakes[0];
  if (firstFake !== undefined && firstFake.ply <= prefix + 1) {
    t.firstErrorFake++;
    return `fake ${firstFake.san} at ply ${firstFake.ply} (played ${played[firstFake.ply - 1] ?? 'nothing'})`;
  }
  // Stopped recording after `prefix` plies: was a still board then two plies on?
  const twoOn = prefix + 2 <= game.length ? makeBoardFen(game.positionAt(prefix + 2).board) : undefined;
  const twoAhead = twoOn !== undefined && (o.unmatched ?? []).includes(twoOn);
  if (twoAhead) t.stalledTwoAhead++;
  return `recorded ${prefix} of ${played.length} plies right, then ${o.record[prefix] ?? 'nothing'} (played ${played[prefix] ?? 'nothing'})${twoAhead ? ': a still board two plies on' : ''}`;
};

const main = (): void => {
  const opts = parseOptions();
  const rec = makeRecorder();
  const dir = join(opts.shared, 'data', 'pgn');
  const files = opts.file ?? corpusFiles(dir);
  const picked = sample(dir, files, opts.games);
  const ours = emptyTally();
  const bases = opts.baselineSettles.map(ms => ({ ms, tally: emptyTally() }));
  let skipped = 0;
  let repliesInWindow = 0;
  let games = 0;
  const started = performance.now();
  for (const s of picked) {
    const parsed = readPgn(s.text)[0];
    if (parsed === undefined || parsed.isErr) {
      skipped++;
      if (opts.verbose) rec.log(`  skipped ${s.file} game ${s.number}: ${parsed?.error.message ?? 'empty'}`);
      continue;
    }
    const { game } = parsed.value;
    games++;
    for (let seed = 1; seed <= opts.seeds; seed++) {
      const run = generateForGame(game, { seed: deriveSeed(seed, games), settleMs: opts.settleMs });
      repliesInWindow += run.stats.repliesInWindow;
      const n = run.events.length;
      const where = `${s.file} #${s.number} seed ${seed}`;
      // Alternate which one runs first, so neither always gets the warmer caches.
      const oursFirst = games % 2 === 0;
      const o = oursFirst ? runOurs(game, run.events, opts.settleMs) : undefined;
      for (const b of bases) {
        const problem = score(b.tally, game, runBaseline(run.events, b.ms), n, run.stats.sensorEvents);
        if (opts.verbose && problem !== undefined) rec.log(`  baseline ${b.ms} ms ${where}: ${problem}`);
      }
      const problem = score(
        ours,
        game,
        o ?? runOurs(game, run.events, opts.settleMs),
        n,
        run.stats.sensorEvents,
      );
      if (opts.verbose && problem !== undefined) rec.log(`  ours ${where}: ${problem}`);
    }
  }
  const wall = (performance.now() - started) / 1000;

  const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(2)} %`);
  const int = (n: number): string => Math.round(n).toLocaleString('en-US');
  const row = (name: string, t: Tally): string =>
    [
      name,
      `${int(t.exact)} / ${int(t.runs)} (${pct(t.exact, t.runs)})`,
      pct(t.rightPrefix, t.plies),
      int(t.wrong),
      int(t.missed),
      int(t.extra),
      int(t.fake),
      `${(t.cpuMicros / Math.max(1, t.events)).toFixed(1)} ms`,
      int(t.events / Math.max(1e-9, t.wallMs / 1000)),
    ].join(' | ');
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const flags = [
    `--games ${Number.isFinite(opts.games) ? opts.games : 'all'}`,
    `--seeds ${opts.seeds}`,
    `--settle ${opts.settleMs}`,
    ...(opts['baseline-settle'] === undefined ? [] : [`--baseline-settle ${opts['baseline-settle']}`]),
    ...(opts.file ?? []).map(f => `--file ${f}`),
  ].join(' ');
  const lines = [
    `Run: \`npx tsx bench/baseline.ts ${flags}\` on ${cpus().length} x ${cpu}, Node ${process.version}.`,
    `${int(games)} games (${skipped} unreadable skipped) x ${opts.seeds} seed(s) = ${int(ours.runs)} runs, ${int(ours.plies)} plies, ${int(ours.events)} events (${int(ours.sensorEvents)} from the sensors); replies landing within one settle window: ${int(repliesInWindow)}; wall time ${wall.toFixed(1)} s.`,
    '',
    '| recogniser | games exactly right | plies right before the first error | plies wrong | plies missed | plies extra | fake moves announced | CPU per 1,000 events | events/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${row(`chessbridge (settle ${opts.settleMs} ms)`, ours)} |`,
    ...bases.map(b => `| ${row(`baseline on chess.js (still ${b.ms} ms)`, b.tally)} |`),
    '',
    ...bases.map(
      b =>
        `Baseline (still ${b.ms} ms): ${int(b.tally.runs - b.tally.exact)} runs wrong; ${int(b.tally.firstErrorFake)} first announced a fake move (a still board showing a legal move that was not the one played, never taken back); ${int(b.tally.runs - b.tally.exact - b.tally.firstErrorFake)} stopped recording, ${int(b.tally.stalledTwoAhead)} of them at a still board two plies on (no single legal move leads there: it waits for ever).`,
    ),
  ];
  for (const line of lines) rec.log(line);
  if (opts.report) {
    const body = [
      'Written by `npx tsx bench/baseline.ts --report` (issue 9, items c and e). Both recognisers read the',
      'same streams: corpus games played through the human-handling generator (src/engine/handling, with',
      'the rates measured in real captures). The baseline follows the rule of desktop board apps, built on',
      'chess.js: once the board has been still for the debounce, compare its placement with the placement',
      'after each legal move; play the one that matches, otherwise wait; never correct. Its rules are',
      'spelt out at the top of bench/baseline.ts. CPU time and events/s are for the recognition alone.',
      '',
      ...lines,
      '',
      'Reading the table: "plies missed" are the plies after the point where a recogniser stopped',
      'recording. The baseline waits for ever once a still board is two plies ahead (a reply made',
      'within the debounce of the previous move: blitz, or a quick reply after a clock press), since',
      'no single legal move leads there and it corrects nothing; a longer debounce sees more of those,',
      'a shorter one fewer. It announces no fake move on these streams because the touch-downs and',
      'ghosts of the generator last less than 110 ms, shorter than any debounce here; a piece left on',
      'a square on its way for longer than the debounce is recorded as that move and never taken back',
      '(test/bench/baseline.test.ts: d3 on the way to d4). Ours records such a move too, but keeps it',
      'revisable until the clock press or the reply, and reads two plies from one still board. CPU is',
      "the process's CPU time (Node's garbage collector threads included), so it can exceed wall time;",
      "the baseline's cost is chess.js generating each position's legal moves with their FENs.",
    ].join('\n');
    rec.log(`report written to ${writeReportSection(SECTION, body)}`);
  }
};

main();
