/**
 * The shared write-ahead log: numbered segments in `<dir>/wal/` holding every record of every
 * game, each wrapped with its game id. One write and one fdatasync per batch, whatever the
 * number of boards, is what makes 500 boards cheap (docs/journal.md). Segments are deleted once
 * the game files have been synced past them (a checkpoint).
 *
 *   const seg = await WalSegment.create(io, walDir, 1);
 *   await seg.append(Buffer.from(lines)); // written and synced, or a typed error and no torn line
 *   for await (const item of readWal(io, seg.path)) apply(item.game, item.record);
 */
import { join } from 'node:path';
import { Result } from '@badrap/result';
import { ioError, type JournalError } from './errors.js';
import { parseWalLine, WAL_SUFFIX, type JournalRecord } from './format.js';
import { syncDir, writeAll, type JournalFs } from './fsio.js';
import { readLines } from './lines.js';

/** A failed append; `clean` = the segment is back to its previous size and may be written again. */
export type WalFailure = JournalError & { readonly clean: boolean };

const SEGMENT = /^(\d{1,16})\.wal$/;

export const segmentName = (n: number): string => `${n.toString().padStart(12, '0')}${WAL_SUFFIX}`;

/** Segment numbers found in the folder, oldest first. */
export const listSegments = async (io: JournalFs, walDir: string): Promise<number[]> => {
  const names = await io.readdir(walDir);
  return names
    .flatMap(n => {
      const m = SEGMENT.exec(n);
      return m?.[1] === undefined ? [] : [Number(m[1])];
    })
    .sort((a, b) => a - b);
};

/** One open segment, appended to by the store's flush loop only (never concurrently). */
export class WalSegment {
  constructor(
    private readonly io: JournalFs,
    readonly path: string,
    readonly number: number,
    private readonly fd: number,
    private bytes: number,
  ) {}

  private closed = false;

  /** Creates segment `n` (it must not exist) and makes its name durable. */
  static async create(io: JournalFs, walDir: string, n: number): Promise<Result<WalSegment, JournalError>> {
    const path = join(walDir, segmentName(n));
    let fd: number;
    try {
      fd = await io.open(path, 'ax');
    } catch (e) {
      return Result.err(ioError(path, 'creating', e));
    }
    try {
      await syncDir(io, walDir);
    } catch (e) {
      await io.close(fd).catch(() => undefined);
      await io.unlink(path).catch(() => undefined);
      return Result.err(ioError(walDir, 'syncing the folder of', e));
    }
    return Result.ok(new WalSegment(io, path, n, fd, 0));
  }

  get size(): number {
    return this.bytes;
  }

  /**
   * Writes `data` and syncs it. On failure the segment is cut back to its previous size; `clean`
   * says whether that worked (if not, the segment's end is unknown and must not be written to).
   */
  async append(data: Uint8Array): Promise<Result<void, WalFailure>> {
    try {
      await writeAll(this.io, this.fd, data, this.bytes);
    } catch (e) {
      return Result.err(
        Object.assign(ioError(this.path, 'appending to', e), { clean: await this.isClean() }),
      );
    }
    try {
      await this.io.fdatasync(this.fd);
    } catch (e) {
      // The data may or may not be on disk, and after a failed sync the kernel may have dropped
      // it: a sync failure is never clean, whatever the truncate does.
      await this.io.ftruncate(this.fd, this.bytes).catch(() => undefined);
      return Result.err(Object.assign(ioError(this.path, 'syncing', e), { clean: false }));
    }
    this.bytes += data.length;
    return Result.ok(undefined);
  }

  private async isClean(): Promise<boolean> {
    try {
      return (await this.io.size(this.fd)) === this.bytes;
    } catch {
      return false;
    }
  }

  /**
   * Closes the descriptor once: a later call does nothing. (A checkpoint whose unlink failed keeps
   * the segment listed and closes it again; a second close(2) could hit a descriptor the process
   * has since given to another file.)
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.io.close(this.fd).catch(() => undefined);
  }
}

export type WalItem =
  | { readonly kind: 'record'; readonly game: string; readonly record: JournalRecord }
  /** A line that does not read: a torn end (last lines) or damage (reported by the caller). */
  | {
      readonly kind: 'bad';
      readonly line: number;
      readonly offset: number;
      /** Byte offset just after the line. */
      readonly end: number;
      readonly detail: string;
    };

/** Every line of a segment, in order. */
export async function* readWal(io: JournalFs, path: string): AsyncGenerator<WalItem> {
  const fd = await io.open(path, 'r');
  try {
    for await (const line of readLines(io, fd)) {
      if (!line.terminated) {
        yield {
          kind: 'bad',
          line: line.number,
          offset: line.offset,
          end: line.end,
          detail: 'unterminated line (torn write)',
        };
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        yield { kind: 'bad', line: line.number, offset: line.offset, end: line.end, detail: 'not JSON' };
        continue;
      }
      const parsed = parseWalLine(value);
      if (parsed.isOk) yield { kind: 'record', game: parsed.value.game, record: parsed.value.record };
      else
        yield {
          kind: 'bad',
          line: line.number,
          offset: line.offset,
          end: line.end,
          detail: parsed.error.message,
        };
    }
  } finally {
    await io.close(fd).catch(() => undefined);
  }
}

/** Records of one game from every segment of `walDir`, in order (empty when there is no folder). */
export const walRecordsOf = async (io: JournalFs, walDir: string, game: string): Promise<JournalRecord[]> => {
  let segments: number[];
  try {
    segments = await listSegments(io, walDir);
  } catch {
    return [];
  }
  const out: JournalRecord[] = [];
  for (const n of segments) {
    try {
      for await (const item of readWal(io, join(walDir, segmentName(n)))) {
        if (item.kind === 'record' && item.game === game) out.push(item.record);
      }
    } catch {
      // A segment deleted by a checkpoint while we read: its records are in the game file.
    }
  }
  return out;
};
