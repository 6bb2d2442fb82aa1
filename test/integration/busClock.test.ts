/**
 * Clocks on a DGT bus line, end to end: the simulated venue (emulated boards with clocks on one
 * socat PTY bus line) writes a configuration whose bus boards say `clock: true`; the daemon (a
 * child process) reads those clocks, so each press completes its move: a subscriber at a real
 * mosquitto sees every move as in the PGN, and after each move the clock of the opponent running,
 * with no press taken for one without a move.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GameLibrary } from '../../src/bridge/simulate/games.js';
import { RAPID_LAWS, type SimRecord, SimulatedVenue } from '../../src/bridge/simulate/venue.js';
import { getProfile } from '../../src/engine/editions.js';
import { decodePgnBytes } from '../../src/engine/pgnRead.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { sharedPath } from '../support/shared.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  subscribe,
  waitFor,
  type Subscriber,
  type WireEvent,
} from './support.js';

type ClockEvent = WireEvent & { readonly clocks?: { readonly running: 'white' | 'black' | null } };

describe('a daemon on a simulated DGT bus line with clocks', () => {
  let broker: Mosquitto | undefined;
  let sub: Subscriber | undefined;
  let venue: SimulatedVenue | undefined;
  let dir: string | undefined;
  let playing: Subscription | undefined;

  afterAll(async () => {
    playing?.unsubscribe();
    await venue?.stop();
    await killAllDaemons();
    await sub?.close();
    await broker?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('reads the bus boards’ clocks: every move arrives, each press runs the opponent’s clock', async () => {
    const pgn = sharedPath('data/pgn/lichess-2013-01-sample.pgn');
    const games = new GameLibrary(decodePgnBytes(readFileSync(pgn)), getProfile('E23', 'rapid'));
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-bus-clock-'));
    broker = await startMosquitto();
    sub = await subscribe(broker.url, ['chessbridge/games/+/events'], 'bus-clock-sub');
    await mkdir(join(dir, 'lines'));
    venue = new SimulatedVenue({
      boards: 2,
      bus: 2,
      games,
      rounds: 1,
      speed: 6,
      pace: { kind: 'human' },
      faults: 0,
      seed: 5,
      laws: RAPID_LAWS,
      dir: join(dir, 'lines'),
      startDelayMs: 3000,
    });
    await venue.start();
    const text = venue.configText({ mqttUrl: broker.url, journalDir: join(dir, 'journal') });
    const config = parse(text) as { boards: { driver: string; clock: boolean }[] };
    expect(config.boards.map(b => [b.driver, b.clock])).toEqual([
      ['dgt-bus', true],
      ['dgt-bus', true],
    ]);
    const path = join(dir, 'venue.yaml');
    await writeFile(path, text);
    const daemon = startDaemon(path);
    // The records as the boards play; the test goes on once every game is played and its end
    // arrived, without the venue's pause after the last game (the venue is stopped in afterAll).
    const records: SimRecord[] = [];
    let failed: unknown;
    playing = venue.play$().subscribe({ next: r => records.push(r), error: (e: unknown) => (failed = e) });

    const ids = ['r1-b1', 'r1-b2'];
    const arrivals = (): Map<string, WireEvent[]> => sub?.firstArrivals() ?? new Map<string, WireEvent[]>();
    await waitFor(
      () => {
        if (failed !== undefined) throw failed instanceof Error ? failed : new Error(JSON.stringify(failed));
        return ids.every(g => records.some(r => r.type === 'game' && r.game === g));
      },
      150_000,
      () => `every game played (daemon: ${daemon.output().slice(-1500)})`,
    );
    await waitFor(
      () => ids.every(g => (arrivals().get(g) ?? []).some(e => e.type === 'end')),
      20_000,
      `every game's end (daemon: ${daemon.output().slice(-1500)})`,
    );
    expect(await daemon.stop()).toBe(0);

    for (const id of ids) {
      const played = records.find(r => r.type === 'game' && r.game === id);
      const sans = played?.type === 'game' ? played.sans : [];
      expect(sans.length, id).toBeGreaterThan(10);
      // The simulator ends each ply with its press now that the daemon reads the clock.
      const plies = records.filter(r => r.type === 'ply' && r.game === id);
      expect(plies, id).toHaveLength(sans.length);

      const events = [...(arrivals().get(id) ?? [])].sort((a, b) => a.seq - b.seq) as ClockEvent[];
      expect(movesFromEvents(events), id).toEqual(sans);
      // Each press was read and given to the right player: from the first move on, the running
      // side of the published clock goes black, white, black, … at least until the last ply
      // (White's side was learned from the clock's start, before his first press).
      const moves = events.filter(e => e.type === 'move');
      const runs = events
        .filter(
          e => e.type === 'clock' && e.seq > (moves[0]?.seq ?? 0) && typeof e.clocks?.running === 'string',
        )
        .map(e => e.clocks?.running)
        .filter((r, i, all) => i === 0 || r !== all[i - 1]);
      expect(runs.slice(0, sans.length - 1), id).toEqual(
        sans.slice(1).map((_, i) => (i % 2 === 0 ? 'black' : 'white')),
      );
      expect(
        events.filter(
          e => e.code === 'press_without_move' || e.code === 'illegal_move' || e.code === 'clock_paused',
        ),
        id,
      ).toEqual([]);
    }
  }, 180_000);
});
