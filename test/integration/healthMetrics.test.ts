/**
 * /metrics and /healthz of a running daemon, scraped as an operator's Prometheus and load balancer
 * would, during a round on two emulated boards (real PTYs, a real mosquitto), then with one board's
 * cable pulled: the counters are fed by what the daemon really publishes, and health says degraded
 * and names the board.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWire } from '../../src/bridge/wire/schema.js';
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

const SPEED = 6;
const BASE = 'metrics';

/** The value of one sample line of a Prometheus text, or undefined. */
const sample = (text: string, name: string): number | undefined => {
  const line = text.split('\n').find(l => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

describe('/metrics and /healthz during a round', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let dir: string;
  let http: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-metrics-'));
    broker = await startMosquitto();
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 46000, speed: SPEED, maxPlies: 12 });
    sub = await subscribe(broker.url, [`${BASE}/games/+/events`], 'metrics-sub');
    const httpPort = await freePort();
    http = `http://127.0.0.1:${httpPort}`;
    daemon = startDaemon(
      await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: 'metrics', httpPort }),
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

  it('counts what is published, and says degraded, naming the board, once a cable is pulled', async () => {
    const metrics = async () => (await fetch(`${http}/metrics`)).text();
    const health = async () => {
      const r = await fetch(`${http}/healthz`);
      const body = (await r.json()) as { status: string; degraded?: string[] };
      expect(checkWire('healthz', body), JSON.stringify(body)).toEqual([]);
      return { code: r.status, ...body };
    };
    await waitFor(() => daemon.output().includes('HTTP on'), 30_000, `the HTTP server (${daemon.output()})`);
    await waitFor(() => sub.firstArrivals().size === 2, 30_000, 'both games started');
    const games = venue.boards.map(b => `r1-b${b.number}`);
    await Promise.all(venue.boards.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    await waitFor(
      () => venue.boards.every((b, i) => moves(games[i] ?? '').length >= b.plies.length),
      30_000,
      'every move',
    );

    // Scraped until the counters show every move (the last PUBACKs may still be on their way).
    let text = '';
    const published = venue.boards.reduce((n, b) => n + b.plies.length, 0);
    for (let i = 0; i < 100; i++) {
      text = await metrics();
      if ((sample(text, 'chessbridge_events_published_total{type="move"}') ?? 0) >= published) break;
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    expect(sample(text, 'chessbridge_boards_connected')).toBe(2);
    expect(sample(text, 'chessbridge_events_published_total{type="move"}')).toBe(published);
    expect(sample(text, 'chessbridge_publish_latency_seconds_count')).toBeGreaterThanOrEqual(published);
    expect(sample(text, 'chessbridge_publish_queue')).toBeGreaterThanOrEqual(0);
    expect(await health()).toMatchObject({ code: 200, status: 'ok', degraded: [] });

    // The second board's cable is pulled.
    await venue.boards[1]?.pty.pair.stop();
    await waitFor(
      () => daemon.output().includes('board b-2: lost'),
      30_000,
      `board b-2 lost (${daemon.output().slice(-2000)})`,
    );
    const h = await health();
    expect(h).toMatchObject({ code: 200, status: 'degraded' });
    expect(h.degraded?.[0]).toMatch(/^1 of 2 boards not connected: b-2 \(/);
    expect(sample(await metrics(), 'chessbridge_boards_connected')).toBe(1);
  }, 120_000);
});
