/**
 * Corpus games on a DGT bus line over a real serial line: one emulated board per game, all behind
 * one socat PTY pair, polled by the bus session through the real SerialTransport; each board's
 * observations go to the recogniser, which must give back exactly that board's game. The clock
 * that stamps reads and the rest are in ptyCorpusKit.ts.
 *
 *   const boards = await playBusOnPty(games, { speed: 400, unplug: { atMs: 60_000, forMs: 2500 } });
 *   boards.every(b => b.problems.length === 0); // true
 */
import { join } from 'node:path';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { boardStreams, dgtBusSession$ } from '../../../src/drivers/dgt/sessionBus.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../../src/emulators/emulatorHost.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import type { Game } from '../../../src/engine/game.js';
import { generateForGame } from '../../../src/engine/handling/generator.js';
import type { BoardEvent } from '../../../src/engine/recognition/boardEvent.js';
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

export interface BusGame {
  readonly game: Game;
  /** Seed of the human handling. */
  readonly seed: number;
}

export interface BusOptions {
  /** Script time runs at most this many times faster than real time (a floor on the pace). */
  readonly speed: number;
  /** Pull the line's cable at script time `atMs` (after the warm-up) and plug it back `forMs` later. */
  readonly unplug?: { readonly atMs: number; readonly forMs: number };
}

export interface BusBoardResult {
  readonly address: number;
  readonly problems: readonly string[];
  readonly recognised: readonly string[];
  readonly plies: number;
  /** Square changes the generator made at this board. */
  readonly squareEvents: number;
  /** Square observations delivered for this board. */
  readonly squares: number;
  readonly links: readonly string[];
  /** Square changes made at this board while the line was unplugged (delivered after it came back). */
  readonly madeUnplugged: number;
  /** Clock presses made at this board while the line was unplugged (unseen). */
  readonly pressesUnplugged: number;
}

/** First bus address; the boards are numbered on from it (their serial numbers). */
const FIRST_ADDRESS = 3001;

/**
 * Corpus games on a bus line: one emulated board per game, all behind one socat PTY pair, polled
 * by the bus session through the real SerialTransport. The games run side by side on one script
 * time line (each board starts a little later than the one before); a board's changes reach the
 * host only when the poller asks for them, so the driver waits for every board's changes to be
 * delivered before the script clock moves on.
 */
