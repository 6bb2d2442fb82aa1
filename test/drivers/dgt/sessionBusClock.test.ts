/**
 * The bus session reading clocks, in virtual time, on a line that carries bytes at 9600 baud (a
 * request and its reply take their bytes' time): only the boards with a clock are read; a press
 * in a change list is read at once; change polling keeps the pace it has without clocks.
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/drivers/dgt/commands.js';
import { type BoardEvent, DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import {
  boardStreams,
  dgtBusSession$,
  type DgtBusSessionOptions,
} from '../../../src/drivers/dgt/sessionBus.js';
import type { ClockObservation, Observation } from '../../../src/drivers/observation.js';
import { createMemoryLink } from '../../../src/drivers/transport/memory.js';

/** Milliseconds a byte takes at 9600 baud 8N1. */
const BYTE_MS = 10 / 9.6;

interface Run {
  readonly seen: Map<number, Observation[]>;
  /** Bus requests as [time, command@address]. */
  readonly requests: [number, string][];
}

/**
 * A bus line of boards (address → has a clock) answering at line speed: a reply starts after the
 * request's 4 bytes and ends after its own bytes. `events` happen at the given times.
 */
const runLine = (
  boards: ReadonlyMap<number, boolean>,
  options: Partial<DgtBusSessionOptions>,
  endMs: number,
  events: readonly (readonly [number, number, BoardEvent])[] = [],
): Run => {
  const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
  const addresses = [...boards.keys()];
  const seen = new Map<number, Observation[]>(addresses.map(a => [a, []]));
  const requests: [number, string][] = [];
  ts.run(({ flush }) => {
    const link = createMemoryLink({ scheduler: ts });
    const line = new DgtBusLine(
      addresses.map(
        a => new DgtBoardEmulator({ serial: String(a).padStart(5, '0'), clock: boards.get(a) ? {} : false }),
      ),
    );
    link.device.bytes$.subscribe(c => {
      const parsed = parseCommand(c.bytes);
      const command = parsed.isOk ? parsed.value.command : undefined;
      if (command?.kind === 'bus') requests.push([ts.now(), `${command.command}@${command.address}`]);
      const requestMs = c.bytes.length * BYTE_MS;
      ts.schedule(() => {
        const reply = line.receive(c.bytes, ts.now());
        if (reply.length > 0)
          ts.schedule(() => void link.device.write(reply), Math.ceil(reply.length * BYTE_MS));
      }, Math.ceil(requestMs));
    });
    for (const [at, address, e] of events) ts.schedule(() => void line.apply(e, ts.now(), address), at);
    const split = boardStreams(
      dgtBusSession$(link.host, { addresses, scheduler: ts, ...options }),
      addresses,
    );
    for (const [a, obs$] of split.boards) obs$.subscribe(o => seen.get(a)?.push(o));
    const running = split.connect();
    ts.schedule(() => running.unsubscribe(), endMs);
    flush();
  });
  return { seen, requests };
};

const clocksOf = (r: Run, a: number): ClockObservation[] =>
  (r.seen.get(a) ?? []).flatMap(o => (o.type === 'clock' ? [o] : []));
const asked = (r: Run, request: string): number[] =>
  r.requests.filter(([, q]) => q === request).map(([t]) => t);

const TEN = Array.from({ length: 10 }, (_, i) => 101 + i);
const setAll = (at: number): [number, number, BoardEvent][] =>
  TEN.map(a => [
    at,
    a,
    { kind: 'clock-set', left: 900_000, right: 900_000, run: 'left', incrementMs: 10_000 },
  ]);

