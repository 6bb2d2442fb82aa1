/**
 * `chessbridge simulate`: reads the games, starts the simulated venue, writes the daemon's
 * configuration, says where everything is, plays until stopped (or, with --once, until every
 * board has played its games), and reports what each board played.
 *
 *   const code = await runSimulate(request, { out, err, stopped: firstSignal() });
 *   // chessbridge run -c <the configuration printed> reads the boards meanwhile
 */
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Subscription } from 'rxjs';
import { LINK_BYTES_PER_SECOND } from '../../drivers/dgt/constants.js';
import { getProfile } from '../../engine/editions.js';
import { decodePgnBytes } from '../../engine/pgnRead.js';
import { loadConfig } from '../config/index.js';
import { hasProgram } from './demo.js';
import { GameLibrary } from './games.js';
import type { SimulateRequest } from './request.js';
import { RAPID_LAWS, type SimRecord, SimulatedVenue, STANDARD_LAWS } from './venue.js';

export interface SimulateIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Resolves when the simulation should stop (SIGINT, SIGTERM), with the reason. */
  readonly stopped: Promise<string>;
}

/** Plies slower than this (seconds) are played under a standard time control, faster ones under rapid. */
const RAPID_UP_TO_SECONDS = 15;
/** Lines of the venue listed by name (the configuration lists them all). */
const LISTED_LINES = 12;

/** At the link maximum, the least time per ply on a bus line: two poll cycles of the daemon (500 ms). */
const BUS_PLY_MS = 1000;
/** After a stop, the lines stay up this long (ms) so the host reads what was played last. */
const DRAIN_MS = 2000;

const startDelayMs = (boards: number): number => 3000 + 10 * boards;

const closeStream = (s: WriteStream | undefined): Promise<void> =>
  new Promise(resolve => (s === undefined ? resolve() : s.end(() => resolve())));

