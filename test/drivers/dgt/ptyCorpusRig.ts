/**
 * Corpus games end to end on real serial lines, one board per socat PTY pair: the DGT board
 * emulator plays a corpus game as the human-handling generator makes it (lifts, places, slides,
 * ghosts, clock presses), the real SerialTransport and the DGT session read it, and the
 * recogniser must give back exactly the original moves. ptyCorpusBus.ts does the same for a bus
 * line of boards.
 *
 *   const r = await playOnPty(game, { seed: 7, speed: 400, unplug: { ply: 30, plies: 1, when: 'mid-move' } });
 *   expect(r.problems).toEqual([]);
 *
 * How every read is stamped with script time whatever the load, how presses travel, and what an
 * unplugged cable hides: ptyCorpusKit.ts.
 */
import { join } from 'node:path';
import { tap } from 'rxjs';
import type { Color } from 'chessops';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { dgtSession$ } from '../../../src/drivers/dgt/session.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../../src/emulators/emulatorHost.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import type { Chunk, Transport } from '../../../src/drivers/transport/transport.js';
import type { Game } from '../../../src/engine/game.js';
import { generateForGame, type HandlingRun } from '../../../src/engine/handling/generator.js';
import {
  type BoardEvent,
  contentsOfBoard,
  type SensedContent,
  sameContent,
} from '../../../src/engine/recognition/boardEvent.js';
import { adoptPtyPair, makeLinkDir, trackPid } from '../../support/pty.js';
import {
  boardEventsOf,
  letter,
  Pace,
  recognise,
  ScriptClock,
  scriptScheduler,
  Waiter,
  WARMUP_MS,
} from './ptyCorpusKit.js';

/** Session timings for a PTY: no real board latency, so everything can be short. */
const FAST = { openDelayMs: 50, commandGapMs: 20, settleMs: 150, backoff: { initialMs: 50, maxMs: 400 } };
/** The clock at the start: 90 minutes each, 30 s increment, White's clock running. */
const CLOCK_SET = { left: 5_400_000, right: 5_400_000, run: 'left', incrementMs: 30_000 } as const;

/** The ply whose position a snapshot shows (searched from `from`), if any. */
const plyShown = (game: Game, squares: readonly SensedContent[], from: number): number | undefined => {
  for (let ply = Math.max(0, from); ply <= game.length; ply++) {
    const want = contentsOfBoard(game.positionAt(ply).board);
    if (want.every((c, sq) => sameContent(c, squares[sq] ?? 'empty'))) return ply;
  }
  return undefined;
};

const sideOf = (color: Color): 'left' | 'right' => (color === 'white' ? 'left' : 'right');

/**
 * Where the cable is pulled: in ply `ply`, just after its first sensor event (`mid-move`: the
 * mover has lifted a piece) or before it (`thinking`: after the previous press). It is plugged
 * back after the press that ends ply `ply + plies - 1`: the rest of those plies is made unseen.
 */
export interface Unplug {
  readonly ply: number;
  readonly plies: number;
  readonly when: 'mid-move' | 'thinking';
}

export interface PtyGameOptions {
  /** Seed of the human handling. */
  readonly seed: number;
  /** Script time runs at most this many times faster than real time (a floor on the pace). */
  readonly speed: number;
  /** Pull the cable once, mid-game (games played with a clock only). */
  readonly unplug?: Unplug;
  /** Every read the host receives (e.g. for a capture), stamped with script time. */
  readonly onRead?: (chunk: Chunk) => void;
}

export interface Outage {
  /** Plies made (entirely or in part) while the cable was out. */
  readonly plies: readonly number[];
  /** Square changes made while the cable was out (their field updates are lost). */
  readonly squaresUnseen: number;
  /** Presses made while the cable was out (unseen). */
  readonly pressesUnseen: number;
  /** The ply whose position the fresh dump after the reconnection showed. */
  readonly dumpShowsPly: number | undefined;
}

