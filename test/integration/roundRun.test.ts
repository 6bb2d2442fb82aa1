/**
 * A round run the way a venue runs it (issue 17, acceptance 1), through the config and the
 * daemon's doors: a TRF file of two rounds (`tournament.pairingsFile`) pairs the round still to
 * play on two emulated DGT boards on socat PTYs; the embedded broker with the venue's users; the
 * folder export, the push to a local server that enforces Lichess's push contract, and a
 * broadcast delay scaled down to 2.5 s. One board's cable is pulled and put back before it plays:
 * its retained state and `GET /api/boards` say lost (board missing), then connected with its
 * game. Every ply reaches the arbiter's side (the live MQTT topics, and `/events` read with the
 * operator's session cookie) at once, and no public output (the display's public topics,
 * `/events/public`, the live PGN over HTTP, the export folder, the push) shows a ply earlier than
 * the delay after the live move event. A display user of the broker cannot read the live topics.
 * At the end every game is in the folder (LiveChess layout, read by pgn-extract without a
 * warning) and in the push (every body replayed with chessops).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { asyncScheduler, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import type { BoardState } from '../../src/bridge/mqtt/topics.js';
import { hashPassword } from '../../src/bridge/security/passwords.js';
import { checkWire } from '../../src/bridge/wire/schema.js';
import { launchChromium } from '../support/browser.js';
import { type LichessServer, startLichessServer } from '../support/lichessServer.js';
import { extractGames } from '../support/pgnExtract.js';
import { closeAllPtyPairs, trackPid } from '../support/pty.js';
import { pliesIn, readOrUndefined, readSse, Sightings, TWO_ROUNDS_TRF } from './roundKit.js';
import {
  movesFromEvents,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  type Subscriber,
  type Venue,
} from './support.js';

const BASE = 'round';
const SPEED = 10;
const DELAY_MS = 2_500;
/** Clock reading granularity between the daemon and the test (same process, same clock). */
const SLACK_MS = 50;
const PUSH_TOKEN = 'lip_roundpushtoken';
const PUSH_ROUND = 'Rnd2wxyz';
const ANNA = { username: 'anna', password: 'Ochre-Lantern-Bishop-58' };
const OLGA = { username: 'olga', password: 'Amber-Quarry-Rook-44' };
const HALL = { username: 'hall', password: 'Quiet-Harbour-Knight-31' };
const basic = (u: { username: string; password: string }): string =>
  `Basic ${Buffer.from(`${u.username}:${u.password}`).toString('base64')}`;

