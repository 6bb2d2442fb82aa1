/**
 * `chessbridge demo`: a venue on one machine. N DGT board emulators, each served on a socat
 * pseudo-terminal pair as a real board would be on a serial line, play well-known games with
 * human handling (the handling generator of src/engine/handling: pieces slid, captures in every
 * order, ghosts, presses), their clocks running; the daemon reads them like any boards, through
 * its configuration (generated here), and publishes to its embedded broker and web display.
 *
 * The players and pairings of the first round come from a FIDE TRF file (examples/demo-open.trf,
 * as a pairing program exports it), read by the daemon through `tournament.pairingsFile`; boards
 * and rounds beyond the file's play the famous games under their own players' names. The folder
 * export is written under `dir` and public outputs run `delayMinutes` behind.
 *
 *   const demo = new DemoVenue({ boards: 4, speed: 2, dir, rounds: 1, pairingsFile, fileGames });
 *   await demo.start();                                   // PTY pairs up, emulators answering
 *   const config = (await loadConfig({ text: demo.configText(ports) })).unwrap();
 *   merge(daemon.pipeline$(), demo.play$(daemon))          // the games, round after round
 *
 * `speed` compresses the players' time: thinking, handling and the clock run `speed` times
 * faster; the handling keeps the daemon's settle window in real time, so recognition sees what
 * it would see at a board.
 */
import { join } from 'node:path';
import { Chess } from 'chessops';
import {
  concat,
  defer,
  delay,
  filter,
  from,
  interval,
  map,
  merge,
  type Observable,
  type SchedulerLike,
  switchMap,
  take,
  timer,
  ignoreElements,
  asyncScheduler,
} from 'rxjs';
import { stringify } from 'yaml';
import type { ClockCommand } from '../../drivers/dgt/clockCommands.js';
import { DgtBoardEmulator } from '../../drivers/dgt/emulator.js';
import { DgtEmulatorRunner } from '../../drivers/dgt/emulatorRunner.js';
import { dgtSession$ } from '../../drivers/dgt/session.js';
import type { Observation } from '../../drivers/observation.js';
import { createMemoryLink, type MemoryTransport } from '../../drivers/transport/memory.js';
import type { ScriptStep } from '../../drivers/dgt/emulatorScript.js';
import { EmulatedBoardOnPty } from '../../emulators/emulatorHost.js';
import { generateHandling } from '../../engine/handling/index.js';
import { parseSan } from 'chessops/san';
import type { BoardConfig } from '../config/index.js';
import { lettersOf, resetBoardSteps, stepsOfEvents } from './steps.js';
import type { BoardRegistry } from '../daemon/boards.js';
import type { BoardOpener } from '../daemon/drivers.js';
import { DEMO_GAMES, sansOf, type DemoGame } from './demoGames.js';

/** The demo's arbiter user, and the variable its generated secret is handed over in. */
export const DEMO_ARBITER = 'arbiter';
export const DEMO_ARBITER_ENV = 'CB_DEMO_ARBITER_PASSWORD';

export interface DemoOptions {
  /** Emulated boards (default 4). */
  readonly boards: number;
  /** How much faster than real time the players act (default 1). */
  readonly speed: number;
  /** Rounds each board plays (default 1 with --once, else 20). */
  readonly rounds: number;
  /** Folder for the PTY links and the journal. */
  readonly dir: string;
  /** Seed of the handling (default 1). */
  readonly seed?: number;
  /** The daemon's settle window (ms), kept in real time. */
  readonly settleMs?: number;
  readonly scheduler?: SchedulerLike;
  /**
   * 'pty': every board on a socat pseudo-terminal pair, opened by the daemon as a serial port (the
   * default); 'memory': in-process links, for machines without socat.
   */
  readonly link?: 'pty' | 'memory';
  /** The daemon's clock (memory links stamp what they carry with it). */
  readonly now?: () => number;
  /** Absolute path of the pairings file the daemon reads (`tournament.pairingsFile`). */
  readonly pairingsFile?: string;
  /** The rounds and boards that file pairs: the demo's own pairings leave them to it. */
  readonly fileGames?: readonly { readonly round: number; readonly board: number }[];
  /** `broadcast.delayMinutes` (default 0). */
  readonly delayMinutes?: number;
}

/** The demo open's pairings file, in examples/ beside the package's code. */
export const DEMO_PAIRINGS = 'demo-open.trf';

export interface DemoPorts {
  readonly mqtt: number;
  readonly ws: number;
  readonly http: number;
}

