/**
 * Fault (ii): the daemon is SIGKILLed mid-game and started again. While it is down one board's
 * player makes a move (lift, place, clock press): the restarted daemon resumes every game from its
 * journal, matches each board again from a fresh dump, recognises the move it did not see, and
 * goes on. The subscriber (persistent session), the live PGN and the journal end with every move.
 * Moves lost: asserted 0 (figures in test-artifacts/faults/daemon-sigkill.json).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from '../integration/support.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { movesLost, reportFault, totalExtra, totalLost } from './support.js';

const SPEED = 8;
const BASE = 'fault2';
const CLIENT = 'fault2';
const SPLIT = 10;

describe('fault (ii): the daemon is SIGKILLed mid-game and restarted', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let sub: Subscriber;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-fault2-'));
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 52000, speed: SPEED, maxPlies: 20 });
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/games/+/pgn`, `${BASE}/games/+`, `${BASE}/bridge/state`],
      'fault2-sub',
    );
    config = await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: CLIENT });
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no move, including one made while the daemon was down', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    let daemon: DaemonProcess = startDaemon(config);
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      `the games to start (${daemon.output().slice(-1000)})`,
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
    // The first board's next player moves while nobody listens.
    const firstRest = parts[0]?.rest ?? [];
    const pressAt = firstRest.findIndex(s => s.kind === 'clock-press');
    await venue.boards[0]?.pty.runner.play(firstRest.slice(0, pressAt + 1));

    daemon = startDaemon(config);
    await waitFor(
      () => daemon.logs().some(l => l.msg.startsWith('ready')),
      30_000,
      `the restarted daemon (${daemon.output().slice(-1000)})`,
    );
    await waitFor(
      () => moves(games[0] ?? '').length >= SPLIT + 1,
      15_000,
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

    const loss = await movesLost({ venue, sub, base: BASE, journalDir: join(dir, `journal-${CLIENT}`) });
    reportFault('daemon SIGKILL', loss, { kills: 1, moves_made_while_down: 1 });
    expect(totalLost(loss)).toBe(0);
    expect(totalExtra(loss)).toBe(0);
    // Resumed from the journal, not started afresh.
    expect(daemon.logs().filter(l => l.msg.includes('resumed from')).length).toBe(games.length);
  });
});
