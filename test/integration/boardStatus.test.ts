/**
 * The board status an operator watches, end to end: the daemon (in-process, with its own serial
 * board opener) reads an emulated DGT board on a socat PTY; its cable is pulled and put back. The retained `boards/<board>/state` (a real
 * mosquitto) and `GET /api/boards` both go connected → lost (a `board_missing` problem) → back,
 * with the serial, the clock and the game on the board; every state conforms to the wire.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncScheduler, type Subscription } from 'rxjs';
import { loadConfig } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { silentLogger } from '../../src/bridge/logger.js';
import type { BoardState } from '../../src/bridge/mqtt/topics.js';
import { checkWire } from '../../src/bridge/wire/schema.js';
import { freePort, startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs, trackPid } from '../support/pty.js';
import { startVenue, subscribe, waitFor, writeConfig, type Subscriber, type Venue } from './support.js';

const BASE = 'status';

describe('board status over MQTT and HTTP while a cable is pulled and put back', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: Daemon;
  let pipeline: Subscription;
  let sub: Subscriber;
  let dir: string;
  let http: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-status-'));
    broker = await startMosquitto();
    venue = await startVenue({ count: 1, firstBoard: 1, serialBase: 47000, speed: 6, maxPlies: 4 });
    sub = await subscribe(broker.url, [`${BASE}/boards/+/state`], 'status-sub');
    const httpPort = await freePort();
    http = `http://127.0.0.1:${httpPort}`;
    const path = await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: 'status', httpPort });
    const config = (await loadConfig({ text: await readFile(path, 'utf8') })).unwrap();
    daemon = new Daemon({
      config,
      log: silentLogger(),
      engine: engineSupervisor(),
      scheduler: asyncScheduler,
      now: () => performance.timeOrigin + performance.now(),
      version: '0.0.0-test',
    });
    await daemon.start();
    pipeline = daemon.pipeline$().subscribe();
  });

  afterAll(async () => {
    pipeline.unsubscribe();
    await daemon.stop();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('goes lost with board_missing, then back, on both doors', async () => {
    const board = venue.boards[0];
    if (board === undefined) throw new Error('one board expected');
    const mqttState = (): BoardState | undefined => {
      const text = sub.latest(`${BASE}/boards/${board.id}/state`);
      return text === undefined ? undefined : (JSON.parse(text) as BoardState);
    };
    const httpState = async (): Promise<BoardState | undefined> => {
      const r = await fetch(`${http}/api/boards`).catch(() => undefined);
      if (r?.status !== 200) return undefined;
      const body = (await r.json()) as { boards: BoardState[] };
      expect(checkWire('api_boards', body), JSON.stringify(body)).toEqual([]);
      return body.boards.find(b => b.board === board.id);
    };
    const up = (s: BoardState | undefined) => s?.status === 'idle' || s?.status === 'connected';
    const waitBoth = async (ok: (s: BoardState | undefined) => boolean, what: string) => {
      await waitFor(() => ok(mqttState()), 30_000, `MQTT: ${what} (${JSON.stringify(mqttState())})`);
      let last: BoardState | undefined;
      for (let i = 0; i < 300 && !ok(last); i++) {
        last = await httpState();
        if (!ok(last)) await new Promise(resolve => setTimeout(resolve, 100));
      }
      expect(ok(last), `HTTP: ${what} (${JSON.stringify(last)})`).toBe(true);
      return last;
    };

    const before = await waitBoth(s => up(s) && s?.game === `r1-b${board.number}`, 'up with its game');
    expect(before).toMatchObject({ serial: board.serial, link: 'connected', problems: [], vendor: 'DGT' });
    expect(before?.clock?.present).toBe(true);
    expect(before?.last_seen).toBeGreaterThan(0);
    expect(before).not.toHaveProperty('placement'); // the public API shows no position
    expect(mqttState()?.placement).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');

    const unplugged = board.pty.unplug(2000);
    const lost = await waitBoth(s => s?.status === 'lost', 'lost');
    expect(lost?.problems).toEqual(['board_missing']);
    expect(mqttState()?.problems).toEqual(['board_missing']);
    await unplugged;
    trackPid(board.pty.pair);
    const back = await waitBoth(s => up(s) && s?.link === 'connected', 'connected again');
    expect(back?.problems).toEqual([]);
    expect(back?.game).toBe(`r1-b${board.number}`);
    expect(sub.problems()).toEqual([]);
  }, 90_000);
});