const CLOCK_MS = 15 * 60_000;
const INCREMENT_MS = 10_000;

const movesOf = (game: DemoGame) => {
  const pos = Chess.default();
  return sansOf(game).map(san => {
    const move = parseSan(pos, san);
    if (move === undefined) throw new TypeError(`demo game ${game.event}: illegal ${san}`);
    pos.play(move);
    return move;
  });
};

/** The emulator steps of one game played with human handling, the clock set and running first. */
export const demoSteps = (game: DemoGame, seed: number, speed: number, settleMs: number): ScriptStep[] => {
  const run = generateHandling(Chess.default(), movesOf(game), {
    seed,
    clock: 'press',
    tempo: 'rapid',
    // The window in script time that is the daemon's window in real time, with a margin.
    settleMs: Math.ceil(settleMs * speed * 1.3),
    tailMs: 0,
  });
  return [
    { at: 0, kind: 'clock-set', left: CLOCK_MS, right: CLOCK_MS, run: 'left', incrementMs: INCREMENT_MS },
    ...stepsOfEvents(run.events, { startAt: 1000 }),
  ];
};

/** Steps that put the pieces back in the start position (a board cleared and set up). */
export const setupSteps = (game: DemoGame): ScriptStep[] => {
  const pos = Chess.default();
  for (const m of movesOf(game)) pos.play(m);
  return resetBoardSteps(lettersOf(pos.board));
};

/** One emulated board: served on a PTY pair, or on an in-process link. */
interface Emulated {
  readonly id: string;
  readonly serial: string;
  /** What the daemon's configuration names as the board's port. */
  readonly path: string;
  readonly runner: DgtEmulatorRunner;
  readonly pty: EmulatedBoardOnPty | undefined;
  readonly host: MemoryTransport | undefined;
}

export class DemoVenue {
  private readonly emulated: Emulated[] = [];

  constructor(private readonly options: DemoOptions) {}

  /** The folder export's folder (`broadcast.folder`). */
  get exportFolder(): string {
    return join(this.options.dir, 'broadcast');
  }

  /** Board ids, serial numbers and the paths the daemon opens. */
  get boards(): readonly { id: string; serial: string; path: string }[] {
    return this.emulated.map(e => ({ id: e.id, serial: e.serial, path: e.path }));
  }

