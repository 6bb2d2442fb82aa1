/**
 * Clocks on a bus line: the BUS_BWTIME reply (0x84, reference §8.2: the §6.1 payload between the
 * address and the checksum) decoded byte for byte into the readings and acks a single line gives,
 * a lever press in a change list (§7 time record), the emulator's answers, and the plan of when
 * a poller reads which clock.
 */
import { describe, expect, it } from 'vitest';
import { DgtBusDecoder, type BusObservation } from '../../../src/drivers/dgt/bus.js';
import { makeCommand } from '../../../src/drivers/dgt/commands.js';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { BusClockPlan } from '../../../src/drivers/dgt/sessionBusClock.js';
import type { DgtLogRecord } from '../../../src/drivers/dgt/eeprom.js';
import { observeMessage } from '../../../src/drivers/dgt/observe.js';
import type { Observation } from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const decode = (bytes: Uint8Array): BusObservation[] => {
  const d = new DgtBusDecoder();
  return [...d.push(bytes, 5), ...d.finish(5)];
};
const face = (ms: number, timePerMove = true) => ({ ms, flagFallen: false, flagShown: false, timePerMove });

describe('BUS_BWTIME (0x84) from board 1025', () => {
  it('a reading: the §10.3 capture A payload, left running', () => {
    expect(decode(hex('84 00 0D 08 01 20 03 02 20 03 01 09 6C'))).toEqual([
      {
        address: 1025,
        observation: {
          type: 'clock',
          at: 5,
          connected: true,
          right: face(182_000),
          left: face(181_000),
          running: 'left',
          lever: 'left',
          batteryLow: false,
          status: 0x09,
        },
      },
    ]);
  });

  it('after the press: the lever is high on the right and the right clock runs', () => {
    expect(decode(hex('84 00 0D 08 01 20 03 02 20 03 01 13 76'))).toMatchObject([
      { address: 1025, observation: { type: 'clock', lever: 'right', running: 'right', status: 0x13 } },
    ]);
  });

  it('no clock plugged in (D5): a reading that says so', () => {
    expect(decode(hex('84 00 0D 08 01 00 00 00 00 00 00 20 3A'))).toMatchObject([
      { address: 1025, observation: { type: 'clock', connected: false, running: undefined } },
    ]);
  });

  it('an ack (hours nibble A): the §10.4 DGT3000 version ack', () => {
    expect(decode(hex('84 00 0D 08 01 0A 10 09 0A 20 00 00 67'))).toMatchObject([
      {
        address: 1025,
        observation: {
          type: 'clock-ack',
          ack: [0x10, 0x09, 0x20, 0x00],
          event: { kind: 'version', main: 2 },
        },
      },
    ]);
  });

  it('a wrong checksum or length names no board', () => {
    const [bad] = decode(hex('84 00 0D 08 01 20 03 02 20 03 01 09 6D'));
    expect(bad).toMatchObject({
      address: undefined,
      observation: { type: 'protocol-error', reason: { kind: 'checksum', address: 1025 } },
    });
    const [short] = decode(hex('84 00 0C 08 01 20 03 02 20 03 01 6C'));
    expect(short).toMatchObject({
      address: undefined,
      observation: { type: 'protocol-error', reason: { kind: 'bad-length', declared: 12 } },
    });
  });

  it('a press in a change list: the halted left side’s time record (§7)', () => {
    expect(decode(hex('85 00 09 08 01 70 03 01 0B'))).toEqual([
      {
        address: 1025,
        observation: {
          type: 'eeprom-log',
          at: 5,
          source: 'bus-update',
          records: [{ kind: 'time', side: 'left', ms: 181_000 }],
        },
      },
    ]);
  });
});

describe('the bus emulator’s clocks', () => {
  it('a board with a clock answers BUS_SEND_CLK, logs its presses in its change list; one without says so', () => {
    const line = new DgtBusLine([
      new DgtBoardEmulator({ serial: '01025' }),
      new DgtBoardEmulator({ serial: '01026', clock: false }),
    ]);
    line.apply({ kind: 'clock-set', left: 182_000, right: 182_000, run: 'left', incrementMs: 2000 }, 0, 1025);
    const ask = (command: 'send-clock' | 'send-changes', address: number, now: number) =>
      decode(line.receive(makeCommand({ kind: 'bus', command, address }), now)).map(o => o.observation);
    expect(ask('send-clock', 1025, 1000)).toMatchObject([
      { type: 'clock', left: { ms: 181_000 }, right: { ms: 182_000 }, running: 'left', lever: 'left' },
    ]);
    line.apply({ kind: 'clock-press', side: 'left' }, 1500, 1025);
    expect(ask('send-changes', 1025, 1600)).toMatchObject([
      { type: 'eeprom-log', records: [{ kind: 'time', side: 'left', ms: 183_000 }] },
    ]);
    expect(ask('send-clock', 1025, 1700)).toMatchObject([
      { type: 'clock', left: { ms: 183_000 }, running: 'right', lever: 'right' },
    ]);
    expect(ask('send-clock', 1026, 1700)).toMatchObject([{ type: 'clock', connected: false }]);
  });
});

