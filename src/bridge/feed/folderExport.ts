/**
 * Keeps a folder in step with the feed, for FTP mirroring: tournament.json, round-N/index.json,
 * round-N/games.pgn and round-N/game-K.pgn, each written atomically (temporary file + rename) and
 * only when its bytes changed, with the file's Last-Modified as its modification time. Files it
 * wrote that left the feed (a withdrawn pairing) are removed; other files in the folder are left alone.
 *
 *   const out = new FolderExport({ dir: '/srv/live' });
 *   await out.sync(state, now);   // call after updates, and at nextReleaseAt() when a delay holds moves back
 *
 * Calls are serialised: a sync starts after the previous one has finished.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncFolder, writeFileAtomic } from './atomicWrite.js';
import { FeedFiles } from './feedFiles.js';
import type { FeedState } from './feedState.js';
import type { FeedFile } from './types.js';

export interface FolderExportOptions {
  /** The folder to keep in step (created if missing). */
  readonly dir: string;
  /** Renderer to use (shared with the HTTP server, or a fresh one). */
  readonly files?: FeedFiles;
}

export interface SyncReport {
  /** Paths written (relative, '/'-separated). */
  readonly written: readonly string[];
  /** Paths removed because they left the feed. */
  readonly removed: readonly string[];
}

const sameBytes = async (path: string, body: Buffer): Promise<boolean> => {
  try {
    return (await readFile(path)).equals(body);
  } catch {
    return false;
  }
};

export class FolderExport {
  /** ETag of every file this export wrote or found up to date, by relative path. */
  private readonly written = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private renderer: FeedFiles | undefined;

  constructor(private readonly opts: FolderExportOptions) {}

  /** Brings the folder in step with `state` at time `now`. */
  sync(state: FeedState, now: number): Promise<SyncReport> {
    const run = this.queue.then(() => this.syncNow(state, now));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private target(path: string): string {
    return join(this.opts.dir, ...path.split('/'));
  }

  private async syncNow(state: FeedState, now: number): Promise<SyncReport> {
    this.renderer ??= this.opts.files ?? new FeedFiles();
    const files = this.renderer.exportFiles(state, now);
    const written: string[] = [];
    const touched = new Set<string>();
    await mkdir(this.opts.dir, { recursive: true });
    for (const file of files) {
      if (await this.writeIfChanged(file)) {
        written.push(file.path);
        touched.add(dirname(this.target(file.path)));
      }
    }
    const current = new Set(files.map(f => f.path));
    const removed: string[] = [];
    for (const path of [...this.written.keys()]) {
      if (current.has(path)) continue;
      await rm(this.target(path), { force: true });
      this.written.delete(path);
      removed.push(path);
      touched.add(dirname(this.target(path)));
    }
    for (const folder of touched) await syncFolder(folder);
    return { written, removed };
  }

  private async writeIfChanged(file: FeedFile): Promise<boolean> {
    if (this.written.get(file.path) === file.etag) return false;
    const target = this.target(file.path);
    if (!this.written.has(file.path) && (await sameBytes(target, file.body))) {
      this.written.set(file.path, file.etag);
      return false;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, file.body, { mtime: file.lastModified });
    this.written.set(file.path, file.etag);
    return true;
  }
}
