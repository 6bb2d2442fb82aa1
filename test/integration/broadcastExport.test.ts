/**
 * The folder export and the broadcast delay, through the config: `chessbridge run` (a child
 * process) with `broadcast.folder` and `broadcast.delayMinutes` (scaled down to 6 s), two emulated
 * DGT boards on PTYs and a real mosquitto. Every move reaches MQTT (what the arbiter console
 * reads) at once; the folder export and the live PGN over HTTP show each move no earlier than the
 * delay after MQTT had it; in the end every game is in the folder in the LiveChess layout, and
 * pgn-extract reads every exported PGN file without a warning.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPgn } from '../../src/engine/pgnRead.js';
import { extractGames } from '../support/pgnExtract.js';
import { freePort, startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  writeConfig,
  type DaemonProcess,
  type Subscriber,
  type Venue,
} from './support.js';

const SPEED = 8;
const BASE = 'bexport';
const DELAY_MS = 6_000;
/** MQTT delivery and the sampling period can make a move look this much older than it is. */
const SLACK_MS = 400;

/** Plies of the first game of a PGN text ('' or unreadable: 0). */
const pliesIn = (text: string | undefined): number => {
  if (text === undefined || text === '') return 0;
  const first = readPgn(text)[0];
  return first?.isOk === true ? first.value.game.moves.length : 0;
};

const readOrUndefined = (path: string): Promise<string | undefined> =>
  readFile(path, 'utf8').catch(() => undefined);

describe('folder export with a broadcast delay', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let dir: string;
  let folder: string;
  let http: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-bexport-'));
    folder = join(dir, 'live');
    broker = await startMosquitto({ persistence: false });
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 52000, speed: SPEED, maxPlies: 12 });
    sub = await subscribe(broker.url, [`${BASE}/games/+/events`, `${BASE}/games/+`], 'bexport-sub');
    const httpPort = await freePort();
    http = `http://127.0.0.1:${httpPort}`;
    daemon = startDaemon(
      await writeConfig({
        dir,
        venue,
        url: broker.url,
        base: BASE,
        clientId: 'bexport',
        httpPort,
        broadcast: { folder, delayMinutes: DELAY_MS / 60_000 },
      }),
    );
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows each move publicly no earlier than the delay, while MQTT has it at once', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      `both games started (daemon output: ${daemon.output().slice(-2000)})`,
    );
    // When each output first showed each ply count, per game.
    type Seen = Map<number, number>;
    const live = new Map<string, Seen>(games.map(g => [g, new Map()]));
    const exported = new Map<string, Seen>(games.map(g => [g, new Map()]));
    const served = new Map<string, Seen>(games.map(g => [g, new Map()]));
    const mark = (seen: Seen, plies: number, at: number): void => {
      for (let p = 1; p <= plies; p++) if (!seen.has(p)) seen.set(p, at);
    };
    const sampling = { on: true };
    const sampler = (async () => {
      while (sampling.on) {
        const at = Date.now();
        for (const b of venue.boards) {
          const game = `r1-b${b.number}`;
          mark(live.get(game)!, movesFromEvents(sub.firstArrivals().get(game) ?? []).length, at);
          const file = await readOrUndefined(join(folder, 'round-1', `game-${b.number}.pgn`));
          mark(exported.get(game)!, pliesIn(file), at);
          const reply = await fetch(`${http}/round-1/game-${b.number}.pgn`).catch(() => undefined);
          mark(served.get(game)!, pliesIn(reply?.ok === true ? await reply.text() : undefined), at);
        }
        await new Promise(r => setTimeout(r, 50));
      }
    })();
    try {
      await Promise.all(venue.boards.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
      await waitFor(
        () => venue.boards.every(b => live.get(`r1-b${b.number}`)!.size >= b.plies.length),
        30_000,
        'every move over MQTT',
      );
      // The console's source has every move while the public outputs still hold the last back.
      for (const b of venue.boards) {
        const game = `r1-b${b.number}`;
        expect(exported.get(game)!.has(b.plies.length), `${game} exported at once`).toBe(false);
        expect(served.get(game)!.has(b.plies.length), `${game} served at once`).toBe(false);
      }
      await waitFor(
        () =>
          venue.boards.every(
            b =>
              exported.get(`r1-b${b.number}`)!.has(b.plies.length) &&
              served.get(`r1-b${b.number}`)!.has(b.plies.length),
          ),
        DELAY_MS + 30_000,
        'every move in the folder and over HTTP after the delay',
      );
    } finally {
      sampling.on = false;
      await sampler;
    }
    for (const b of venue.boards) {
      const game = `r1-b${b.number}`;
      for (let p = 1; p <= b.plies.length; p++) {
        const madeAt = live.get(game)!.get(p)!;
        for (const [name, seen] of [
          ['folder', exported],
          ['http', served],
        ] as const) {
          const shownAt = seen.get(game)!.get(p)!;
          expect(shownAt - madeAt, `${game} ply ${p} in ${name}`).toBeGreaterThanOrEqual(DELAY_MS - SLACK_MS);
        }
      }
    }

    // The LiveChess layout, and every PGN file read by pgn-extract without a warning.
    expect((await readdir(folder)).sort()).toEqual(['round-1', 'tournament.json']);
    const round = (await readdir(join(folder, 'round-1'))).sort();
    expect(round).toEqual(['game-1.pgn', 'game-2.pgn', 'games.pgn', 'index.json']);
    const tournament = JSON.parse(await readFile(join(folder, 'tournament.json'), 'utf8')) as {
      name?: string;
    };
    expect(tournament.name).toBe('acceptance');
    const index = JSON.parse(await readFile(join(folder, 'round-1', 'index.json'), 'utf8')) as {
      pairings: { board: number; serial: string | null; white: { lname: string } }[];
    };
    // LiveChess splits "Last, First" names; the surname is what precedes the comma. The serial
    // is the one the board reported.
    expect(index.pairings.map(p => [p.board, p.white.lname, p.serial])).toEqual(
      venue.boards.map(b => [b.number, b.game.white.split(',')[0]!.trim(), b.serial]),
    );
    for (const b of venue.boards) {
      const result = extractGames(join(folder, 'round-1', `game-${b.number}.pgn`));
      expect(result.errors, `game-${b.number}.pgn`).toEqual([]);
      expect(
        result.games.map(g => g.plies),
        `game-${b.number}.pgn`,
      ).toEqual([b.plies.length]);
    }
    const all = extractGames(join(folder, 'round-1', 'games.pgn'));
    expect(all.errors).toEqual([]);
    expect(all.games.map(g => g.plies)).toEqual(venue.boards.map(b => b.plies.length));
    expect(await daemon.stop()).toBe(0);
  });
});
