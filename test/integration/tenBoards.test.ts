/**
 * Acceptance 1: ten emulated DGT boards on PTYs play full games through the daemon (a child
 * process) and a real mosquitto. A subscriber receives every move of every game exactly once after
 * dedupe by seq, first arrivals in seq order, and the retained snapshot and PGN of each game equal
 * the game played.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPgn } from '../../src/engine/pgnRead.js';
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

const SPEED = 8;
const BASE = 'accept1';

describe('acceptance 1: ten boards play full games', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-accept1-'));
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 10, firstBoard: 1, serialBase: 41000, speed: SPEED, maxPlies: 36 });
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/games/+`, `${BASE}/games/+/pgn`, `${BASE}/bridge/state`],
      'accept1-sub',
    );
    daemon = startDaemon(await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: 'accept1' }));
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers every move of every game once after dedupe, in seq order, and retains the final game', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    // The daemon starts each pairing once its board has reported its serial number and the start position.
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      `all ten games started (daemon output: ${daemon.output().slice(-2000)})`,
    );
    await Promise.all(venue.boards.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
    const moved = (g: string, n: number) => movesFromEvents(sub.firstArrivals().get(g) ?? []).length >= n;
    await waitFor(
      () => venue.boards.every(b => moved(`r1-b${b.number}`, b.plies.length)),
      30_000,
      'every move of every game',
    );
    expect(await daemon.stop()).toBe(0);
    expect(JSON.parse(sub.latest(`${BASE}/bridge/state`) ?? '{}')).toEqual({ state: 'offline' });

    const arrivals = sub.firstArrivals();
    for (const b of venue.boards) {
      const game = `r1-b${b.number}`;
      const events = arrivals.get(game) ?? [];
      // Exactly once after dedupe (first arrivals are unique by construction), none missing, in order.
      expect(
        events.map(e => e.seq),
        game,
      ).toEqual(events.map((_, i) => i + 1));
      expect(movesFromEvents(events), game).toEqual(b.plies);
      // Human handling may draw Art. 4 advice (a touched piece); never an illegal move.
      expect(
        events.filter(e => e.code === 'illegal_move'),
        game,
      ).toEqual([]);
      // Duplicates may arrive (QoS 1), never a different event under one seq.
      const bySeq = new Map<number, string>();
      for (const m of sub.seen.filter(s => s.topic === `${BASE}/games/${game}/events`)) {
        const seq = (JSON.parse(m.payload) as { seq: number }).seq;
        expect(bySeq.get(seq) ?? m.payload, `${game} seq ${seq}`).toBe(m.payload);
        bySeq.set(seq, m.payload);
      }
      // The retained snapshot and PGN are the game as played.
      const snapshot = JSON.parse(sub.latest(`${BASE}/games/${game}`) ?? '{}') as {
        moves: string[];
        seq: number;
      };
      expect(snapshot.moves, game).toEqual(b.plies);
      expect(snapshot.seq, game).toBe(events.length);
      const pgn = readPgn(sub.latest(`${BASE}/games/${game}/pgn`) ?? '');
      const sans = pgn[0]?.isOk === true ? pgn[0].value.game.moves.map(m => m.san) : [];
      expect(sans, `${game} pgn`).toEqual(b.plies);
    }
  });
});
