/**
 * What flows between the stages of a game's lane (daemon/pipeline.ts): entries to journal, timer
 * wakes, journaled records, and the supervisor's steps; and what the board stage needs of the
 * board registry (`TrackedBoards`: the stages import nothing of the daemon).
 *
 *   const item: LaneItem = { kind: 'entry', entry: { type: 'observation', board: 'b-01', observation } };
 *   const wake: LaneItem = { kind: 'wake', at: 1747488600300 };
 */
import type { Observation } from '../../drivers/observation.js';
import type { GameEvent } from '../../engine/events.js';
import type { GameRun } from '../game/gameRun.js';
import type { JournalEntry, JournalRecord } from '../journal/index.js';

/** Into a lane: something to journal (then step), or a timer saying time has come to `at`. */
export type LaneItem =
  | { readonly kind: 'entry'; readonly entry: JournalEntry; readonly done?: (r: StepOutcome) => void }
  | { readonly kind: 'wake'; readonly at: number };

/** Out of the journal stage: a durable record, a wake passed through, or an entry the journal refused. */
export type Journaled =
  | { readonly kind: 'record'; readonly record: JournalRecord; readonly done?: (r: StepOutcome) => void }
  | { readonly kind: 'wake'; readonly at: number }
  | {
      readonly kind: 'refused';
      readonly entry: JournalEntry;
      readonly error: Error;
      readonly done?: (r: StepOutcome) => void;
    };

/** Out of the supervisor stage: the game after the input, and the events it published. */
export interface Stepped {
  readonly run: GameRun;
  readonly events: readonly GameEvent[];
  /** The record stepped (undefined for a wake or a refused entry). */
  readonly record: JournalRecord | undefined;
  /** The journal's refusal, when the entry could not be recorded (nothing was stepped). */
  readonly refused?: Error;
  /** Told once the step is published (a request handler waiting for its command). */
  readonly done?: (r: StepOutcome) => void;
}

/** What the one who queued an entry learns once it has gone through (request handlers wait for it). */
export type StepOutcome =
  | {
      readonly ok: true;
      readonly record: JournalRecord;
      readonly events: readonly GameEvent[];
      readonly run: GameRun;
    }
  | { readonly ok: false; readonly error: Error };

/**
 * What the board stage (trackBoard.ts) uses of the board registry. The daemon's `BoardRegistry`
 * has this shape; it is declared here so the stages need nothing of the daemon.
 */
export interface TrackedBoards {
  /** Folds an observation into the board's status → what it changed. */
  observe(
    id: string,
    o: Observation,
  ): { readonly link: boolean; readonly serial: boolean; readonly squares: boolean };
  /** The board as the registry knows it now (its serial number: reported, else configured). */
  get(id: string): { readonly status: { readonly serial: string | undefined } } | undefined;
}
