/**
 * Start-up recovery of a journal folder: finds every game file, puts back records destroyed
 * inside it from their copies in the write-ahead log (repair.ts), cuts torn tails, copies the
 * records that only reached the write-ahead log into their game files, syncs them, and then
 * deletes the old log segments. Afterwards every game file holds everything that was ever
 * acknowledged, and the unfinished games are open for appending.
 *
 *   const r = await recoverJournal(io, dir, problem => log.warn(problem));
 *   if (r.isOk) for (const g of r.value.open.values()) resume(g.header, g.lastSeq);
 */
import { join } from 'node:path';
import { Result } from '@badrap/result';
import { ioError, type JournalError } from './errors.js';
import { GAME_FILE_SUFFIX, GAMES_DIR, WAL_DIR, type JournalHeader, type JournalRecord } from './format.js';
import { syncDir, type JournalFs } from './fsio.js';
import { GameFile } from './gameFile.js';
import { inspectGameFile, type TornTail } from './inspect.js';
import { repairFromLog } from './repair.js';
import { listSegments, readWal, segmentName, type WalItem } from './wal.js';

/** Something the journal noticed and dealt with; worth a log line, not a stop. */
export type JournalProblem =
  /** A torn or damaged end was found (and, for game files, cut off): a crash mid-write. */
  | { readonly kind: 'torn-tail'; readonly tail: TornTail }
  /** A file in the games folder that is not a readable journal; left alone. */
  | { readonly kind: 'unreadable'; readonly error: JournalError }
  /**
   * Lines inside a log segment that do not read (damage, not a torn end): skipped; the records
   * after them are applied. Which game they held shows as a `wal-gap` of that game, if any.
   */
  | {
      readonly kind: 'wal-damage';
      readonly file: string;
      readonly line: number;
      readonly offset: number;
      readonly bytes: number;
      readonly detail: string;
    }
  /**
   * The log skips seq numbers of a game (damage swallowed them): the records after the gap are
   * applied with their own seq, so the game file shows the same gap (never invented, never renumbered).
   */
  | { readonly kind: 'wal-gap'; readonly game: string; readonly expected: number; readonly found: number }
  /**
   * Records destroyed inside a game file (damage, not a torn end) put back from their intact
   * copies in the log (repair.ts): `seqs`, the ranges restored.
   */
  | {
      readonly kind: 'restored-from-log';
      readonly file: string;
      readonly seqs: readonly { from: number; to: number }[];
    }
  /** Such a repair failed: the file is as it was, and the damage is salvaged as usual. */
  | { readonly kind: 'repair-failed'; readonly error: JournalError }
  /** The log holds records of a game with no file (deleted by hand?): not applied. */
  | { readonly kind: 'wal-orphan'; readonly game: string; readonly records: number }
  /** A game file could not be written; its records are safe in the log and will be retried. */
  | { readonly kind: 'game-file-behind'; readonly game: string; readonly error: JournalError }
  /** A checkpoint failed; the log segments are kept and it is retried. */
  | { readonly kind: 'checkpoint-failed'; readonly error: JournalError }
  /**
   * The log's disk is full (`error` names the file and the code): records are held in memory, in
   * order and unacknowledged, and written as soon as there is space. Reported when it starts, then
   * about once a minute while it lasts.
   */
  | {
      readonly kind: 'disk-full';
      readonly error: JournalError;
      readonly heldRecords: number;
      readonly heldMs: number;
    }
  /** Space again: the held records are written and acknowledged (`records`: those of the first batch). */
  | { readonly kind: 'disk-space-back'; readonly records: number; readonly heldMs: number };

export interface RecoveredGame {
  readonly header: JournalHeader;
  readonly file: GameFile;
  readonly lastSeq: number;
}

export interface Recovery {
  /** Unfinished games by id, open for appending. */
  readonly open: Map<string, RecoveredGame>;
  /** How many finished game files were found. */
  readonly finished: number;
  /** Records copied from the log into game files. */
  readonly walRecordsApplied: number;
  /** The number for the next log segment. */
  readonly nextSegment: number;
  /**
   * Torn ends cut off game files, by game, that the log did not make good (no record of the game
   * was in it): what they held is lost, unless it was never acknowledged.
   */
  readonly cutTails: ReadonlyMap<string, TornTail>;
}

type BadLine = Extract<WalItem, { kind: 'bad' }>;

/**
 * Reads every log segment: the records per game in log order. Each run of bad lines is reported
 * once: inside the segment as `wal-damage`, at its end as a `torn-tail`.
 */
const readLog = async (
  io: JournalFs,
  walDir: string,
  segments: readonly number[],
  report: (p: JournalProblem) => void,
): Promise<{ byGame: Map<string, JournalRecord[]>; badLines: number }> => {
  const byGame = new Map<string, JournalRecord[]>();
  let badLines = 0;
  for (const n of segments) {
    const file = join(walDir, segmentName(n));
    let bad: BadLine[] = [];
    const span = (): { first: BadLine; bytes: number } | undefined => {
      const first = bad[0];
      const last = bad.at(-1);
      return first === undefined || last === undefined
        ? undefined
        : { first, bytes: last.end - first.offset };
    };
    for await (const item of readWal(io, file)) {
      if (item.kind === 'bad') {
        bad.push(item);
        badLines += 1;
        continue;
      }
      const run = span();
      if (run !== undefined) {
        const { first, bytes } = run;
        report({
          kind: 'wal-damage',
          file,
          line: first.line,
          offset: first.offset,
          bytes,
          detail: first.detail,
        });
      }
      bad = [];
      const list = byGame.get(item.game);
      if (list === undefined) byGame.set(item.game, [item.record]);
      else list.push(item.record);
    }
    const tail = span();
    if (tail !== undefined)
      report({
        kind: 'torn-tail',
        tail: {
          file,
          line: tail.first.line,
          offset: tail.first.offset,
          bytes: tail.bytes,
          preview: tail.first.detail,
        },
      });
  }
  return { byGame, badLines };
};

