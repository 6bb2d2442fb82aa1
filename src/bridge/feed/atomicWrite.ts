/**
 * Writes a file so that a reader (a mirroring tool polling the folder) sees either the old bytes or
 * the new ones, never half a file: the bytes go to a hidden temporary file in the same folder, are
 * flushed to disk, and the temporary file is renamed over the target (rename is atomic on POSIX
 * file systems within one folder).
 *
 *   await writeFileAtomic('/srv/live/round-1/games.pgn', bytes, { mtime: lastModified });
 *
 * Temporary files are named `.NAME.tmp-PID-N` (dot-prefixed, as rsync does); mirroring tools are
 * expected to skip dotfiles. A failed write removes its temporary file.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, utimes } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Modification time to give the file (ms since the epoch), e.g. its Last-Modified. */
  readonly mtime?: number;
}

/** Name of the temporary file for `target`. */
export const tempPathFor = (target: string): string =>
  join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);

export const writeFileAtomic = async (
  target: string,
  bytes: Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> => {
  const temp = tempPathFor(target);
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (opts.mtime !== undefined) await utimes(temp, new Date(opts.mtime), new Date(opts.mtime));
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
};

/** Flushes a folder's entries (the renames) to disk; ignored where folders cannot be opened for sync. */
export const syncFolder = async (folder: string): Promise<void> => {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the renames still happened.
  } finally {
    await handle?.close();
  }
};
