/**
 * The journal's public surface: the store that records games, and the readers that replay them.
 *
 *   import { JournalStore, readJournal, listJournals, type JournalRecord } from './journal/index.js';
 *   const journal = new JournalStore({ dir: config.journal.dir, checkpointMs: config.journal.checkpointSeconds * 1000 });
 *   const games = (await journal.start()).unwrap().games; // unfinished games to replay
 */
export { JournalStore } from './store.js';
export type {
  JournalStoreOptions,
  JournalStats,
  NewGame,
  OpenGame,
  StartReport,
  JournalProblem,
} from './store.js';
export { listJournals, readJournal, readJournalAll } from './read.js';
export type {
  JournalContents,
  JournalList,
  JournalSummary,
  OpenedJournal,
  ReadOptions,
  TornTail,
} from './read.js';
export { describeDamage, lostSeqs } from './salvage.js';
export type { DamagedRange } from './salvage.js';
export { isGameId, JOURNAL_FORMAT } from './format.js';
export type {
  GameSettings,
  JournalEntry,
  JournalHeader,
  JournalPairing,
  JournalPlayer,
  JournalRecord,
  JsonValue,
} from './format.js';
export type { JournalError, JournalErrorDetail } from './errors.js';
export { nodeJournalFs } from './fsio.js';
export type { JournalFs } from './fsio.js';
