/**
 * Acceptance 2: mosquitto is SIGKILLed and restarted twice while four boards play. The daemon's
 * publisher keeps every event queued until acknowledged and re-sends after each reconnect; a
 * subscriber with a persistent session ends with every move of every game, none missing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
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
const BASE = 'accept2';

describe('acceptance 2: the broker is killed twice mid-game', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-accept2-'));
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 4, firstBoard: 1, serialBase: 42000, speed: SPEED, maxPlies: 40 });
    sub = await subscribe(broker.url, [`${BASE}/games/+/events`, `${BASE}/games/+`], 'accept2-sub');
    daemon = startDaemon(await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: 'accept2' }));
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no move across two broker crashes', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      'the games to start',
    );
    const moves = () =>
      games.reduce((n, g) => n + movesFromEvents(sub.firstArrivals().get(g) ?? []).length, 0);
    const total = venue.boards.reduce((n, b) => n + b.plies.length, 0);
    const playing = Promise.all(venue.boards.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
    for (const fraction of [0.3, 0.6]) {
      await waitFor(() => moves() >= total * fraction, 60_000, `${fraction * 100} % of the moves`);
      await broker.kill();
      await new Promise(resolve => setTimeout(resolve, 1500)); // moves keep being made meanwhile
      await broker.restart();
    }
    await playing;
    await waitFor(() => moves() >= total, 30_000, `every move (have ${moves()} of ${total})`);
    for (const b of venue.boards) {
      const game = `r1-b${b.number}`;
      const events = sub.firstArrivals().get(game) ?? [];
      expect(
        [...events.map(e => e.seq)].sort((x, y) => x - y),
        game,
      ).toEqual(events.map((_, i) => i + 1));
      expect(movesFromEvents(events), game).toEqual(b.plies);
    }
    // The daemon saw both crashes (and stayed up through them).
    expect(
      daemon.logs().filter(l => l.msg.includes('lost; MQTT.js reconnects')).length,
    ).toBeGreaterThanOrEqual(2);
    expect(daemon.logs().filter(l => l.level === 'error')).toEqual([]);
    expect(daemon.child.exitCode).toBeNull();
  });
});
