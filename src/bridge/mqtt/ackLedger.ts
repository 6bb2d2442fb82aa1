/**
 * The acknowledged-seq ledger: a small JSON state file holding, per game, the highest event seq
 * such that every event of that game up to it was acknowledged (PUBACK) by the broker. After a
 * daemon restart the caller re-publishes from its journal every event above that seq
 * (`EventPublisher.publishFrom`). The file is written after the acknowledgement, atomically
 * (temporary file, fsync, rename), so it may lag behind (a few duplicates, which consumers drop by
 * seq) but is never ahead (no loss).
 *
 *   const ledger = new AckLedger({ path: '/var/lib/chessbridge/mqtt-acked.json', log });
 *   const loaded = await ledger.load();            // Result: corrupt file → err, ledger starts empty
 *   ledger.record('r1-b3', 42); await ledger.stop();
 */
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';
import { MQTT_NAMESPACE, type LogFn } from './log.js';

export interface AckLedgerContext {
  /** Path of the state file (its folder is created when missing). */
  readonly path: string;
  readonly log: LogFn;
  /** Milliseconds to gather acknowledgements before one write (default 200). */
  readonly flushDelayMs?: number;
}

export type LedgerError =
  | ({ readonly kind: 'unreadable'; readonly path: string } & Error)
  | ({ readonly kind: 'corrupt'; readonly path: string } & Error);

const VERSION = 1;

/** Parses the ledger file's text into game → seq (exported for tests). */
export const parseLedger = (text: string): Map<string, number> | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { version, games } = parsed as { version?: unknown; games?: unknown };
  if (version !== VERSION || typeof games !== 'object' || games === null) return undefined;
  const out = new Map<string, number>();
  for (const [game, seq] of Object.entries(games)) {
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return undefined;
    out.set(game, seq);
  }
  return out;
};

/** The ledger's file text for a map of game → seq. */
export const makeLedger = (games: ReadonlyMap<string, number>): string =>
  `${JSON.stringify({ version: VERSION, games: Object.fromEntries([...games].sort(([a], [b]) => a.localeCompare(b))) })}\n`;

/** File-backed record of the last acknowledged seq per game (see the module comment). */
export class AckLedger {
  private readonly games = new Map<string, number>();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: AckLedgerContext) {}

  /**
   * Reads the file. A missing file is an empty ledger. An unreadable or corrupt one is reported as
   * an error value and the ledger stays empty: every journaled event is then published again
   * (duplicates, never a loss).
   */
  async load(): Promise<Result<ReadonlyMap<string, number>, LedgerError>> {
    const path = this.ctx.path;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Result.ok(new Map(this.games));
      return Result.err(
        dataError({ kind: 'unreadable' as const, path }, `cannot read ${path}: ${String(error)}`),
      );
    }
    const games = parseLedger(text);
    if (!games)
      return Result.err(dataError({ kind: 'corrupt' as const, path }, `${path} is not a valid ack ledger`));
    games.forEach((seq, game) => this.games.set(game, Math.max(seq, this.games.get(game) ?? 0)));
    return Result.ok(new Map(this.games));
  }

  /** Highest acknowledged seq of a game (every event up to it was acknowledged), or undefined. */
  acked(game: string): number | undefined {
    return this.games.get(game);
  }

  /** Raises a game's acknowledged seq (never lowers it) and schedules a write. */
  record(game: string, seq: number): void {
    if (seq <= (this.games.get(game) ?? -1)) return;
    this.games.set(game, seq);
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.ctx.flushDelayMs ?? 200);
  }

  /** Forgets a finished game (its journal is closed; nothing more will be re-published). */
  forget(game: string): void {
    if (this.games.delete(game)) {
      this.dirty = true;
      void this.flush();
    }
  }

  /** Writes pending changes now (atomic replace). Failures are logged; the next flush retries. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const text = makeLedger(this.games);
      try {
        await this.writeAtomically(text);
      } catch (error) {
        this.dirty = true;
        this.ctx.log(
          'error',
          () => `cannot write ${this.ctx.path}: ${String(error)}`,
          `${MQTT_NAMESPACE}:ledger`,
        );
      }
    });
    return this.writing;
  }

  /** Flushes; call after the publisher has stopped. */
  stop(): Promise<void> {
    return this.flush();
  }

  private async writeAtomically(text: string): Promise<void> {
    const path = this.ctx.path;
    const tmp = `${path}.tmp`;
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  }
}
