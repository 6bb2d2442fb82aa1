/**
 * The damage tests' common part (journalDamage.test.ts: game files; journalDamageWal.test.ts: the
 * write-ahead log). Damage never hides good data, through the doors a user uses: `chessbridge run
 * -c FILE` (a child process), emulated DGT boards on PTY pairs, a real mosquitto, the live PGN over
 * HTTP, and `chessbridge replay FILE`. The daemon plays part of a game on each board and is stopped
 * (cleanly, or with SIGKILL); the test damages the journal, one kind of damage a board where the
 * kind allows it, so one restart covers several kinds; the daemon starts again. Every record that
 * was not damaged is still in the game file at the end, unchanged; the plies played stay in the
 * live PGN and on MQTT; each damaged game gets exactly one `journal_damaged` alert saying what was
 * lost (the others none); the games go on, and each board's next pairing starts, is journaled and
 * published as usual. A case may stop and damage the journal once more after the games' rest
 * (`later`): nothing may be lost then and no alert repeated. `replay` of each file shows the game
 * (with the damaged range marked and exit 3 where damage stays in the file).
 */
import { readFile, rm, stat, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DEMO_GAMES, type DemoGame } from '../../src/bridge/simulate/demoGames.js';
import { readJournalAll, type JournalRecord } from '../../src/bridge/journal/index.js';
import { readPgn } from '../../src/engine/pgnRead.js';
import { freePort, startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { backToStart, replay } from './journalDamageTools.js';
import {
  killAllDaemons,
  movesFromEvents,
  pliesOf,
  startDaemon,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  writeConfig,
  type DaemonProcess,
  type Subscriber,
  type Venue,
  type VenueBoard,
} from './support.js';

const SPEED = 8;
const SPLIT = 8;
const PLIES = 12;
const NEXT_PLIES = 6;

/** Plies of the first game of a PGN text (none or unreadable: -1). */
const pliesIn = (text: string | undefined): number => {
  if (text === undefined || text === '') return -1;
  const first = readPgn(text)[0];
  return first?.isOk === true ? first.value.game.moves.length : -1;
};

/** waitFor for an asynchronous condition (an HTTP fetch), polled. */
const until = async (condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> => {
  const state = { ok: false, stop: false };
  const poll = (async () => {
    while (!state.ok && !state.stop) {
      state.ok = await condition();
      if (!state.ok) await new Promise(r => setTimeout(r, 100));
    }
  })();
  try {
    await waitFor(() => state.ok, timeoutMs, what);
  } finally {
    state.stop = true;
    await poll;
  }
};

/** What the damage did to one board's game. */
export interface Outcome {
  /** Text of the game's one `journal_damaged` alert; undefined: the game gets none. */
  readonly alert: string | undefined;
  /** seq numbers of the records the damage destroyed (every other record must stay as it was). */
  readonly lost: readonly number[];
  /** Exit code of `replay` of the game file at the end: 3 while a damaged range stays in it. */
  readonly replayExit: 0 | 3;
}

export interface Case {
  readonly name: string;
  readonly base: string;
  readonly serialBase: number;
  /** How many boards (each a game of its own, each damaged its own way). */
  readonly boards: number;
  /** journal.checkpointSeconds: long enough for the log to hold the whole game when it matters. */
  readonly checkpointSeconds: number;
  /** A clean stop (the game files alone hold the games) or a SIGKILL (the log stays). */
  readonly stop: 'clean' | 'kill';
  /** Damages the journal of the stopped daemon; one outcome per board, in board order. */
  readonly damage: (journalDir: string, games: readonly string[]) => Promise<Outcome[]>;
  /**
   * After the rest of the games, a SIGKILL and more damage (`sizes`: each game file's size once
   * the first restart was ready, so the test can cut them back as a power cut does). Nothing
   * may be lost and no alert repeated.
   */
  readonly later?: (journalDir: string, sizes: ReadonlyMap<string, number>) => Promise<void>;
}

/** The test of some kinds of damage (journalDamage.test.ts, journalDamageWal.test.ts). */
export const describeDamagedJournal = (c: Case): void => {
  describe(`a damaged journal: ${c.name}`, () => {
    let broker: Mosquitto;
    let venue: Venue;
    let sub: Subscriber;
    let dir: string;
    let config: string;
    let http: string;
    const CLIENT = `${c.base}-d`;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), `chessbridge-${c.base}-`));
      broker = await startMosquitto({ persistence: false });
      venue = await startVenue({
        count: c.boards,
        firstBoard: 1,
        serialBase: c.serialBase,
        speed: SPEED,
        maxPlies: PLIES,
      });
      sub = await subscribe(
        broker.url,
        [`${c.base}/games/+/events`, `${c.base}/games/+/pgn`, `${c.base}/games/+`, `${c.base}/alerts`],
        `${c.base}-sub`,
      );
      const httpPort = await freePort();
      http = `http://127.0.0.1:${httpPort}`;
      config = await writeConfig({ dir, venue, url: broker.url, base: c.base, clientId: CLIENT, httpPort });
      // Each board's next pairing: round 2 on the same board.
      const doc = parse(await readFile(config, 'utf8')) as {
        tournament: { rounds: number };
        journal: { checkpointSeconds: number };
        pairings: { round: number }[];
      };
      doc.tournament.rounds = 2;
      doc.journal.checkpointSeconds = c.checkpointSeconds;
      doc.pairings.push(...doc.pairings.map(p => ({ ...p, round: 2 })));
      await writeFile(config, stringify(doc));
    });

    afterAll(async () => {
      await killAllDaemons();
      await sub.close();
      await venue.stop();
      await closeAllPtyPairs();
      await broker.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it(
      'keeps every good record and ply, alerts once per damaged game, goes on, and the next games play',
      { timeout: 150_000 },
      async () => {
        const boards = venue.boards;
        const games = boards.map(b => `r1-b${b.number}`);
        const journalDir = join(dir, `journal-${CLIENT}`);
        const fileOf = (game: string) => join(journalDir, 'games', `${game}.jsonl`);
        const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
        const served = async (path: string) =>
          pliesIn(
            await fetch(`${http}${path}`).then(
              r => (r.ok ? r.text() : undefined),
              () => undefined,
            ),
          );
        // Every board's live PGN over HTTP holds `plies` plies.
        const servedEverywhere = (plies: number, what: string) =>
          until(
            async () =>
              (await Promise.all(boards.map(b => served(`/round-1/game-${b.number}.pgn`)))).every(
                n => n === plies,
              ),
            10_000,
            what,
          );
        const alerts = (game: string) =>
          sub.seen
            .filter(m => m.topic === `${c.base}/alerts`)
            .map(m => JSON.parse(m.payload) as { code: string; game: string; message: string })
            .filter(a => a.code === 'journal_damaged' && a.game === game);
        const ready = async (d: DaemonProcess, what: string) =>
          waitFor(
            () => d.logs().some(l => l.msg.startsWith('ready')),
            30_000,
            `${what} (${d.output().slice(-800)})`,
          );

        let daemon = startDaemon(config);
        await waitFor(
          () => games.every(g => sub.latest(`${c.base}/games/${g}`) !== undefined),
          30_000,
          `the games (${daemon.output().slice(-800)})`,
        );
        const parts = boards.map(b => stepsOf(b, SPEED, SPLIT));
        await Promise.all(boards.map((b, i) => b.pty.runner.play(parts[i]?.first ?? [])));
        await waitFor(() => games.every(g => moves(g).length >= SPLIT), 20_000, `${SPLIT} plies`);
        await servedEverywhere(SPLIT, 'the plies over HTTP');

        if (c.stop === 'clean') expect(await daemon.stop()).toBe(0);
        else await daemon.kill();
        // Every record the journal holds (the game files and the log), before the damage.
        const before = new Map<string, readonly JournalRecord[]>();
        for (const g of games) before.set(g, (await readJournalAll(fileOf(g))).unwrap().records);
        const outcomes = await c.damage(journalDir, games);
        expect(outcomes).toHaveLength(games.length);
        const seenBefore = sub.seen.length;

        daemon = startDaemon(config);
        await ready(daemon, 'the restart');
        const alerted = games.filter((_, i) => outcomes[i]?.alert !== undefined);
        await waitFor(
          () => alerted.every(g => alerts(g).length > 0),
          10_000,
          `the journal_damaged alerts of ${alerted.join(', ')}`,
        );
        games.forEach((g, i) => {
          const expected = outcomes[i]?.alert;
          if (expected === undefined) return;
          expect(alerts(g)).toHaveLength(1);
          expect(alerts(g)[0]?.message).toContain(expected);
        });
        // The plies played are still in the live PGN, over HTTP (once each game's journal has been
        // read back: the alert comes while it is) and republished on MQTT.
        await servedEverywhere(SPLIT, 'every ply over HTTP after the restart');
        await waitFor(
          () =>
            games.every(g =>
              sub.seen
                .slice(seenBefore)
                .some(m => m.topic === `${c.base}/games/${g}/pgn` && pliesIn(m.payload) === SPLIT),
            ),
          10_000,
          'the PGNs republished with every ply',
        );
        for (const g of games)
          expect(daemon.logs().some(l => l.msg.includes(`game ${g} resumed from`))).toBe(true);
        const sizes = new Map<string, number>();
        for (const g of games) sizes.set(fileOf(g), (await stat(fileOf(g))).size);

        // The games go on and end.
        await Promise.all(boards.map((b, i) => b.pty.runner.play(parts[i]?.rest ?? [])));
        await waitFor(() => games.every(g => moves(g).length >= PLIES), 30_000, 'the rest of the games');
        boards.forEach((b, i) => expect(moves(games[i] ?? '')).toEqual(b.plies));
        if (c.later !== undefined) {
          await daemon.kill();
          await c.later(journalDir, sizes);
          daemon = startDaemon(config);
          await ready(daemon, 'the restart after the later damage');
          await servedEverywhere(PLIES, 'every ply over HTTP after the later damage');
          expect(daemon.output()).not.toMatch(/journal of game \S+ damaged/);
        }
        for (const g of games)
          await sub.client.publishAsync(
            `${c.base}/bridge/request/set_result`,
            JSON.stringify({ game_id: g, result: '1-0' }),
            { qos: 1 },
          );
        await waitFor(
          () => games.every(g => (sub.firstArrivals().get(g) ?? []).some(e => e.type === 'end')),
          10_000,
          'the end of the games',
        );

        // Each board's next pairing starts, is journaled and published.
        await Promise.all(boards.map(b => b.pty.runner.play(backToStart(b.plies, 0))));
        const nextGames = boards.map(b => `r2-b${b.number}`);
        await waitFor(
          () => nextGames.every(g => sub.latest(`${c.base}/games/${g}`) !== undefined),
          20_000,
          `the next games (${daemon.output().slice(-800)})`,
        );
        const next = boards.map((b): VenueBoard => {
          const game = DEMO_GAMES[b.number % DEMO_GAMES.length] as DemoGame;
          return { ...b, game, plies: pliesOf(game, NEXT_PLIES) };
        });
        await Promise.all(next.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
        await waitFor(
          () => nextGames.every(g => moves(g).length >= NEXT_PLIES),
          30_000,
          'the next games over MQTT',
        );
        next.forEach((b, i) => expect(moves(nextGames[i] ?? '')).toEqual(b.plies));
        await until(
          async () =>
            (await Promise.all(boards.map(b => served(`/round-2/game-${b.number}.pgn`)))).every(
              n => n === NEXT_PLIES,
            ),
          10_000,
          'the next games over HTTP',
        );
        expect(daemon.output()).not.toMatch(/already has a journal/);
        expect(await daemon.stop()).toBe(0);

        const replays = await Promise.all(games.map(g => replay(fileOf(g))));
        for (const [i, g] of games.entries()) {
          const outcome = outcomes[i] as Outcome;
          // Every record the damage did not touch is still there, unchanged, with its seq.
          const after = (await readJournalAll(fileOf(g), { salvage: true })).unwrap().records;
          const bySeq = new Map(after.map(r => [r.seq, r]));
          const kept = (before.get(g) ?? []).filter(r => !outcome.lost.includes(r.seq));
          for (const r of kept) expect(bySeq.get(r.seq), `${g} seq ${r.seq}`).toEqual(r);
          // The file replays: the good records, a damaged range marked.
          const r = replays[i] ?? { code: null, out: '', err: '' };
          expect(r.code, `${g}: ${r.err}`).toBe(outcome.replayExit);
          expect(r.out.match(/ move \d+\.{1,3} /g)?.length, g).toBe(PLIES);
          if (outcome.replayExit === 3) {
            expect(r.out).toMatch(/^DAMAGED /m);
            expect(r.err).toContain('journal damaged');
          }
          expect(alerts(g)).toHaveLength(outcome.alert === undefined ? 0 : 1);
        }
      },
    );
  });
};
