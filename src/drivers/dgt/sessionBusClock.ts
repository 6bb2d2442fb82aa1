/**
 * Clocks on a DGT bus line (reference §8: BUS_SEND_CLK 0x81 → BUS_BWTIME 0x84): when the poller
 * reads which board's clock, and how presses reach the board's stream in order with its squares.
 *
 * Presses. A board logs the halted side's time when its lever is pressed (§7 time records), and
 * its change list is that log since the last poll, in order. So a press comes out of the change
 * list where it happened, between the squares before it and after it, as a clock observation:
 * the last reading with the lever over, the halted side showing the logged time (the other side
 * has not run since that reading). The clock is then read right after the list, which confirms it.
 *
 * Readings. A read costs about as much line time as a change poll (17 bytes against 10 at 9600
 * baud). To keep change polling as fast as without clocks, the change polls of a cycle come
 * first, and the other reads go in the cycle's spare time, most overdue first: a running clock
 * every `everyMs`, a stopped one every cycle (its start tells which side White sits on); a read
 * only starts when it ends, even by a timeout, before the next cycle is due. A reading is the
 * clock when it is read, the squares are known up to the board's last change list: a reading
 * whose lever went over with no press in the lists was pressed since, maybe after squares not
 * fetched yet, so it is held until the board's next change list is in.
 * Pure: time is passed in.
 *
 *   const plan = new BusClockPlan([11, 12], [12], { everyMs: 1000, cycleMs: 500, replyTimeoutMs: 80 });
 *   plan.changes(12, message, ctx);            // the list's observations, a press where it was logged
 *   plan.takeWanted(12);                       // true after a press: read board 12's clock now
 *   plan.spare(now);                           // [12] when its clock is due in this cycle's spare time
 */
import type { ClockObservation, ClockSide, Observation } from '../observation.js';
import type { DgtMessage } from './messages.js';
import type { DgtLogRecord } from './eeprom.js';
import { parseClockPayload, STATUS } from './clock.js';
import { observeMessage, type ObserveContext } from './observe.js';

type ChangeList = Extract<DgtMessage, { kind: 'bus-update' }>;

export interface BusClockPlanOptions {
  /** A running clock is read this often in spare time, ms. */
  readonly everyMs: number;
  /** The poll cycle, ms. */
  readonly cycleMs: number;
  /** The longest a read can take (the reply timeout), ms. */
  readonly replyTimeoutMs: number;
}

interface ClockState {
  /** Read right after the board's changes (a press in its change list). */
  wanted: boolean;
  /** When a read was last asked for. */
  askedAt: number;
  /** The last reading showed a stopped clock (or none plugged in): read it every cycle. */
  stopped: boolean;
  /** The last reading passed on (read, or made from a logged press). */
  last: ClockObservation | undefined;
  /** A change list logged a press no reading has shown yet (none to make it from). */
  pressListed: boolean;
  /** Readings held back until the next change list. */
  held: Observation[];
  /** A SEND_CHANGES went out after they were held: its list releases them. */
  releaseArmed: boolean;
  /** The last change list made presses of its own (its lever state is newer than any held reading). */
  listPressed: boolean;
}

/** A change-list record that means the lever was pressed (0x7D "new clock state" counts too, §7). */
const isPress = (r: DgtLogRecord): boolean =>
  r.kind === 'time' || (r.kind === 'tag' && r.tag === 'clock-state');

const otherSide = (s: ClockSide): ClockSide => (s === 'left' ? 'right' : 'left');

/** `last` after the lever was pressed on the halted side, which shows `ms` (§6.1 status bits as the captures pair them). */
const pressedReading = (
  last: ClockObservation,
  halted: ClockSide,
  ms: number,
  at: number,
): ClockObservation => {
  const lever = otherSide(halted);
  const { timeUnknown, ...known } = last;
  return {
    ...known,
    at,
    [halted]: { ...last[halted], ms },
    lever,
    running: lever,
    status: leverStatus(last.status, lever),
    ...knownNow(timeUnknown, halted),
  };
};