/**
 * The records after `lastSeq`, in order; each gap is reported and passed over. A record that jumps
 * ahead is taken when the game's next record in the log continues it, or, as the game's last,
 * when the log's damaged lines (`badLines`) could have held what it skips; otherwise its seq is
 * itself damaged (a flipped digit) and it is left out, so it cannot hide the records after it.
 */
const continuation = (
  game: string,
  lastSeq: number,
  records: readonly JournalRecord[],
  badLines: number,
  report: (p: JournalProblem) => void,
): JournalRecord[] => {
  const out: JournalRecord[] = [];
  let expected = lastSeq + 1;
  records.forEach((r, i) => {
    if (r.seq < expected) return;
    if (r.seq > expected) {
      const next = records[i + 1];
      const proven = next === undefined ? r.seq - expected <= 2 * badLines : next.seq === r.seq + 1;
      if (!proven) return;
      report({ kind: 'wal-gap', game, expected, found: r.seq });
    }
    out.push(r);
    expected = r.seq + 1;
  });
  return out;
};

export const recoverJournal = async (
  io: JournalFs,
  dir: string,
  report: (p: JournalProblem) => void,
): Promise<Result<Recovery, JournalError>> => {
  const gamesDir = join(dir, GAMES_DIR);
  const walDir = join(dir, WAL_DIR);
  let names: string[];
  let segments: number[];
  try {
    await io.mkdir(gamesDir);
    await io.mkdir(walDir);
    names = (await io.readdir(gamesDir)).filter(n => n.endsWith(GAME_FILE_SUFFIX)).sort();
    segments = await listSegments(io, walDir);
  } catch (e) {
    return Result.err(ioError(dir, 'opening the journal folder', e));
  }
  let log: Map<string, JournalRecord[]>;
  let badLines: number;
  try {
    ({ byGame: log, badLines } = await readLog(io, walDir, segments, report));
  } catch (e) {
    return Result.err(ioError(walDir, 'reading the write-ahead log in', e));
  }

  const open = new Map<string, RecoveredGame>();
  let finished = 0;
  let applied = 0;
  const cutTails = new Map<string, TornTail>();
  for (const name of names) {
    const gamePath = join(gamesDir, name);
    let state = await inspectGameFile(io, gamePath);
    if (state.isErr) {
      report({ kind: 'unreadable', error: state.error });
      continue;
    }
    const logged = log.get(state.value.header.game) ?? [];
    // The log holds copies of records the file has too (a crash before a checkpoint): any that
    // damage destroyed inside the file are put back first, and the file is looked at again.
    if (logged.some(r => r.seq < (state.isOk ? state.value.lastSeq : 0))) {
      const repaired = await repairFromLog(io, gamePath, logged);
      if (repaired.isErr) report({ kind: 'repair-failed', error: repaired.error });
      else if (repaired.value.length > 0) {
        report({ kind: 'restored-from-log', file: gamePath, seqs: repaired.value });
        state = await inspectGameFile(io, gamePath);
        if (state.isErr) {
          report({ kind: 'unreadable', error: state.error });
          continue;
        }
      }
    }
    const { header, path, validEnd, torn } = state.value;
    const pending = continuation(
      header.game,
      state.value.lastSeq,
      log.get(header.game) ?? [],
      badLines,
      report,
    );
    log.delete(header.game);
    if (torn !== undefined) report({ kind: 'torn-tail', tail: torn });
    if (torn !== undefined && pending.length === 0) cutTails.set(header.game, torn);
    if (state.value.finished && torn === undefined && pending.length === 0) {
      finished += 1;
      continue;
    }
    const opened = await GameFile.openForAppend(io, path, validEnd);
    if (opened.isErr) {
      for (const g of open.values()) await g.file.close();
      return Result.err(opened.error);
    }
    const file = opened.value;
    if (pending.length > 0) {
      const data = Buffer.from(pending.map(r => `${JSON.stringify(r)}\n`).join(''), 'utf8');
      const written = await file.append(data);
      const synced = written.isOk ? await file.sync() : written;
      if (synced.isErr) {
        await file.close();
        for (const g of open.values()) await g.file.close();
        return Result.err(synced.error);
      }
      applied += pending.length;
    }
    const last = pending[pending.length - 1];
    const lastSeq = last?.seq ?? state.value.lastSeq;
    if (last?.type === 'finish' || (last === undefined && state.value.finished)) {
      await file.close();
      finished += 1;
    } else {
      open.set(header.game, { header, file, lastSeq });
    }
  }
  for (const [game, records] of log) report({ kind: 'wal-orphan', game, records: records.length });

  try {
    for (const n of segments) await io.unlink(join(walDir, segmentName(n)));
    if (segments.length > 0) await syncDir(io, walDir);
  } catch (e) {
    for (const g of open.values()) await g.file.close();
    return Result.err(ioError(walDir, 'removing applied log segments from', e));
  }
  const nextSegment = (segments[segments.length - 1] ?? 0) + 1;
  return Result.ok({ open, finished, walRecordsApplied: applied, nextSegment, cutTails });
};
