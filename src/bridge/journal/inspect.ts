/**
 * Looking at a game file without reading all of it: its header (first line) and its last good
 * record (scanning back from the end), and whether a torn tail follows. A restart does this for
 * every game; `listJournals` too.
 *
 *   const s = await inspectGameFile(io, 'journal/games/r1-b3.jsonl');
 *   if (s.isOk) console.log(s.value.header.game, s.value.lastSeq, s.value.finished, s.value.torn);
 */
import { Result } from '@badrap/result';
import { ioError, journalError, type JournalError } from './errors.js';
import { parseHeader, parseRecord, type JournalHeader } from './format.js';
import type { JournalFs } from './fsio.js';
import { readLines, scanTail } from './lines.js';

/** A damaged end of a file: what a daemon killed mid-write leaves. Everything before it is kept. */
export interface TornTail {
  readonly file: string;
  /** 1-based number of the first line of the tail; 0 when found from the end (line not counted). */
  readonly line: number;
  /** Byte offset where the good part ends. */
  readonly offset: number;
  readonly bytes: number;
  /** The start of the tail, for a report. */
  readonly preview: string;
}

/** Reads and checks the first line of a game file. */
export const readHeader = async (
  io: JournalFs,
  path: string,
): Promise<Result<{ header: JournalHeader; end: number }, JournalError>> => {
  let fd: number;
  try {
    fd = await io.open(path, 'r');
  } catch (e) {
    return Result.err(ioError(path, 'opening', e));
  }
  try {
    const lines = readLines(io, fd, 0, 4096);
    const first = await lines.next();
    await lines.return(undefined);
    if (first.done === true || !first.value.terminated)
      return Result.err(journalError({ kind: 'bad-header', file: path, detail: 'no complete first line' }));
    let value: unknown;
    try {
      value = JSON.parse(first.value.text);
    } catch {
      return Result.err(journalError({ kind: 'bad-header', file: path, detail: 'not JSON' }));
    }
    const header = parseHeader(value);
    if (header.isErr)
      return Result.err(journalError({ kind: 'bad-header', file: path, detail: header.error.message }));
    return Result.ok({ header: header.value, end: first.value.end });
  } catch (e) {
    return Result.err(ioError(path, 'reading', e));
  } finally {
    await io.close(fd).catch(() => undefined);
  }
};

/** The last good line of a game file: a record, or the header of a game without records. */
export const acceptLastLine = (text: string): { seq: number; finished: boolean } | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = parseRecord(value);
  if (record.isOk) return { seq: record.value.seq, finished: record.value.type === 'finish' };
  return parseHeader(value).isOk ? { seq: 0, finished: false } : undefined;
};

export interface GameFileState {
  readonly path: string;
  readonly header: JournalHeader;
  readonly lastSeq: number;
  readonly finished: boolean;
  /** Where the good part ends; the rest is a torn tail to cut off. */
  readonly validEnd: number;
  readonly torn: TornTail | undefined;
}

/** Reads the header and the last good record of a game file, without reading all of it. */
export const inspectGameFile = async (
  io: JournalFs,
  path: string,
): Promise<Result<GameFileState, JournalError>> => {
  const head = await readHeader(io, path);
  if (head.isErr) return Result.err(head.error);
  let fd: number;
  try {
    fd = await io.open(path, 'r');
  } catch (e) {
    return Result.err(ioError(path, 'opening', e));
  }
  try {
    const tail = await scanTail(io, fd, acceptLastLine);
    if (tail.last === undefined)
      return Result.err(
        journalError({
          kind: 'corrupt',
          file: path,
          line: 0,
          detail: 'no good record within 1 MiB of the end',
        }),
      );
    const torn: TornTail | undefined =
      tail.tornBytes === 0
        ? undefined
        : { file: path, line: 0, offset: tail.validEnd, bytes: tail.tornBytes, preview: tail.tornPreview };
    return Result.ok({
      path,
      header: head.value.header,
      lastSeq: tail.last.value.seq,
      finished: tail.last.value.finished,
      validEnd: tail.validEnd,
      torn,
    });
  } catch (e) {
    return Result.err(ioError(path, 'reading', e));
  } finally {
    await io.close(fd).catch(() => undefined);
  }
};