/** What stays unknown once `halted`'s time is logged. */
const knownNow = (
  unknown: ClockSide | 'both' | undefined,
  halted: ClockSide,
): { timeUnknown?: ClockSide | 'both' } =>
  unknown === undefined || unknown === halted
    ? {}
    : { timeUnknown: unknown === 'both' ? otherSide(halted) : unknown };

/** `status` with the lever high on `lever` and that side running (§6.1 bits as the captures pair them). */
const leverStatus = (status: number, lever: ClockSide): number =>
  (status & ~(STATUS.RIGHT_HIGH | STATUS.TURN_D3 | STATUS.TURN_D4)) |
  STATUS.RUNNING |
  (lever === 'right' ? STATUS.RIGHT_HIGH | STATUS.TURN_D4 : STATUS.TURN_D3);

/**
 * `last` once the clock ran on `side`: a logged press halted that side (start times are not
 * logged, §7), so it ran with its lever high before the press, whatever the last reading showed
 * (stopped before the game, or the lever over while stopped). The clock may have been set when
 * it was started: its times are not known until presses log them or the clock is read.
 */
const runningReading = (last: ClockObservation, side: ClockSide, at: number): ClockObservation => ({
  ...last,
  at,
  lever: side,
  running: side,
  status: leverStatus(last.status, side),
  timeUnknown: 'both',
});

export class BusClockPlan {
  private readonly clocks = new Map<number, ClockState>();

  /**
   * `clock`: true for every board of `addresses`, or the addresses of the boards with a clock
   * (others are never read).
   */
  constructor(
    addresses: readonly number[],
    clock: boolean | readonly number[] | undefined,
    private readonly options: BusClockPlanOptions,
  ) {
    const clocked = clock === true ? addresses : clock === false || clock === undefined ? [] : clock;
    for (const a of addresses)
      if (clocked.includes(a))
        this.clocks.set(a, {
          wanted: false,
          askedAt: -Infinity,
          stopped: false,
          last: undefined,
          pressListed: false,
          held: [],
          releaseArmed: false,
          listPressed: false,
        });
  }

  /** The board's link was lost or starts again: a new lever history, nothing held. */
  forget(address: number): void {
    const c = this.clocks.get(address);
    if (c === undefined) return;
    Object.assign(c, {
      last: undefined,
      pressListed: false,
      held: [],
      releaseArmed: false,
      listPressed: false,
    });
  }

  /** Whether the board's clock is read at all. */
  has(address: number): boolean {
    return this.clocks.has(address);
  }

  /**
   * A new change list from the board (not a repeat) and its observations, in order: after each
   * logged press that the last reading does not show yet, that reading with the lever pressed.
   * A press asks for a read right after the list.
   */
  changes(address: number, list: ChangeList, ctx: ObserveContext): Observation[] {
    const c = this.clocks.get(address);
    if (c === undefined || !list.records.some(isPress)) return observeMessage(list, ctx);
    c.wanted = true;
    c.listPressed = false;
    const out: Observation[] = [];
    let segment: DgtLogRecord[] = [];
    const flush = (): void => {
      if (segment.length > 0) out.push(...observeMessage({ ...list, records: segment }, ctx));
      segment = [];
    };
    for (const r of list.records) {
      if (r.kind !== 'time') {
        segment.push(r);
        if (isPress(r)) c.pressListed = true;
        continue;
      }
      const ms = ((r.hours * 60 + r.minutes) * 60 + r.seconds) * 1000;
      if (c.last === undefined) {
        segment.push(r);
        flush();
        c.pressListed = true;
        continue;
      }
      if (c.last.running !== r.side || c.last.lever !== r.side) {
        // Started since the last reading (a slow cycle at the start of a game): it ran from
        // before the squares this press follows.
        c.last = runningReading(c.last, r.side, ctx.at);
        out.push(c.last);
      }
      segment.push(r);
      flush();
      c.last = pressedReading(c.last, r.side, ms, ctx.at);
      c.listPressed = true;
      out.push(c.last);
    }
    flush();
    return out;
  }

