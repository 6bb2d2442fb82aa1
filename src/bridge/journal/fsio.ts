/**
 * The file operations the journal uses, as one injectable interface over file descriptors, so
 * tests can make any call fail (ENOSPC on the third write, a short write, EIO on sync) while
 * the real implementation stays a thin wrapper of `node:fs`.
 *
 *   const fs = nodeJournalFs();
 *   const fd = await fs.open('/srv/journal/wal/1.wal', 'a');
 *   await writeAll(fs, fd, Buffer.from('{"seq":1}\n')); await fs.fdatasync(fd);
 */
import * as fs from 'node:fs';
import { promisify } from 'node:util';

/** `a` append (create), `ax` append to a new file (fail if it exists), `r` read, `r+` read/write. */
export type OpenFlags = 'a' | 'ax' | 'r' | 'r+';

export interface JournalFs {
  open(path: string, flags: OpenFlags): Promise<number>;
  /** Writes at the end (files are opened for append); returns the bytes written, possibly fewer. */
  write(fd: number, data: Uint8Array): Promise<number>;
  /** Reads into `buffer` from `position`; returns the bytes read (0 at the end). */
  read(fd: number, buffer: Uint8Array, position: number): Promise<number>;
  fdatasync(fd: number): Promise<void>;
  fsync(fd: number): Promise<void>;
  ftruncate(fd: number, length: number): Promise<void>;
  size(fd: number): Promise<number>;
  close(fd: number): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Replaces `to` by `from` (atomic on one filesystem). */
  rename(from: string, to: string): Promise<void>;
}

const pOpen = promisify(fs.open);
const pWrite = promisify(fs.write);
const pRead = promisify(fs.read);
const pFdatasync = promisify(fs.fdatasync);
const pFsync = promisify(fs.fsync);
const pFtruncate = promisify(fs.ftruncate);
const pFstat = promisify(fs.fstat);
const pClose = promisify(fs.close);
const pReaddir = promisify(fs.readdir);
const pMkdir = promisify(fs.mkdir);
const pUnlink = promisify(fs.unlink);
const pRename = promisify(fs.rename);

/** The real filesystem. */
export const nodeJournalFs = (): JournalFs => ({
  open: (path, flags) => pOpen(path, flags),
  write: async (fd, data) => (await pWrite(fd, data, 0, data.length, null)).bytesWritten,
  read: async (fd, buffer, position) => (await pRead(fd, buffer, 0, buffer.length, position)).bytesRead,
  fdatasync: fd => pFdatasync(fd),
  fsync: fd => pFsync(fd),
  ftruncate: (fd, length) => pFtruncate(fd, length),
  size: async fd => (await pFstat(fd)).size,
  close: fd => pClose(fd),
  readdir: path => pReaddir(path),
  mkdir: async path => {
    await pMkdir(path, { recursive: true });
  },
  unlink: path => pUnlink(path),
  rename: (from, to) => pRename(from, to),
});

/**
 * Writes all of `data`, looping over short writes. If a write fails part-way, the file is cut
 * back to `sizeBefore` so no torn line is left behind, and the original error is rethrown.
 */
export const writeAll = async (
  io: JournalFs,
  fd: number,
  data: Uint8Array,
  sizeBefore: number,
): Promise<void> => {
  let done = 0;
  try {
    while (done < data.length) {
      const n = await io.write(fd, done === 0 ? data : data.subarray(done));
      if (n <= 0) throw Object.assign(new Error('write returned 0 bytes'), { code: 'EIO' });
      done += n;
    }
  } catch (e) {
    // Even a failed write may have placed bytes on some filesystems: always cut back.
    await io.ftruncate(fd, sizeBefore).catch(() => undefined);
    throw e;
  }
};

/** Makes a directory entry (a new or deleted file) durable: fsync of the directory itself. */
export const syncDir = async (io: JournalFs, dir: string): Promise<void> => {
  const fd = await io.open(dir, 'r');
  try {
    await io.fsync(fd);
  } finally {
    await io.close(fd);
  }
};
