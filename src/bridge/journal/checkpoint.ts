/**
 * The two halves of a checkpoint, shared by the periodic one and by `stop()`: sync game files
 * (two at a time, so the thread pool keeps room for the log's own writes and syncs), then delete
 * the log segments they cover, oldest first, and sync the folder so the deletions hold.
 *
 *   const failed = await syncGameFiles(dirtyFiles);      // [] when every file is on disk
 *   if (failed.length === 0) await dropSegments(io, walDir, retired); // Result<void, JournalError>
 */
import { Result } from '@badrap/result';
import { ioError, type JournalError } from './errors.js';
import { syncDir, type JournalFs } from './fsio.js';
import type { GameFile } from './gameFile.js';
import type { WalSegment } from './wal.js';

export interface SyncFailure<T> {
  readonly item: T;
  readonly error: JournalError;
}

/** fdatasyncs the file of each item, `concurrency` at a time; returns the items that failed. */
export const syncGameFiles = async <T extends { readonly file: GameFile }>(
  items: readonly T[],
  concurrency = 2,
): Promise<SyncFailure<T>[]> => {
  const failed: SyncFailure<T>[] = [];
  for (let i = 0; i < items.length; i += concurrency) {
    const group = items.slice(i, i + concurrency);
    const results = await Promise.all(group.map(g => g.file.sync()));
    results.forEach((r, k) => {
      const item = group[k];
      if (r.isErr && item !== undefined) failed.push({ item, error: r.error });
    });
  }
  return failed;
};

/**
 * Closes and deletes `segments` oldest first, removing each from the array as it goes (so a
 * failure leaves the rest listed for the next attempt), then syncs the folder.
 */
export const dropSegments = async (
  io: JournalFs,
  walDir: string,
  segments: WalSegment[],
): Promise<Result<void, JournalError>> => {
  try {
    for (let seg = segments[0]; seg !== undefined; seg = segments[0]) {
      await seg.close();
      await io.unlink(seg.path);
      segments.shift();
    }
    await syncDir(io, walDir);
    return Result.ok(undefined);
  } catch (e) {
    return Result.err(ioError(walDir, 'removing old log segments from', e));
  }
};
