import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ImportedGame, decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { parseTimeControl } from '../../../src/engine/timeControl.js';
import { FeedFiles } from '../../../src/bridge/feed/feedFiles.js';
import {
  type FeedState,
  gameEntry,
  makeFeedState,
  setRound,
  upsertGame,
} from '../../../src/bridge/feed/feedState.js';
import { liveGameFromPgn } from '../../../src/bridge/feed/fromPgn.js';
import { type HealthReport, HttpServer, splitTarget } from '../../../src/bridge/http/server.js';
import { BridgeMetrics } from '../../../src/bridge/http/metrics.js';
import { extractGames } from '../../support/pgnExtract.js';
import { sharedPath } from '../../support/shared.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';

const T0 = Date.UTC(2024, 11, 26, 15, 0, 0);

const rapidGames = (n: number): ImportedGame[] => {
  const text = decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn')));
  const starts = [...text.matchAll(/^\[Event /gm)].map(m => m.index);
  return readPgn(text.slice(0, starts[n] ?? text.length)).map(r => r.unwrap());
};
const GAMES = rapidGames(20);

/** Round 1 of 20 boards from real games, each cut to its first 30 plies (in progress). */
const roundOf20 = (): FeedState => {
  let s = makeFeedState(
    { name: 'Rapid 2024', site: 'New York', timeControl: parseTimeControl('900+10').unwrap() },
    T0,
  );
  s = setRound(s, 1, { date: '2024-12-26' }, T0);
  for (const [i, g] of GAMES.entries()) {
    const { result: _r, ...live } = liveGameFromPgn(g, { round: 1, board: i + 1 });
    s = upsertGame(s, { ...live, game: g.game.truncate(Math.min(30, g.game.length)).unwrap() }, T0);
  }
  return s;
};

/** The next ply of board `board`'s real game, as the daemon would hand it over. */
const nextMove = (s: FeedState, board: number, at: number): FeedState => {
  const entry = gameEntry(s, 1, board)!;
  const full = GAMES[board - 1]!.game;
  const game = full.truncate(entry.live.game.length + 1).unwrap();
  return upsertGame(s, { ...entry.live, game }, at);
};

let state: FeedState;
let now: number;
let health: HealthReport = { ok: true };
const metrics = new BridgeMetrics(T0);
const server = new HttpServer({
  port: 0,
  feed: () => state,
  clock: () => now,
  metrics,
  health: () => health,
});
let base = '';
const dir = mkdtempSync(join(tmpdir(), 'http-feed-'));

beforeAll(async () => {
  const { port } = await server.start();
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  state = roundOf20();
  now = T0 + 1000;
  health = { ok: true };
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

describe('live PGN over HTTP', () => {
  it('serves round-1/games.pgn equal to the model, and every served PGN passes pgn-extract', async () => {
    const res = await get('/round-1/games.pgn');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-chess-pgn; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = Buffer.from(await res.arrayBuffer());
    const model = new FeedFiles().get(state, 'round-1/games.pgn', now)!;
    expect(body.equals(model.body)).toBe(true);
    expect(res.headers.get('etag')).toBe(model.etag);
    expect(res.headers.get('last-modified')).toBe(new Date(T0).toUTCString());
    const paths = ['round-1/games.pgn', ...GAMES.map((_, i) => `round-1/game-${i + 1}.pgn`)];
    for (const path of paths) {
      const text = await (await get(`/${path}`)).text();
      const file = join(dir, path.replace('/', '-'));
      writeFileSync(file, text);
      const out = extractGames(file);
      expect(out.errors, path).toEqual([]);
      expect(out.games.length, path).toBe(path.endsWith('games.pgn') ? 20 : 1);
      for (const g of out.games) expect(g.plies).toBe(30);
    }
  });

  it('answers a poller with 304 while nothing changed, and 200 with a new ETag after a move', async () => {
    const first = await get('/round-1/game-7.pgn');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    for (let i = 0; i < 3; i++) {
      now += 1500;
      const again = await get('/round-1/game-7.pgn', { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    state = nextMove(state, 7, now);
    const changed = await get('/round-1/game-7.pgn', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.headers.get('last-modified')).toBe(new Date(now).toUTCString());
    expect(await changed.text()).toContain(`16. ${GAMES[6]!.game.moves[30]!.san}`);
    // the whole round changed too, the other games did not
    const other = await get('/round-1/game-8.pgn');
    expect((await get('/round-1/game-8.pgn', { 'if-none-match': other.headers.get('etag')! })).status).toBe(
      304,
    );
  });

  it('honours If-Modified-Since when no ETag is sent, and a list of ETags', async () => {
    const first = await get('/round-1/games.pgn');
    const lm = first.headers.get('last-modified')!;
    expect((await get('/round-1/games.pgn', { 'if-modified-since': lm })).status).toBe(304);
    expect(
      (await get('/round-1/games.pgn', { 'if-none-match': `"nope", W/${first.headers.get('etag')!}` }))
        .status,
    ).toBe(304);
    now = T0 + 5000;
    state = nextMove(state, 3, now);
    const after = await get('/round-1/games.pgn', { 'if-modified-since': lm });
    expect(after.status).toBe(200);
    expect(after.headers.get('last-modified')).toBe(new Date(T0 + 5000).toUTCString());
  });

  it('serves the corrected moves after a correction, never the replaced ones', async () => {
    const plyOf = (text: string, ply: number) => readPgn(text)[0]!.unwrap().game.moves[ply - 1]?.san;
    const before = await (await get('/round-1/game-1.pgn')).text();
    const entry = gameEntry(state, 1, 1)!;
    const replaced = entry.live.game.moves[28]!.san;
    // the arbiter corrects ply 29 to another legal move (a correction from ply 29, not a variation)
    const kept = entry.live.game.truncate(28).unwrap();
    const game = [...kept.position().allDests()]
      .flatMap(([from, tos]) => [...tos].map(to => kept.play({ from, to })))
      .flatMap(r => (r.isOk && r.value.moves[28]!.san !== replaced ? [r.value] : []))[0]!;
    state = upsertGame(state, { ...entry.live, game }, now + 10);
    const after = await (await get('/round-1/game-1.pgn')).text();
    expect(plyOf(before, 29)).toBe(replaced);
    expect(plyOf(after, 29)).toBe(game.moves[28]!.san);
    expect(plyOf(after, 30)).toBeUndefined();
    expect(after).not.toContain('(');
  });

  it('withholds moves younger than the round delay', async () => {
    state = setRound(state, 1, { date: '2024-12-26', delayMs: 60_000 }, T0);
    now = T0 + 59_999;
    expect(await (await get('/round-1/game-2.pgn')).text()).not.toContain('1. ');
    now = T0 + 60_000;
    const shown = await get('/round-1/game-2.pgn');
    expect(readPgn(await shown.text())[0]!.unwrap().game.length).toBe(30);
    state = nextMove(state, 2, now);
    expect((await get('/round-1/game-2.pgn', { 'if-none-match': shown.headers.get('etag')! })).status).toBe(
      304,
    );
    now += 60_000;
    const released = await get('/round-1/game-2.pgn', { 'if-none-match': shown.headers.get('etag')! });
    expect(released.status).toBe(200);
    expect(readPgn(await released.text())[0]!.unwrap().game.length).toBe(31);
  });

  it('serves the index page, tournament.json and round index, and 404 for anything else', async () => {
    const index = await get('/');
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const english = await index.text();
    expect(english).toContain('href="round-1/games.pgn"');
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('<h2>Round 1</h2>');
    // In the reader's language: Accept-Language, or ?lang= in the address, which wins.
    const es = await get('/', { 'accept-language': 'de-DE, es;q=0.8, en;q=0.5' });
    expect(es.headers.get('vary')).toBe('Accept-Language');
    expect(es.headers.get('content-language')).toBe('es');
    expect(es.headers.get('etag')).not.toBe(index.headers.get('etag'));
    const spanish = await es.text();
    expect(spanish).toContain('<html lang="es">');
    expect(spanish).toContain('<h2>Ronda 1</h2>');
    expect(spanish).toContain('en juego</li>');
    expect(spanish).toContain('<a href="?lang=en" hreflang="en" lang="en">English</a>');
    expect(spanish).not.toMatch(/Round|in play|Files for/);
    expect(await (await get('/?lang=en', { 'accept-language': 'es' })).text()).toContain('<html lang="en">');
    expect(((await (await get('/tournament.json')).json()) as { rounds: unknown }).rounds).toEqual([
      { count: 20, live: 20 },
    ]);
    expect(
      ((await (await get('/round-1/index.json')).json()) as { pairings: unknown[] }).pairings,
    ).toHaveLength(20);
    for (const path of ['/round-2/games.pgn', '/round-1/game-21.pgn', '/round-1/game-01.pgn', '/nothing']) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('answers HEAD without a body, refuses other methods, and answers CORS preflights', async () => {
    const head = await fetch(`${base}/round-1/games.pgn`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await head.text()).toBe('');
    const post = await fetch(`${base}/round-1/games.pgn`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const pre = await fetch(`${base}/round-1/games.pgn`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('If-None-Match');
  });

  it('gives a poller every move of a running game, one 200 per move', async () => {
    let etag = (await get('/round-1/game-4.pgn')).headers.get('etag')!;
    for (let i = 0; i < 5; i++) {
      now += 1000;
      state = nextMove(state, 4, now);
      const res = await get('/round-1/game-4.pgn', { 'if-none-match': etag });
      expect(res.status).toBe(200);
      etag = res.headers.get('etag')!;
      expect(readPgn(await res.text())[0]!.unwrap().game.length).toBe(31 + i);
    }
  });
});

describe('JSON API', () => {
  it("lists rounds, a round's games and a game with its moves, with ETags", async () => {
    expect(await (await get('/api/rounds')).json()).toEqual([
      { round: 1, date: '2024-12-26', delay_ms: 0, games: 20, live: 20 },
    ]);
    const round = (await (await get('/api/rounds/1')).json()) as {
      games: { board: number; plies: number; white: { name: string } }[];
    };
    expect(round.games.map(g => g.board)).toEqual(GAMES.map((_, i) => i + 1));
    expect(round.games[0]!.white.name).toBe(GAMES[0]!.headers.get('White'));
    const res = await get('/api/rounds/1/games/5');
    const game = (await res.json()) as Record<string, unknown> & {
      moves: { ply: number; san: string; clock_ms: number }[];
    };
    const record = GAMES[4]!.game;
    expect(game).toMatchObject({
      round: 1,
      board: 5,
      result: '*',
      plies: 30,
      fen: record.fenAt(30),
      last_move: { ply: 30, san: record.moves[29]!.san },
      time_control: '900+10',
      delayed: false,
    });
    expect(game.clocks).toEqual({
      white_ms: Math.round(record.moves[28]!.clockMs!),
      black_ms: Math.round(record.moves[29]!.clockMs!),
    });
    expect(checkWire('api_game', game)).toEqual([]);
    expect(checkWire('api_rounds', await (await get('/api/rounds')).json())).toEqual([]);
    expect(checkWire('api_round', await (await get('/api/rounds/1')).json())).toEqual([]);
    expect(checkWire('api_tournament', await (await get('/api/tournament')).json())).toEqual([]);
    expect(game.moves).toHaveLength(30);
    expect((await get('/api/rounds/1/games/5', { 'if-none-match': res.headers.get('etag')! })).status).toBe(
      304,
    );
    const tail = (await (await get('/api/rounds/1/games/5/moves?from=29')).json()) as { ply: number }[];
    expect(tail.map(m => m.ply)).toEqual([29, 30]);
    expect(checkWire('api_moves', tail)).toEqual([]);
  });

  it('answers unknown rounds and games with 404 and a bad query with 400, as JSON', async () => {
    for (const path of ['/api/rounds/2', '/api/rounds/1/games/99', '/api/nothing']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { status: string }).status).toBe('error');
    }
    expect((await get('/api/rounds/1/games/1/moves?from=0')).status).toBe(400);
  });
});

describe('health and metrics', () => {
  it("reports health as 200 or 503 with the check's details", async () => {
    const ok = await get('/healthz');
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({ status: 'ok', ok: true });
    expect(checkWire('healthz', body)).toEqual([]);
    health = { ok: false, boards: 'none connected' };
    const bad = await get('/healthz');
    expect(bad.status).toBe(503);
    expect(await bad.json()).toMatchObject({ status: 'fail', boards: 'none connected' });
  });

  it('exposes the bridge counters and its own requests in Prometheus text format', async () => {
    metrics.setBoardsConnected(18);
    metrics.countEvent('move', 5);
    metrics.countAlert('touch-move');
    metrics.observePublishLatency(0.004);
    metrics.observePublishLatency(0.2);
    await get('/round-1/games.pgn');
    const res = await get('/metrics');
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE chessbridge_boards_connected gauge\nchessbridge_boards_connected 18\n');
    expect(text).toContain('chessbridge_events_published_total{type="move"} 5\n');
    expect(text).toContain('chessbridge_alerts_total{code="touch-move"} 1\n');
    expect(text).toContain('chessbridge_publish_latency_seconds_bucket{le="0.005"} 1\n');
    expect(text).toContain('chessbridge_publish_latency_seconds_bucket{le="0.25"} 2\n');
    expect(text).toContain('chessbridge_publish_latency_seconds_bucket{le="+Inf"} 2\n');
    expect(text).toContain('chessbridge_publish_latency_seconds_count 2\n');
    expect(text).toMatch(/chessbridge_http_requests_total\{route="feed_pgn",code="200"\} \d+\n/);
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? [-+.\deInf]+)$/);
    }
  });
});

describe('lifecycle', () => {
  it('starts and stops idempotently, on any free port', async () => {
    const other = new HttpServer({ port: 0, feed: () => state });
    await other.stop(); // stop before start: nothing to do
    const [a, b] = await Promise.all([other.start(), other.start()]);
    expect(a.port).toBe(b.port);
    expect(a.port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${a.port}/healthz`)).status).toBe(200);
    await Promise.all([other.stop(), other.stop()]);
    await other.stop();
    await expect(fetch(`http://127.0.0.1:${a.port}/healthz`)).rejects.toThrow();
    const again = await other.start();
    expect((await fetch(`http://127.0.0.1:${again.port}/healthz`)).status).toBe(200);
    await other.stop();
  });

  it('reads the request target in origin form and absolute form', () => {
    expect(splitTarget('/round-1/games.pgn?x=1')).toEqual({ path: '/round-1/games.pgn', query: 'x=1' });
    expect(splitTarget('http://venue:8080/ui/../x')).toEqual({ path: '/ui/../x', query: '' });
    expect(splitTarget('*')).toBeUndefined();
  });
});
