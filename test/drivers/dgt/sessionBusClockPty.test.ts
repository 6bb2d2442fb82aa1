/**
 * Clocks on a bus line end to end on a real pseudo-terminal: four emulated boards behind one
 * socat PTY line, three with a clock the session is told to read, one without. The players press
 * their levers; each press comes out of that board's stream as a clock reading whose lever went
 * over, once per press, on the mover's side, soon after the press, showing the halted side's time
 * the board logged for it. The board without a clock is never asked and reports none.
 */
import { dirname } from 'node:path';
import type { Subscription } from 'rxjs';
import { tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { scriptFromSans, type ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import { boardStreams, dgtBusSession$ } from '../../../src/drivers/dgt/sessionBus.js';
import type { ClockObservation, ClockSide, Observation } from '../../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../../src/emulators/emulatorHost.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, waitFor } from '../../support/pty.js';

const GAMES: Readonly<Record<number, string>> = {
  4001: 'e4 e5 Nf3 Nc6 Bb5 a6',
  4002: 'd4 Nf6 c4 e6 Nc3',
  4003: 'c4 e5 Nc3 Nf6 g3 d5 cxd5',
  4004: 'e4 c5 Nf3 d6',
};
const CLOCKED = [4001, 4002, 4003];
const ADDRESSES = Object.keys(GAMES).map(Number);
const CYCLE_MS = 500;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await closeAllPtyPairs();
});

/** The lever going over between two readings: the press of the player on the side it left. */
const pressesOf = (
  obs: readonly Observation[],
): { at: number; side: ClockSide; reading: ClockObservation }[] => {
  const clocks = obs.flatMap(o => (o.type === 'clock' ? [o] : []));
  return clocks.flatMap((o, i) => {
    const before = clocks[i - 1];
    return before !== undefined && before.lever !== o.lever
      ? [{ at: o.at, side: before.lever, reading: o }]
      : [];
  });
};

