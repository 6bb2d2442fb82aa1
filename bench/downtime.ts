/**
 * Downtime never decides a result (issue 13, acceptance 4). `chessbridge simulate` (its own process)
 * plays N emulated DGT boards with clocks on PTYs in real time, a compiled daemon (child process)
 * follows them and publishes through mosquitto to a subscriber with a persistent session. The
 * daemon is SIGKILLed and restarted after each downtime of the list (default 5, 15, 30 and 60 s),
 * with play going on throughout. Once the boards stop, every game's published events are checked:
 *
 *  - games ended by the daemon: an `end` the simulator did not play (any end before the game's
 *    last ply, or a loss by illegal moves);
 *  - illegal-move counts or penalties: `illegal_move` and `press_without_move` alerts (the
 *    simulator plays no fault, so each one would come from a downtime);
 *  - every ply played while the daemon was down is in the published game as played, or its
 *    game holds one `board_mismatch` alert for the arbiter (with the candidate orders);
 *  - no ply lost at all, no seq missing.
 *
 *   npx tsx bench/downtime.ts [--boards 20] [--down 5,15,30,60] [--ply-seconds 10] [--warmup 30]
 *                             [--games FILE.pgn] [--debug] [--keep] [--report]
 *
 * `--report` writes the "Downtime" section of docs/benchmarks.md.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMosquitto, waitFor } from '../test/support/mosquitto.js';
import { sharedPath } from '../test/support/shared.js';
import { compileChessbridge, epochNow, machineLine, option, spawnChessbridge } from './latency.js';
import { makeRecorder, writeReportSection } from './report.js';
import { captured, exited, lostPlies, readRecord, startSimulator, startTimingSubscriber } from './venue.js';

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

interface Kill {
  readonly downSeconds: number;
  readonly killedAt: number;
  readonly restartedAt: number;
  /** Seconds from the restart until every board's game published again (NaN: not within a minute). */
  readonly allPublishing: number;
}

