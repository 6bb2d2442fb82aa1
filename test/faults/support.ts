/**
 * What every fault test measures, on top of the acceptance helpers (test/integration/support.ts):
 * the moves lost, per game and per place a move must reach. The reference is each emulated
 * board's game (the moves its players made); it is compared with what a persistent-session MQTT
 * subscriber received (events deduped by seq), the retained live PGN, and the journal replayed
 * through the supervisor after the daemon stopped. A move is lost when it is missing from the
 * first place where that source differs from the game; moves after a difference count as lost
 * too (the record is wrong from there), and moves recorded that the game does not have at that
 * ply (a wrong move, or one beyond its end) are counted apart as extra.
 * Each test writes its figures to test-artifacts/faults/<fault>.json and prints one line.
 *
 *   const loss = await movesLost({ venue, sub, base: BASE, journalDir: join(dir, 'journal-f1') });
 *   reportFault('broker restarts', loss, { restarts: 2 });
 *   expect(totalLost(loss)).toBe(0);
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { replayGameRun } from '../../src/bridge/game/gameRun.js';
import { engineSettingsOf } from '../../src/bridge/game/gameSpecs.js';
import { makeEventMessage } from '../../src/bridge/wire/events.js';
import { readJournalAll } from '../../src/bridge/journal/index.js';
import { readPgn } from '../../src/engine/pgnRead.js';
import {
  type DaemonProcess,
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startVenue,
  subscribe,
  type Subscriber,
  type Venue,
  waitFor,
  type WireEvent,
  writeConfig,
} from '../integration/support.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { PROJECT_ROOT } from '../support/shared.js';

/** Where a move must arrive. */
export type Source = 'subscriber' | 'pgn' | 'journal';

export interface GameLoss {
  readonly game: string;
  readonly played: number;
  /** Per source: moves of the game missing (from the first difference on), and moves recorded that it lacks. */
  readonly lost: Readonly<Record<Source, number>>;
  readonly extra: Readonly<Record<Source, number>>;
  /** What each source holds, for failure messages. */
  readonly moves: Readonly<Record<Source, readonly string[]>>;
}

/** Moves of `played` not matched by `got` from the start; moves of `got` from its first difference on. */
export const compareMoves = (
  played: readonly string[],
  got: readonly string[],
): { lost: number; extra: number } => {
  let same = 0;
  while (same < played.length && got[same] === played[same]) same++;
  return { lost: played.length - same, extra: got.length - same };
};

/** The journal of a game replayed through the supervisor (as `chessbridge replay` does): its moves. */
export const journalMoves = async (journalDir: string, game: string): Promise<string[]> => {
  const contents = await readJournalAll(join(journalDir, 'games', `${game}.jsonl`));
  if (contents.isErr) throw contents.error;
  const { header, records } = contents.value;
  const { events } = replayGameRun(
    engineSupervisor(),
    engineSettingsOf(header.game, header.settings),
    { clock: false },
    records,
  );
  return movesFromEvents(events.map(e => makeEventMessage(e) as unknown as WireEvent));
};

/** The moves of the retained live PGN of a game. */
export const pgnMoves = (sub: Subscriber, base: string, game: string): string[] => {
  const first = readPgn(sub.latest(`${base}/games/${game}/pgn`) ?? '')[0];
  return first?.isOk === true ? first.value.game.moves.map(m => m.san) : [];
};

/** Moves lost by every game of the venue, in each source (call after the daemon stopped). */
export const movesLost = async (spec: {
  readonly venue: Venue;
  readonly sub: Subscriber;
  readonly base: string;
  readonly journalDir: string;
}): Promise<GameLoss[]> => {
  const arrivals = spec.sub.firstArrivals();
  return Promise.all(
    spec.venue.boards.map(async b => {
      const game = `r1-b${b.number}`;
      const moves: Record<Source, readonly string[]> = {
        subscriber: movesFromEvents(arrivals.get(game) ?? []),
        pgn: pgnMoves(spec.sub, spec.base, game),
        journal: await journalMoves(spec.journalDir, game),
      };
      const sources: Source[] = ['subscriber', 'pgn', 'journal'];
      const cmp = Object.fromEntries(sources.map(s => [s, compareMoves(b.plies, moves[s])])) as Record<
        Source,
        { lost: number; extra: number }
      >;
      return {
        game,
        played: b.plies.length,
        lost: { subscriber: cmp.subscriber.lost, pgn: cmp.pgn.lost, journal: cmp.journal.lost },
        extra: { subscriber: cmp.subscriber.extra, pgn: cmp.pgn.extra, journal: cmp.journal.extra },
        moves,
      };
    }),
  );
};