/** Runs the simulator; resolves to the exit code. */
export const runSimulate = async (request: SimulateRequest, io: SimulateIo): Promise<number> => {
  if (!(await hasProgram('socat'))) {
    io.err('chessbridge simulate: socat is not installed; every board line is a socat pseudo-terminal pair');
    return 1;
  }
  let text: string;
  try {
    text = decodePgnBytes(await readFile(request.games));
  } catch (e) {
    io.err(`chessbridge simulate: cannot read ${request.games}: ${(e as Error).message}`);
    return 1;
  }
  const slow = request.plySeconds !== undefined && request.plySeconds > RAPID_UP_TO_SECONDS;
  const laws = slow ? STANDARD_LAWS : RAPID_LAWS;
  const games = new GameLibrary(text, getProfile('E23', laws.gameType));
  if (games.playableFrom(0) === undefined) {
    io.err(`chessbridge simulate: ${request.games} has no game to play (${games.size} in the file)`);
    for (const s of games.skipped().slice(0, 5)) io.err(`  game ${s.index}: ${s.reason}`);
    return 1;
  }
  const rounds = request.rounds ?? Math.min(999, Math.ceil(games.size / request.boards));
  const ownDir = request.dir === undefined;
  const dir = resolve(request.dir ?? (await mkdtemp(join(tmpdir(), 'chessbridge-simulate-'))));
  await mkdir(dir, { recursive: true });
  const journalDir = join(dir, `journal-${Date.now().toString(36)}`);
  const configPath = resolve(request.configOut ?? join(dir, 'chessbridge-simulate.yaml'));
  const venue = new SimulatedVenue({
    boards: request.boards,
    bus: request.bus,
    games,
    rounds,
    speed: request.linkMax ? 1 : request.speed,
    pace: request.linkMax
      ? {
          kind: 'link-max',
          bytesPerSecond: LINK_BYTES_PER_SECOND / Math.max(1, request.bus),
          minPlyMs: request.bus > 1 ? BUS_PLY_MS : 0,
        }
      : { kind: 'human', ...(request.plySeconds === undefined ? {} : { plyMs: request.plySeconds * 1000 }) },
    faults: request.faults,
    seed: request.seed,
    laws,
    dir,
    startDelayMs: startDelayMs(request.boards),
  });
  let record: WriteStream | undefined;
  let subscription: Subscription | undefined;
  try {
    await venue.start();
    const config = venue.configText({
      ...(request.mqtt === undefined ? {} : { mqttUrl: request.mqtt }),
      journalDir,
    });
    const checked = await loadConfig({ text: config, name: basename(configPath) });
    if (checked.isErr) {
      io.err(`chessbridge simulate: the configuration written is invalid: ${checked.error.message}`);
      return 1;
    }
    await writeFile(configPath, config);
    if (request.record !== undefined) record = createWriteStream(request.record, { flags: 'w' });

    const lines = venue.lines;
    const busLines = lines.filter(l => l.bus).length;
    const skipped = games.skipped().length;
    const pace = request.linkMax
      ? 'plain moves as fast as a 9600-baud line carries them'
      : `${request.plySeconds === undefined ? 'rapid tempo' : `a ply every ${request.plySeconds} s per board on average`}, speed ${request.speed}×`;
    io.out(
      `chessbridge simulate: ${request.boards} emulated DGT boards on ${lines.length} lines` +
        `${busLines > 0 ? ` (${busLines} bus lines of up to ${request.bus} boards)` : ''}`,
    );
    io.out(
      `  games          ${games.size} in ${request.games}, ${rounds} per board${skipped > 0 ? ` (${skipped} not playable: the next one is played)` : ''}, ${laws.gameType} ${laws.timeControl}`,
    );
    io.out(`  pace           ${pace}; faults ${request.faults} per game; seed ${request.seed}`);
    for (const l of lines.slice(0, LISTED_LINES))
      io.out(`  ${l.bus ? 'bus line' : 'board   '}       ${l.path}  ${l.boards.map(b => b.id).join(' ')}`);
    if (lines.length > LISTED_LINES) io.out(`  …              ${lines.length - LISTED_LINES} more lines`);
    io.out(`  configuration  ${configPath}`);
    io.out(`  start a daemon chessbridge run -c ${configPath}`);
    io.out(
      request.once
        ? '  exits when every board has played its games'
        : '  Ctrl-C to stop (the boards stay connected after their games)',
    );
    io.out('');

    const write = (r: SimRecord) => record?.write(`${JSON.stringify(r)}\n`);
    const play = new Promise<string>(resolve => {
      subscription = venue.play$().subscribe({
        next: r => {
          write(r);
          if (r.type === 'game')
            io.out(
              `${r.game} ${r.board}: game ${r.index}, ${r.sans.length} plies, ${r.result} (${r.ending === 'rules' ? 'by the rules' : 'result gesture'})` +
                `${r.faults.length > 0 ? `, faults: ${r.faults.join(' ')}` : ''}`,
            );
        },
        complete: () => resolve('games over'),
        error: (e: unknown) => resolve(`failed: ${e instanceof Error ? e.message : String(e)}`),
      });
    });
    let reason = await Promise.race([play, io.stopped]);
    if (reason === 'games over' && !request.once) {
      io.out('every board has played its games; Ctrl-C to stop');
      reason = await io.stopped;
    }
    subscription?.unsubscribe();
    if (reason !== 'games over') await new Promise(resolve => setTimeout(resolve, DRAIN_MS));
    io.out('');
    io.out(`stopped (${reason}); what each board played:`);
    io.out('board      line                                   games  plies  faults');
    for (const b of venue.boards)
      io.out(
        `${b.id.padEnd(10)} ${b.line.path.padEnd(38)} ${String(b.games).padStart(5)}  ${String(b.plies).padStart(5)}  ${String(b.faults).padStart(6)}`,
      );
    const total = venue.boards.reduce((t, b) => ({ games: t.games + b.games, plies: t.plies + b.plies }), {
      games: 0,
      plies: 0,
    });
    io.out(`total: ${total.games} games, ${total.plies} plies on ${request.boards} boards`);
    if (ownDir && existsSync(journalDir)) io.out(`the daemon's journal stays in ${journalDir}`);
    if (reason.startsWith('failed')) {
      io.err(`chessbridge simulate: ${reason}`);
      return 1;
    }
    return 0;
  } catch (e) {
    io.err(`chessbridge simulate: ${(e as Error).message}`);
    return 1;
  } finally {
    subscription?.unsubscribe();
    await venue.stop();
    await closeStream(record);
    // A temporary folder goes, unless a daemon has written its journal there.
    if (ownDir && !existsSync(journalDir)) await rm(dir, { recursive: true, force: true });
  }
};
