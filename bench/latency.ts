/**
 * Daemon latency: from the last byte of a move written on a board's serial line (the clock press
 * that completes it, on a socat PTY) to the move's event arriving at an MQTT subscriber through
 * mosquitto, with the daemon (`chessbridge run`, a child process) journaling and syncing every
 * input first. Measured at several numbers of boards per daemon, with the daemon's CPU time and
 * memory per board. Prints the figures; `--report` writes the "Daemon latency" section of
 * docs/benchmarks.md.
 *
 *   npx tsx bench/latency.ts [--boards 1,10,30] [--plies 30] [--report]
 *
 * Also the helpers the other daemon benchmarks share (bench/venue.ts, bench/recovery.ts): the
 * daemon as a child process, /proc CPU and memory readings, quantiles.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connect } from 'mqtt';
import { lastValueFrom, tap } from 'rxjs';
import { stringify } from 'yaml';
import { DEMO_GAMES, sansOf } from '../src/bridge/simulate/demoGames.js';
import { DgtBoardEmulator } from '../src/drivers/dgt/emulator.js';
import { scriptFromSans } from '../src/drivers/dgt/emulatorScript.js';
import { EmulatedBoardOnPty } from '../src/emulators/emulatorHost.js';
import { startMosquitto, waitFor } from '../test/support/mosquitto.js';
import { makeRecorder, writeReportSection } from './report.js';

const ROOT = join(import.meta.dirname, '..');
const PLY_MS = 700;

/** Epoch milliseconds with sub-millisecond resolution (comparable across processes on one machine). */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/** The value at quantile `q` of sorted values (NaN when empty). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** The value of `--name` on the command line, or `fallback`. */
export const option = (args: readonly string[], name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};

export interface ProcessUsage {
  /** CPU time, user + system (ms). */
  readonly cpuMs: number;
  /** Resident memory now and at its peak (MiB). */
  readonly rssMiB: number;
  readonly peakRssMiB: number;
}

/** CPU time and resident memory of a process, from /proc (Linux). */
export const processUsage = async (pid: number): Promise<ProcessUsage> => {
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(stat[11]) + Number(stat[12]);
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpuMs: (ticks * 1000) / 100, rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
};

export interface SpawnOptions {
  /** Extra Node options for the child (e.g. `--cpu-prof`, `--cpu-prof-dir=DIR`). */
  readonly nodeArgs?: readonly string[];
  /** The built main module (`compileChessbridge`) instead of the sources under tsx. */
  readonly compiled?: string;
}

/**
 * `chessbridge <args>` in a child process (the daemon: `run -c FILE`): from the sources under tsx,
 * or from a build (`compiled`).
 */
export const spawnChessbridge = (
  args: readonly string[],
  stdio: 'inherit' | 'pipe' = 'inherit',
  options: SpawnOptions = {},
): ChildProcess => {
  const entry = options.compiled === undefined ? './src/main.ts' : pathToFileURL(options.compiled).href;
  const code = `const m = await import(${JSON.stringify(entry)}); process.exitCode = await m.main(process.argv.slice(1));`;
  const loader = options.compiled === undefined ? ['--import', 'tsx'] : [];
  return spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...loader, '--input-type=module', '-e', code, ...args],
    { cwd: ROOT, stdio: ['ignore', stdio === 'inherit' ? 'ignore' : 'pipe', stdio] },
  );
};

/**
 * Builds the sources into `.bench-tmp/dist` (ignored by git; the packages resolve from the
 * repository's node_modules) and returns its main module, for `spawnChessbridge`'s `compiled`.
 * What an installed daemon runs: no TypeScript loader in the process.
 */
export const compileChessbridge = (): string => {
  const out = join(ROOT, '.bench-tmp', 'dist');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`the build into ${out} failed (tsc exit ${String(r.status)})`);
  // Laid out as the package is: the build finds web/, examples/ and package.json beside its folder.
  for (const name of ['web', 'examples', 'package.json']) {
    const link = join(ROOT, '.bench-tmp', name);
    if (!existsSync(link)) symlinkSync(join(ROOT, name), link);
  }
  return join(out, 'main.js');
};

/** One line naming the machine, for reports. */
export const machineLine = (): string => {
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  return `Machine: ${cpus().length} × ${cpu}, Node ${process.version}.`;
};

interface RunResult {
  readonly boards: number;
  readonly moves: number;
  readonly latencies: number[];
  readonly cpuPerBoardPct: number;
  /** Resident memory of the daemon once the games are over (before it stops). */
  readonly rssMiB: number;
  readonly seconds: number;
}