/** Moves lost over every game and source (what each test asserts is 0). */
export const totalLost = (loss: readonly GameLoss[]): number =>
  loss.reduce((n, g) => n + g.lost.subscriber + g.lost.pgn + g.lost.journal, 0);

/** Moves recorded that were never played, over every game and source (also asserted 0). */
export const totalExtra = (loss: readonly GameLoss[]): number =>
  loss.reduce((n, g) => n + g.extra.subscriber + g.extra.pgn + g.extra.journal, 0);

/** Prints the figures of a fault and writes them to test-artifacts/faults/<slug>.json. */
export const reportFault = (
  fault: string,
  loss: readonly GameLoss[],
  details: Readonly<Record<string, unknown>> = {},
): void => {
  const sum = (s: Source): number => loss.reduce((n, g) => n + g.lost[s], 0);
  const played = loss.reduce((n, g) => n + g.played, 0);
  const summary = {
    fault,
    games: loss.length,
    moves_played: played,
    moves_lost: totalLost(loss),
    moves_extra: totalExtra(loss),
    lost_by_source: { subscriber: sum('subscriber'), pgn: sum('pgn'), journal: sum('journal') },
    ...details,
    per_game: loss.map(g => ({ game: g.game, played: g.played, lost: g.lost, extra: g.extra })),
  };
  const dir = join(PROJECT_ROOT, 'test-artifacts', 'faults');
  mkdirSync(dir, { recursive: true });
  const slug = fault.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  writeFileSync(join(dir, `${slug}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `fault "${fault}": ${summary.moves_lost} of ${played} moves lost (subscriber ${summary.lost_by_source.subscriber}, live PGN ${summary.lost_by_source.pgn}, journal ${summary.lost_by_source.journal}), ${summary.moves_extra} extra`,
  );
};

/** Runs `start` with extra environment variables, which a child spawned inside it inherits. */
export const withEnv = <T>(vars: Readonly<Record<string, string>>, start: () => T): T => {
  const before = Object.fromEntries(Object.keys(vars).map(k => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return start();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
};

/** What the daemon-and-venue fault tests share: a broker, a venue, a subscriber, a daemon. */
export interface FaultRig {
  readonly broker: Mosquitto;
  readonly venue: Venue;
  readonly daemon: DaemonProcess;
  readonly sub: Subscriber;
  readonly dir: string;
  /** The journal folder of the daemon (`journal-<client>` in `dir`). */
  readonly journalDir: string;
  /** The game ids of the venue's boards (r1-b<number>). */
  readonly games: readonly string[];
  /** The moves of a game at the subscriber (first arrivals). */
  moves(game: string): string[];
  /** Waits until every game has published its snapshot. */
  started(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts mosquitto (persistence on), two-or-more emulated boards, a persistent-session subscriber
 * on the events, PGN and snapshots (plus `topics`) under `name`, and the daemon (base and client
 * id `name`).
 */
export const startFaultRig = async (spec: {
  readonly name: string;
  readonly boards: number;
  readonly serialBase: number;
  readonly speed: number;
  readonly maxPlies: number;
  readonly topics?: readonly string[];
}): Promise<FaultRig> => {
  const { name } = spec;
  const dir = await mkdtemp(join(tmpdir(), `chessbridge-${name}-`));
  const broker = await startMosquitto({ persistence: true });
  const venue = await startVenue({
    count: spec.boards,
    firstBoard: 1,
    serialBase: spec.serialBase,
    speed: spec.speed,
    maxPlies: spec.maxPlies,
  });
  const sub = await subscribe(
    broker.url,
    [`${name}/games/+/events`, `${name}/games/+/pgn`, `${name}/games/+`, ...(spec.topics ?? [])],
    `${name}-sub`,
  );
  const daemon = startDaemon(await writeConfig({ dir, venue, url: broker.url, base: name, clientId: name }));
  const games = venue.boards.map(b => `r1-b${b.number}`);
  return {
    broker,
    venue,
    daemon,
    sub,
    dir,
    journalDir: join(dir, `journal-${name}`),
    games,
    moves: g => movesFromEvents(sub.firstArrivals().get(g) ?? []),
    started: () =>
      waitFor(
        () => games.every(g => sub.latest(`${name}/games/${g}`) !== undefined),
        30_000,
        `the games to start (${daemon.output().slice(-1000)})`,
      ),
    stop: async () => {
      await killAllDaemons();
      await sub.close();
      await venue.stop();
      await closeAllPtyPairs();
      await broker.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