describe('BusClockPlan', () => {
  const options = { everyMs: 1000, cycleMs: 500, replyTimeoutMs: 80 };
  const ctx = (at: number) => ({ at, orientation: 'normal' as const, frame: new Uint8Array(0) });
  /** §10.3 capture A: left (White) 3:01 running, right 3:02; then after the press, right running. */
  const running = [0x20, 0x03, 0x02, 0x20, 0x03, 0x01, 0x09];
  const rightHigh = [0x20, 0x03, 0x02, 0x20, 0x03, 0x01, 0x13];
  const stopped = [0x20, 0x03, 0x02, 0x20, 0x03, 0x01, 0x08];
  const read = (payload: number[], at: number) => observeMessage({ kind: 'clock', payload }, ctx(at));
  const list = (records: DgtLogRecord[]) => ({ kind: 'bus-update' as const, even: false, records });
  const lift = (field: number): DgtLogRecord => ({ kind: 'piece', field, code: 0, quick: false });
  const put = (field: number, code: number): DgtLogRecord => ({ kind: 'piece', field, code, quick: false });
  // White (left) pressed at 0:03:01 + 2 s increment.
  const pressLeft: DgtLogRecord = { kind: 'time', side: 'left', hours: 0, minutes: 3, seconds: 3 };
  const kinds = (obs: readonly Observation[]) =>
    obs.map(o =>
      o.type === 'clock' ? `clock ${o.lever}` : o.type === 'square' ? `square ${o.square}` : o.type,
    );

  it('knows only the boards with a clock', () => {
    expect(new BusClockPlan([1, 2, 3], [2], options).has(1)).toBe(false);
    expect(new BusClockPlan([1, 2, 3], [2], options).has(2)).toBe(true);
    expect(new BusClockPlan([1, 2], true, options).has(1)).toBe(true);
    expect(new BusClockPlan([1, 2], undefined, options).spare(0)).toEqual([]);
  });

  it('a logged press comes out of the change list where it happened, as the last reading pressed', () => {
    const plan = new BusClockPlan([1], true, options);
    expect(plan.reading(1, running, read(running, 10))).toHaveLength(1);
    // e2 lifted, e4 placed, the press, then Black already lifts e7: all in one list.
    const out = plan.changes(1, list([lift(52), put(36, 1), pressLeft, lift(12)]), ctx(500));
    expect(kinds(out)).toEqual(['square 12', 'square 28', 'eeprom-log', 'clock right', 'square 52']);
    expect(out[3]).toEqual({
      type: 'clock',
      at: 500,
      connected: true,
      left: { ms: 183_000, flagFallen: false, flagShown: false, timePerMove: true },
      right: { ms: 182_000, flagFallen: false, flagShown: false, timePerMove: true },
      running: 'right',
      lever: 'right',
      batteryLow: false,
      status: 0x13,
    });
    // The clock is read right after the list; it shows the same lever: no second press.
    expect(plan.takeWanted(1)).toBe(true);
    expect(plan.takeWanted(1)).toBe(false);
    expect(plan.reading(1, rightHigh, read(rightHigh, 520))).toHaveLength(1);
    expect(plan.holding(1)).toBe(false);
  });

  it('no press, no read; a press with no reading to make it from lets the next reading show it', () => {
    const plan = new BusClockPlan([1], true, options);
    expect(kinds(plan.changes(1, list([lift(52)]), ctx(5)))).toEqual(['square 12']);
    expect(plan.takeWanted(1)).toBe(false);
    expect(kinds(plan.changes(1, list([put(36, 1), pressLeft]), ctx(10)))).toEqual([
      'square 28',
      'eeprom-log',
    ]);
    expect(plan.takeWanted(1)).toBe(true);
    expect(plan.reading(1, running, read(running, 20))).toHaveLength(1);
    // The new clock-state tag (0x7D) is taken as a press too: the flipped reading passes.
    plan.changes(1, list([{ kind: 'tag', tag: 'clock-state' }]), ctx(30));
    expect(plan.takeWanted(1)).toBe(true);
    expect(kinds(plan.reading(1, rightHigh, read(rightHigh, 40)))).toEqual(['clock right']);
  });

  it('spare time: running clocks about every second, stopped ones every cycle, most overdue first', () => {
    const plan = new BusClockPlan([1, 2, 3], true, options);
    expect(plan.spare(0)).toEqual([1, 2, 3]);
    plan.asked(2, 100);
    plan.reading(2, running, []);
    plan.asked(1, 110);
    plan.reading(1, running, []);
    plan.asked(3, 120);
    plan.reading(3, stopped, []);
    expect(plan.spare(600)).toEqual([3]);
    // A cycle later (slack of half a cycle): the running ones are due again, the oldest first.
    expect(plan.spare(1100)).toEqual([2, 1, 3]);
  });

  it('a lever gone over with no press listed is held until a change list asked for after it', () => {
    const plan = new BusClockPlan([1], true, options);
    expect(plan.reading(1, running, read(running, 10))).toHaveLength(1);
    expect(plan.reading(1, rightHigh, read(rightHigh, 20))).toEqual([]);
    expect(plan.holding(1)).toBe(true);
    expect(plan.released(1, 25)).toEqual([]); // a list asked for before the reading releases nothing
    plan.changesAsked(1);
    // That list logs the press the held reading shows: the press comes out there, in order; the
    // held reading, older than the list, is dropped, and the clock is read again.
    expect(kinds(plan.changes(1, list([put(36, 1), pressLeft]), ctx(30)))).toEqual([
      'square 28',
      'eeprom-log',
      'clock right',
    ]);
    expect(plan.released(1, 30)).toEqual([]);
    expect(plan.holding(1)).toBe(false);
    expect(plan.takeWanted(1)).toBe(true);
  });

  it('a held reading is not passed on after a list whose presses went on past it (no invented press)', () => {
    // A daemon slowed down by a busy machine: White's press is read before the list that logs it,
    // and Black has moved and pressed too by the time the list is fetched.
    const plan = new BusClockPlan([1], true, options);
    expect(plan.reading(1, running, read(running, 10))).toHaveLength(1);
    expect(plan.reading(1, rightHigh, read(rightHigh, 20))).toEqual([]);
    plan.changesAsked(1);
    const pressRight: DgtLogRecord = { kind: 'time', side: 'right', hours: 0, minutes: 3, seconds: 0 };
    const out = plan.changes(1, list([put(36, 1), pressLeft, lift(12), put(28, 7), pressRight]), ctx(900));
    expect(kinds(out).filter(k => k.startsWith('clock'))).toEqual(['clock right', 'clock left']);
    // The reading held from before (lever right) would read as White pressing again: dropped.
    expect(plan.released(1, 900)).toEqual([]);
    // The next reading shows the lever where the list left it: it passes, as no press.
    expect(kinds(plan.reading(1, running, read(running, 920)))).toEqual(['clock left']);
    expect(plan.holding(1)).toBe(false);
  });

  it('a game started and played between two reads: the presses come out, after the start (no press lost)', () => {
    // A slow cycle: the last reading shows the clock stopped before the game; by the next change
    // poll the arbiter has started it (not logged, §7), White has moved and pressed, Black too.
    const pressRight: DgtLogRecord = { kind: 'time', side: 'right', hours: 0, minutes: 3, seconds: 0 };
    for (const [before, lever] of [
      [stopped, 'left'],
      [[0x20, 0x03, 0x02, 0x20, 0x03, 0x01, 0x12], 'right'],
    ] as const) {
      const plan = new BusClockPlan([1], true, options);
      const first = plan.reading(1, [...before], read([...before], 10));
      expect(first).toMatchObject([{ type: 'clock', running: undefined, lever }]);
      const out = plan.changes(
        1,
        list([lift(52), put(36, 1), pressLeft, lift(12), put(28, 7), pressRight]),
        ctx(3000),
      );
      // The clock ran on White's side before his squares; each press follows its move.
      expect(kinds(out)).toEqual([
        'clock left',
        'square 12',
        'square 28',
        'eeprom-log',
        'clock right',
        'square 52',
        'square 36',
        'eeprom-log',
        'clock left',
      ]);
      const clocks = out.filter((o): o is Extract<Observation, { type: 'clock' }> => o.type === 'clock');
      expect(clocks.map(o => [o.running, o.lever])).toEqual([
        ['left', 'left'],
        ['right', 'right'],
        ['left', 'left'],
      ]);
      // Their times: the clock was set when it was started, unseen; each press logs one side's.
      expect(clocks.map(o => o.timeUnknown)).toEqual(['both', 'right', undefined]);
      expect(clocks[1]?.left.ms).toBe(183_000);
      expect(clocks[2]?.left.ms).toBe(183_000);
      expect(clocks[2]?.right.ms).toBe(180_000);
      // The read after the list agrees with the last press: nothing held, no press of its own.
      expect(plan.takeWanted(1)).toBe(true);
      expect(kinds(plan.reading(1, running, read(running, 3020)))).toEqual(['clock left']);
      expect(plan.holding(1)).toBe(false);
    }
  });

  it('a read starts only when it ends before the next cycle', () => {
    const plan = new BusClockPlan([1], true, options);
    expect(plan.fits(1419, 1000)).toBe(true);
    expect(plan.fits(1420, 1000)).toBe(false);
  });
});
