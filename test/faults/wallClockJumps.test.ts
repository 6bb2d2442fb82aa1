/**
 * Fault (vi): the wall clock jumps mid-game, forward an hour and then back two (an NTP step, an
 * operator setting the time). The daemon runs under libfaketime with DONT_FAKE_MONOTONIC=1, its
 * offset read from a file the test rewrites while the games are played, so only the wall clock
 * (Date.now, CLOCK_REALTIME) jumps. The engine's time is the monotonic daemon clock (src/main.ts),
 * so its decisions must not move: no move lost, no flag and no time forfeit, clock readings in
 * the published events that follow the game's own clock, and event times that never jump. The
 * journal's `wall` field (time of day, for people) does jump, which proves the faking took hold.
 * Figures in test-artifacts/faults/wall-clock-jumps.json.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournalAll } from '../../src/bridge/journal/index.js';
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
import { movesLost, reportFault, totalExtra, totalLost, withEnv } from './support.js';

const SPEED = 8;
const BASE = 'fault6';
const CLIENT = 'fault6';
const HOUR_MS = 3_600_000;
/** The demo clock: 15 minutes + 10 s a move. */
const BASE_MS = 15 * 60_000;
const INCREMENT_MS = 10_000;

/** libfaketime as the Debian package `faketime` installs it (scripts/system-deps.sh). */
const LIBFAKETIME = ['x86_64-linux-gnu', 'aarch64-linux-gnu', 'arm-linux-gnueabihf', '']
  .map(arch => join('/usr/lib', arch, 'faketime', 'libfaketime.so.1'))
  .find(p => existsSync(p));

interface WireClocks {
  readonly white_ms: number;
  readonly black_ms: number;
}
interface RawEvent {
  readonly game: string;
  readonly seq: number;
  readonly at: number;
  readonly type: string;
  readonly code?: string;
  readonly reason?: string;
  readonly clocks?: WireClocks | null;
}

describe('fault (vi): the wall clock jumps an hour forward and two back mid-game (libfaketime)', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let dir: string;
  let offsetFile: string;

  beforeAll(async () => {
    if (LIBFAKETIME === undefined)
      throw new Error('libfaketime is not installed (see scripts/system-deps.sh)');
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-fault6-'));
    offsetFile = join(dir, 'faketime');
    await writeFile(offsetFile, '+0\n');
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 56000, speed: SPEED, maxPlies: 20 });
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/games/+/pgn`, `${BASE}/games/+`],
      'fault6-sub',
    );
    const config = await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: CLIENT });
    daemon = withEnv(
      {
        LD_PRELOAD: LIBFAKETIME,
        FAKETIME_TIMESTAMP_FILE: offsetFile,
        // Re-read the file at most every second, so a change takes hold at once.
        FAKETIME_CACHE_DURATION: '1',
        DONT_FAKE_MONOTONIC: '1',
      },
      () => startDaemon(config),
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

  it('loses no move, forfeits nobody, and keeps the clocks the game shows', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    const received = () => games.reduce((n, g) => n + moves(g).length, 0);
    const total = venue.boards.reduce((n, b) => n + b.plies.length, 0);
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      `the games to start (${daemon.output().slice(-1000)})`,
    );
    const playing = Promise.all(venue.boards.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
    // A third of the way: an hour forward. Two thirds: an hour behind the real time.
    await waitFor(() => received() >= total / 3, 60_000, 'a third of the moves');
    await writeFile(offsetFile, '+3600\n');
    await waitFor(() => received() >= (2 * total) / 3, 60_000, 'two thirds of the moves');
    await writeFile(offsetFile, '-3600\n');
    await playing;
    await waitFor(() => received() >= total, 30_000, `every move (have ${received()} of ${total})`);
    // Keep the clocks running a little in the shifted time, then stop.
    await new Promise(resolve => setTimeout(resolve, 1500));
    expect(await daemon.stop()).toBe(0);

    const loss = await movesLost({ venue, sub, base: BASE, journalDir: join(dir, `journal-${CLIENT}`) });

    // The faking took hold: the journal's time of day jumped forward and back.
    const steps = (
      await Promise.all(
        games.map(async g => {
          const { records } = (
            await readJournalAll(join(dir, `journal-${CLIENT}`, 'games', `${g}.jsonl`))
          ).unwrap();
          return records.slice(1).map((r, i) => r.wall - (records[i]?.wall ?? r.wall));
        }),
      )
    ).flat();
    const forward = Math.max(...steps);
    const backward = Math.min(...steps);

    const events = sub.seen
      .filter(m => m.topic.endsWith('/events'))
      .map(m => JSON.parse(m.payload) as RawEvent)
      .filter((e, i, all) => all.findIndex(x => x.game === e.game && x.seq === e.seq) === i);
    const byGame = games.map(g => events.filter(e => e.game === g).sort((a, b) => a.seq - b.seq));
    // Event times are the daemon's monotonic clock: in order, and never an hour apart.
    const atSteps = byGame.flatMap(list => list.slice(1).map((e, i) => e.at - (list[i]?.at ?? e.at)));
    const clockValues = events.flatMap(e => (e.clocks ? [e.clocks.white_ms, e.clocks.black_ms] : []));
    // Between two readings of one game, a side's time moves by at most an increment and a few seconds.
    const clockSteps = byGame.flatMap(list => {
      const withClocks = list.filter(e => e.clocks);
      return withClocks.slice(1).flatMap((e, i) => {
        const prev = withClocks[i]?.clocks;
        return prev && e.clocks
          ? [Math.abs(e.clocks.white_ms - prev.white_ms), Math.abs(e.clocks.black_ms - prev.black_ms)]
          : [];
      });
    });
    const flags = events.filter(
      e => e.code === 'flag' || (e.type === 'end' && /time|flag/i.test(e.reason ?? '')),
    );
    reportFault('wall clock jumps', loss, {
      wall_jumps_seen_in_journal_ms: { forward, backward },
      event_time_steps_ms: { min: Math.min(...atSteps), max: Math.max(...atSteps) },
      clock_readings: clockValues.length,
      clock_range_ms: { min: Math.min(...clockValues), max: Math.max(...clockValues) },
      largest_clock_step_ms: Math.max(...clockSteps),
      flags_or_time_forfeits: flags.length,
    });

    expect(forward).toBeGreaterThan(0.9 * HOUR_MS);
    expect(backward).toBeLessThan(-1.9 * HOUR_MS);
    expect(totalLost(loss)).toBe(0);
    expect(totalExtra(loss)).toBe(0);
    expect(flags).toEqual([]);
    expect(events.filter(e => e.type === 'end')).toEqual([]);
    expect(Math.min(...atSteps)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...atSteps)).toBeLessThan(60_000);
    expect(clockValues.length).toBeGreaterThan(0);
    expect(Math.min(...clockValues)).toBeGreaterThan(BASE_MS - 10 * 60_000);
    expect(Math.max(...clockValues)).toBeLessThanOrEqual(BASE_MS + 20 * INCREMENT_MS);
    expect(Math.max(...clockSteps)).toBeLessThan(INCREMENT_MS + 15_000);
  });
});
