/**
 * A simulated venue for any running daemon: DGT board emulators on socat pseudo-terminal pairs,
 * one board per line or bus lines of several boards, each playing games of a PGN file one after
 * the other with human handling, clocks running and, if asked, faults injected. It writes the
 * daemon's configuration for those lines (`configText`) and reports every ply's last byte on the
 * line and every game played (`play$`), so a benchmark can measure latency and check that nothing
 * was lost.
 *
 *   const venue = new SimulatedVenue({ boards: 3, bus: 2, games, speed: 4, dir, rounds: 1, … });
 *   await venue.start();                                  // the lines exist; point a daemon at them
 *   await writeFile(configPath, venue.configText({ mqttUrl }));
 *   venue.play$().subscribe(record => …);                 // { type: 'ply' | 'game', … }; completes when all games are over
 *
 * Boards wait until the host has read them (a board dump was requested) and then `startDelayMs`,
 * so the daemon has started their game before the first move; between two games a board is
 * cleared and set up again, then waits `startDelayMs` again.
 */
import { join } from 'node:path';
import { Chess } from 'chessops';
import {
  asyncScheduler,
  concat,
  defer,
  EMPTY,
  filter,
  ignoreElements,
  interval,
  merge,
  mergeMap,
  type Observable,
  of,
  race,
  type SchedulerLike,
  take,
  tap,
  timer,
} from 'rxjs';
import { stringify } from 'yaml';
import { DgtBoardEmulator } from '../../drivers/dgt/emulator.js';
import { DgtBusLine } from '../../drivers/dgt/emulatorBus.js';
import type { ScriptStep } from '../../drivers/dgt/emulatorScript.js';
import { EmulatedBoardOnPty } from '../../emulators/emulatorHost.js';
import { deriveSeed } from '../../engine/handling/index.js';
import type { GameLibrary, SimGame } from './games.js';
import { type ClockSetting, gameScript, type Pace } from './script.js';
import { type BoardLetters, lettersOf, resetBoardSteps } from './steps.js';

/** The Laws and clock the simulated games are played under. */
export interface SimLaws {
  readonly gameType: 'standard' | 'rapid';
  /** The time control as the configuration writes it. */
  readonly timeControl: string;
  readonly clock: ClockSetting;
}

export const RAPID_LAWS: SimLaws = {
  gameType: 'rapid',
  timeControl: '15+10',
  clock: { ms: 15 * 60_000, incrementMs: 10_000 },
};
export const STANDARD_LAWS: SimLaws = {
  gameType: 'standard',
  timeControl: '90+30',
  clock: { ms: 90 * 60_000, incrementMs: 30_000 },
};

export interface SimulatedVenueOptions {
  /** Boards (pairing board numbers 1…boards). */
  readonly boards: number;
  /** Boards per bus line; 0 or 1: every board on its own line. A line left with one board is a single line. */
  readonly bus: number;
  /**
   * Games to play, round-robin: board b in round r plays game (b - 1 + (r - 1) × boards) mod games
   * of the file, or the next playable one after it.
   */
  readonly games: GameLibrary;
  /** Games each board plays, one after the other. */
  readonly rounds: number;
  /** Script time runs this many times faster than real time. */
  readonly speed: number;
  readonly pace: Pace;
  /** Mean number of faults per game. */
  readonly faults: number;
  readonly seed: number;
  readonly laws: SimLaws;
  /** Folder of the PTY links. */
  readonly dir: string;
  /** Real time between the host reading a board (or a board set up again) and the first move, ms. */
  readonly startDelayMs: number;
  /** The daemon's settle window (ms, real time); default 300. */
  readonly settleMs?: number;
  /** Epoch milliseconds (for the records); default performance-based. */
  readonly now?: () => number;
  readonly scheduler?: SchedulerLike;
}

/** A ply's last byte went on the line, or a board finished a game. */
export type SimRecord =
  | {
      readonly type: 'ply';
      readonly game: string;
      readonly board: string;
      readonly ply: number;
      readonly san: string;
      /**
       * Epoch ms when the ply's last byte was written: the clock press that completes it, or its
       * last square change on a board without a clock.
       */
      readonly at: number;
      /** Epoch ms of the move's last square change (before the press). */
      readonly squareAt: number;
    }
  | {
      readonly type: 'game';
      readonly game: string;
      readonly board: string;
      /** Position of the game in the PGN file. */
      readonly index: number;
      readonly sans: readonly string[];
      readonly result: string;
      readonly ending: 'rules' | 'gesture';
      readonly faults: readonly string[];
      readonly at: number;
    };

export interface SimLine {
  /** The path the daemon opens. */
  readonly path: string;
  readonly bus: boolean;
  readonly pty: EmulatedBoardOnPty;
  readonly boards: SimBoard[];
}

export interface SimBoard {
  /** Pairing board number (game ids are r<round>-b<number>). */
  readonly number: number;
  readonly id: string;
  readonly serial: string;
  /** The bus address, for boards on a bus line. */
  readonly address: number | undefined;
  readonly emulator: DgtBoardEmulator;
  readonly line: SimLine;
  games: number;
  plies: number;
  faults: number;
}