const runOnce = async (count: number, plies: number): Promise<RunResult> => {
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-bench-'));
  const broker = await startMosquitto();
  const boards: EmulatedBoardOnPty[] = [];
  let daemon: ChildProcess | undefined;
  const sub = connect(broker.url, { clientId: `bench-${count}`, protocolVersion: 4 });
  try {
    for (let i = 1; i <= count; i++) {
      const b = new EmulatedBoardOnPty({
        hostPath: join(dir, `b${i}`),
        devicePath: join(dir, `b${i}.emu`),
        emulator: new DgtBoardEmulator({ serial: String(30000 + i) }),
      });
      await b.start();
      boards.push(b);
    }
    const config = join(dir, 'bench.yaml');
    await writeFile(
      config,
      stringify({
        version: 1,
        laws: { gameType: 'rapid', timeControl: '15+10' },
        journal: { dir: join(dir, 'journal') },
        mqtt: { url: broker.url, baseTopic: 'bench', clientId: 'bench' },
        http: { enabled: false },
        boards: boards.map((b, i) => ({
          id: `b${i + 1}`,
          driver: 'dgt',
          port: b.hostPath,
          serial: String(30001 + i),
          clock: true,
        })),
        pairings: boards.map((_, i) => {
          const g = DEMO_GAMES[i % DEMO_GAMES.length]!;
          return {
            round: 1,
            board: i + 1,
            serial: String(30001 + i),
            white: { name: g.white },
            black: { name: g.black },
          };
        }),
        logging: { level: 'warn' },
      }),
    );
    const received = new Map<string, number>(); // "game:ply" → arrival
    sub.on('message', (_topic, payload) => {
      const e = JSON.parse(payload.toString()) as { type: string; game: string; ply?: number };
      if (e.type === 'move' && !received.has(`${e.game}:${e.ply}`))
        received.set(`${e.game}:${e.ply}`, epochNow());
    });
    if (!sub.connected) await new Promise<void>(resolve => sub.once('connect', () => resolve()));
    await sub.subscribeAsync(['bench/games/+/events', 'bench/games/+'], { qos: 1 });
    const child = spawnChessbridge(['run', '-c', config]);
    daemon = child;
    const started = new Set<string>();
    sub.on('message', topic => {
      if (/^bench\/games\/[^/]+$/.test(topic)) started.add(topic);
    });
    const progress = (what: string) => process.stderr.write(`  ${count} boards: ${what}\n`);
    progress('daemon started');
    await waitFor(() => started.size === count, 60_000, 'every game to start');
    progress('games started');
    const pid = child.pid ?? 0;
    const idle = await processUsage(pid);
    // The press right after the placement: the move is published at the press, its last byte.
    const written = new Map<string, number>();
    const t0 = epochNow();
    await Promise.all(
      boards.map(async (b, i) => {
        const sans = sansOf(DEMO_GAMES[i % DEMO_GAMES.length]!).slice(0, plies);
        const script = scriptFromSans(sans, {
          plyMs: PLY_MS,
          handMs: 60,
          pressAfterMs: 40,
          startAt: 200 + ((i * 37) % PLY_MS),
        }).unwrap();
        let ply = 0;
        await lastValueFrom(
          b.runner
            .play$([
              { at: 0, kind: 'clock-set', left: 900_000, right: 900_000, run: 'left', incrementMs: 10_000 },
              ...script.steps,
            ])
            .pipe(
              tap(step => {
                if (step.kind === 'clock-press') written.set(`r1-b${i + 1}:${++ply}`, epochNow());
              }),
            ),
        );
      }),
    );
    progress(`played ${written.size} presses`);
    await waitFor(
      () => [...written.keys()].every(k => received.has(k)),
      30_000,
      'every move at the subscriber',
    );
    const seconds = (epochNow() - t0) / 1000;
    const busy = await processUsage(pid);
    const latencies = [...written].map(([k, t]) => (received.get(k) ?? NaN) - t).sort((a, b) => a - b);
    return {
      boards: count,
      moves: latencies.length,
      latencies,
      cpuPerBoardPct: ((busy.cpuMs - idle.cpuMs) / (seconds * 1000) / count) * 100,
      rssMiB: busy.rssMiB,
      seconds,
    };
  } finally {
    daemon?.kill('SIGTERM');
    await sub.endAsync();
    await Promise.allSettled(boards.map(b => b.stop()));
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  }
};

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const boardCounts = option(args, '--boards', '1,10,30').split(',').map(Number);
  const plies = Number(option(args, '--plies', '30'));
  const { log, lines } = makeRecorder();
  log(`Daemon latency: last byte of a move (the clock press) on a PTY → move event at an MQTT subscriber`);
  log(
    `through mosquitto; ${plies} plies per board, one ply every ${PLY_MS} ms per board, journal synced before publishing.`,
  );
  log(machineLine());
  log('');
  log('boards  moves   p50 ms   p99 ms   max ms   daemon CPU per board   daemon memory');
  const results: RunResult[] = [];
  for (const count of boardCounts) {
    const r = await runOnce(count, plies);
    results.push(r);
    const f = (n: number) => n.toFixed(1).padStart(7);
    log(
      `${String(r.boards).padStart(6)}  ${String(r.moves).padStart(5)}  ${f(quantile(r.latencies, 0.5))}  ${f(quantile(r.latencies, 0.99))}  ${f(r.latencies.at(-1) ?? NaN)}   ` +
        `${r.cpuPerBoardPct.toFixed(2).padStart(6)} % of a core       ${r.rssMiB.toFixed(0)} MiB`,
    );
  }
  const first = results[0];
  const last = results.at(-1);
  if (first !== undefined && last !== undefined && last.boards > first.boards) {
    const perBoard = (last.rssMiB - first.rssMiB) / (last.boards - first.boards);
    const cpu = last.cpuPerBoardPct;
    log('');
    log(
      `memory per board: ${perBoard.toFixed(2)} MiB (growth from ${first.boards} to ${last.boards} boards; the daemon runs from the sources under tsx here)`,
    );
    log(
      `boards per daemon: at ${cpu.toFixed(2)} % of a core per board for one ply every ${PLY_MS / 1000} s, one core serves about ${Math.floor(100 / cpu)} boards`,
    );
    log('at this pace; a real game (a ply every 10 s or more per board) costs a tenth of that or less.');
  }
  if (args.includes('--report')) {
    const path = writeReportSection(
      'Daemon latency',
      [
        `Run: \`npx tsx bench/latency.ts --report\` (the daemon as a child process, real mosquitto, socat PTYs).`,
        '',
        '```',
        ...lines,
        '```',
      ].join('\n'),
    );
    console.log(`written to ${path}`);
  }
};

// Run as a script (not when another benchmark imports the helpers above).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) await main();