describe('dgtBusSession$ reading clocks', () => {
  it('reads only the boards configured with a clock; the others are never asked', () => {
    const boards = new Map([
      [11, true],
      [12, true],
      [13, false],
    ]);
    const r = runLine(boards, { clock: [11, 12] }, 4000, [
      [400, 11, { kind: 'clock-set', left: 60_000, right: 60_000, run: 'left' }],
    ]);
    expect(clocksOf(r, 11).length).toBeGreaterThan(3);
    expect(clocksOf(r, 11).at(-1)).toMatchObject({ connected: true, running: 'left' });
    expect(clocksOf(r, 12).length).toBeGreaterThan(3);
    expect(clocksOf(r, 13)).toEqual([]);
    expect(r.requests.filter(([, q]) => q.startsWith('send-clock@13'))).toEqual([]);
  });

  it('a press in a board’s change list has its clock read right after that list', () => {
    const r = runLine(
      new Map([
        [11, true],
        [12, true],
      ]),
      // Spare-time reads of running clocks only every 10 s: the press read is the list's doing.
      { clock: true, clockEveryMs: 10_000 },
      4000,
      [
        [400, 11, { kind: 'clock-set', left: 60_000, right: 60_000, run: 'left', incrementMs: 2000 }],
        [400, 12, { kind: 'clock-set', left: 60_000, right: 60_000, run: 'left', incrementMs: 2000 }],
        [2100, 11, { kind: 'clock-press', side: 'left' }],
      ],
    );
    // Cycles start at 300, 800, …: the press at 2100 is in the list polled at 2300.
    const poll = asked(r, 'send-changes@11').find(t => t > 2100)!;
    expect(poll).toBe(2300);
    const read = asked(r, 'send-clock@11').find(t => t > 2100)!;
    // The list (4 + 9 bytes) comes back, then the clock is asked, before board 12's turn.
    expect(read - poll).toBeLessThan(20);
    expect(read).toBeLessThan(asked(r, 'send-changes@12').find(t => t > 2100)!);
    const after = clocksOf(r, 11).find(o => o.at > 2100);
    // Left: 60 s − 1.7 s + 2 s increment, shown rounded up to the second.
    expect(after).toMatchObject({ lever: 'right', running: 'right', left: { ms: 61_000 } });
    expect(after!.at - read).toBeLessThan(20);
    // Board 12 pressed nothing: after its clock was seen running, no read until 10 s later.
    expect(asked(r, 'send-clock@12').filter(t => t > 1300)).toEqual([]);
  });

  it('a press read before its move’s squares is held back until the change list that has them', () => {
    const r = runLine(
      new Map([
        [11, true],
        [12, true],
      ]),
      { clock: true, clockEveryMs: 500 },
      3000,
      [
        [400, 11, { kind: 'clock-set', left: 60_000, right: 60_000, run: 'left' }],
        [400, 12, { kind: 'clock-set', left: 60_000, right: 60_000, run: 'left' }],
        [1250, 11, { kind: 'square', square: 'e2', piece: 'empty' }],
        // Board 11's list is taken at 1305 (after the request's 4 bytes): the pawn lands and the
        // lever goes over just after it, before the clock is read in the spare time.
        [1306, 11, { kind: 'square', square: 'e4', piece: 'P' }],
        [1307, 11, { kind: 'clock-press', side: 'left' }],
      ],
    );
    const read = asked(r, 'send-clock@11').find(t => t > 1307)!;
    expect(read).toBeLessThan(1400);
    // The reading showed the press: the board's changes are fetched at once.
    const recheck = asked(r, 'send-changes@11').find(t => t > read)!;
    expect(recheck - read).toBeLessThan(30);
    const obs = r.seen.get(11)!.filter(o => o.at > 1200 && (o.type === 'square' || o.type === 'clock'));
    const pressAt = obs.findIndex(o => o.type === 'clock' && o.lever === 'right');
    const placedAt = obs.findIndex(o => o.type === 'square' && o.content.kind === 'piece');
    expect(placedAt).toBeGreaterThan(0);
    expect(pressAt).toBeGreaterThan(placedAt);
    expect(obs[pressAt]!.at).toBe(obs[placedAt]!.at);
    expect(obs[pressAt]!.at).toBeLessThan(recheck + 30);
  });

  it('a game started and played between two polls of a slow cycle: both presses come out of the list, in order', () => {
    // The clock is read stopped and unset; before the next poll the arbiter starts it (not
    // logged, §7), White plays e2-e4 and presses, Black e7-e5 and presses.
    const r = runLine(new Map([[11, true]]), { clock: true, cycleMs: 3000 }, 8000, [
      [3400, 11, { kind: 'clock-set', left: 900_000, right: 900_000, run: 'left', incrementMs: 10_000 }],
      [3500, 11, { kind: 'square', square: 'e2', piece: 'empty' }],
      [3600, 11, { kind: 'square', square: 'e4', piece: 'P' }],
      [3700, 11, { kind: 'clock-press', side: 'left' }],
      [3800, 11, { kind: 'square', square: 'e7', piece: 'empty' }],
      [3900, 11, { kind: 'square', square: 'e5', piece: 'p' }],
      [4000, 11, { kind: 'clock-press', side: 'right' }],
    ]);
    const before = clocksOf(r, 11).filter(o => o.at < 3400);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every(o => o.running === undefined)).toBe(true);
    const poll = asked(r, 'send-changes@11').find(t => t > 4000)!;
    const obs = r.seen.get(11)!.filter(o => o.at > 4000 && (o.type === 'square' || o.type === 'clock'));
    const line = obs.map(o =>
      o.type === 'clock'
        ? `clock ${o.running ?? 'stopped'} ${o.timeUnknown ?? 'known'}`
        : o.type === 'square'
          ? `square ${o.square}`
          : '',
    );
    expect(line.slice(0, 8)).toEqual([
      'clock left both',
      'square 12',
      'square 28',
      'clock right right',
      'square 52',
      'square 36',
      'clock left known',
      // The clock read right after the list: the same lever, every time read from the clock.
      'clock left known',
    ]);
    expect(obs[0]!.at - poll).toBeLessThan(30);
    const last = clocksOf(r, 11).at(-1)!;
    expect(last).toMatchObject({ running: 'left', lever: 'left' });
    expect(last.timeUnknown).toBeUndefined();
  });

  it('ten boards at 9600 baud: change polls keep their times with every clock read, each clock every second', () => {
    const without = runLine(new Map(TEN.map(a => [a, true])), {}, 5000, setAll(400));
    const withClocks = runLine(new Map(TEN.map(a => [a, true])), { clock: true }, 5000, setAll(400));
    const polls = (r: Run) => r.requests.filter(([, q]) => q.startsWith('send-changes@'));
    // The first cycle dumps every board (10 × 84 bytes: it ends after 1100 ms); from 1300 on,
    // cycles of change polls only.
    const late = (r: Run) => polls(r).filter(([t]) => t >= 1300);
    expect(late(withClocks)).toEqual(late(without));
    // A cycle's change polls: 10 × (4 + 6 bytes) ≈ 104 ms, from the cycle start.
    const cycle = late(without).filter(([t]) => t < 1800);
    expect(cycle[0]![0]).toBe(1300);
    expect(cycle.at(-1)![0] - 1300).toBeLessThan(110);
    // Every board's running clock is read about once a second (and never in the next cycle's time).
    for (const a of TEN) {
      const reads = asked(withClocks, `send-clock@${a}`).filter(t => t >= 1300);
      expect(reads.length, `board ${a}`).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < reads.length; i++) expect(reads[i]! - reads[i - 1]!).toBeLessThanOrEqual(1000);
      for (const t of reads) expect((t - 300) % 500, `board ${a} at ${t}`).toBeGreaterThan(100);
    }
    expect(clocksOf(withClocks, 101).at(-1)).toMatchObject({ running: 'left' });
  });
});
