/**
 * The journal store: the daemon's black-box recorder. One file per game (header, then every
 * observation and operator command with a seq), plus a shared write-ahead log that makes each
 * record durable before its promise resolves, with group commit: records appended while a
 * batch is being written go out together in the next one, with one write and one fdatasync for
 * all boards. Game files are written right after, and synced by periodic checkpoints, which
 * then delete the log. When the log's disk is full, records wait in memory, in order and not
 * acknowledged, and are written once there is space again (`fullDisk`). docs/journal.md has the
 * format and the guarantees.
 *
 *   const journal = new JournalStore({ dir: config.journal.dir, onProblem: p => log.warn(p) });
 *   const started = await journal.start();          // recovers, lists unfinished games
 *   await journal.createGame({ game: 'r1-b3', board: 'b3', settings });
 *   const r = await journal.append('r1-b3', { type: 'observation', board: 'b3', observation });
 *   if (r.isOk) publish(event);                      // durable now: safe to publish
 *   await journal.stop();                            // drains, syncs, empties the log
 */
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Result } from '@badrap/result';
import { ioError, journalError, type JournalError } from './errors.js';
import {
  bodyOf,
  GAMES_DIR,
  isGameId,
  JOURNAL_FORMAT,
  WAL_DIR,
  type JournalEntry,
  type JournalHeader,
  type JournalRecord,
} from './format.js';
import { batchLines, type GameState, type Pending } from './batch.js';
import { dropSegments, syncGameFiles } from './checkpoint.js';
import { nodeJournalFs, type JournalFs } from './fsio.js';
import { GameFile, gameFilePath } from './gameFile.js';
import { recoverJournal, type JournalProblem } from './recover.js';
import { SpaceHold } from './spaceHold.js';
import type { JournalStats, JournalStoreOptions, NewGame, OpenGame, StartReport } from './storeTypes.js';
import { WalSegment } from './wal.js';

export type { JournalProblem } from './recover.js';
export type { JournalStats, JournalStoreOptions, NewGame, OpenGame, StartReport } from './storeTypes.js';

type Phase = 'idle' | 'running' | 'stopping' | 'stopped';

const closed = (): JournalError => journalError({ kind: 'closed' });

export class JournalStore {
  private phase: Phase = 'idle';
  private starting: Promise<Result<StartReport, JournalError>> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly games = new Map<string, GameState>();
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private checkpointing: Promise<void> | undefined;
  private wal: WalSegment | undefined;
  private retired: WalSegment[] = [];
  private dirty = new Set<GameState>();
  private lastCheckpoint = 0;
  /** A log failure that left the segment's end unknown: nothing more is accepted. */
  private failure: JournalError | undefined;
  /** The disk is full and records are held for a retry (fullDisk: 'hold'). */
  private readonly hold: SpaceHold;
  /** Bytes of the records queued and not yet written. */
  private pendingBytes = 0;
  private counters = {
    records: 0,
    batches: 0,
    largestBatch: 0,
    walWrites: 0,
    walSyncs: 0,
    walBytes: 0,
    checkpoints: 0,
  };

  private readonly options: JournalStoreOptions;
  private readonly io: JournalFs;

