/**
 * Boards per daemon: `chessbridge simulate` (its own process, so its CPU is not the daemon's)
 * drives N emulated DGT boards on socat PTYs, one board per line or DGT bus lines of K boards; a
 * daemon (`chessbridge run`, another child process) reads them and publishes through mosquitto; a
 * subscriber here times every move. For each N, over a measuring window: the plies played (the
 * simulator's record), the plies lost (recorded but not in the published games), the latency to a
 * ply's move event at the subscriber (p50, p99, max) from its clock press (the last serial byte of
 * the completed move, for plies published after it) and from its last square change (every ply;
 * includes the settle window when the press comes later, and the poll on a bus line), and the
 * daemon's CPU (from /proc/PID/stat) and memory. Two paces: tournament (a ply every
 * `--ply-seconds` of game time per board, `--speed` times faster) and the link maximum (plain
 * moves back to back as fast as 9600 baud carries them). Prints a report; `--report` writes the
 * "Boards per daemon" section of docs/benchmarks.md.
 *
 *   npx tsx bench/venue.ts [--boards 50,100,250,500] [--layouts single,bus10] [--paces tournament,link-max]
 *                          [--seconds 120] [--ply-seconds 25] [--speed 1] [--games FILE.pgn] [--report]
 *                          [--compiled] [--cpu-prof DIR]
 *
 * The daemon runs from the sources under tsx, or with `--compiled` from a build of them (made
 * first into .bench-tmp/dist: what an installed daemon runs, without a TypeScript loader).
 * `--cpu-prof DIR` has the daemon write a V8 CPU profile into DIR when it stops (open it in a
 * browser's developer tools); the profiler costs CPU too, so figures of such a run are not for
 * the report.
 *
 * Timing crosses processes: the simulator stamps each ply's last byte with its epoch clock
 * (performance.timeOrigin + now()), the subscriber here with its own; both read the same system
 * clock.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from 'mqtt';
import { parse, stringify } from 'yaml';
import type { SimRecord } from '../src/bridge/simulate/venue.js';
import { movesFromEvents, type WireEvent } from '../test/integration/support.js';
import { startMosquitto, waitFor } from '../test/support/mosquitto.js';
import { sharedPath } from '../test/support/shared.js';
import {
  compileChessbridge,
  epochNow,
  machineLine,
  option,
  processUsage,
  quantile,
  spawnChessbridge,
  type SpawnOptions,
} from './latency.js';
import { makeRecorder, writeReportSection } from './report.js';

export type Pace = 'tournament' | 'link-max';

export interface VenueRun {
  readonly boards: number;
  /** Boards per bus line (0: one board per line). */
  readonly bus: number;
  readonly pace: Pace;
  readonly seconds: number;
  readonly plySeconds: number;
  readonly speed: number;
  readonly games: string;
  /** How to start the daemon (default: from the sources under tsx). */
  readonly daemon?: SpawnOptions;
}

export interface VenueResult {
  readonly run: VenueRun;
  readonly lines: number;
  /** Plies whose last byte went on a line during the window. */
  readonly plies: number;
  /** Of those, plies the published games do not hold (as recorded: same ply, same move). */
  readonly lost: number;
  /**
   * Latency (ms, sorted) from the press to the move event, for plies whose move was published
   * after their press (the press completed it); on a bus line the press is read at the next poll.
   */
  readonly pressLatencies: number[];
  /** Latency (ms, sorted) from the move's last square change to its move event, every ply. */
  readonly squareLatencies: number[];
  readonly windowSeconds: number;
  readonly daemon: { readonly cpuPct: number; readonly rssMiB: number; readonly peakRssMiB: number };
  readonly simulator: { readonly cpuPct: number; readonly socatCpuPct: number; readonly socats: number };
  /** Seconds from the daemon's start until every board's game was published. */
  readonly startSeconds: number;
}

/** A child process's output so far (for failure messages). */
export const captured = (child: ChildProcess): (() => string) => {
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  child.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  return () => out;
};

export const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', code => resolve(code));
  });

