/**
 * The broadcast delay on every public output, through the config: `chessbridge run` (a child
 * process) with `broadcast.folder`, `broadcast.delayMinutes` (scaled down to 6 s) and
 * `broadcast.lichess` pushing to a local server that enforces the push contract, two emulated
 * DGT boards on PTYs and a real mosquitto. Every move reaches the live MQTT topics (what the
 * arbiter console reads) at once; the folder export, the live PGN over HTTP, the public topics,
 * the public pages' event stream (`/events/public`) and the push show each move no earlier than
 * the delay after the live topics had it. In the end every game is in the folder in the LiveChess
 * layout, pgn-extract reads every exported PGN file without a warning, and every push body
 * replays with chessops.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPgn } from '../../src/engine/pgnRead.js';
import { extractGames } from '../support/pgnExtract.js';
import { freePort, startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { type LichessServer, startLichessServer } from '../support/lichessServer.js';
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

const USERS = [
  { name: 'anna', role: 'arbiter', secret: 'Ochre-Lantern-Bishop-58' },
  { name: 'hall', role: 'display', secret: 'Quiet-Harbour-Knight-31' },
] as const;
const SPEED = 8;
const BASE = 'bexport';
const DELAY_MS = 6_000;
/** Clock reading granularity between the daemon and the test (same machine). */
const SLACK_MS = 50;

/** Plies of the first game of a PGN text ('' or unreadable: 0). */
const pliesIn = (text: string | undefined): number => {
  if (text === undefined || text === '') return 0;
  const first = readPgn(text)[0];
  return first?.isOk === true ? first.value.game.moves.length : 0;
};

const PUSH_TOKEN = 'lip_integrationpushtoken';
const PUSH_ROUND = 'Rnd1abcd';