  /** Starts the emulators (each board in the start position, a DGT3000 attached) on their links. */
  async start(): Promise<void> {
    for (let i = 1; i <= this.options.boards; i++) {
      const serial = String(20000 + i).padStart(5, '0');
      const emulator = new DgtBoardEmulator({ serial });
      const id = `demo-${i}`;
      if (this.options.link === 'memory') {
        const link = createMemoryLink({
          ...(this.options.now === undefined ? {} : { now: this.options.now }),
          names: [`memory:${id}`, `memory:${id}.emulator`],
        });
        const runner = new DgtEmulatorRunner({ transport: link.device, emulator, speed: this.options.speed });
        runner.start();
        this.emulated.push({ id, serial, path: link.host.path, runner, pty: undefined, host: link.host });
        continue;
      }
      const pty = new EmulatedBoardOnPty({
        hostPath: join(this.options.dir, `board-${i}`),
        devicePath: join(this.options.dir, `board-${i}.emulator`),
        emulator,
        speed: this.options.speed,
      });
      this.emulated.push({ id, serial, path: pty.hostPath, runner: pty.runner, pty, host: undefined });
      await pty.start();
    }
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.emulated.map(e => (e.pty === undefined ? e.runner.stop() : e.pty.stop())));
  }

  /** For in-process links: how the daemon opens each board (undefined: as serial ports). */
  opener(): BoardOpener | undefined {
    if (this.options.link !== 'memory') return undefined;
    return (board: BoardConfig, clock$: Observable<ClockCommand>): Observable<Observation> => {
      const host = this.emulated.find(e => e.id === board.id)?.host;
      if (host === undefined) return from([]);
      return dgtSession$(host, {
        ...(this.options.now === undefined ? {} : { now: this.options.now }),
        orientation: board.orientation,
        clock: board.clock,
        clockCommands$: clock$,
      });
    };
  }

  private gameFor(board: number, round: number): DemoGame {
    return DEMO_GAMES[(board - 1 + (round - 1) * 3) % DEMO_GAMES.length] ?? (DEMO_GAMES[0] as DemoGame);
  }

  /**
   * The daemon's configuration for the venue (YAML), validated by the caller with loadConfig. The
   * arbiter's secret is read from DEMO_ARBITER_ENV, which the caller sets to a generated one.
   */
  configText(ports: DemoPorts): string {
    const { rounds, pairingsFile, fileGames = [] } = this.options;
    const fromFile = new Set(fileGames.map(g => `${g.round}/${g.board}`));
    return stringify({
      version: 1,
      tournament: {
        name: 'chessbridge demo open',
        site: 'this machine',
        rounds: Math.max(rounds, ...fileGames.map(g => g.round)),
        ...(pairingsFile === undefined ? {} : { pairingsFile }),
      },
      laws: { edition: 'E23', gameType: 'rapid', supervision: 'full', timeControl: '15+10' },
      journal: { dir: join(this.options.dir, 'journal'), checkpointSeconds: 5 },
      mqtt: {
        baseTopic: 'chessbridge',
        clientId: 'chessbridge-demo',
        // One machine: the pages read without credentials; the arbiter logs in (docs/security.md).
        broker: { host: '127.0.0.1', port: ports.mqtt, wsPort: ports.ws, anonymousRead: true },
      },
      users: [{ name: DEMO_ARBITER, role: 'arbiter', passwordEnv: DEMO_ARBITER_ENV }],
      http: { enabled: true, host: '127.0.0.1', port: ports.http },
      broadcast: { folder: this.exportFolder, delayMinutes: this.options.delayMinutes ?? 0 },
      // A board plays the file's game with its board number, the demo's own by its serial.
      boards: this.emulated.map((e, i) => ({
        id: e.id,
        driver: 'dgt',
        port: e.path,
        serial: e.serial,
        number: i + 1,
        clock: true,
      })),
      pairings: this.emulated.flatMap((e, i) =>
        Array.from({ length: rounds }, (_, r) => r + 1).flatMap(round => {
          if (fromFile.has(`${round}/${i + 1}`)) return [];
          const game = this.gameFor(i + 1, round);
          return [
            {
              round,
              board: i + 1,
              serial: e.serial,
              white: { name: game.white },
              black: { name: game.black },
            },
          ];
        }),
      ),
      logging: { level: 'info', format: 'text' },
    });
  }

  /**
   * Plays every board's rounds: waits until the daemon has started the board's game, plays it,
   * waits until the daemon has finished it, sets the pieces up again. Completes when every board
   * has played its rounds.
   */
  play$(boards: BoardRegistry): Observable<never> {
    const scheduler = this.options.scheduler ?? asyncScheduler;
    const settleMs = this.options.settleMs ?? 300;
    const gameOn = (
      id: string,
      want: (game: string | undefined) => boolean,
    ): Observable<string | undefined> =>
      interval(100, scheduler).pipe(
        map(() => boards.get(id)?.status.game),
        filter(want),
        take(1),
      );
    const boardRounds$ = (index: number): Observable<never> => {
      const e = this.emulated[index];
      if (e === undefined) return from([]).pipe(ignoreElements());
      const round$ = (round: number): Observable<unknown> =>
        gameOn(e.id, g => g !== undefined).pipe(
          delay(500, scheduler),
          switchMap(game => {
            const demoGame = this.gameFor(index + 1, round);
            const seed = (this.options.seed ?? 1) * 1000 + index * 37 + round;
            return concat(
              e.runner.play$(demoSteps(demoGame, seed, this.options.speed, settleMs)),
              gameOn(e.id, g => g !== game),
              round < this.options.rounds
                ? timer(2000, scheduler).pipe(switchMap(() => e.runner.play$(setupSteps(demoGame))))
                : [],
            );
          }),
        );
      return defer(() =>
        concat(...Array.from({ length: this.options.rounds }, (_, r) => round$(r + 1))),
      ).pipe(ignoreElements());
    };
    return merge(...this.emulated.map((_, i) => boardRounds$(i)));
  }
}

/** `preferred` if nothing listens there on loopback, else a free port the system picks. */
export const portOr = async (preferred: number): Promise<number> => {
  const { createServer } = await import('node:net');
  const tryListen = (port: number): Promise<number | undefined> =>
    new Promise(resolve => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        const got = typeof address === 'object' && address !== null ? address.port : undefined;
        server.close(() => resolve(got));
      });
    });
  return (await tryListen(preferred)) ?? (await tryListen(0)) ?? preferred;
};

/** Whether a program is on PATH. */
export const hasProgram = async (name: string): Promise<boolean> => {
  const { access } = await import('node:fs/promises');
  const dirs = (process.env.PATH ?? '').split(':').filter(d => d !== '');
  for (const dir of dirs) {
    try {
      await access(join(dir, name), 1);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
};