/** The pids of a process's children named `name` (the simulator's socat processes). */
const childrenOf = async (pid: number, name: string): Promise<number[]> => {
  const out: number[] = [];
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of text.split(' ').filter(Boolean).map(Number))
      if ((await readFile(`/proc/${child}/comm`, 'utf8').catch(() => '')).trim() === name) out.push(child);
  }
  return out;
};

const cpuOf = async (pids: readonly number[]): Promise<number> => {
  let ms = 0;
  for (const pid of pids) ms += (await processUsage(pid).catch(() => ({ cpuMs: 0 }))).cpuMs;
  return ms;
};

/** The simulator in its own process, started with its configuration written; resolves once it is. */
export const startSimulator = async (
  dir: string,
  url: string,
  args: readonly string[],
  logLevel: 'warn' | 'info' = 'warn',
): Promise<{ child: ChildProcess; output: () => string; config: string; record: string }> => {
  const config = join(dir, 'venue.yaml');
  const record = join(dir, 'record.jsonl');
  const child = spawnChessbridge(
    [
      'simulate',
      ...args,
      '--dir',
      join(dir, 'lines'),
      '--config-out',
      config,
      '--mqtt',
      url,
      '--record',
      record,
    ],
    'pipe',
  );
  const output = captured(child);
  await waitFor(
    () => output().includes('start a daemon') || child.exitCode !== null,
    300_000,
    'the simulator to start its lines',
  );
  if (!existsSync(config)) throw new Error(`the simulator did not start:\n${output()}`);
  // Benchmarks log at warn, as bench/latency.ts does: a line per move costs the daemon CPU too.
  const doc = parse(await readFile(config, 'utf8')) as { logging: { level: string } };
  doc.logging.level = logLevel;
  await writeFile(config, stringify(doc));
  return { child, output, config, record };
};

/** The simulator's record (one JSON object a line). */
export const readRecord = (path: string): SimRecord[] =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter(l => l.startsWith('{'))
        .map(l => JSON.parse(l) as SimRecord)
    : [];

export interface Seen {
  readonly topic: string;
  readonly payload: string;
  /** Epoch ms of arrival. */
  readonly at: number;
}

/**
 * A subscriber timing the first arrival of every (game, ply, move) and keeping each game's events
 * by seq (and, for `extra` topic filters, every message). With `persistent`, a persistent session
 * (fixed client id, clean: false) that reconnects by itself, so a broker restart loses nothing.
 */
