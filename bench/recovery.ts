/**
 * Recovery after a daemon kill and after a broker kill, with a simulated venue playing throughout:
 * `chessbridge simulate` (its own process) plays N boards, a daemon (child process) publishes
 * through mosquitto (persistence on), and a subscriber with a persistent session records every
 * event. Then:
 *
 *  - daemon kill: SIGKILL, restarted after `--daemon-down` s. Timed from the restart: the daemon
 *    online again (its retained bridge/state), every board connected and bound to its game again
 *    (boards/<id>/state), every board's game publishing again (a new event of the board's game;
 *    this waits for the board's next move, so it includes up to one ply's thinking).
 *  - broker kill: mosquitto SIGKILLed, restarted after `--broker-down` s on the same port and
 *    persistence. Timed from the restart: the daemon online again, publishing resumed (the first
 *    event it publishes after the restart at the subscriber), every board's game publishing again.
 *
 * Loss is checked against the simulator's record once the boards have stopped: every ply played
 * (also those played while the daemon was down) must be in the published games as played, and
 * every game's events must have arrived with no seq missing. Prints a report; `--report` writes the
 * "Recovery" section of docs/benchmarks.md.
 *
 *   npx tsx bench/recovery.ts [--boards 20] [--bus 0] [--ply-seconds 25] [--speed 10]
 *                             [--warmup 20] [--daemon-down 1] [--broker-down 2] [--games FILE.pgn]
 *                             [--trials 1] [--debug] [--keep] [--report]
 *
 * `--trials N` repeats each run N times (a row pair each): whether plies are made while the daemon
 * is down, and how many, depends on timing.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMosquitto, waitFor } from '../test/support/mosquitto.js';
import { sharedPath } from '../test/support/shared.js';
import { epochNow, machineLine, option, spawnChessbridge } from './latency.js';
import { makeRecorder, writeReportSection } from './report.js';
import {
  captured,
  exited,
  lostPlies,
  readRecord,
  startSimulator,
  startTimingSubscriber,
  type TimingSubscriber,
} from './venue.js';

export interface RecoveryRun {
  readonly boards: number;
  readonly bus: number;
  readonly plySeconds: number;
  readonly speed: number;
  readonly games: string;
  /** Seconds of play before each kill. */
  readonly warmupSeconds: number;
  readonly daemonDownSeconds: number;
  readonly brokerDownSeconds: number;
  /** The daemon logs at info, and its last output is printed when plies are lost. */
  readonly debug?: boolean;
  /** Keep the folder (configuration, journal, record) for a look afterwards. */
  readonly keep?: boolean;
}

/** Seconds from a restart to each milestone (NaN: not reached within the wait). */
export interface Milestones {
  readonly online: number;
  readonly firstEvent: number;
  readonly boardsBound: number;
  readonly allPublishing: number;
}