  constructor(options: JournalStoreOptions) {
    this.options = options;
    this.io = options.io ?? nodeJournalFs();
    this.hold = new SpaceHold(options.spaceRetryMs ?? 1000, p => this.report(p));
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private report(problem: JournalProblem): void {
    this.options.onProblem?.(problem);
  }

  /** Recovers the folder and opens a new log segment. Idempotent; a failed start may be retried. */
  start(): Promise<Result<StartReport, JournalError>> {
    this.starting ??= this.doStart().then(r => {
      if (r.isErr) this.starting = undefined;
      return r;
    });
    return this.starting;
  }

  private async doStart(): Promise<Result<StartReport, JournalError>> {
    const recovered = await recoverJournal(this.io, this.options.dir, p => this.report(p));
    if (recovered.isErr) return Result.err(recovered.error);
    const { open, nextSegment } = recovered.value;
    const seg = await WalSegment.create(this.io, join(this.options.dir, WAL_DIR), nextSegment);
    if (seg.isErr) {
      for (const g of open.values()) await g.file.close();
      return Result.err(seg.error);
    }
    this.wal = seg.value;
    for (const [id, g] of open) {
      this.games.set(id, {
        header: g.header,
        file: g.file,
        lastSeq: g.lastSeq,
        finishQueued: false,
        finished: false,
        unwritten: [],
        behind: false,
      });
    }
    this.lastCheckpoint = this.now();
    this.phase = 'running';
    const { finished, walRecordsApplied, cutTails } = recovered.value;
    return Result.ok({ games: this.openGames(), finished, walRecordsApplied, cutTails });
  }

  private isRunning(): boolean {
    return this.phase === 'running';
  }

  /** The unfinished games, with their last seq. */
  openGames(): OpenGame[] {
    return [...this.games.values()]
      .filter(g => !g.finished)
      .map(g => ({ header: g.header, path: g.file.path, lastSeq: g.lastSeq }));
  }

  stats(): JournalStats {
    return { ...this.counters };
  }

  /** Starts the journal of a new game: the header is written and synced when this resolves. */
  async createGame(input: NewGame): Promise<Result<JournalHeader, JournalError>> {
    if (this.phase !== 'running') return Result.err(closed());
    if (this.failure !== undefined) return Result.err(this.failure);
    if (!isGameId(input.game)) return Result.err(journalError({ kind: 'bad-id', game: input.game }));
    const gamesDir = join(this.options.dir, GAMES_DIR);
    if (this.games.has(input.game))
      return Result.err(
        journalError({ kind: 'game-exists', game: input.game, file: gameFilePath(gamesDir, input.game) }),
      );
    const header: JournalHeader = {
      type: 'header',
      format: JOURNAL_FORMAT,
      seq: 0,
      game: input.game,
      board: input.board,
      createdAt: new Date(this.now()).toISOString(),
      settings: input.settings,
    };
    const file = await GameFile.create(this.io, gamesDir, header);
    if (file.isErr) return Result.err(file.error);
    if (!this.isRunning()) {
      // Stopped while the file was being made.
      await file.value.close();
      return Result.err(closed());
    }
    this.games.set(input.game, {
      header,
      file: file.value,
      lastSeq: 0,
      finishQueued: false,
      finished: false,
      unwritten: [],
      behind: false,
    });
    return Result.ok(header);
  }

  /**
   * Appends a record to a game. Resolves once it is written and synced (then publish), or with
   * a typed error (nothing of it is on disk). Throws TypeError for an entry JSON cannot hold.
   */
  append(game: string, entry: JournalEntry): Promise<Result<JournalRecord, JournalError>> {
    if (this.phase !== 'running') return Promise.resolve(Result.err(closed()));
    if (this.failure !== undefined) return Promise.resolve(Result.err(this.failure));
    const g = this.games.get(game);
    if (g === undefined) return Promise.resolve(Result.err(journalError({ kind: 'unknown-game', game })));
    if (g.finishQueued)
      return Promise.resolve(Result.err(journalError({ kind: 'game-finished', game, file: g.file.path })));
    const body = bodyOf(entry);
    const heldError = this.hold.error;
    if (heldError !== undefined && this.pendingBytes + body.length > (this.options.maxHeldBytes ?? 64 << 20))
      return Promise.resolve(Result.err(heldError));
    if (entry.type === 'finish') g.finishQueued = true;
    this.pendingBytes += body.length;
    return new Promise(resolve => {
      this.pending.push({ game: g, entry, body, resolve });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Resolves when no batch is being written and no checkpoint runs (tests, orderly shutdown). */
  async whenIdle(): Promise<void> {
    while (this.flushing !== undefined || this.checkpointing !== undefined) {
      await this.flushing;
      await this.checkpointing;
    }
  }

  /** Ends a game with its final record; the file is kept (and synced and closed at the next checkpoint). */
  finish(
    game: string,
    at: number,
    result: string,
    reason: string,
  ): Promise<Result<JournalRecord, JournalError>> {
    return this.append(game, { type: 'finish', at, result, reason });
  }

  private async flushLoop(): Promise<void> {
    // Let everything arriving in this turn of the event loop join the first batch.
    await nextTurn();
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.maxBatch ?? 10_000);
      try {
        if ((await this.flush(batch)) === 'held') {
          // Nothing of it was written: first in the queue again, in order, after a pause.
          this.pending.unshift(...batch);
          await this.waitForSpace();
          continue;
        }
        await this.maybeCheckpoint();
      } catch (e) {
        // A bug, not the disk (those come back as values): fail the batch rather than hang it.
        const error = ioError(this.wal?.path ?? this.options.dir, 'writing', e);
        for (const p of batch) this.settle(p, Result.err(error));
      }
    }
    this.flushing = undefined;
  }

  private settle(p: Pending, r: Result<JournalRecord, JournalError>): void {
    this.pendingBytes -= p.body.length;
    p.resolve(r);
  }

  /** A clean no-space failure of the log while running: hold the records rather than fail them. */
  private holdFor(error: JournalError, batch: number): boolean {
    if ((this.options.fullDisk ?? 'hold') !== 'hold' || error.kind !== 'no-space' || !this.isRunning())
      return false;
    this.hold.note(error, this.now(), batch + this.pending.length);
    return true;
  }

  /** The pause before a retry; `stop` ends it at once. */
  private async waitForSpace(): Promise<void> {
    if (!this.isRunning()) return; // stopping: the last try comes at once
    await this.hold.pause();
  }

  /** Writes a batch and settles its appends; 'held' when the disk is full and the batch is kept for a retry. */
  private async flush(batch: readonly Pending[]): Promise<'done' | 'held'> {
    const wal = this.wal;
    const failure = this.failure ?? (wal === undefined ? closed() : undefined);
    if (failure !== undefined || wal === undefined) {
      for (const p of batch) this.settle(p, Result.err(failure ?? closed()));
      return 'done';
    }
    const wall = this.now();
    const { next, lines, seqs, walText } = batchLines(batch, wall);
    const data = Buffer.from(walText, 'utf8');
    const written = await wal.append(data);
    this.counters.walWrites += 1;
    if (written.isErr) {
      if (written.error.clean && this.holdFor(written.error, batch.length)) return 'held';
      if (!written.error.clean) this.failure = written.error;
      for (const p of batch) {
        if (p.entry.type === 'finish') p.game.finishQueued = false;
        this.settle(p, Result.err(written.error));
      }
      return 'done';
    }
    this.hold.end(this.now(), batch.length);
    this.counters.walSyncs += 1;
    this.counters.walBytes += data.length;
    this.counters.batches += 1;
    this.counters.records += batch.length;
    this.counters.largestBatch = Math.max(this.counters.largestBatch, batch.length);
    for (const [g, seq] of next) g.lastSeq = seq;
    batch.forEach((p, i) => {
      p.game.unwritten.push(lines[i] ?? '');
      if (p.entry.type === 'finish') p.game.finished = true;
      this.settle(p, Result.ok({ ...p.entry, seq: seqs[i] ?? 0, wall }));
    });
    await Promise.all(
      [...this.games.values()].filter(g => g.unwritten.length > 0).map(g => this.writeGame(g)),
    );
    return 'done';
  }

  /** Copies a game's durable lines into its file; on failure they stay queued and are retried. */
  private async writeGame(g: GameState): Promise<void> {
    const data = Buffer.from(g.unwritten.join(''), 'utf8');
    const r = await g.file.append(data);
    if (r.isOk) {
      g.unwritten = [];
      g.behind = false;
      this.dirty.add(g);
    } else if (!g.behind) {
      g.behind = true;
      this.report({ kind: 'game-file-behind', game: g.header.game, error: r.error });
    }
  }

  private async maybeCheckpoint(): Promise<void> {
    const wal = this.wal;
    if (this.checkpointing !== undefined || wal === undefined || this.failure !== undefined) return;
    const overdue = this.now() - this.lastCheckpoint >= (this.options.checkpointMs ?? 10_000);
    if (!(wal.size >= (this.options.walMaxBytes ?? 16 * 1024 * 1024) || (wal.size > 0 && overdue))) return;
    if ([...this.games.values()].some(g => g.unwritten.length > 0)) return;
    this.lastCheckpoint = this.now();
    const next = await WalSegment.create(this.io, join(this.options.dir, WAL_DIR), wal.number + 1);
    if (next.isErr) {
      this.report({ kind: 'checkpoint-failed', error: next.error });
      return;
    }
    this.retired.push(wal);
    this.wal = next.value;
    const dirty = this.dirty;
    this.dirty = new Set();
    this.checkpointing = this.syncAndRetire(dirty).finally(() => {
      this.checkpointing = undefined;
    });
  }

  /** Syncs the game files written since the last rotation, then deletes the retired log segments. */
  private async syncAndRetire(dirty: ReadonlySet<GameState>): Promise<void> {
    const failed = await syncGameFiles([...dirty]);
    for (const f of failed) this.dirty.add(f.item);
    const firstFailure = failed[0];
    if (firstFailure !== undefined) {
      this.report({ kind: 'checkpoint-failed', error: firstFailure.error });
      return;
    }
    const dropped = await dropSegments(this.io, join(this.options.dir, WAL_DIR), this.retired);
    if (dropped.isErr) {
      this.report({ kind: 'checkpoint-failed', error: dropped.error });
      return;
    }
    for (const [id, g] of this.games) {
      if (g.finished && g.unwritten.length === 0 && !this.dirty.has(g)) {
        this.games.delete(id);
        await g.file.close();
      }
    }
    this.counters.checkpoints += 1;
  }

  /** Drains queued records, syncs every game file and empties the log. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    if (this.starting !== undefined) await this.starting;
    if (this.phase !== 'running') {
      this.phase = 'stopped';
      return;
    }
    this.phase = 'stopping';
    // Records held for a full disk get one last try now; what still cannot be written fails.
    this.hold.wakeNow();
    await this.whenIdle();
    for (const g of this.games.values()) if (g.unwritten.length > 0) await this.writeGame(g);
    const games = [...this.games.values()];
    const failed = await syncGameFiles(games);
    for (const f of failed) this.report({ kind: 'checkpoint-failed', error: f.error });
    const wal = this.wal;
    if (wal !== undefined) this.retired.push(wal);
    this.wal = undefined;
    if (this.failure === undefined && failed.length === 0 && games.every(g => g.unwritten.length === 0)) {
      // Everything is in the synced game files: the log is not needed by the next start.
      const dropped = await dropSegments(this.io, join(this.options.dir, WAL_DIR), this.retired);
      if (dropped.isErr) this.report({ kind: 'checkpoint-failed', error: dropped.error });
    }
    for (const seg of this.retired) await seg.close();
    this.retired = [];
    for (const g of this.games.values()) await g.file.close();
    this.games.clear();
    this.phase = 'stopped';
  }
}
