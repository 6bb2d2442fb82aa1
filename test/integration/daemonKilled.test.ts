/**
 * Acceptance 3: the daemon (a child process) is SIGKILLed mid-game and started again. Every game
 * resumes from its journal with the same seq, the boards are matched again (a fresh dump after
 * the reconnection equals each game's position; one board even had a move made while the daemon
 * was down), and the subscriber ends with every move exactly once by seq.
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
const BASE = 'accept3';
const SPLIT = 14;

describe('acceptance 3: the daemon is killed mid-game and restarted', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let sub: Subscriber;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-accept3-'));
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 3, firstBoard: 1, serialBase: 43000, speed: SPEED, maxPlies: 32 });
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/games/+`, `${BASE}/boards/+/state`, `${BASE}/bridge/state`],
      'accept3-sub',
    );
    config = await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: 'accept3' });
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('resumes every game from the journal: nothing lost, nothing duplicated by seq, boards matched again', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    let daemon: DaemonProcess = startDaemon(config);
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      'the games to start',
    );
    const parts = venue.boards.map(b => stepsOf(b, SPEED, SPLIT));
    await Promise.all(venue.boards.map((b, i) => b.pty.runner.play(parts[i]?.first ?? [])));
    await waitFor(() => games.every(g => moves(g).length >= SPLIT), 20_000, `${SPLIT} plies of every game`);

    await daemon.kill();
    await waitFor(
      () => sub.latest(`${BASE}/bridge/state`) === '{"state":"offline"}',
      10_000,
      'the last will',
    );
    const seqBefore = new Map(
      games.map(g => [g, Math.max(...(sub.firstArrivals().get(g) ?? []).map(e => e.seq))]),
    );
    // While the daemon is down, the first board's next player moves (lift, place, press).
    const [first] = venue.boards;
    const firstRest = parts[0]?.rest ?? [];
    const pressAt = firstRest.findIndex(s => s.kind === 'clock-press');
    await first?.pty.runner.play(firstRest.slice(0, pressAt + 1));

    daemon = startDaemon(config);
    await waitFor(
      () => daemon.logs().some(l => l.msg.startsWith('ready')),
      30_000,
      `the restarted daemon (${daemon.output().slice(-1500)})`,
    );
    const resumed = daemon.logs().filter(l => l.msg.includes('resumed from'));
    expect(resumed.map(l => l.msg.split(' ')[1]).sort()).toEqual([...games].sort());
    // Boards connected again and bound to their games; the move made meanwhile was found.
    await waitFor(
      () =>
        venue.boards.every(b => {
          const state = JSON.parse(sub.latest(`${BASE}/boards/${b.id}/state`) ?? '{}') as {
            link?: string;
            game?: string;
          };
          return state.link === 'connected' && state.game === `r1-b${b.number}`;
        }),
      20_000,
      'boards connected and bound again',
    );
    await waitFor(
      () => moves(games[0] ?? '').length >= SPLIT + 1,
      10_000,
      'the move made while the daemon was down',
    );

    await Promise.all(
      venue.boards.map((b, i) =>
        b.pty.runner.play(i === 0 ? firstRest.slice(pressAt + 1) : (parts[i]?.rest ?? [])),
      ),
    );
    await waitFor(
      () => venue.boards.every(b => moves(`r1-b${b.number}`).length >= b.plies.length),
      30_000,
      'every move',
    );
    expect(await daemon.stop()).toBe(0);

    for (const b of venue.boards) {
      const game = `r1-b${b.number}`;
      const events = sub.firstArrivals().get(game) ?? [];
      expect(
        [...events.map(e => e.seq)].sort((x, y) => x - y),
        game,
      ).toEqual(events.map((_, i) => i + 1));
      expect(movesFromEvents(events), game).toEqual(b.plies);
      // The game went on from the journal's seq, not from 1.
      expect(
        events.some(e => e.seq > (seqBefore.get(game) ?? 0)),
        game,
      ).toBe(true);
      // Matched again: no board-differs alert after the restart.
      expect(
        events.filter(e => e.code === 'board_mismatch'),
        game,
      ).toEqual([]);
      // Never two different events under one seq.
      const bySeq = new Map<number, string>();
      for (const m of sub.seen.filter(s => s.topic === `${BASE}/games/${game}/events`)) {
        const seq = (JSON.parse(m.payload) as { seq: number }).seq;
        expect(bySeq.get(seq) ?? m.payload, `${game} seq ${seq}`).toBe(m.payload);
        bySeq.set(seq, m.payload);
      }
    }
  });
});