describe('clocks on a 4-board bus on one PTY line', () => {
  it('each press comes out of its board’s stream once, on the mover’s side, within a poll cycle', async () => {
    const dir = makeLinkDir();
    const emulators = ADDRESSES.map(
      a =>
        new DgtBoardEmulator({
          serial: String(a).padStart(5, '0'),
          clock: CLOCKED.includes(a) ? { model: a === 4003 ? 'xl' : 'dgt3000' } : false,
        }),
    );
    const host = new EmulatedBoardOnPty({
      hostPath: `${dir}/bus`,
      devicePath: `${dir}/boards`,
      emulator: new DgtBusLine(emulators),
    });
    await host.start();
    adoptPtyPair(host.pair, dirname(host.hostPath));
    cleanups.push(() => host.stop());

    const split = boardStreams(
      dgtBusSession$(new SerialTransport({ path: host.hostPath }), {
        addresses: ADDRESSES,
        clock: CLOCKED,
        openDelayMs: 50,
        cycleMs: CYCLE_MS,
        replyTimeoutMs: 150,
        backoff: { initialMs: 100, maxMs: 400 },
      }),
      ADDRESSES,
    );
    const seen = new Map<number, Observation[]>(ADDRESSES.map(a => [a, []]));
    // The board's polls so far, when each of its observations came out and when each press was made.
    const polls = (a: number): number => emulators[ADDRESSES.indexOf(a)]!.changeRequests;
    const pollsAt = new Map<Observation, number>();
    const subs: Subscription[] = [...split.boards].map(([a, obs$]) =>
      obs$.subscribe(o => {
        pollsAt.set(o, polls(a));
        seen.get(a)!.push(o);
      }),
    );
    subs.push(split.connect());
    cleanups.push(() => Promise.resolve(subs.forEach(s => s.unsubscribe())));
    const connected = (a: number) => seen.get(a)!.some(o => o.type === 'link' && o.state === 'connected');
    await waitFor(() => ADDRESSES.every(connected), 8000, 'every board connected');

    // The clocks start; the first move comes 1.2 s later (a stopped clock is read every cycle, so
    // its start is seen first). Plies 0.9 s apart, each press 0.1 s after the move.
    const scripts = ADDRESSES.map(a => {
      const moves = scriptFromSans(GAMES[a]!.split(' '), {
        startAt: 1200,
        plyMs: 900 + 37 * (a - 4001),
        handMs: 30,
        pressAfterMs: 100,
        board: a,
      }).unwrap();
      const set: ScriptStep[] = CLOCKED.includes(a)
        ? [
            {
              at: 0,
              board: a,
              kind: 'clock-set',
              left: 300_000,
              right: 300_000,
              run: 'left',
              incrementMs: 2000,
            },
          ]
        : [];
      return { a, moves, steps: [...set, ...moves.steps] };
    });
    const pressed = new Map<number, { at: number; side: ClockSide; polls: number }[]>(
      ADDRESSES.map(a => [a, []]),
    );
    await Promise.all(
      scripts.map(
        s =>
          new Promise<void>((resolve, reject) =>
            host.runner
              .play$(s.steps)
              .pipe(
                tap(step => {
                  if (step.kind === 'clock-press')
                    pressed.get(s.a)!.push({ at: performance.now(), side: step.side, polls: polls(s.a) });
                }),
              )
              .subscribe({ complete: resolve, error: reject }),
          ),
      ),
    );
    await waitFor(
      () => CLOCKED.every(a => pressesOf(seen.get(a)!).length >= pressed.get(a)!.length),
      5000,
      'every press read',
    );
    await new Promise(resolve => setTimeout(resolve, CYCLE_MS * 2));

    for (const a of CLOCKED) {
      const obs = seen.get(a)!;
      const want = pressed.get(a)!;
      const got = pressesOf(obs);
      expect(want.length, `board ${a}`).toBe(GAMES[a]!.split(' ').length);
      expect(
        got.map(p => p.side),
        `board ${a}`,
      ).toEqual(want.map(p => p.side));
      // The first reading with a running clock came before the first press: White's side is known.
      const firstRunning = obs.find(o => o.type === 'clock' && o.running !== undefined);
      expect(firstRunning?.at, `board ${a}`).toBeLessThan(want[0]!.at);
      expect(firstRunning, `board ${a}`).toMatchObject({ running: 'left' });
      // The board logged the halted side's time with each press; the reading shows the same.
      const logged = obs.flatMap(o =>
        o.type === 'eeprom-log' ? o.records.flatMap(r => (r.kind === 'time' ? [r] : [])) : [],
      );
      expect(
        logged.map(r => r.side),
        `board ${a}`,
      ).toEqual(want.map(p => p.side));
      got.forEach((p, i) => {
        const w = want[i]!;
        expect(p.at - w.at, `board ${a} press ${i + 1}`).toBeGreaterThan(0);
        // The next poll of the board (within a cycle) brings the press and the read: counted in the
        // board's polls, not in time, so a busy machine does not fail it. The poll under way at the
        // press may have been answered already, so the press comes with the next one at the latest.
        const pollsBetween = pollsAt.get(p.reading)! - w.polls;
        expect(pollsBetween, `board ${a} press ${i + 1}`).toBeGreaterThanOrEqual(1);
        expect(pollsBetween, `board ${a} press ${i + 1}`).toBeLessThanOrEqual(2);
        expect(p.reading[p.side].ms, `board ${a} press ${i + 1}`).toBe(logged[i]!.ms);
        expect(p.reading.running, `board ${a} press ${i + 1}`).toBe(p.side === 'left' ? 'right' : 'left');
      });
    }
    // The board without a clock: moves, but no clock readings, and it was never asked for one.
    expect(seen.get(4004)!.filter(o => o.type === 'square').length).toBeGreaterThan(0);
    expect(seen.get(4004)!.filter(o => o.type === 'clock')).toEqual([]);
    // (Every board of the line hears every command: count the ones addressed to each.)
    const clockReads = (a: number) =>
      emulators[0]!.received.filter(c => c.kind === 'bus' && c.command === 'send-clock' && c.address === a);
    expect(clockReads(4004)).toEqual([]);
    expect(clockReads(4001).length).toBeGreaterThan(6);
  }, 40_000);
});
