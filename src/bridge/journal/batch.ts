/**
 * A batch of the journal store (store.ts): the state it keeps of each game, an append waiting for
 * its batch, and the lines a batch writes.
 */
import type { Result } from '@badrap/result';
import type { JournalError } from './errors.js';
import {
  makeRecordLine,
  makeWalLine,
  type JournalEntry,
  type JournalHeader,
  type JournalRecord,
} from './format.js';
import type { GameFile } from './gameFile.js';

export interface GameState {
  readonly header: JournalHeader;
  readonly file: GameFile;
  lastSeq: number;
  /** A finish entry is queued or written: nothing more may be appended. */
  finishQueued: boolean;
  finished: boolean;
  /** Lines durable in the log but not yet written to the game file. */
  unwritten: string[];
  behind: boolean;
}

export interface Pending {
  readonly game: GameState;
  readonly entry: JournalEntry;
  readonly body: string;
  readonly resolve: (r: Result<JournalRecord, JournalError>) => void;
}

/** The seq of each record of a batch, its line in the game file, and the log's text for all of them. */
export const batchLines = (
  batch: readonly Pending[],
  wall: number,
): { next: Map<GameState, number>; lines: string[]; seqs: number[]; walText: string } => {
  const next = new Map<GameState, number>();
  const lines: string[] = [];
  const seqs: number[] = [];
  let walText = '';
  for (const p of batch) {
    const seq = (next.get(p.game) ?? p.game.lastSeq) + 1;
    next.set(p.game, seq);
    const line = makeRecordLine(seq, wall, p.body);
    lines.push(line);
    seqs.push(seq);
    walText += makeWalLine(p.game.header.game, line);
  }
  return { next, lines, seqs, walText };
};