/** Reads a server-sent event stream; calls `onData` with each event's data and its arrival time. */
const readSse = (url: string, onData: (data: string, at: number) => void): AbortController => {
  const abort = new AbortController();
  void (async () => {
    const res = await fetch(url, { signal: abort.signal });
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      const at = Date.now();
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const data = text
          .slice(0, end)
          .split('\n')
          .filter(l => l.startsWith('data: '))
          .map(l => l.slice(6))
          .join('\n');
        text = text.slice(end + 2);
        if (data !== '') onData(data, at);
      }
    }
  })().catch(() => undefined);
  return abort;
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
  let lichess: LichessServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-bexport-'));
    folder = join(dir, 'live');
    broker = await startMosquitto({ persistence: false });
    lichess = await startLichessServer({ token: PUSH_TOKEN, rounds: [PUSH_ROUND] });
    const tokenFile = join(dir, 'lichess-token');
    await writeFile(tokenFile, `${PUSH_TOKEN}\n`);
    for (const u of USERS) await writeFile(join(dir, `${u.name}.secret`), `${u.secret}\n`);
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 52000, speed: SPEED, maxPlies: 12 });
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/games/+`, `${BASE}/public/games/+`],
      'bexport-sub',
    );
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
        broadcast: {
          folder,
          delayMinutes: DELAY_MS / 60_000,
          lichess: { url: lichess.url, rounds: [{ round: 1, id: PUSH_ROUND }], tokenFile },
        },
        users: USERS.map(u => ({ name: u.name, role: u.role, passwordFile: join(dir, `${u.name}.secret`) })),
      }),
    );
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await lichess.stop();
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
    const topic = new Map<string, Seen>(games.map(g => [g, new Map()]));
    const stream = new Map<string, Seen>(games.map(g => [g, new Map()]));
    const pushed = new Map<string, Seen>(games.map(g => [g, new Map()]));
    const mark = (seen: Seen, plies: number, at: number): void => {
      for (let p = 1; p <= plies; p++) if (!seen.has(p)) seen.set(p, at);
    };
    // The public pages' stream: retained public snapshots first, then each new one.
    const sse = readSse(`${http}/events/public`, (data, at) => {
      const { topic: name, payload } = JSON.parse(data) as { topic: string; payload: string };
      const game = name.split('/').at(-1)!;
      const snapshot = JSON.parse(payload) as { moves: string[] };
      if (stream.has(game)) mark(stream.get(game)!, snapshot.moves.length, at);
    });
    const sampling = { on: true };
    const sampler = (async () => {
      // Each sighting is timed once its answer is in (a move seen at T was released before T),
      // so a loaded machine can only make a release look later, never earlier.
      while (sampling.on) {
        for (const b of venue.boards) {
          const game = `r1-b${b.number}`;
          mark(live.get(game)!, movesFromEvents(sub.firstArrivals().get(game) ?? []).length, Date.now());
          const file = await readOrUndefined(join(folder, 'round-1', `game-${b.number}.pgn`));
          mark(exported.get(game)!, pliesIn(file), Date.now());
          const reply = await fetch(`${http}/round-1/game-${b.number}.pgn`).catch(() => undefined);
          const text = reply?.ok === true ? await reply.text() : undefined;
          mark(served.get(game)!, pliesIn(text), Date.now());
          const shown = sub.latest(`${BASE}/public/games/${game}`);
          mark(
            topic.get(game)!,
            shown === undefined ? 0 : (JSON.parse(shown) as { moves: string[] }).moves.length,
            Date.now(),
          );
        }
        for (const push of lichess.pushes)
          for (const g of push.games) {
            const game = `r1-b${g.round?.split('.')[1] ?? ''}`;
            if (pushed.has(game)) mark(pushed.get(game)!, g.plies, push.at);
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
        expect(topic.get(game)!.has(b.plies.length), `${game} on the public topic at once`).toBe(false);
        expect(stream.get(game)!.has(b.plies.length), `${game} on /events/public at once`).toBe(false);
        expect(pushed.get(game)!.has(b.plies.length), `${game} pushed at once`).toBe(false);
      }
      await waitFor(
        () =>
          venue.boards.every(b =>
            [exported, served, topic, stream, pushed].every(seen =>
              seen.get(`r1-b${b.number}`)!.has(b.plies.length),
            ),
          ),
        DELAY_MS + 30_000,
        'every move in the folder, over HTTP, on the public topics and stream, and pushed after the delay',
      );
    } finally {
      sampling.on = false;
      sse.abort();
      await sampler;
    }
    // When each move was made: the daemon's time on its live move event (the same machine's clock).
    const madeAtOf = (game: string, ply: number): number =>
      (sub.firstArrivals().get(game) ?? []).find(e => e.type === 'move' && e.ply === ply)!.at!;
    for (const b of venue.boards) {
      const game = `r1-b${b.number}`;
      for (let p = 1; p <= b.plies.length; p++) {
        const madeAt = madeAtOf(game, p);
        for (const [name, seen] of [
          ['folder', exported],
          ['http', served],
          ['public topic', topic],
          ['public stream', stream],
          ['push', pushed],
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
    // Every push body replayed with chessops at the server, within Lichess's limits, with the token;
    // the operator sees the push's state on /api/broadcast.
    expect(lichess.pushes.length).toBeGreaterThan(0);
    for (const push of lichess.pushes) {
      expect(push.status, push.body).toBe(200);
      expect(push.games.map(g => g.error).filter(e => e !== undefined)).toEqual([]);
    }
    const info = (await (await fetch(`${http}/api/broadcast`)).json()) as {
      delay_ms: number;
      public_base: string;
      push: { id: string; error: string | null; gameErrors: unknown[]; pushes: number }[];
    };
    expect(info).toMatchObject({ delay_ms: DELAY_MS, public_base: `${BASE}/public` });
    expect(info.push[0]).toMatchObject({ id: PUSH_ROUND, error: null, gameErrors: [] });
    expect(daemon.output()).not.toContain(PUSH_TOKEN);
    // The live stream would give the delayed moves away: while a delay is set only arbiters and
    // operators read it; a display is sent to /events/public, the public gets a login challenge.
    const openLive = async (user?: (typeof USERS)[number]): Promise<Response> => {
      const headers: Record<string, string> =
        user === undefined
          ? {}
          : { authorization: `Basic ${Buffer.from(`${user.name}:${user.secret}`).toString('base64')}` };
      const abortLive = new AbortController();
      const res = await fetch(`${http}/events`, { headers, signal: abortLive.signal });
      abortLive.abort();
      return res;
    };
    const [anonymous, display, arbiter] = [
      await openLive(),
      await openLive(USERS[1]),
      await openLive(USERS[0]),
    ];
    expect(anonymous.status).toBe(401);
    expect(display.status).toBe(403);
    expect(arbiter.status).toBe(200);
    expect(arbiter.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    // What Lichess pulls: UTF-8 said in the header, an ETag answered 304.
    const pgn = await fetch(`${http}/round-1/games.pgn`);
    expect(pgn.headers.get('content-type')).toBe('application/x-chess-pgn; charset=utf-8');
    const etag = pgn.headers.get('etag')!;
    expect((await fetch(`${http}/round-1/games.pgn`, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    const all = extractGames(join(folder, 'round-1', 'games.pgn'));
    expect(all.errors).toEqual([]);
    expect(all.games.map(g => g.plies)).toEqual(venue.boards.map(b => b.plies.length));
    expect(await daemon.stop()).toBe(0);
  });
});
