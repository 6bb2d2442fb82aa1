/**
 * The chess clock inside the DGT board emulator (a DGT3000 or DGT XL plugged into the board):
 * two countdowns, a lever, an increment, flag fall, the display text the host put on it, and
 * what its BWTIME message says at a given moment. Pure: time is passed in as `now` (ms).
 *
 *   const clock = new EmulatorClock({ model: 'dgt3000' });
 *   clock.set({ left: 300_000, right: 300_000, run: 'left', incrementMs: 2000 }, 0);
 *   clock.press('left', 4200); // left player moved: left stops (+2 s), right runs
 *   clock.times(5000); // DgtClockTimes for the BWTIME message
 */
import type { ClockButton, ClockSide } from '../observation.js';
import { type DgtClockTimes, makeDgtClockFace, STATUS } from './clock.js';
import { CLOCK_CMD, type ClockCommand } from './clockCommands.js';

/** The held-buttons mask (ack2) and button code (ack3) of a button's auto ack (picochess table, §6.4). */
const BUTTON_ACK: Readonly<Record<ClockButton, readonly [number, number]>> = {
  back: [0x05, 0x31],
  minus: [0x21, 0x34],
  run: [0x11, 0x33],
  plus: [0x09, 0x32],
  ok: [0x41, 0x35],
};

export const buttonAck = (b: ClockButton): readonly [number, number] => BUTTON_ACK[b];

const timeMs = (t: { readonly hours: number; readonly minutes: number; readonly seconds: number }): number =>
  ((t.hours * 60 + t.minutes) * 60 + t.seconds) * 1000;

export type ClockModel = 'dgt3000' | 'xl';

export interface EmulatorClockOptions {
  /** DGT3000 (version 2.0, text commands) or DGT XL (version 1.4, 7-segment display). */
  readonly model?: ClockModel;
  /** Whether the clock is plugged into the board; default true. */
  readonly connected?: boolean;
}

export interface ClockSetting {
  readonly left: number;
  readonly right: number;
  readonly run: ClockSide | 'none';
  /** Added to a side's time when its player presses the lever; default 0. */
  readonly incrementMs?: number;
}

export class EmulatorClock {
  readonly model: ClockModel;
  connected: boolean;
  /** Text put on the display by the host (undefined while it shows the times). */
  displayText: string | undefined;
  /** Beeps requested by the host, in ms. */
  readonly beeps: number[] = [];
  private left = 0;
  private right = 0;
  private running: ClockSide | undefined;
  private lever: ClockSide = 'left';
  private since = 0;
  private incrementMs = 0;

  constructor(options: EmulatorClockOptions = {}) {
    this.model = options.model ?? 'dgt3000';
    this.connected = options.connected ?? true;
  }

  /** main.sub as the version ack reports it (main 2 = DGT3000, 1 = DGT XL; §5.3 step 5). */
  get version(): { readonly main: number; readonly sub: number } {
    switch (this.model) {
      case 'dgt3000':
        return { main: 2, sub: 0 };
      case 'xl':
        return { main: 1, sub: 4 };
    }
  }

  /** Remaining time of a side at `now` (never below zero). */
  remaining(side: ClockSide, now: number): number {
    const base = side === 'left' ? this.left : this.right;
    const elapsed = this.running === side ? Math.max(0, now - this.since) : 0;
    return Math.max(0, base - elapsed);
  }

  /** The running side at `now`, undefined when stopped or a flag has fallen. */
  runningAt(now: number): ClockSide | undefined {
    return this.running !== undefined && this.remaining(this.running, now) > 0 ? this.running : undefined;
  }

  private settle(now: number): void {
    this.left = this.remaining('left', now);
    this.right = this.remaining('right', now);
    this.since = now;
  }

  set(s: ClockSetting, now: number): void {
    this.left = Math.max(0, s.left);
    this.right = Math.max(0, s.right);
    this.incrementMs = s.incrementMs ?? this.incrementMs;
    this.running = s.run === 'none' ? undefined : s.run;
    // The high side of the lever is the side whose clock runs (§6.2).
    if (this.running !== undefined) this.lever = this.running;
    this.since = now;
  }

  /**
   * The player on `side` presses the lever: that side stops and gets the increment, the other
   * side runs. A press on the side that is not running (or on a stopped clock) only flips the
   * lever, as a real lever does. After a flag fall nothing changes.
   */
  press(side: ClockSide, now: number): void {
    this.settle(now);
    const other: ClockSide = side === 'left' ? 'right' : 'left';
    if (this.running !== undefined && this.remaining(this.running, now) === 0) return;
    if (this.running === side) {
      if (side === 'left') this.left += this.incrementMs;
      else this.right += this.incrementMs;
      this.running = other;
    }
    this.lever = other;
  }

  /**
   * Carries out a command from the host; returns the ack's ack1 (the command id) and ack2, and
   * whether it succeeded. A DGT XL has no text display: ASCII fails (ack0 0x40, an emulator choice).
   */
  execute(c: ClockCommand, now: number): readonly [number, number, boolean] {
    switch (c.kind) {
      case 'version':
        return [CLOCK_CMD.VERSION, (this.version.main << 4) | this.version.sub, true];
      case 'set-and-run':
        this.set({ left: timeMs(c.left), right: timeMs(c.right), run: c.run }, now);
        return [CLOCK_CMD.SETNRUN, 0, true];
      case 'ascii':
      case 'rev2-ascii': {
        const id = c.kind === 'ascii' ? CLOCK_CMD.ASCII : CLOCK_CMD.REV2_ASCII;
        if (this.model !== 'dgt3000') return [id, 0, false];
        this.displayText = c.text;
        return [id, 0, true];
      }
      case 'display':
        this.displayText = c.segments.map(s => s.toString(16).padStart(2, '0')).join(' ');
        return [CLOCK_CMD.DISPLAY, 0, true];
      case 'end':
        this.displayText = undefined;
        return [CLOCK_CMD.END, 0, true];
      case 'beep':
        this.beeps.push(c.units * 64);
        return [CLOCK_CMD.BEEP, 0, true];
      case 'button':
        return [CLOCK_CMD.BUTTON, 0, true];
      case 'icons':
        return [CLOCK_CMD.ICONS, 0, true];
    }
  }

  /** What the BWTIME message carries at `now`. */
  times(now: number): DgtClockTimes {
    const face = (side: ClockSide) => {
      const ms = this.remaining(side, now);
      // The display rounds up: a side shows 0:00:00 only once its time is gone.
      return makeDgtClockFace(Math.ceil(ms / 1000) * 1000, {
        flagFallen: ms === 0 && this.running === side,
        timePerMove: this.incrementMs > 0,
      });
    };
    const running = this.runningAt(now);
    let status = 0;
    if (running !== undefined) status |= STATUS.RUNNING;
    // Captures: D1 = 1 goes with bytes 3–5 (right) running and D4; D1 = 0 with D3 (§6.3).
    status |= this.lever === 'right' ? STATUS.RIGHT_HIGH | STATUS.TURN_D4 : STATUS.TURN_D3;
    if (!this.connected) status |= STATUS.NO_CLOCK;
    return { right: face('right'), left: face('left'), status };
  }
}