export interface PtyGameResult {
  /** What the recogniser got wrong (empty: exactly the original moves, nothing false reported). */
  readonly problems: readonly string[];
  readonly recognised: readonly string[];
  readonly plies: number;
  /** Square changes the generator made at the board. */
  readonly squareEvents: number;
  /** Square observations the session delivered. */
  readonly squares: number;
  /** Clock presses the generator made. */
  readonly pressEvents: number;
  /** Presses the recogniser got from the clock's lever. */
  readonly presses: number;
  readonly links: readonly string[];
  readonly outage?: Outage;
  readonly observations: readonly Observation[];
}

/**
 * Plies of the generator's events: ply n starts at the first sensor event after press n-1 and
 * ends with press n. Only for games played with a clock.
 */
const pressIndices = (events: readonly BoardEvent[]): number[] =>
  events.flatMap((e, i) => (e.kind === 'press' ? [i] : []));

/** The human handling of a game as the runs here play it (to choose games, e.g. with a clock). */
export const handlingFor = (game: Game, seed: number): HandlingRun =>
  generateForGame(game, { seed, startAt: WARMUP_MS });

/** One corpus game on one emulated board behind a socat PTY pair, through the real transport. */
export const playOnPty = async (game: Game, options: PtyGameOptions): Promise<PtyGameResult> => {
  const handling = handlingFor(game, options.seed);
  const events = [...handling.events].sort((a, b) => a.at - b.at);
  const endMs = events.at(-1)?.at ?? WARMUP_MS;
  const clock = new ScriptClock();
  const dir = makeLinkDir();
  const emulator = new DgtBoardEmulator();
  const board = new EmulatedBoardOnPty({
    hostPath: join(dir, 'board'),
    devicePath: join(dir, 'emulator'),
    emulator,
    scheduler: scriptScheduler(clock),
  });
  await board.start();
  adoptPtyPair(board.pair, dir);
  const { runner } = board;
  const waiter = new Waiter();
  const ledger = { received: 0, writtenOff: 0 };
  const serial = new SerialTransport({ path: board.hostPath, now: clock.now });
  const transport: Transport = {
    path: serial.path,
    open: () => serial.open(),
    write: b => serial.write(b),
    close: () => serial.close(),
    bytes$: serial.bytes$.pipe(
      tap(c => {
        ledger.received += c.bytes.length;
        options.onRead?.(c);
      }),
    ),
  };
  const seen: Observation[] = [];
  const links = (state: string): number => seen.filter(o => o.type === 'link' && o.state === state).length;
  const sub = dgtSession$(transport, { ...FAST, now: clock.now }).subscribe(o => {
    seen.push(o);
    waiter.poke();
  });
  // Every byte the emulator sent has been read (bytes lost with a killed pair are written off).
  const flush = (what: string): Promise<void> =>
    waiter.until(
      () => ledger.received + ledger.writtenOff >= runner.stats.bytesOut,
      `${what}: ${runner.stats.bytesOut - ledger.received - ledger.writtenOff} bytes to arrive`,
    );
  const spoken: BoardEvent[] = [];
  const apply = (e: BoardEvent): void => {
    switch (e.kind) {
      case 'square':
        runner.apply({ kind: 'square', square: e.square, piece: letter(e.piece) });
        return;
      case 'press':
        runner.apply({ kind: 'clock-press', side: sideOf(e.side) });
        return;
      case 'adjust':
        spoken.push(e);
        return;
      case 'snapshot':
      case 'tick':
        return;
    }
  };
  let outage: Outage | undefined;

  /** Pulls the cable after event `from`, plays events up to `to` while it is out, plugs it back. */
  const unplug = async (from: number, to: number): Promise<void> => {
    await flush('before the unplug');
    const lost = links('lost');
    const losses = runner.stats.linkLosses;
    const connected = links('connected');
    await board.pair.stop();
    await waiter.until(
      () => links('lost') > lost && runner.stats.linkLosses > losses,
      'both ends to notice the pulled cable',
    );
    ledger.writtenOff = runner.stats.bytesOut - ledger.received;
    let pressesUnseen = 0;
    let squaresUnseen = 0;
    const plies = new Set<number>();
    let ply = events.slice(0, from + 1).filter(e => e.kind === 'press').length + 1;
    plies.add(ply);
    for (let k = from + 1; k <= to; k++) {
      const e = events[k]!;
      clock.t = Math.max(clock.t, e.at);
      if (e.kind === 'square') {
        squaresUnseen++;
        plies.add(ply);
      }
      if (e.kind === 'press') {
        pressesUnseen++;
        ply++;
      }
      // An announced adjustment while the cable is out is not heard either (it has no time on
      // the line to be ordered by); presses and squares change the board and its clock.
      if (e.kind !== 'adjust') apply(e);
    }
    await board.pair.start();
    trackPid(board.pair);
    // Connected again, and the lever's position known again from a clock reading on this
    // connection (the emulator sends one at its first tick in UPDATE_NICE): a press before that
    // reading would go unseen, so the game goes on once both are in.
    const since = (state: string): number => seen.findLastIndex(o => o.type === 'link' && o.state === state);
    await waiter
      .until(
        () => links('connected') > connected && seen.slice(since('lost')).some(o => o.type === 'clock'),
        'the reconnection and a clock reading',
      )
      .catch((e: unknown) => {
        const tail = seen
          .slice(since('lost'))
          .map(o => (o.type === 'link' ? `${o.state} (${o.detail ?? ''})` : o.type));
        throw new Error(
          `${(e as Error).message}; since the loss: ${tail.join(', ')}; board in ${emulator.mode} mode`,
        );
      });
    await flush('after the reconnection');
    const reconnectedAt = seen.findLastIndex(o => o.type === 'link' && o.state === 'connected');
    const dump = seen.slice(0, reconnectedAt).findLast(o => o.type === 'snapshot');
    const firstPly = Math.min(...plies);
    outage = {
      plies: [...plies].sort((a, b) => a - b),
      squaresUnseen,
      pressesUnseen,
      dumpShowsPly:
        dump?.type === 'snapshot'
          ? plyShown(
              game,
              dump.squares.map(c => (c.kind === 'piece' ? { color: c.color, role: c.role } : 'empty')),
              firstPly - 1,
            )
          : undefined,
    };
  };

  try {
    await waiter.until(() => links('connected') >= 1, 'the first connection');
    runner.apply({ kind: 'clock-set', ...CLOCK_SET });
    await flush('the clock setting');
    const pace = new Pace(options.speed);
    let unplugFrom = -1;
    let unplugTo = -1;
    if (options.unplug !== undefined) {
      const { ply, plies, when } = options.unplug;
      const presses = pressIndices(events);
      const before = presses[ply - 2];
      const last = presses[ply + plies - 2];
      if (before === undefined || last === undefined)
        throw new RangeError(`cannot unplug at ply ${ply}: the game has no clock or is too short`);
      unplugFrom =
        when === 'thinking' ? before : events.findIndex((e, i) => i > before && e.kind === 'square');
      unplugTo = last;
    }
    pace.anchor(clock.t);
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.kind === 'tick' || e.kind === 'snapshot') continue;
      await pace.until(e.at);
      if (e.at > clock.t) {
        await flush(`event ${i} at ${e.at} ms`);
        clock.t = e.at;
      }
      apply(e);
      if (i === unplugFrom) {
        await unplug(unplugFrom, unplugTo);
        pace.anchor(clock.t);
        i = unplugTo;
      }
    }
    await flush('the end of the game');
  } finally {
    sub.unsubscribe();
    await board.stop();
  }
  const fromBoard = boardEventsOf(seen, true);
  const { problems, recognised } = recognise(game, fromBoard, spoken, endMs);
  return {
    problems,
    recognised,
    plies: game.length,
    squareEvents: events.filter(e => e.kind === 'square').length,
    squares: seen.filter(o => o.type === 'square').length,
    pressEvents: events.filter(e => e.kind === 'press').length,
    presses: fromBoard.filter(e => e.kind === 'press').length,
    links: seen.flatMap(o => (o.type === 'link' ? [o.state] : [])),
    ...(outage === undefined ? {} : { outage }),
    observations: seen,
  };
};
