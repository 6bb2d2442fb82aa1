/**
 * One game's journal file, for writing: created with its header (written, synced, and its
 * folder entry synced), or reopened after a restart with its torn tail cut off. Appends are not
 * synced here: the write-ahead log already holds them durably, and a checkpoint syncs the file.
 *
 *   const f = await GameFile.create(io, gamesDir, header);          // Result<GameFile, JournalError>
 *   const s = await inspectGameFile(io, path);                       // (inspect.ts) last seq, torn bytes
 *   const g = await GameFile.openForAppend(io, path, s.value.validEnd); // cuts a torn tail first
 */
import { join } from 'node:path';
import { Result } from '@badrap/result';
import { ioError, journalError, type JournalError } from './errors.js';
import { GAME_FILE_SUFFIX, makeHeaderLine, type JournalHeader } from './format.js';
import { syncDir, writeAll, type JournalFs } from './fsio.js';

export const gameFilePath = (gamesDir: string, game: string): string =>
  join(gamesDir, game + GAME_FILE_SUFFIX);

const codeOf = (e: unknown): unknown =>
  typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;

export class GameFile {
  constructor(
    private readonly io: JournalFs,
    readonly path: string,
    private readonly fd: number,
    private bytes: number,
  ) {}

  private closed = false;

  /** Creates the file of a new game; fails with `game-exists` if there is one already. */
  static async create(
    io: JournalFs,
    gamesDir: string,
    header: JournalHeader,
  ): Promise<Result<GameFile, JournalError>> {
    const path = gameFilePath(gamesDir, header.game);
    let fd: number;
    try {
      fd = await io.open(path, 'ax');
    } catch (e) {
      return Result.err(
        codeOf(e) === 'EEXIST'
          ? journalError({ kind: 'game-exists', game: header.game, file: path })
          : ioError(path, 'creating', e),
      );
    }
    const data = Buffer.from(makeHeaderLine(header), 'utf8');
    try {
      await writeAll(io, fd, data, 0);
      await io.fdatasync(fd);
      await syncDir(io, gamesDir);
    } catch (e) {
      // Leave no headerless file behind: it would stop the name from being used again.
      await io.close(fd).catch(() => undefined);
      await io.unlink(path).catch(() => undefined);
      return Result.err(ioError(path, 'creating', e));
    }
    return Result.ok(new GameFile(io, path, fd, data.length));
  }

  /** Opens an existing file for appending, first cutting it to `validEnd` (a torn tail) if longer. */
  static async openForAppend(
    io: JournalFs,
    path: string,
    validEnd: number,
  ): Promise<Result<GameFile, JournalError>> {
    let fd: number;
    try {
      fd = await io.open(path, 'a');
    } catch (e) {
      return Result.err(ioError(path, 'opening', e));
    }
    try {
      const size = await io.size(fd);
      if (size > validEnd) {
        await io.ftruncate(fd, validEnd);
        await io.fdatasync(fd);
      }
    } catch (e) {
      await io.close(fd).catch(() => undefined);
      return Result.err(ioError(path, 'repairing the torn end of', e));
    }
    return Result.ok(new GameFile(io, path, fd, validEnd));
  }

  get size(): number {
    return this.bytes;
  }

  /** Appends whole lines; on failure the file is cut back, so it never ends in a torn line. */
  async append(data: Uint8Array): Promise<Result<void, JournalError>> {
    try {
      await writeAll(this.io, this.fd, data, this.bytes);
    } catch (e) {
      return Result.err(ioError(this.path, 'appending to', e));
    }
    this.bytes += data.length;
    return Result.ok(undefined);
  }

  async sync(): Promise<Result<void, JournalError>> {
    try {
      await this.io.fdatasync(this.fd);
      return Result.ok(undefined);
    } catch (e) {
      return Result.err(ioError(this.path, 'syncing', e));
    }
  }

  /** Closes the descriptor once (a second close(2) could hit a descriptor reused by another file). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.io.close(this.fd).catch(() => undefined);
  }
}
