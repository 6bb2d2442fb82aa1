/**
 * The Certabo session's calibration side (reference §2.6): where a calibration is stored (a
 * `CalibrationStore`; calibrationFile.ts keeps it in a JSON file), the
 * observation that reports its state, the LED pattern shown while calibrating, and a learner that
 * collects RFID scans of the start position and learns from the newest `samples` of them,
 * sliding on until a calibration succeeds.
 *
 *   const learner = new CalibrationLearner({ samples: 15 });
 *   learner.start();
 *   const r = learner.push(scan.tags); // undefined while collecting, then a Result
 *   if (r?.isOk) decoder.calibration = r.value.calibration;
 */
import { Result } from '@badrap/result';
import { SquareSet } from 'chessops';
import type { LedGroup } from '../observationExtra.js';
import {
  type Calibration,
  type CalibrationError,
  type CalibrationOptions,
  makeCalibration,
  type LearnedCalibration,
  type RfidScan,
} from './calibration.js';

/** A value now (an in-memory store, so sessions run in virtual time) or later (a file). */
export type MaybePromise<T> = T | Promise<T>;

/** Where one board's calibration lives. */
export interface CalibrationStore {
  /** For messages: a file path, or `memory`. */
  readonly location: string;
  /** The stored calibration; ok(undefined) when none is stored yet. */
  load(): MaybePromise<Result<Calibration | undefined, Error>>;
  save(calibration: Calibration): MaybePromise<Result<true, Error>>;
}

export type CalibrationState =
  /** A stored calibration was loaded (`tags` = how many tags it knows). */
  | 'loaded'
  /** Nothing stored yet. */
  | 'missing'
  /** The stored calibration could not be read or is not valid (`detail` says why); treated as missing. */
  | 'invalid'
  /** Collecting scans of the start position (the setup LEDs are lit). */
  | 'learning'
  /** The newest scans do not give a calibration yet (`detail` names the square or tag); still learning. */
  | 'retrying'
  /** Learned and in use (`tags`, `spares`). */
  | 'learned'
  | 'saved'
  | 'save-failed'
  /** An occupancy board (Sentio, Tactum) has no tags to learn. */
  | 'not-needed';

export interface CalibrationObservation {
  readonly type: 'calibration';
  readonly at: number;
  readonly state: CalibrationState;
  readonly detail?: string;
  readonly tags?: number;
  readonly spares?: readonly string[];
}

export const makeCalibrationObservation = (
  at: number,
  state: CalibrationState,
  extra: Omit<CalibrationObservation, 'type' | 'at' | 'state'> = {},
): CalibrationObservation => ({ type: 'calibration', at, state, ...extra });

/**
 * The squares lit while calibrating: ranks 8, 7, 2 and 1 plus the spare-queen squares d6 and d3
 * (§2.6 step 2: bitmap FF FF 08 00 00 08 FF FF).
 */
export const SETUP_LEDS: readonly LedGroup[] = [
  {
    squares: SquareSet.fromRank(0)
      .union(SquareSet.fromRank(1))
      .union(SquareSet.fromRank(6))
      .union(SquareSet.fromRank(7))
      .with(19)
      .with(43),
    style: 'steady',
  },
];

/** A store in memory (tests, or a daemon that keeps calibrations elsewhere). */
export const memoryCalibrationStore = (
  initial?: Calibration,
): CalibrationStore & { readonly saved: readonly Calibration[] } => {
  let current = initial;
  const saved: Calibration[] = [];
  return {
    location: 'memory',
    saved,
    load: () => Result.ok(current),
    save: c => {
      current = c;
      saved.push(c);
      return Result.ok(true as const);
    },
  };
};

export interface LearnerOptions extends Pick<CalibrationOptions, 'spareQueens'> {
  /** Scans to learn from (Certabo's own software takes 15; picochess at least 7); default 15. */
  readonly samples?: number;
}

export const DEFAULT_CALIBRATION_SAMPLES = 15;

export class CalibrationLearner {
  private scans: RfidScan[] = [];
  private on = false;
  private readonly samples: number;

  constructor(private readonly options: LearnerOptions = {}) {
    this.samples = options.samples ?? DEFAULT_CALIBRATION_SAMPLES;
    if (!Number.isInteger(this.samples) || this.samples < 1)
      throw new TypeError(`samples must be a positive integer, got ${this.samples}`);
  }

  get active(): boolean {
    return this.on;
  }

  /** Scans collected so far (at most `samples`). */
  get collected(): number {
    return this.scans.length;
  }

  /** Starts (or restarts) collecting. */
  start(): void {
    this.on = true;
    this.scans = [];
  }

  stop(): void {
    this.on = false;
    this.scans = [];
  }

  /** One scan (game frame): undefined while collecting, else the attempt's Result (ok ends learning). */
  push(tags: RfidScan): Result<LearnedCalibration, CalibrationError> | undefined {
    if (!this.on) return undefined;
    this.scans.push(tags);
    if (this.scans.length > this.samples) this.scans.shift();
    if (this.scans.length < this.samples) return undefined;
    const r = makeCalibration(this.scans, {
      minSamples: this.samples,
      ...(this.options.spareQueens !== undefined && { spareQueens: this.options.spareQueens }),
    });
    if (r.isOk) this.stop();
    return r;
  }
}