export interface RecoveryResult {
  readonly run: RecoveryRun;
  readonly daemonKill: Milestones;
  readonly brokerKill: Milestones;
  readonly plies: number;
  readonly pliesDuringDaemonDown: number;
  readonly lostPlies: number;
  readonly missingSeqs: number;
  readonly games: number;
  /** For each game with lost plies: where it parts from what was played. */
  readonly lostDetail: readonly string[];
  /** Epoch ms of the daemon kill and of its restart. */
  readonly killedAt: number;
  readonly restartedAt: number;
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
/** How long a recovery is waited for (a board whose game is lost never publishes again). */
const WAIT_MS = 60_000;

const boardOfGame = (game: string): string => `sim-${/-b(\d+)$/.exec(game)?.[1] ?? '?'}`;

/** Seconds from `since` until each milestone of the recovery, waiting up to WAIT_MS for all of them. */
const milestones = async (
  sub: TimingSubscriber,
  since: number,
  boards: number,
  waitForBound: boolean,
): Promise<Milestones> => {
  const after = (topic: RegExp) => sub.others.filter(m => m.at >= since && topic.test(m.topic));
  const onlineAt = () =>
    after(/\/bridge\/state$/).find(m => m.payload.includes('"online"'))?.at ?? Number.NaN;
  const boundAt = () => {
    const last = new Map<string, number>();
    for (const m of after(/\/boards\/[^/]+\/state$/)) {
      const s = JSON.parse(m.payload) as { link?: string; game?: string };
      if (s.link === 'connected' && typeof s.game === 'string' && !last.has(m.topic)) last.set(m.topic, m.at);
    }
    return last.size >= boards ? Math.max(...last.values()) : Number.NaN;
  };
  const publishingAt = () => {
    const first = new Map<string, number>();
    for (const [game, events] of sub.games())
      for (const e of events.values())
        if (e.arrivedAt >= since) {
          const board = boardOfGame(game);
          first.set(board, Math.min(first.get(board) ?? Infinity, e.arrivedAt));
        }
    return first;
  };
  await waitFor(
    () =>
      Number.isFinite(onlineAt()) &&
      (!waitForBound || Number.isFinite(boundAt())) &&
      publishingAt().size >= boards,
    WAIT_MS,
    'the recovery',
  ).catch(() => undefined);
  const publishing = publishingAt();
  const s = (t: number) => (t - since) / 1000;
  return {
    online: s(onlineAt()),
    firstEvent: publishing.size > 0 ? s(Math.min(...publishing.values())) : Number.NaN,
    boardsBound: s(boundAt()),
    allPublishing: publishing.size >= boards ? s(Math.max(...publishing.values())) : Number.NaN,
  };
};

export const runRecovery = async (run: RecoveryRun): Promise<RecoveryResult> => {
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-bench-recovery-'));
  const broker = await startMosquitto({ persistence: true });
  const progress = (what: string) => process.stderr.write(`  ${run.boards} boards: ${what}\n`);
  let simulator: ChildProcess | undefined;
  let daemon: ChildProcess | undefined;
  const sub = await startTimingSubscriber(broker.url, `bench-recovery-${run.boards}`, {
    persistent: true,
    extra: ['chessbridge/bridge/state', 'chessbridge/boards/+/state'],
  });
  try {
    const sim = await startSimulator(
      dir,
      broker.url,
      [
        '--boards',
        String(run.boards),
        '--games',
        run.games,
        ...(run.bus > 1 ? ['--bus', String(run.bus)] : []),
        '--ply-seconds',
        String(run.plySeconds),
        '--speed',
        String(run.speed),
      ],
      run.debug === true ? 'info' : 'warn',
    );
    simulator = sim.child;
    const startDaemon = () => {
      const child = spawnChessbridge(['run', '-c', sim.config], 'pipe');
      const output = captured(child);
      return { child, output };
    };
    let d = startDaemon();
    daemon = d.child;
    await waitFor(() => sub.started() >= run.boards, 600_000, 'every game to start');
    progress(`every game started; playing ${run.warmupSeconds} s`);
    await sleep(run.warmupSeconds * 1000);

    // The daemon is killed and started again.
    daemon.kill('SIGKILL');
    await exited(daemon);
    const killedAt = epochNow();
    progress(`daemon killed; down ${run.daemonDownSeconds} s`);
    await sleep(run.daemonDownSeconds * 1000);
    const restartedAt = epochNow();
    d = startDaemon();
    daemon = d.child;
    const daemonKill = await milestones(sub, restartedAt, run.boards, true);
    if (daemon.exitCode !== null) throw new Error(`the restarted daemon exited:\n${d.output()}`);
    progress(
      `daemon back (all boards publishing after ${daemonKill.allPublishing.toFixed(1)} s); playing ${run.warmupSeconds} s`,
    );
    await sleep(run.warmupSeconds * 1000);

    // The broker is killed and started again (same port, same persistence).
    await broker.kill();
    progress(`broker killed; down ${run.brokerDownSeconds} s`);
    await sleep(run.brokerDownSeconds * 1000);
    await broker.restart();
    const brokerBackAt = epochNow();
    // Board states are published when they change, not on a reconnect: no `bound` milestone here.
    const brokerKill = await milestones(sub, brokerBackAt, run.boards, false);
    progress(
      `broker back (all boards publishing after ${brokerKill.allPublishing.toFixed(1)} s); playing ${run.warmupSeconds} s`,
    );
    await sleep(run.warmupSeconds * 1000);

    // The boards stop (they drain); every ply they played must be published.
    simulator.kill('SIGINT');
    await exited(simulator);
    const plies = readRecord(sim.record).flatMap(r => (r.type === 'ply' ? [r] : []));
    await waitFor(() => lostPlies(plies, sub.moves).length === 0, 30_000, 'every ply').catch(() => undefined);
    const lost = lostPlies(plies, sub.moves);
    // Where the published games part from what was played (the first lost ply of each game).
    const lostGames = [...new Set(lost.map(p => p.game))];
    const lostDetail = lostGames.map(game => {
      const first = lost.find(p => p.game === game);
      const played = plies.filter(p => p.game === game).length;
      const published = sub.moves(game);
      return `${game}: ${played} plies played, ${published.length} published; from ply ${first?.ply ?? '?'} (${first?.san ?? '?'}, ${new Date(first?.at ?? 0).toISOString().slice(11, 23)}) the game published ${published.slice((first?.ply ?? 1) - 1).join(' ') || 'nothing'}`;
    });
    for (const line of lostDetail) progress(`lost: ${line}`);
    if (lost.length > 0 && run.debug === true) process.stderr.write(`${d.output().slice(-6000)}\n`);
    let missingSeqs = 0;
    for (const events of sub.games().values()) {
      const top = Math.max(...events.keys());
      missingSeqs += top - events.size;
    }
    return {
      run,
      daemonKill,
      brokerKill,
      plies: plies.length,
      pliesDuringDaemonDown: plies.filter(p => p.at >= killedAt && p.at <= restartedAt).length,
      lostPlies: lost.length,
      missingSeqs,
      games: sub.games().size,
      lostDetail,
      killedAt,
      restartedAt,
    };
  } finally {
    simulator?.kill('SIGINT');
    if (simulator !== undefined) await exited(simulator);
    daemon?.kill('SIGTERM');
    if (daemon !== undefined) await exited(daemon);
    await sub.close();
    await broker.stop();
    if (run.keep !== true) await rm(dir, { recursive: true, force: true });
    else progress(`kept ${dir}`);
  }
};

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const counts = option(args, '--boards', '20').split(',').map(Number);
  const bus = Number(option(args, '--bus', '0'));
  const plySeconds = Number(option(args, '--ply-seconds', '25'));
  const speed = Number(option(args, '--speed', '10'));
  const warmupSeconds = Number(option(args, '--warmup', '20'));
  const daemonDownSeconds = Number(option(args, '--daemon-down', '1'));
  const brokerDownSeconds = Number(option(args, '--broker-down', '2'));
  const trials = Number(option(args, '--trials', '1'));
  const games = option(args, '--games', '') || sharedPath('data/pgn/twic1256.pgn');
  const command =
    `npx tsx bench/recovery.ts ${args.filter(a => !['--report', '--debug', '--keep'].includes(a)).join(' ')}`.trim();
  const { log, lines } = makeRecorder();
  log('Recovery: chessbridge simulate (own process) → socat PTYs → daemon (child process) → mosquitto');
  log('(persistence on) → subscriber with a persistent session (QoS 1). Games of');
  log(
    `${games.split('/').pop() ?? games}, a ply every ${plySeconds} s of game time per board played ${speed}× faster (${(plySeconds / speed).toFixed(1)} s),`,
  );
  log(
    `${bus > 1 ? `bus lines of ${bus}` : 'one board per line'}; ${warmupSeconds} s of play before each kill. Daemon: SIGKILL, restarted after ${daemonDownSeconds} s.`,
  );
  log(`Broker: SIGKILL, restarted after ${brokerDownSeconds} s. Seconds from the restart until:`);
  log("online = the daemon's retained bridge/state online; first = the first event it publishes; bound =");
  log("every board connected and bound to its game; all = every board's game published again (waits for");
  log("each board's next move). Lost: plies of the simulator's record missing from the published games;");
  log('seq gaps: events missing at the subscriber.');
  log(machineLine());
  log('');
  log('boards  fault    online s  first s  bound s   all s   plies (while down)  lost  seq gaps');
  const results: RecoveryResult[] = [];
  for (const boards of counts)
    for (let trial = 0; trial < trials; trial++) {
      const r = await runRecovery({
        boards,
        bus,
        plySeconds,
        speed,
        games,
        warmupSeconds,
        daemonDownSeconds,
        brokerDownSeconds,
        debug: args.includes('--debug'),
        keep: args.includes('--keep'),
      });
      results.push(r);
      const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-').padStart(7);
      const row = (fault: string, m: typeof r.daemonKill, tail: string) =>
        log(
          `${String(boards).padStart(6)}  ${fault.padEnd(7)} ${f(m.online)}  ${f(m.firstEvent)}  ${f(m.boardsBound)}  ${f(m.allPublishing)}   ${tail}`,
        );
      row(
        'daemon',
        r.daemonKill,
        `${String(r.plies).padStart(5)} (${r.pliesDuringDaemonDown})`.padEnd(18) +
          `${String(r.lostPlies).padStart(5)}  ${String(r.missingSeqs).padStart(8)}`,
      );
      row('broker', r.brokerKill, '(same run)');
    }
  for (const r of results.filter(x => x.lostDetail.length > 0)) {
    const t = (ms: number) => new Date(ms).toISOString().slice(11, 23);
    log(`${r.run.boards} boards: daemon killed ${t(r.killedAt)}, restarted ${t(r.restartedAt)}; lost plies:`);
    for (const line of r.lostDetail) log(`  ${line}`);
  }
  log('');
  log(
    results.every(r => r.lostPlies === 0 && r.missingSeqs === 0)
      ? `Target zero moves lost in every fault: met in every run (${results.length}).`
      : `Target zero moves lost in every fault: MISSED in ${results.filter(r => r.lostPlies > 0 || r.missingSeqs > 0).length} of ${results.length} runs (see lost / seq gaps).`,
  );
  if (args.includes('--report')) {
    const path = writeReportSection(
      'Recovery',
      [`Run: \`${command} --report\`.`, '', '```', ...lines, '```'].join('\n'),
    );
    console.log(`written to ${path}`);
  }
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) await main();
