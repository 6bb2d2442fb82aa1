/**
 * Reading journals: one game as header + records in order (streamed, so a long game never sits
 * in memory), and the list of every game in a journal folder. This is the replay side of the
 * contract: feeding `records` back to the engine in order rebuilds the game.
 *
 *   const r = await readJournal('journal/games/r1-b3.jsonl');
 *   if (r.isErr) throw r.error; // names the file (and line)
 *   for await (const rec of r.value.records) engine.feed(rec); // throws JournalError 'corrupt' on damage
 *   const all = await readJournalAll(path); // { header, records[], tornTail, damage }
 *   const kept = await readJournalAll(path, { salvage: true }); // damage inside: ranges, not an error
 *   const list = await listJournals('journal'); // every game, finished or not
 *
 * Records still only in the write-ahead log (a crash before the daemon could copy them into the
 * game file) are appended at the end, so a reader always sees what was acknowledged.
 */
import { basename, dirname, join } from 'node:path';
import { Result } from '@badrap/result';
import { ioError, journalError, type JournalError } from './errors.js';
import {
  GAME_FILE_SUFFIX,
  GAMES_DIR,
  parseRecord,
  WAL_DIR,
  type JournalHeader,
  type JournalRecord,
} from './format.js';
import { nodeJournalFs, type JournalFs } from './fsio.js';
import { inspectGameFile, readHeader, type TornTail } from './inspect.js';
import { readLines } from './lines.js';
import { continueFromWal, salvageGameFile, type DamagedRange } from './salvage.js';
import { listSegments, readWal, segmentName, walRecordsOf } from './wal.js';

export interface ReadOptions {
  readonly io?: JournalFs;
  /** Add records found only in the write-ahead log (default true). */
  readonly includeWal?: boolean;
  /** Called once if the file ends in a torn or damaged tail. */
  readonly onTornTail?: (tail: TornTail) => void;
  /**
   * readJournalAll only: keep every record that checks out before and after damage inside the
   * file (salvage.ts) and report the damaged ranges in `damage`, instead of failing with `corrupt`.
   */
  readonly salvage?: boolean;
}

export interface OpenedJournal {
  readonly path: string;
  readonly header: JournalHeader;
  /** Records with seq 1, 2, 3, …; each iteration reads the file afresh. Throws a `corrupt` JournalError on damage. */
  readonly records: AsyncIterable<JournalRecord>;
}

/** The journal folder of a game file in `<dir>/games/`, or undefined for a file elsewhere. */
const rootOf = (path: string): string | undefined =>
  basename(dirname(path)) === GAMES_DIR ? dirname(dirname(path)) : undefined;

const parseLine = (text: string): Result<JournalRecord, Error> => {
  try {
    return parseRecord(JSON.parse(text));
  } catch (e) {
    return Result.err(e instanceof Error ? e : new Error(String(e)));
  }
};

async function* iterateRecords(
  io: JournalFs,
  path: string,
  header: JournalHeader,
  start: number,
  options: ReadOptions,
): AsyncGenerator<JournalRecord> {
  let fd: number;
  try {
    fd = await io.open(path, 'r');
  } catch (e) {
    throw ioError(path, 'opening', e);
  }
  let expected = 1;
  // Lines that do not read are held back: at the end of the file they are a torn tail, before a
  // good record they are damage.
  let held: { line: number; offset: number; detail: string; text: string } | undefined;
  try {
    for await (const line of readLines(io, fd, start)) {
      const number = line.number + 1; // the header is line 1
      const parsed = line.terminated ? parseLine(line.text) : Result.err(new Error('unterminated line'));
      if (parsed.isErr) {
        held ??= { line: number, offset: line.offset, detail: parsed.error.message, text: line.text };
        continue;
      }
      if (held !== undefined)
        throw journalError({ kind: 'corrupt', file: path, line: held.line, detail: held.detail });
      if (parsed.value.seq !== expected)
        throw journalError({
          kind: 'corrupt',
          file: path,
          line: number,
          detail: `seq ${parsed.value.seq} where ${expected} was expected`,
        });
      expected += 1;
      yield parsed.value;
    }
    if (held !== undefined) {
      const size = await io.size(fd);
      options.onTornTail?.({
        file: path,
        line: held.line,
        offset: held.offset,
        bytes: size - held.offset,
        preview: held.text.slice(0, 80),
      });
    }
  } finally {
    await io.close(fd).catch(() => undefined);
  }
  const root = rootOf(path);
  if (options.includeWal === false || root === undefined) return;
  for (const record of await walRecordsOf(io, join(root, WAL_DIR), header.game)) {
    if (record.seq < expected) continue;
    if (record.seq > expected) break; // a gap: never invent; the store's recovery reports it
    expected += 1;
    yield record;
  }
}

/** Opens a game journal: the header at once, the records as they are iterated. */
export const readJournal = async (
  path: string,
  options: ReadOptions = {},
): Promise<Result<OpenedJournal, JournalError>> => {
  const io = options.io ?? nodeJournalFs();
  const head = await readHeader(io, path);
  if (head.isErr) return Result.err(head.error);
  const { header, end } = head.value;
  const records: AsyncIterable<JournalRecord> = {
    [Symbol.asyncIterator]: () => iterateRecords(io, path, header, end, options),
  };
  return Result.ok({ path, header, records });
};

