/**
 * Two games in a row on one emulated DGT board with a clock (a socat PTY), read by the daemon (a
 * child process) publishing to a real mosquitto. The first game ends with Black to move, so its
 * clock still runs on Black's side when the daemon starts the second; then the clock is set and
 * started for White. White's side must not be learned from that stale clock: in both games every
 * press is charged to the player who made it (no "press without a move" alert, Art. 7.5.3) and
 * the clock published runs for White first.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { GameLibrary } from '../../src/bridge/simulate/games.js';
import { RAPID_LAWS, SimulatedVenue } from '../../src/bridge/simulate/venue.js';
import { getProfile } from '../../src/engine/editions.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  subscribe,
  waitFor,
  type Subscriber,
  type WireEvent,
} from './support.js';

const PGN = `[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 1-0

[White "C"]
[Black "D"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 1/2-1/2
`;

interface ClockEvent extends WireEvent {
  readonly clocks?: { readonly running: 'white' | 'black' | null };
}

describe('a board playing two games in a row, the first ending with Black to move', () => {
  let broker: Mosquitto | undefined;
  let sub: Subscriber | undefined;
  let venue: SimulatedVenue | undefined;
  let dir: string | undefined;

  afterAll(async () => {
    await killAllDaemons();
    await venue?.stop();
    await sub?.close();
    await broker?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('charges every press of the second game to the player who made it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-clock-sides-'));
    const games = new GameLibrary(PGN, getProfile('E23', 'rapid'));
    expect([0, 1].map(i => games.playableFrom(i)?.sans.length)).toEqual([3, 7]);
    broker = await startMosquitto();
    sub = await subscribe(broker.url, ['chessbridge/games/+/events'], 'clock-sides-sub');
    venue = new SimulatedVenue({
      boards: 1,
      bus: 0,
      games,
      rounds: 2,
      speed: 8,
      pace: { kind: 'human', plyMs: 4000 },
      faults: 0,
      seed: 3,
      laws: RAPID_LAWS,
      dir,
      startDelayMs: 1500,
    });
    await venue.start();
    const config = join(dir, 'venue.yaml');
    await writeFile(config, venue.configText({ mqttUrl: broker.url, journalDir: join(dir, 'journal') }));
    const daemon = startDaemon(config);
    const played = await lastValueFrom(venue.play$().pipe(toArray()));
    expect(played.filter(r => r.type === 'game').map(r => r.game)).toEqual(['r1-b1', 'r2-b1']);

    const arrivals = (): Map<string, WireEvent[]> => sub?.firstArrivals() ?? new Map<string, WireEvent[]>();
    await waitFor(
      () => ['r1-b1', 'r2-b1'].every(g => (arrivals().get(g) ?? []).some(e => e.type === 'end')),
      20_000,
      `both games' ends (daemon: ${daemon.output().slice(-1500)})`,
    );
    expect(await daemon.stop()).toBe(0);

    for (const [game, sans] of [
      ['r1-b1', ['e4', 'e5', 'Nf3']],
      ['r2-b1', ['d4', 'd5', 'c4', 'e6', 'Nc3', 'Nf6', 'Bg5']],
    ] as const) {
      const events = arrivals().get(game) ?? [];
      expect(movesFromEvents(events), game).toEqual(sans);
      expect(
        events.filter(e => e.type === 'alert').map(e => e.code),
        game,
      ).toEqual([]);
      // The clock as published: White's time runs first; the last press was White's (Black to move).
      const running = (events as ClockEvent[]).flatMap(e =>
        e.type === 'clock' && typeof e.clocks?.running === 'string' ? [e.clocks.running] : [],
      );
      expect(running[0], game).toBe('white');
      expect(running.at(-1), game).toBe('black');
    }
  }, 90_000);
});