  /**
   * A BWTIME payload from the board and its observations: those to pass on now. They are held
   * (none passed) when the lever went over with no press in the last change list, or while
   * earlier ones are held. A clock that does not run is read every cycle.
   */
  reading(
    address: number,
    payload: readonly number[],
    observed: readonly Observation[],
  ): readonly Observation[] {
    const c = this.clocks.get(address);
    const p = parseClockPayload(Uint8Array.from(payload));
    if (c === undefined || p.kind !== 'times') return observed;
    const { status } = p.times;
    c.stopped = (status & STATUS.RUNNING) === 0 || (status & STATUS.NO_CLOCK) !== 0;
    const lever = status & STATUS.RIGHT_HIGH ? 'right' : 'left';
    const listed = c.pressListed;
    c.pressListed = false;
    if (c.held.length > 0 || (c.last !== undefined && c.last.lever !== lever && !listed)) {
      c.held.push(...observed);
      return [];
    }
    c.last = observed.find((o): o is ClockObservation => o.type === 'clock') ?? c.last;
    return observed;
  }

  /** Whether readings of the board are held. */
  holding(address: number): boolean {
    return (this.clocks.get(address)?.held.length ?? 0) > 0;
  }

  /** A SEND_CHANGES goes out to the board: its list will release the readings held so far. */
  changesAsked(address: number): void {
    const c = this.clocks.get(address);
    if (c !== undefined && c.held.length > 0) c.releaseArmed = true;
  }

  /**
   * A change list came in at `at` (after its squares were passed on): the readings it releases,
   * stamped `at`. Every held reading was read before the list was asked for, so a list whose
   * presses moved the lever has the newer lever: the held readings are dropped (passed on after
   * those presses, a reading from before them would read as one more press), and the clock is
   * read again right after the list.
   */
  released(address: number, at: number): Observation[] {
    const c = this.clocks.get(address);
    if (c === undefined) return [];
    const superseded = c.listPressed;
    c.listPressed = false;
    if (!c.releaseArmed) return [];
    c.releaseArmed = false;
    const held = c.held.splice(0);
    if (superseded) return held.filter(o => o.type !== 'clock').map(o => ({ ...o, at }));
    const out = held.map(o => ({ ...o, at }));
    for (const o of out) if (o.type === 'clock') c.last = o;
    return out;
  }

  /** Whether the board's clock is to be read now (after its changes); clears the wish. */
  takeWanted(address: number): boolean {
    const c = this.clocks.get(address);
    if (c?.wanted !== true) return false;
    c.wanted = false;
    return true;
  }

  /** A read of the board's clock goes out at `now`. */
  asked(address: number, now: number): void {
    const c = this.clocks.get(address);
    if (c === undefined) return;
    c.askedAt = now;
    c.wanted = false;
  }

  /** The clocks due in the spare time of a cycle at `now`, most overdue first. */
  spare(now: number): number[] {
    // Cycles start every cycleMs but the spare time moves within them: half a cycle of slack.
    const slack = this.options.cycleMs / 2;
    return [...this.clocks]
      .filter(([, c]) => c.stopped || now - c.askedAt + slack >= this.options.everyMs)
      .sort(([, a], [, b]) => (a.askedAt === b.askedAt ? 0 : a.askedAt < b.askedAt ? -1 : 1))
      .map(([a]) => a);
  }

  /** Whether a read starting at `now` ends before the cycle started at `cycleStart` is followed by the next. */
  fits(now: number, cycleStart: number): boolean {
    return now + this.options.replyTimeoutMs < cycleStart + this.options.cycleMs;
  }
}