export const playBusOnPty = async (
  games: readonly BusGame[],
  options: BusOptions,
): Promise<BusBoardResult[]> => {
  const addresses = games.map((_, i) => FIRST_ADDRESS + i);
  const clock = new ScriptClock();
  const dir = makeLinkDir();
  const line = new DgtBusLine(
    addresses.map(a => new DgtBoardEmulator({ serial: String(a).padStart(5, '0'), clock: false })),
  );
  const host = new EmulatedBoardOnPty({
    hostPath: join(dir, 'bus'),
    devicePath: join(dir, 'boards'),
    emulator: line,
    scheduler: scriptScheduler(clock),
  });
  await host.start();
  adoptPtyPair(host.pair, dir);
  const waiter = new Waiter();
  const split = boardStreams(
    dgtBusSession$(new SerialTransport({ path: host.hostPath, now: clock.now }), {
      addresses,
      now: clock.now,
      openDelayMs: 50,
      cycleMs: 1,
      replyTimeoutMs: 250,
      backoff: { initialMs: 50, maxMs: 400 },
    }),
    addresses,
  );
  const seen = new Map<number, Observation[]>(addresses.map(a => [a, []]));
  const observed = (a: number): Observation[] => seen.get(a) ?? [];
  const subs = [...split.boards].map(([a, obs$]) =>
    obs$.subscribe(o => {
      observed(a).push(o);
      waiter.poke();
    }),
  );
  subs.push(split.connect());
  const links = (a: number, state: string): number =>
    observed(a).filter(o => o.type === 'link' && o.state === state).length;
  const squaresOf = (a: number): number => observed(a).filter(o => o.type === 'square').length;
  const applied = new Map<number, number>(addresses.map(a => [a, 0]));
  const madeUnplugged = new Map<number, number>(addresses.map(a => [a, 0]));
  const pressesUnplugged = new Map<number, number>(addresses.map(a => [a, 0]));
  const spoken = new Map<number, BoardEvent[]>(addresses.map(a => [a, []]));
  const flush = (what: string): Promise<void> =>
    waiter.until(
      () => addresses.every(a => squaresOf(a) >= (applied.get(a) ?? 0)),
      `${what}: the poller to deliver every change`,
    );
  const handlings = games.map((g, i) =>
    generateForGame(g.game, { seed: g.seed, startAt: WARMUP_MS + 250 * i }),
  );
  const events = handlings
    .flatMap((h, i) => h.events.map(e => ({ e, address: addresses[i]! })))
    .sort((a, b) => a.e.at - b.e.at);
  const apply = ({ e, address }: (typeof events)[number]): void => {
    switch (e.kind) {
      case 'square':
        host.runner.apply({ board: address, kind: 'square', square: e.square, piece: letter(e.piece) });
        applied.set(address, (applied.get(address) ?? 0) + 1);
        return;
      case 'press':
      case 'adjust':
        spoken.get(address)?.push(e);
        return;
      case 'snapshot':
      case 'tick':
        return;
    }
  };

  try {
    await waiter.until(() => addresses.every(a => links(a, 'connected') >= 1), 'every board connected');
    const pace = new Pace(options.speed);
    pace.anchor(clock.t);
    let unplugged = options.unplug === undefined;
    for (let i = 0; i < events.length; i++) {
      const item = events[i]!;
      if (!unplugged && options.unplug !== undefined && item.e.at >= options.unplug.atMs) {
        unplugged = true;
        const until = options.unplug.atMs + options.unplug.forMs;
        await flush('before the unplug');
        const lost = addresses.map(a => links(a, 'lost'));
        const connected = addresses.map(a => links(a, 'connected'));
        // The boards' end is closed with the cable: bus boards send nothing by themselves, so the
        // emulator would otherwise only notice the dead line at its next write, perhaps never.
        await host.runner.stop();
        await host.pair.stop();
        await waiter.until(() => addresses.every((a, k) => links(a, 'lost') > lost[k]!), 'every board lost');
        // Moves go on while the line is out; a press then is unseen (the clock is read over it too).
        for (; i < events.length && events[i]!.e.at <= until; i++) {
          const during = events[i]!;
          clock.t = Math.max(clock.t, during.e.at);
          if (during.e.kind === 'square') {
            apply(during);
            madeUnplugged.set(during.address, (madeUnplugged.get(during.address) ?? 0) + 1);
          }
          if (during.e.kind === 'press')
            pressesUnplugged.set(during.address, (pressesUnplugged.get(during.address) ?? 0) + 1);
        }
        // The whole time out passes (with or without changes on the boards meanwhile).
        clock.t = Math.max(clock.t, until);
        await host.pair.start();
        host.runner.start();
        trackPid(host.pair);
        await waiter.until(
          () => addresses.every((a, k) => links(a, 'connected') > connected[k]!),
          'every board connected again',
        );
        await flush('after the unplug');
        pace.anchor(clock.t);
        i--;
        continue;
      }
      const { e } = item;
      if (e.kind === 'tick' || e.kind === 'snapshot') continue;
      await pace.until(e.at);
      if (e.at > clock.t) {
        await flush(`event ${i} at ${e.at} ms`);
        clock.t = e.at;
      }
      apply(item);
    }
    await flush('the end of the games');
  } finally {
    for (const s of subs) s.unsubscribe();
    await host.stop();
  }
  return games.map(({ game }, i) => {
    const a = addresses[i]!;
    const endMs = handlings[i]!.events.at(-1)?.at ?? 0;
    const { problems, recognised } = recognise(
      game,
      boardEventsOf(observed(a), false),
      spoken.get(a) ?? [],
      endMs,
    );
    return {
      address: a,
      problems,
      recognised,
      plies: game.length,
      squareEvents: handlings[i]!.events.filter(e => e.kind === 'square').length,
      squares: squaresOf(a),
      links: observed(a).flatMap(o => (o.type === 'link' ? [o.state] : [])),
      madeUnplugged: madeUnplugged.get(a) ?? 0,
      pressesUnplugged: pressesUnplugged.get(a) ?? 0,
    };
  });
};