export interface JournalContents {
  readonly header: JournalHeader;
  readonly records: readonly JournalRecord[];
  readonly tornTail: TornTail | undefined;
  /** Damaged ranges inside the file and seq gaps (salvage only; otherwise damage is an error). */
  readonly damage: readonly DamagedRange[];
}

/** readJournalAll with `salvage`: every record that checks out, and the ranges that do not. */
const readSalvaged = async (
  path: string,
  options: ReadOptions,
): Promise<Result<JournalContents, JournalError>> => {
  const io = options.io ?? nodeJournalFs();
  const head = await readHeader(io, path);
  if (head.isErr) return Result.err(head.error);
  const salvaged = await salvageGameFile(io, path, head.value.end);
  if (salvaged.isErr) return Result.err(salvaged.error);
  const { records, damage, tornTail } = salvaged.value;
  if (tornTail !== undefined) options.onTornTail?.(tornTail);
  const root = rootOf(path);
  if (options.includeWal === false || root === undefined)
    return Result.ok({ header: head.value.header, records, tornTail, damage });
  const walDir = join(root, WAL_DIR);
  const wal = continueFromWal(
    walDir,
    records.at(-1)?.seq ?? 0,
    await walRecordsOf(io, walDir, head.value.header.game),
  );
  return Result.ok({
    header: head.value.header,
    records: [...records, ...wal.records],
    tornTail,
    damage: [...damage, ...wal.damage],
  });
};

/** Reads a whole game journal into memory (tests, short games, the CLI). */
export const readJournalAll = async (
  path: string,
  options: ReadOptions = {},
): Promise<Result<JournalContents, JournalError>> => {
  if (options.salvage === true) return readSalvaged(path, options);
  let tornTail: TornTail | undefined;
  const opened = await readJournal(path, {
    ...options,
    onTornTail: t => {
      tornTail = t;
      options.onTornTail?.(t);
    },
  });
  if (opened.isErr) return Result.err(opened.error);
  const records: JournalRecord[] = [];
  try {
    for await (const r of opened.value.records) records.push(r);
  } catch (e) {
    return Result.err(isJournalError(e) ? e : ioError(path, 'reading', e));
  }
  return Result.ok({ header: opened.value.header, records, tornTail, damage: [] });
};

const isJournalError = (e: unknown): e is JournalError =>
  e instanceof Error && 'kind' in e && typeof e.kind === 'string';

/** One game of a journal folder, as the list shows it. */
export interface JournalSummary {
  readonly path: string;
  readonly header: JournalHeader;
  /** Highest seq on disk, counting records still only in the write-ahead log. */
  readonly lastSeq: number;
  readonly finished: boolean;
  /** Bytes of a torn tail in the game file (repaired by the next start of the daemon). */
  readonly tornBytes: number;
}

const summarise = async (
  io: JournalFs,
  path: string,
  wal: ReadonlyMap<string, { seq: number; finished: boolean }>,
): Promise<Result<JournalSummary, JournalError>> => {
  const state = await inspectGameFile(io, path);
  if (state.isErr) return Result.err(state.error);
  const { header, lastSeq, finished, torn } = state.value;
  const inWal = wal.get(header.game);
  const fromWal = inWal !== undefined && inWal.seq > lastSeq;
  return Result.ok({
    path,
    header,
    lastSeq: fromWal ? inWal.seq : lastSeq,
    finished: fromWal ? inWal.finished : finished,
    tornBytes: torn?.bytes ?? 0,
  });
};

/** Highest seq and finish state per game in the write-ahead log. */
const walState = async (
  io: JournalFs,
  walDir: string,
): Promise<Map<string, { seq: number; finished: boolean }>> => {
  const out = new Map<string, { seq: number; finished: boolean }>();
  let segments: number[];
  try {
    segments = await listSegments(io, walDir);
  } catch {
    return out;
  }
  for (const n of segments) {
    try {
      for await (const item of readWal(io, join(walDir, segmentName(n)))) {
        if (item.kind === 'record')
          out.set(item.game, { seq: item.record.seq, finished: item.record.type === 'finish' });
      }
    } catch {
      // Deleted by a checkpoint meanwhile: the game files hold its records.
    }
  }
  return out;
};

export interface JournalList {
  /** Games by id. */
  readonly journals: readonly JournalSummary[];
  /** Files in the folder that could not be read as journals (each names its file). */
  readonly problems: readonly JournalError[];
}

/** Every game journal of a journal folder (`journal.dir`), sorted by game id. */
export const listJournals = async (
  dir: string,
  io: JournalFs = nodeJournalFs(),
): Promise<Result<JournalList, JournalError>> => {
  const gamesDir = join(dir, GAMES_DIR);
  let names: string[];
  try {
    names = await io.readdir(gamesDir);
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'code' in e && e.code === 'ENOENT')
      return Result.ok({ journals: [], problems: [] });
    return Result.err(ioError(gamesDir, 'listing', e));
  }
  const wal = await walState(io, join(dir, WAL_DIR));
  const journals: JournalSummary[] = [];
  const problems: JournalError[] = [];
  for (const name of names.filter(n => n.endsWith(GAME_FILE_SUFFIX)).sort()) {
    const r = await summarise(io, join(gamesDir, name), wal);
    if (r.isOk) journals.push(r.value);
    else problems.push(r.error);
  }
  return Result.ok({ journals, problems });
};

export type { TornTail } from './inspect.js';