export const startTimingSubscriber = async (
  url: string,
  clientId: string,
  options: { readonly persistent?: boolean; readonly extra?: readonly string[] } = {},
) => {
  const client = connect(url, {
    clientId,
    clean: options.persistent !== true,
    protocolVersion: 4,
    reconnectPeriod: 200,
  });
  const arrivals = new Map<string, number>();
  type Arrived = WireEvent & { readonly arrivedAt: number };
  const events = new Map<string, Map<number, Arrived>>();
  const others: Seen[] = [];
  client.on('message', (topic, payload) => {
    const at = epochNow();
    if (!topic.endsWith('/events')) {
      others.push({ topic, payload: payload.toString(), at });
      return;
    }
    const e = JSON.parse(payload.toString()) as WireEvent;
    let game = events.get(e.game);
    if (game === undefined) events.set(e.game, (game = new Map<number, Arrived>()));
    if (!game.has(e.seq)) game.set(e.seq, { ...e, arrivedAt: at });
    const seen = (ply: number, san: string) => {
      const key = `${e.game}:${ply}:${san}`;
      if (!arrivals.has(key)) arrivals.set(key, at);
    };
    if (e.type === 'move' && e.ply !== undefined && e.san !== undefined) seen(e.ply, e.san);
    if (e.type === 'correction' && e.from_ply !== undefined)
      (e.moves ?? []).forEach((m, i) => seen((e.from_ply ?? 0) + i, m.san));
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync(['chessbridge/games/+/events', ...(options.extra ?? [])], { qos: 1 });
  return {
    client,
    arrivals,
    others,
    started: () => events.size,
    /** Each game's events by seq, with their arrival times. */
    games: (): ReadonlyMap<string, ReadonlyMap<number, Arrived>> => events,
    /** The moves of a game as its events amount to. */
    moves: (game: string) => movesFromEvents([...(events.get(game)?.values() ?? [])]),
    close: () => client.endAsync(),
  };
};

export type TimingSubscriber = Awaited<ReturnType<typeof startTimingSubscriber>>;

/** Plies of the record the published games do not hold (same ply number, same move). */
export const lostPlies = (
  plies: readonly Extract<SimRecord, { type: 'ply' }>[],
  moves: (game: string) => readonly string[],
): Extract<SimRecord, { type: 'ply' }>[] => plies.filter(p => moves(p.game)[p.ply - 1] !== p.san);

const simulatorArgs = (run: VenueRun): string[] => [
  '--boards',
  String(run.boards),
  '--games',
  run.games,
  ...(run.bus > 1 ? ['--bus', String(run.bus)] : []),
  ...(run.pace === 'link-max'
    ? ['--link-max']
    : ['--ply-seconds', String(run.plySeconds), '--speed', String(run.speed)]),
];

export const runVenue = async (run: VenueRun): Promise<VenueResult> => {
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-bench-venue-'));
  const broker = await startMosquitto();
  const progress = (what: string) =>
    process.stderr.write(
      `  ${run.boards} boards, ${run.bus > 1 ? `bus ${run.bus}` : 'single'}, ${run.pace}: ${what}\n`,
    );
  let simulator: ChildProcess | undefined;
  let daemon: ChildProcess | undefined;
  const sub = await startTimingSubscriber(broker.url, `bench-venue-${run.boards}`);
  try {
    const sim = await startSimulator(dir, broker.url, simulatorArgs(run));
    simulator = sim.child;
    const lines = Number(/on (\d+) lines/.exec(sim.output())?.[1] ?? 0);
    progress(`${lines} lines up`);
    const t0 = epochNow();
    daemon = spawnChessbridge(['run', '-c', sim.config], 'pipe', run.daemon);
    const daemonOutput = captured(daemon);
    await waitFor(
      () => sub.started() >= run.boards || daemon?.exitCode !== null,
      600_000,
      'every game to start',
    );
    if (daemon.exitCode !== null) throw new Error(`the daemon exited:\n${daemonOutput()}`);
    const startSeconds = (epochNow() - t0) / 1000;
    progress(`every game started after ${startSeconds.toFixed(1)} s; measuring ${run.seconds} s`);
    const pids = { daemon: daemon.pid ?? 0, simulator: simulator.pid ?? 0 };
    const socats = await childrenOf(pids.simulator, 'socat');
    const before = {
      at: epochNow(),
      daemon: await processUsage(pids.daemon),
      simulator: await processUsage(pids.simulator),
      socat: await cpuOf(socats),
    };
    await new Promise(resolve => setTimeout(resolve, run.seconds * 1000));
    const after = {
      at: epochNow(),
      daemon: await processUsage(pids.daemon),
      simulator: await processUsage(pids.simulator),
      socat: await cpuOf(socats),
    };
    // Stop the boards (they drain: the lines stay up a moment), then wait for the last plies.
    simulator.kill('SIGINT');
    await exited(simulator);
    const plies = readRecord(sim.record).flatMap(r =>
      r.type === 'ply' && r.at >= before.at && r.at <= after.at ? [r] : [],
    );
    progress(`${plies.length} plies in the window; waiting for the last ones`);
    await waitFor(() => lostPlies(plies, sub.moves).length === 0, 20_000, 'the last plies').catch(
      () => undefined,
    );
    for (const p of lostPlies(plies, sub.moves).slice(0, 3))
      progress(
        `lost: ${p.game} ply ${p.ply} ${p.san}; published: ${
          sub
            .moves(p.game)
            .slice(Math.max(0, p.ply - 3), p.ply + 1)
            .join(' ') || 'nothing'
        } (${sub.moves(p.game).length} plies)`,
      );
    const arrival = (p: (typeof plies)[number]) => sub.arrivals.get(`${p.game}:${p.ply}:${p.san}`) ?? NaN;
    const sorted = (xs: number[]) => xs.filter(Number.isFinite).sort((x, y) => x - y);
    const pressLatencies = sorted(
      plies.flatMap(p => (p.at !== p.squareAt && arrival(p) >= p.at ? [arrival(p) - p.at] : [])),
    );
    const squareLatencies = sorted(plies.map(p => arrival(p) - p.squareAt));
    const wall = after.at - before.at;
    const pct = (cpuMs: number) => (cpuMs / wall) * 100;
    return {
      run,
      lines,
      plies: plies.length,
      lost: lostPlies(plies, sub.moves).length,
      pressLatencies,
      squareLatencies,
      windowSeconds: wall / 1000,
      daemon: {
        cpuPct: pct(after.daemon.cpuMs - before.daemon.cpuMs),
        rssMiB: after.daemon.rssMiB,
        peakRssMiB: after.daemon.peakRssMiB,
      },
      simulator: {
        cpuPct: pct(after.simulator.cpuMs - before.simulator.cpuMs),
        socatCpuPct: pct(after.socat - before.socat),
        socats: socats.length,
      },
      startSeconds,
    };
  } finally {
    simulator?.kill('SIGINT');
    if (simulator !== undefined) await exited(simulator);
    daemon?.kill('SIGTERM');
    if (daemon !== undefined) await exited(daemon);
    await sub.close();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  }
};

const layoutOf = (name: string): number => {
  if (name === 'single') return 0;
  const k = /^bus(\d+)$/.exec(name)?.[1];
  if (k === undefined) throw new Error(`--layouts: "${name}" is not single or busK (e.g. bus10)`);
  return Number(k);
};

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const counts = option(args, '--boards', '50,100,250,500').split(',').map(Number);
  const layouts = option(args, '--layouts', 'single,bus10').split(',').map(layoutOf);
  const paces = option(args, '--paces', 'tournament,link-max').split(',') as Pace[];
  const seconds = Number(option(args, '--seconds', '120'));
  const plySeconds = Number(option(args, '--ply-seconds', '25'));
  const speed = Number(option(args, '--speed', '1'));
  const games = option(args, '--games', '') || sharedPath('data/pgn/twic1256.pgn');
  const profileDir = option(args, '--cpu-prof', '');
  const compiled = args.includes('--compiled') ? compileChessbridge() : undefined;
  const daemon: SpawnOptions = {
    ...(compiled === undefined ? {} : { compiled }),
    ...(profileDir === '' ? {} : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] }),
  };
  const command = `npx tsx bench/venue.ts ${args.filter(a => a !== '--report').join(' ')}`.trim();
  const { log, lines } = makeRecorder();
  log(
    `Boards per daemon: chessbridge simulate (own process) → socat PTYs → daemon (child process, ${compiled === undefined ? 'from the' : 'built from the'}`,
  );
  log(
    `sources${compiled === undefined ? ' under tsx' : ''}, journal synced before publishing) → mosquitto → subscriber. Games of`,
  );
  log(
    `${games.split('/').pop() ?? games}, human handling, clocks running; ${seconds} s measured per run once every game has started.`,
  );
  log(
    `tournament: a ply every ${plySeconds} s of game time per board${speed === 1 ? ' (real time)' : `, played ${speed}× faster: a ply every ${(plySeconds / speed).toFixed(1)} s per board (clock messages ${speed}× too)`}.`,
  );
  log(
    'link-max: plain moves back to back as fast as 9600 baud carries their bytes; bus lines one ply a second',
  );
  log('per board (two poll cycles); plies/s include the pauses between games.');
  log(
    'Latency to the move event at the subscriber: "press" from the clock press that completed the move (plies',
  );
  log(
    'published after their press; on a bus it is read with the poll after it); "square" from the move\'s last square',
  );
  log(
    'change, every ply: it includes the settle window (300 ms) when the press comes later, and on a bus the poll.',
  );
  log(machineLine());
  log('');
  log(
    '                                                    press → subscriber ms      square → subscriber ms    daemon            simulator',
  );
  log(
    'pace        layout   boards lines plies/s  plies lost   n     p50   p99    max     p50    p99    max     CPU %   RSS MiB   +socat CPU %  start s',
  );
  const results: VenueResult[] = [];
  const f = (n: number, w = 6) => (Number.isFinite(n) ? n.toFixed(1) : '-').padStart(w);
  const stats = (xs: readonly number[]) =>
    `${f(quantile(xs, 0.5))} ${f(quantile(xs, 0.99))} ${f(xs.at(-1) ?? NaN)}`;
  for (const pace of paces)
    for (const bus of layouts)
      for (const boards of counts) {
        const r = await runVenue({ boards, bus, pace, seconds, plySeconds, speed, games, daemon });
        results.push(r);
        log(
          `${pace.padEnd(11)} ${(bus > 1 ? `bus ${bus}` : 'single').padEnd(8)} ${String(boards).padStart(6)} ${String(r.lines).padStart(5)} ${(r.plies / r.windowSeconds).toFixed(1).padStart(7)} ${String(r.plies).padStart(6)} ${String(r.lost).padStart(4)} ` +
            `${String(r.pressLatencies.length).padStart(5)} ${stats(r.pressLatencies)}  ${stats(r.squareLatencies)}  ` +
            `${f(r.daemon.cpuPct, 7)} ${r.daemon.rssMiB.toFixed(0).padStart(9)}  ${f(r.simulator.cpuPct + r.simulator.socatCpuPct, 9)} (${r.simulator.socats} socat) ${f(r.startSeconds, 6)}`,
        );
      }
  log('');
  log(
    'CPU in % of one core over the window; daemon RSS at its end. Target: 500 boards on one daemon, p99 latency',
  );
  log(
    'under 20 ms from the last serial byte (the press) to the subscriber, under one core, zero plies lost.',
  );
  // The largest run of each pace and layout, as a cost per board (a straight line: an estimate).
  const largest = new Map<string, VenueResult>();
  for (const r of results) {
    const key = `${r.run.pace}, ${r.run.bus > 1 ? `bus ${r.run.bus}` : 'single lines'}`;
    if ((largest.get(key)?.run.boards ?? 0) < r.run.boards) largest.set(key, r);
  }
  for (const [key, r] of largest) {
    const perBoard = r.daemon.cpuPct / r.run.boards;
    // A daemon that fell behind (plies still unpublished at the end) did not do the run's work.
    if (r.lost > 0) {
      log(`${key}: behind at ${r.run.boards} boards (${r.lost} plies unpublished): no per-board cost.`);
      continue;
    }
    log(
      `${key}: ${perBoard.toFixed(2)} % of a core per board at ${r.run.boards} boards; one core ≈ ${Math.floor(100 / perBoard)} boards at this pace (extrapolated).`,
    );
  }
  for (const r of results.filter(x => x.run.pace === 'tournament' && x.run.boards >= 500)) {
    const p99 = quantile(r.pressLatencies.length > 0 ? r.pressLatencies : r.squareLatencies, 0.99);
    const verdict = [
      `p99 ${p99.toFixed(1)} ms ${p99 < 20 ? 'meets' : 'misses'} < 20 ms`,
      `daemon ${r.daemon.cpuPct.toFixed(0)} % of a core ${r.daemon.cpuPct < 100 ? 'meets' : 'misses'} < 1 core`,
      `${r.lost} lost`,
    ].join('; ');
    log(
      `${r.run.boards} boards, ${r.run.bus > 1 ? `bus ${r.run.bus}` : 'single lines'}, tournament: ${verdict}.`,
    );
  }
  if (!results.some(r => r.run.pace === 'tournament' && r.run.boards >= 500))
    log('No tournament run at 500 boards here: the target is not judged by this run.');
  if (args.includes('--report')) {
    const path = writeReportSection(
      'Boards per daemon',
      [`Run: \`${command} --report\`.`, '', '```', ...lines, '```'].join('\n'),
    );
    console.log(`written to ${path}`);
  }
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) await main();