const SERIAL_BASE = 10000;
/**
 * Real time after a game before the board is cleared, and after the last game before play$
 * completes: a result gesture is read once it has stood for the daemon's quiet time (4 s).
 */
const AFTER_GAME_MS = 6000;
/** socat pairs started at once. */
const START_BATCH = 16;
/** Where in the first second board `i` of `n` starts (ms): the starts spread evenly over it. */
export const startSpreadMs = (i: number, n: number): number => Math.floor((i * 1000) / Math.max(1, n));

/** The longest a finished bus board waits for the poller to read its last changes (ms, real time). */
const READ_OUT_MS = 60_000;
/** How often the boards check whether the host has read them (ms). */
const POLL_MS = 100;

export const defaultNow = (): number => performance.timeOrigin + performance.now();

export class SimulatedVenue {
  readonly lines: SimLine[] = [];
  private readonly squares = new Map<SimBoard, BoardLetters>();

  constructor(private readonly options: SimulatedVenueOptions) {
    if (options.games.playableFrom(0) === undefined) throw new TypeError('SimulatedVenue: no games to play');
  }

  get boards(): SimBoard[] {
    return this.lines.flatMap(l => l.boards);
  }

  /** Starts every line's PTY pair and its emulators; on failure stops what was started and throws. */
  async start(): Promise<void> {
    const { boards, bus, dir, speed } = this.options;
    const perLine = Math.max(1, bus);
    try {
      for (let first = 1, n = 1; first <= boards; first += perLine, n++) {
        const count = Math.min(perLine, boards - first + 1);
        const onBus = count > 1;
        const numbers = Array.from({ length: count }, (_, i) => first + i);
        const emulators = numbers.map(
          number =>
            new DgtBoardEmulator({
              serial: String(SERIAL_BASE + number),
              // Every fourth board has a DGT XL, the others a DGT3000.
              clock: { model: number % 4 === 0 ? 'xl' : 'dgt3000' },
            }),
        );
        const path = join(dir, onBus ? `bus-${n}` : `board-${first}`);
        const pty = new EmulatedBoardOnPty({
          hostPath: path,
          devicePath: `${path}.emulator`,
          emulator: onBus ? new DgtBusLine(emulators) : (emulators[0] as DgtBoardEmulator),
          speed,
          seed: n,
        });
        const line: SimLine = { path, bus: onBus, pty, boards: [] };
        this.lines.push(line);
        numbers.forEach((number, i) => {
          const emulator = emulators[i] as DgtBoardEmulator;
          const board: SimBoard = {
            number,
            id: `sim-${number}`,
            serial: emulator.serial,
            address: onBus ? emulator.address : undefined,
            emulator,
            line,
            games: 0,
            plies: 0,
            faults: 0,
          };
          line.boards.push(board);
          this.squares.set(board, lettersOf(Chess.default().board));
        });
      }
      // socat pairs start a batch at a time (hundreds of lines start in seconds, not minutes).
      for (let i = 0; i < this.lines.length; i += START_BATCH)
        await Promise.all(this.lines.slice(i, i + START_BATCH).map(l => l.pty.start()));
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  /** Stops every emulator and PTY pair (no socat is left running). */
  async stop(): Promise<void> {
    await Promise.allSettled(this.lines.map(l => l.pty.stop()));
  }

  /** The game board `board` (0-based position) plays in `round` (1-based). */
  gameFor(board: number, round: number): SimGame {
    const { games, boards } = this.options;
    const g = games.playableFrom(board + (round - 1) * boards);
    if (g === undefined) throw new TypeError('SimulatedVenue: no games to play');
    return g;
  }

  /** The daemon's configuration for these lines (YAML; `chessbridge check` accepts it). */
  configText(o: {
    /** External broker; absent: the daemon's embedded broker. */
    readonly mqttUrl?: string;
    readonly baseTopic?: string;
    readonly clientId?: string;
    readonly journalDir: string;
    readonly logLevel?: 'error' | 'warn' | 'info' | 'debug';
  }): string {
    const { rounds, laws } = this.options;
    const boards = this.boards;
    return stringify({
      version: 1,
      tournament: { name: 'chessbridge simulation', site: 'simulated venue', rounds },
      laws: { edition: 'E23', gameType: laws.gameType, supervision: 'full', timeControl: laws.timeControl },
      journal: { dir: o.journalDir },
      mqtt: {
        ...(o.mqttUrl === undefined ? {} : { url: o.mqttUrl }),
        baseTopic: o.baseTopic ?? 'chessbridge',
        clientId: o.clientId ?? 'chessbridge-simulate',
      },
      http: { enabled: false },
      boards: boards.map(b => ({
        id: b.id,
        driver: b.address === undefined ? 'dgt' : 'dgt-bus',
        port: b.line.path,
        ...(b.address === undefined ? {} : { busAddress: b.address }),
        serial: b.serial,
        clock: b.emulator.clock !== undefined,
      })),
      pairings: boards.flatMap((b, i) =>
        Array.from({ length: rounds }, (_, r) => {
          const g = this.gameFor(i, r + 1);
          return {
            round: r + 1,
            board: b.number,
            serial: b.serial,
            white: { name: g.white },
            black: { name: g.black },
          };
        }),
      ),
      logging: { level: o.logLevel ?? 'info', format: 'text' },
    });
  }

  /** Whether the host has asked this board for its pieces (it is being read). */
  private isRead(b: SimBoard): boolean {
    return b.emulator.received.some(c =>
      b.address === undefined
        ? c.kind === 'send-board'
        : c.kind === 'bus' && c.command === 'send-board' && c.address === b.address,
    );
  }

  /**
   * Completes once the host has read what the board has played: at once for a board that sends
   * its changes by itself; for a bus board, when the poller has asked for its changes twice since
   * its last change (the second request shows the first answer arrived), or after READ_OUT_MS.
   * A daemon slowed down by a busy machine polls late; closing the line before would lose its
   * last moves.
   */
  private readOut$(b: SimBoard, scheduler: SchedulerLike): Observable<never> {
    if (b.address === undefined) return EMPTY;
    const from = b.emulator.changeRequests;
    const polls = (): number => b.emulator.changeRequests - from;
    return race(
      interval(POLL_MS, scheduler).pipe(
        filter(() => polls() >= 2),
        take(1),
      ),
      timer(READ_OUT_MS, scheduler),
    ).pipe(take(1), ignoreElements());
  }

  /** Plays every board's games (see the module comment); completes when all are over. */
  play$(): Observable<SimRecord> {
    const scheduler = this.options.scheduler ?? asyncScheduler;
    const now = this.options.now ?? defaultNow;
    const boards = this.boards;
    const board$ = (b: SimBoard, index: number): Observable<SimRecord> => {
      const runner = b.line.pty.runner;
      const busBoard = b.address === undefined ? {} : { board: b.address };
      let squareAt = 0;
      const track = (step: ScriptStep): void => {
        const squares = this.squares.get(b);
        if (step.kind !== 'square' || typeof step.square !== 'number') return;
        if (squares !== undefined) squares[step.square] = step.piece;
        squareAt = now();
      };
      const game$ = (round: number): Observable<SimRecord> =>
        defer(() => {
          const g = this.gameFor(index, round);
          const id = `r${round}-b${b.number}`;
          const script = gameScript(g, {
            seed: deriveSeed(this.options.seed, (round - 1) * this.options.boards + index),
            speed: this.options.speed,
            pace: this.options.pace,
            faults: this.options.faults,
            clock: this.options.laws.clock,
            ...(this.options.settleMs === undefined ? {} : { settleMs: this.options.settleMs }),
            ...busBoard,
            plyEnd: b.emulator.clock === undefined ? 'square' : 'press',
          });
          b.faults += script.faults.length;
          const played$ = runner.play$(script.steps).pipe(
            tap(track),
            mergeMap((step): Observable<SimRecord> => {
              const ply = script.plyEnds.get(step);
              if (ply === undefined) return EMPTY;
              b.plies++;
              return of({
                type: 'ply',
                game: id,
                board: b.id,
                ply,
                san: g.sans[ply - 1] ?? '',
                // A ply that ends with a square change (a board without a clock) ends at that change.
                at: step.kind === 'square' ? squareAt : now(),
                squareAt,
              });
            }),
          );
          const done$ = defer(() => {
            b.games++;
            if (script.plyEnds.size === 0) b.plies += g.sans.length;
            return of<SimRecord>({
              type: 'game',
              game: id,
              board: b.id,
              index: g.index,
              sans: g.sans,
              result: g.ending.result,
              ending: g.ending.kind,
              faults: script.faults,
              at: now(),
            });
          });
          const pause$ = (ms: number): Observable<never> => timer(ms, scheduler).pipe(ignoreElements());
          const next$ =
            round < this.options.rounds
              ? concat(
                  pause$(AFTER_GAME_MS),
                  defer(() => runner.play$(resetBoardSteps(this.squares.get(b) ?? [], busBoard))).pipe(
                    tap(track),
                    ignoreElements(),
                  ),
                  pause$(this.options.startDelayMs),
                )
              : concat(
                  pause$(AFTER_GAME_MS),
                  defer(() => this.readOut$(b, scheduler)),
                );
          return concat(played$, done$, next$);
        });
      const ready$ = interval(POLL_MS, scheduler).pipe(
        filter(() => this.isRead(b)),
        take(1),
        // Clocks started across one second, as in a hall (not all in the same millisecond): their
        // once-a-second messages do not all reach the daemon at once.
        mergeMap(() => timer(this.options.startDelayMs + startSpreadMs(index, boards.length), scheduler)),
        ignoreElements(),
      );
      return concat(ready$, ...Array.from({ length: this.options.rounds }, (_, r) => game$(r + 1)));
    };
    return merge(...boards.map((b, i) => board$(b, i)));
  }
}
