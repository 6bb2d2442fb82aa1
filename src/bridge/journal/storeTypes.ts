/** What the journal store (store.ts) is given and tells: its options, a new game, an open game, its start and its counters. */
import type { JournalFs } from './fsio.js';
import type { GameSettings, JournalHeader } from './format.js';
import type { TornTail } from './inspect.js';
import type { JournalProblem } from './recover.js';

export interface JournalStoreOptions {
  /** The journal folder (`journal.dir`); `games/` and `wal/` are made inside it. */
  readonly dir: string;
  /** Fold the log into the game files at least this often while records arrive (default 10 s). */
  readonly checkpointMs?: number;
  /** … or when the current log segment grows past this (default 16 MiB). */
  readonly walMaxBytes?: number;
  /** Most records in one batch (default 10 000). */
  readonly maxBatch?: number;
  readonly io?: JournalFs;
  /** Wall clock in ms since 1970 (`wall` of records, `createdAt`, checkpoint timing). */
  readonly now?: () => number;
  /** Told about torn tails repaired, files skipped, a game file behind, a failed checkpoint, a full disk. */
  readonly onProblem?: (problem: JournalProblem) => void;
  /**
   * When the log's disk is full: `hold` (default) keeps the records in memory, in order and
   * unacknowledged, and retries until there is space; `refuse` fails their appends at once.
   */
  readonly fullDisk?: 'hold' | 'refuse';
  /** While holding: how often the write is retried (ms, default 1000). */
  readonly spaceRetryMs?: number;
  /** While holding: appends beyond this many bytes of held records are refused (default 64 MiB). */
  readonly maxHeldBytes?: number;
}

export interface NewGame {
  readonly game: string;
  readonly board: string;
  readonly settings: GameSettings;
}

export interface OpenGame {
  readonly header: JournalHeader;
  readonly path: string;
  /** Seq of the last durable record (0 = header only). */
  readonly lastSeq: number;
}

export interface StartReport {
  /** Unfinished games, to be rebuilt by replaying their journals. */
  readonly games: readonly OpenGame[];
  readonly finished: number;
  readonly walRecordsApplied: number;
  /** Torn ends cut off game files that the log did not make good, by game (recover.ts). */
  readonly cutTails: ReadonlyMap<string, TornTail>;
}

export interface JournalStats {
  readonly records: number;
  readonly batches: number;
  readonly largestBatch: number;
  readonly walWrites: number;
  readonly walSyncs: number;
  readonly walBytes: number;
  readonly checkpoints: number;
}