interface KillOutcome {
  readonly kill: Kill;
  /** Plies the boards made while the daemon was down. */
  readonly madeWhileDown: number;
  /** Of those, published as played. */
  readonly recovered: number;
  /** Of those not published: in games the arbiter was told of (a board_mismatch alert after the restart). */
  readonly leftToArbiter: number;
  /** Games that had plies made while down. */
  readonly games: number;
}

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const boards = Number(option(args, '--boards', '20'));
  const downs = option(args, '--down', '5,15,30,60').split(',').map(Number);
  const plySeconds = Number(option(args, '--ply-seconds', '10'));
  const warmupSeconds = Number(option(args, '--warmup', '30'));
  const games = option(args, '--games', '') || sharedPath('data/pgn/twic1256.pgn');
  const debug = args.includes('--debug');
  const command =
    `npx tsx bench/downtime.ts ${args.filter(a => !['--report', '--debug', '--keep'].includes(a)).join(' ')}`.trim();
  const { log, lines } = makeRecorder();
  const progress = (what: string) => process.stderr.write(`  ${what}\n`);

  const compiled = compileChessbridge();
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-bench-downtime-'));
  const broker = await startMosquitto({ persistence: true });
  let simulator: ChildProcess | undefined;
  let daemon: ChildProcess | undefined;
  const sub = await startTimingSubscriber(broker.url, 'bench-downtime', {
    persistent: true,
    extra: ['chessbridge/bridge/state'],
  });
  const kills: Kill[] = [];
  try {
    const sim = await startSimulator(
      dir,
      broker.url,
      ['--boards', String(boards), '--games', games, '--ply-seconds', String(plySeconds), '--speed', '1'],
      debug ? 'info' : 'warn',
    );
    simulator = sim.child;
    const startDaemon = () => {
      const child = spawnChessbridge(['run', '-c', sim.config], 'pipe', { compiled });
      return { child, output: captured(child) };
    };
    let d = startDaemon();
    daemon = d.child;
    await waitFor(() => sub.started() >= boards || d.child.exitCode !== null, 600_000, 'every game to start');
    if (d.child.exitCode !== null) throw new Error(`the daemon exited:\n${d.output()}`);
    progress(`every game started; playing ${warmupSeconds} s`);
    await sleep(warmupSeconds * 1000);
    for (const down of downs) {
      daemon.kill('SIGKILL');
      await exited(daemon);
      const killedAt = epochNow();
      progress(`daemon killed; down ${down} s`);
      await sleep(down * 1000);
      const restartedAt = epochNow();
      d = startDaemon();
      daemon = d.child;
      // Recovered: every board's game has published something since the restart.
      const publishing = (): number => {
        let n = 0;
        for (const events of sub.games().values())
          if ([...events.values()].some(e => e.arrivedAt >= restartedAt)) n++;
        return n;
      };
      let allPublishing = Number.NaN;
      await waitFor(() => publishing() >= boards, 60_000, 'every game publishing again')
        .then(() => {
          allPublishing = (epochNow() - restartedAt) / 1000;
        })
        .catch(() => undefined);
      if (daemon.exitCode !== null) throw new Error(`the restarted daemon exited:\n${d.output()}`);
      kills.push({ downSeconds: down, killedAt, restartedAt, allPublishing });
      progress(
        `daemon back (every game publishing after ${allPublishing.toFixed(1)} s); playing ${warmupSeconds} s`,
      );
      await sleep(warmupSeconds * 1000);
    }
    simulator.kill('SIGINT');
    await exited(simulator);
    const plies = readRecord(sim.record).flatMap(r => (r.type === 'ply' ? [r] : []));
    const played = readRecord(sim.record).flatMap(r => (r.type === 'game' ? [r] : []));
    await waitFor(() => lostPlies(plies, sub.moves).length === 0, 30_000, 'every ply').catch(() => undefined);
    const lost = lostPlies(plies, sub.moves);

    // What the daemon decided from the gaps.
    const all = [...sub.games()].flatMap(([game, events]) => [...events.values()].map(e => ({ game, e })));
    const ends = all.filter(({ e }) => e.type === 'end');
    const endedByDaemon = ends.filter(({ game, e }) => {
      const ply = sub.moves(game).length;
      const want = played.find(g => g.game === game);
      const reason = (e as { reason?: string }).reason ?? '';
      return reason.startsWith('illegal_moves') || (want !== undefined && ply < want.sans.length);
    });
    const penalties = all.filter(({ e }) => e.code === 'illegal_move' || e.code === 'press_without_move');
    const mismatches = all.filter(({ e }) => e.type === 'alert' && e.code === 'board_mismatch');
    // A withdrawal names the alert's seq: the board showed the game again.
    const withdrawn = all.filter(({ e }) => e.type === 'alert_withdrawn' && e.code === 'board_mismatch');
    for (const { game, e } of mismatches) {
      const gone = withdrawn.some(w => w.game === game && (w.e as { alert?: number }).alert === e.seq);
      console.log(
        `  ${game} #${e.seq} board_mismatch${gone ? ' (withdrawn)' : ''}: ${(e as { detail?: string }).detail ?? ''}`,
      );
    }
    const outcomes: KillOutcome[] = kills.map(kill => {
      const down = plies.filter(p => p.at >= kill.killedAt && p.at <= kill.restartedAt);
      const missing = down.filter(p => sub.moves(p.game)[p.ply - 1] !== p.san);
      const told = new Set(mismatches.filter(({ e }) => e.arrivedAt >= kill.restartedAt).map(m => m.game));
      return {
        kill,
        madeWhileDown: down.length,
        recovered: down.length - missing.length,
        leftToArbiter: missing.filter(p => told.has(p.game)).length,
        games: new Set(down.map(p => p.game)).size,
      };
    });
    let missingSeqs = 0;
    for (const events of sub.games().values()) missingSeqs += Math.max(...events.keys()) - events.size;

    log(
      'Downtime: chessbridge simulate (own process, DGT boards with clocks on socat PTYs, real time) → compiled',
    );
    log(
      'daemon (child process) → mosquitto (persistence on) → subscriber with a persistent session. The daemon is',
    );
    log(
      "SIGKILLed and restarted after each downtime while play goes on; the boards' move logs (EEPROM) and dumps",
    );
    log(
      `are read at the reconnection. ${boards} boards, games of ${games.split('/').pop() ?? games}, a ply every ${plySeconds} s per board,`,
    );
    log(
      `${warmupSeconds} s of play between kills. Run on ${new Date().toISOString().slice(0, 10)}. ${machineLine()}`,
    );
    log('');
    log(
      '| downtime | plies made while down (games) | published as played | left to the arbiter (one mismatch) | lost | every game publishing again after |',
    );
    log('|---:|---:|---:|---:|---:|---:|');
    for (const o of outcomes) {
      const lostHere = o.madeWhileDown - o.recovered - o.leftToArbiter;
      log(
        `| ${o.kill.downSeconds} s | ${o.madeWhileDown} (${o.games}) | ${o.recovered} | ${o.leftToArbiter} | ${lostHere} | ${Number.isFinite(o.kill.allPublishing) ? `${o.kill.allPublishing.toFixed(1)} s` : 'not within 60 s'} |`,
      );
    }
    log('');
    log(
      `Whole run: ${plies.length} plies played, ${lost.length} not published as played, ${missingSeqs} seq gaps; games ended by the daemon: ${endedByDaemon.length}; illegal-move counts or penalties: ${penalties.length}; board_mismatch alerts: ${mismatches.length} (${withdrawn.length} withdrawn); ends: ${ends.map(({ game, e }) => `${game} ${(e as { result?: string }).result ?? ''}`).join(', ') || 'none'}.`,
    );
    for (const p of lost.slice(0, 10)) log(`- lost: ${p.game} ply ${p.ply} ${p.san}`);
    const met =
      endedByDaemon.length === 0 &&
      penalties.length === 0 &&
      outcomes.every(o => o.recovered + o.leftToArbiter === o.madeWhileDown);
    log('');
    log(
      met
        ? 'Targets met: 0 games ended by the daemon, 0 illegal-move counts or penalties, every ply made while down published or left to the arbiter.'
        : 'Targets MISSED (see above).',
    );
    if (args.includes('--report')) {
      const path = writeReportSection('Downtime', [`Run: \`${command} --report\`.`, '', ...lines].join('\n'));
      console.log(`written to ${path}`);
    }
    process.exitCode = met ? 0 : 1;
  } finally {
    simulator?.kill('SIGINT');
    if (simulator !== undefined) await exited(simulator);
    daemon?.kill('SIGTERM');
    if (daemon !== undefined) await exited(daemon);
    await sub.close();
    await broker.stop();
    if (!args.includes('--keep')) await rm(dir, { recursive: true, force: true });
    else progress(`kept ${dir}`);
  }
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) await main();