describe('a round from the pairings file to the broadcast, behind a delay', () => {
  let dir: string;
  let folder: string;
  let venue: Venue;
  let lichess: LichessServer;
  let daemon: Daemon;
  let pipeline: Subscription;
  let memory: ReturnType<typeof memoryLogger>;
  /** The arbiter's view (live) and the display's (public), over the embedded broker. */
  let live: Subscriber;
  let hall: Subscriber;
  let http: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-round-'));
    folder = join(dir, 'live');
    lichess = await startLichessServer({ token: PUSH_TOKEN, rounds: [PUSH_ROUND] });
    await writeFile(join(dir, 'push-token'), `${PUSH_TOKEN}\n`);
    await writeFile(join(dir, 'open.trf'), TWO_ROUNDS_TRF);
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 61000, speed: SPEED, maxPlies: 6 });
    const user = async (u: typeof ANNA, role: string) =>
      `  - { name: ${u.username}, role: ${role}, passwordHash: '${await hashPassword(u.password)}' }`;
    const config = (
      await loadConfig({
        text: [
          `tournament: { name: Open de Otoño, rounds: 2, pairingsFile: ${join(dir, 'open.trf')} }`,
          'laws: { edition: E23, gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 2 }`,
          `mqtt: { baseTopic: ${BASE}, clientId: round-daemon }`,
          'http: { enabled: yes }',
          'broadcast:',
          `  folder: ${folder}`,
          `  delayMinutes: ${DELAY_MS / 60_000}`,
          `  lichess: { url: '${lichess.url}', tokenFile: ${join(dir, 'push-token')}, rounds: [{ round: 2, id: ${PUSH_ROUND} }] }`,
          'users:',
          await user(ANNA, 'arbiter'),
          await user(OLGA, 'operator'),
          await user(HALL, 'display'),
          'boards:',
          ...venue.boards.map(
            b => `  - { id: ${b.id}, driver: dgt, port: ${b.pty.hostPath}, number: ${b.number}, clock: yes }`,
          ),
        ].join('\n'),
      })
    ).unwrap();
    memory = memoryLogger('info');
    daemon = new Daemon({
      config,
      log: memory.logger,
      engine: engineSupervisor(),
      scheduler: asyncScheduler,
      now: () => performance.timeOrigin + performance.now(),
      version: '0.0.0-test',
      brokerPorts: { port: 0, wsPort: 0 },
      httpPort: 0,
    });
    await daemon.start();
    pipeline = daemon.pipeline$().subscribe();
    http = daemon.addresses?.http ?? '';
    const mqtt = daemon.addresses?.mqtt ?? '';
    live = await subscribe(
      mqtt,
      [`${BASE}/games/+/events`, `${BASE}/games/+`, `${BASE}/boards/+/state`],
      'round-anna',
      ANNA,
    );
    hall = await subscribe(mqtt, [`${BASE}/public/games/+`], 'round-hall', HALL);
  });

  afterAll(async () => {
    await live.close();
    await hall.close();
    pipeline.unsubscribe();
    await daemon.stop();
    await venue.stop();
    await closeAllPtyPairs();
    await lichess.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('pairs from the file, watches the boards and shows every move publicly only after the delay', async () => {
    const games = venue.boards.map(b => `r2-b${b.number}`);
    const [board1, board2] = venue.boards;
    if (board1 === undefined || board2 === undefined) throw new Error('two boards expected');
    const log = () => memory.lines.slice(-40).join('\n');
    await waitFor(
      () => games.every(g => live.latest(`${BASE}/games/${g}`) !== undefined),
      20_000,
      `both games of round 2 on their boards (${log()})`,
    );
    // The round still to play, with the players as the file has them; round 1 was played.
    const snapshot = (game: string) => JSON.parse(live.latest(`${BASE}/games/${game}`) ?? '{}') as object;
    expect(snapshot('r2-b1')).toMatchObject({
      white: { name: 'Bravo, Ben', title: 'IM', rating: 2400, federation: 'ARG' },
      black: { name: 'Alpha, Anna', title: 'GM', rating: 2500, federation: 'ESP' },
    });
    expect(snapshot('r2-b2')).toMatchObject({
      white: { name: 'Charlie, Cid' },
      black: { name: 'Delta, Dan' },
    });
    expect(live.latest(`${BASE}/games/r1-b1`)).toBeUndefined();

    // The operator's page logs in once; its event stream then carries the cookie, not a password.
    const session = await fetch(`${http}/api/session`, {
      method: 'POST',
      headers: { authorization: basic(OLGA) },
    });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ user: 'olga', role: 'operator' });
    const setCookie = session.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      /^chessbridge_session=[\w-]{40,}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
    );
    const cookie = setCookie.split(';')[0] ?? '';

    // When each output first showed each ply: the arbiter's side and every public output.
    const sight = () => new Sightings(games);
    const [mqttLive, consoleStream, publicTopic, publicStream, served, exported, pushed] = [
      sight(),
      sight(),
      sight(),
      sight(),
      sight(),
      sight(),
      sight(),
    ];
    const countOf = (payload: string) => (JSON.parse(payload) as { moves: string[] }).moves.length;
    const consoleSse = readSse(
      `${http}/events`,
      (data, at) => {
        const { topic, payload } = JSON.parse(data) as { topic: string; payload: string };
        const m = /\/games\/([^/]+)$/.exec(topic);
        if (m?.[1] !== undefined && payload !== '') consoleStream.mark(m[1], countOf(payload), at);
      },
      { cookie },
    );
    const publicSse = readSse(`${http}/events/public`, (data, at) => {
      const { topic, payload } = JSON.parse(data) as { topic: string; payload: string };
      if (payload !== '') publicStream.mark(topic.split('/').at(-1) ?? '', countOf(payload), at);
    });
    expect(await consoleSse.status).toBe(200);
    expect(await publicSse.status).toBe(200);
    const sampling = { on: true };
    const sampler = (async () => {
      // Each sighting is timed once its answer is in: a load can make a release look later, never earlier.
      while (sampling.on) {
        for (const b of venue.boards) {
          const game = `r2-b${b.number}`;
          mqttLive.mark(game, movesFromEvents(live.firstArrivals().get(game) ?? []).length, Date.now());
          const shown = hall.latest(`${BASE}/public/games/${game}`);
          publicTopic.mark(game, shown === undefined || shown === '' ? 0 : countOf(shown), Date.now());
          const file = await readOrUndefined(join(folder, 'round-2', `game-${b.number}.pgn`));
          exported.mark(game, pliesIn(file), Date.now());
          const reply = await fetch(`${http}/round-2/game-${b.number}.pgn`).catch(() => undefined);
          served.mark(game, pliesIn(reply?.ok === true ? await reply.text() : undefined), Date.now());
        }
        for (const push of lichess.pushes)
          for (const g of push.games) pushed.mark(`r2-b${g.round?.split('.')[1] ?? ''}`, g.plies, push.at);
        await new Promise(r => setTimeout(r, 50));
      }
    })();

    const boardState = (id: string): BoardState | undefined => {
      const text = live.latest(`${BASE}/boards/${id}/state`);
      return text === undefined ? undefined : (JSON.parse(text) as BoardState);
    };
    const apiState = async (id: string): Promise<BoardState | undefined> => {
      const body = (await (await fetch(`${http}/api/boards`)).json()) as { boards: BoardState[] };
      expect(checkWire('api_boards', body), JSON.stringify(body)).toEqual([]);
      return body.boards.find(b => b.board === id);
    };
    /** Waits until the retained state, then /api/boards, satisfy `ok`. */
    const bothSay = async (id: string, ok: (s: BoardState | undefined) => boolean, what: string) => {
      await waitFor(() => ok(boardState(id)), 15_000, `MQTT: ${what} (${JSON.stringify(boardState(id))})`);
      let last = await apiState(id);
      for (let i = 0; i < 100 && !ok(last); i++) {
        await new Promise(r => setTimeout(r, 50));
        last = await apiState(id);
      }
      expect(ok(last), `/api/boards: ${what} (${JSON.stringify(last)})`).toBe(true);
      return last;
    };
    const up = (s: BoardState | undefined) => s?.status === 'idle' || s?.status === 'connected';

    try {
      const before = await bothSay(board2.id, s => up(s) && s?.game === 'r2-b2', 'board 2 up with its game');
      expect(before).toMatchObject({ serial: board2.serial, link: 'connected', problems: [], vendor: 'DGT' });
      expect(before?.clock?.present).toBe(true);
      expect(before?.last_seen).toBeGreaterThan(0);
      expect(before).not.toHaveProperty('placement'); // the public API shows no position
      expect(boardState(board2.id)?.placement).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
      // Board 1 plays while board 2's cable is pulled and put back; then board 2 plays.
      await Promise.all([
        board1.pty.runner.play(stepsOf(board1, SPEED).first),
        (async () => {
          const unplugged = board2.pty.unplug(1500);
          const lost = await bothSay(board2.id, s => s?.status === 'lost', 'board 2 lost');
          expect(lost?.problems).toEqual(['board_missing']);
          expect(boardState(board2.id)?.problems).toEqual(['board_missing']);
          await unplugged;
          trackPid(board2.pty.pair);
          const back = await bothSay(board2.id, s => up(s) && s?.link === 'connected', 'board 2 back');
          expect(back).toMatchObject({ problems: [], game: 'r2-b2', serial: board2.serial });
          await board2.pty.runner.play(stepsOf(board2, SPEED).first);
        })(),
      ]);
      const allPlies = (seen: Sightings) =>
        venue.boards.every(b => seen.at(`r2-b${b.number}`, b.plies.length) !== undefined);
      await waitFor(
        () => allPlies(mqttLive) && allPlies(consoleStream),
        15_000,
        'every ply on the live side',
      );
      const outputs = { publicTopic, publicStream, served, exported, pushed };
      await waitFor(
        () => Object.values(outputs).every(allPlies),
        DELAY_MS + 15_000,
        'every ply in every public output after the delay',
      );
    } finally {
      sampling.on = false;
      consoleSse.abort.abort();
      publicSse.abort.abort();
      await sampler;
    }
    // Made: the daemon's time on its live move event (the same clock as the test's).
    for (const b of venue.boards) {
      const game = `r2-b${b.number}`;
      const events = live.firstArrivals().get(game) ?? [];
      for (let p = 1; p <= b.plies.length; p++) {
        const madeAt = events.find(e => e.type === 'move' && e.ply === p)?.at ?? Number.NaN;
        expect(consoleStream.at(game, p)! - madeAt, `${game} ply ${p} on the console`).toBeLessThan(DELAY_MS);
        for (const [name, seen] of Object.entries({ publicTopic, publicStream, served, exported, pushed }))
          expect(seen.at(game, p)! - madeAt, `${game} ply ${p} in ${name}`).toBeGreaterThanOrEqual(
            DELAY_MS - SLACK_MS,
          );
      }
    }

    // The folder in the LiveChess layout; every PGN read by pgn-extract without a warning.
    expect((await readdir(folder)).sort()).toEqual(['round-2', 'tournament.json']);
    const tournament = JSON.parse(await readFile(join(folder, 'tournament.json'), 'utf8')) as object;
    expect(tournament).toMatchObject({ name: 'Open de Otoño' });
    expect((await readdir(join(folder, 'round-2'))).sort()).toEqual([
      'game-1.pgn',
      'game-2.pgn',
      'games.pgn',
      'index.json',
    ]);
    const index = JSON.parse(await readFile(join(folder, 'round-2', 'index.json'), 'utf8')) as {
      pairings: { board: number; serial: string | null; white: { lname: string } }[];
    };
    expect(index.pairings.map(p => [p.board, p.white.lname, p.serial])).toEqual([
      [1, 'Bravo', board1.serial],
      [2, 'Charlie', board2.serial],
    ]);
    for (const name of ['game-1.pgn', 'game-2.pgn', 'games.pgn']) {
      const result = extractGames(join(folder, 'round-2', name));
      expect(result.errors, name).toEqual([]);
    }
    expect(extractGames(join(folder, 'round-2', 'games.pgn')).games.map(g => g.plies)).toEqual(
      venue.boards.map(b => b.plies.length),
    );
    // Every push accepted and replayed with chessops; the token never in the log.
    expect(lichess.pushes.length).toBeGreaterThan(0);
    for (const push of lichess.pushes) {
      expect(push.status, push.body).toBe(200);
      expect(push.games.map(g => g.error).filter(e => e !== undefined)).toEqual([]);
    }
    expect(memory.lines.join('\n')).not.toContain(PUSH_TOKEN);
    // What Lichess pulls: UTF-8 in the header, an ETag answered 304.
    const pgn = await fetch(`${http}/round-2/games.pgn`);
    expect(pgn.headers.get('content-type')).toBe('application/x-chess-pgn; charset=utf-8');
    const etag = pgn.headers.get('etag') ?? '';
    expect((await fetch(`${http}/round-2/games.pgn`, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    // The operator sees the delay and the push's state.
    const info = (await (await fetch(`${http}/api/broadcast`)).json()) as { push: object[] };
    expect(info).toMatchObject({ delay_ms: DELAY_MS, public_base: `${BASE}/public` });
    expect(info.push[0]).toMatchObject({ id: PUSH_ROUND, error: null, gameErrors: [] });
  }, 60_000);

  it('keeps the live stream and the live topics from the public while the delay runs', async () => {
    const open = async (headers: Record<string, string>): Promise<number> => {
      const sse = readSse(`${http}/events`, () => undefined, headers);
      const status = await sse.status;
      sse.abort.abort();
      return status;
    };
    expect(await open({})).toBe(401);
    expect(await open({ authorization: basic(HALL) })).toBe(403);
    expect(await open({ authorization: basic(ANNA) })).toBe(200);
    expect(await open({ cookie: 'chessbridge_session=forged' })).toBe(401);
    // A display's session opens, but its role still may not read the live stream.
    const display = await fetch(`${http}/api/session`, {
      method: 'POST',
      headers: { authorization: basic(HALL) },
    });
    const displayCookie = (display.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(await open({ cookie: displayCookie })).toBe(403);
    // Logged out, the operator's cookie no longer opens it.
    const olga = await fetch(`${http}/api/session`, {
      method: 'POST',
      headers: { authorization: basic(OLGA) },
    });
    const olgaCookie = (olga.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(await open({ cookie: olgaCookie })).toBe(200);
    const out = await fetch(`${http}/api/session`, { method: 'DELETE', headers: { cookie: olgaCookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await open({ cookie: olgaCookie })).toBe(401);
    expect(
      (
        await fetch(`${http}/api/session`, {
          method: 'POST',
          headers: { authorization: basic({ ...OLGA, password: 'wrong-wrong-wrong' }) },
        })
      ).status,
    ).toBe(401);

    // The display's broker login reads the public copies only: the live topics are refused.
    const client: MqttClient = await connectAsync(daemon.addresses?.mqtt ?? '', {
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: 'round-hall-probe',
      ...HALL,
    });
    const received: string[] = [];
    client.on('message', topic => received.push(topic));
    try {
      const grant = (filter: string): Promise<number | 'refused'> =>
        client.subscribeAsync(filter, { qos: 1 }).then(
          g => g[0]?.qos ?? 'refused',
          () => 'refused' as const,
        );
      for (const filter of [`${BASE}/games/+`, `${BASE}/#`, `${BASE}/boards/+/state`, `${BASE}/+/+`])
        expect(await grant(filter), filter).toBe('refused');
      expect(await grant(`${BASE}/public/games/+`)).toBe(1);
      // The retained public copies arrive; nothing of the live side ever does.
      await waitFor(() => received.length >= 2, 5000, 'the retained public copies');
      expect(
        received.every(t => t.startsWith(`${BASE}/public/games/`)),
        received.join(', '),
      ).toBe(true);
    } finally {
      await client.endAsync();
    }
  });

  it('shows the boards page to the operator and the console to the arbiter once logged in', async () => {
    const chrome = await launchChromium();
    try {
      for (const transport of [`sse=/events`, `mqtt=${encodeURIComponent(daemon.addresses?.ws ?? '')}`]) {
        const page = await chrome.newPage({ width: 1280, height: 800 });
        await page.goto(`${http}/ui/console/boards.html?base=${BASE}&${transport}`);
        // The board states carry the position: nothing without a login while the delay runs.
        await page.locator('#op-login-fields:not([disabled])').waitFor({ timeout: 20_000 });
        expect(await page.locator('#board-rows tr').count(), transport).toBe(0);
        await page.locator('#op-user').fill(OLGA.username);
        await page.locator('#op-password').fill(OLGA.password);
        await page
          .locator('#op-login')
          .evaluate(f => (f as unknown as { requestSubmit(): void }).requestSubmit());
        for (const b of venue.boards)
          await page.locator(`#board-rows tr[data-board="${b.id}"]`).waitFor({ timeout: 20_000 });
        expect(await page.locator('#op-forms').isHidden(), transport).toBe(false);
        expect(await page.locator('#connection').getAttribute('data-status'), transport).toBe('live');
        await page.close();
      }
      // The arbiter console over events: its login opens the stream's session too.
      const page = await chrome.newPage({ width: 1280, height: 800 });
      await page.goto(`${http}/ui/console/index.html?base=${BASE}&sse=/events&user=${ANNA.username}`);
      await page.locator('#login-fields:not([disabled])').waitFor({ timeout: 20_000 });
      await page.locator('input[name="kind"][value="password"]').check();
      await page.locator('#secret').fill(ANNA.password);
      await page
        .locator('#login-form')
        .evaluate(f => (f as unknown as { requestSubmit(): void }).requestSubmit());
      await page
        .locator('#game-select option[value="r2-b2"]')
        .waitFor({ state: 'attached', timeout: 20_000 });
      expect(await page.locator('#connection').getAttribute('data-status')).toBe('live');
      await page.close();
    } finally {
      await chrome.close();
    }
  });
});
