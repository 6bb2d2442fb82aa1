/** The store on a real disk: durability before resolve, group commit, seq, finish, checkpoints, restart. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/bridge/config/load.js';
import type { Observation } from '../../../src/drivers/observation.js';
import type { GameSettings, JournalEntry } from '../../../src/bridge/journal/format.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';
import { nodeJournalFs, type JournalFs } from '../../../src/bridge/journal/fsio.js';
import { listJournals, readJournalAll } from '../../../src/bridge/journal/read.js';
import {
  JournalStore,
  type JournalProblem,
  type JournalStoreOptions,
} from '../../../src/bridge/journal/store.js';

const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '90m/40 + 30m, +30s',
  startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
};

const square = (board: string, at: number, sq: number): JournalEntry => {
  const observation: Observation = { type: 'square', at, square: sq, content: { kind: 'empty' } };
  return { type: 'observation', board, observation };
};

interface Call {
  readonly op: string;
  readonly path: string;
}

/** The real filesystem, with every write and sync recorded by file. */
const countingFs = (): { io: JournalFs; calls: Call[] } => {
  const real = nodeJournalFs();
  const paths = new Map<number, string>();
  const calls: Call[] = [];
  const pathOf = (fd: number): string => paths.get(fd) ?? '?';
  const io: JournalFs = {
    ...real,
    open: async (p, flags) => {
      const fd = await real.open(p, flags);
      paths.set(fd, p);
      return fd;
    },
    write: (fd, data) => {
      calls.push({ op: 'write', path: pathOf(fd) });
      return real.write(fd, data);
    },
    fdatasync: fd => {
      calls.push({ op: 'fdatasync', path: pathOf(fd) });
      return real.fdatasync(fd);
    },
  };
  return { io, calls };
};

const dirs: string[] = [];
const stores: JournalStore[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'chessbridge-journal-'));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  for (const s of stores.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const started = async (options: JournalStoreOptions): Promise<JournalStore> => {
  const s = new JournalStore(options);
  stores.push(s);
  const r = await s.start();
  if (r.isErr) throw r.error;
  return s;
};

const create = async (s: JournalStore, game: string, board = `board-${game}`): Promise<void> => {
  const r = await s.createGame({ game, board, settings: SETTINGS });
  if (r.isErr) throw r.error;
};

const isWal = (c: Call): boolean => c.path.includes('/wal/');
const isGame = (c: Call): boolean => c.path.includes('/games/');

describe('durability', () => {
  it('resolves only after the record is written to the log and synced', async () => {
    const dir = tempDir();
    const { io, calls } = countingFs();
    const s = await started({ dir, io });
    await create(s, 'g1');
    calls.length = 0;
    const r = await s.append('g1', square('b1', 5, 12));
    const atResolve = [...calls];
    expect(r.isOk).toBe(true);
    expect(atResolve.filter(isWal).map(c => c.op)).toEqual(['write', 'fdatasync']);
    const wal = readdirSync(join(dir, 'wal'));
    expect(wal).toHaveLength(1);
    const text = readFileSync(join(dir, 'wal', wal[0] ?? ''), 'utf8');
    expect(text).toBe(
      '{"game":"g1","record":{"seq":1,"wall":' +
        String(r.unwrap().wall) +
        ',"type":"observation","board":"b1","observation":{"type":"square","at":5,"square":12,"content":{"kind":"empty"}}}}\n',
    );
  });

  it('creates a game with its header written and synced', async () => {
    const dir = tempDir();
    const { io, calls } = countingFs();
    const s = await started({ dir, io, now: () => Date.UTC(2025, 2, 1, 10) });
    await create(s, 'g1', 'b1');
    expect(calls.filter(isGame).map(c => c.op)).toEqual(['write', 'fdatasync']);
    const line: unknown = JSON.parse(readFileSync(join(dir, 'games', 'g1.jsonl'), 'utf8'));
    expect(checkWire('journal_header', line)).toEqual([]);
    expect(line).toEqual({
      type: 'header',
      format: 2,
      seq: 0,
      game: 'g1',
      board: 'b1',
      created_at: '2025-03-01T10:00:00.000Z',
      settings: {
        edition: SETTINGS.edition,
        game_type: SETTINGS.gameType,
        supervision: SETTINGS.supervision,
        time_control: SETTINGS.timeControl,
        start_fen: SETTINGS.startFen,
      },
    });
  });
});

describe('group commit', () => {
  it('writes and syncs 500 boards arriving together with one write and one sync', async () => {
    const dir = tempDir();
    const { io, calls } = countingFs();
    const s = await started({ dir, io });
    await Promise.all(Array.from({ length: 500 }, (_, i) => create(s, `g${i}`)));
    calls.length = 0;
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) => s.append(`g${i}`, square(`b${i}`, 1, i % 64))),
    );
    expect(results.every(r => r.isOk)).toBe(true);
    expect(calls.filter(isWal).map(c => c.op)).toEqual(['write', 'fdatasync']);
    // Each game file gets one plain write; its sync waits for a checkpoint.
    expect(calls.filter(c => isGame(c) && c.op === 'write')).toHaveLength(500);
    expect(calls.filter(c => isGame(c) && c.op === 'fdatasync')).toHaveLength(0);
    expect(s.stats()).toMatchObject({
      records: 500,
      batches: 1,
      walWrites: 1,
      walSyncs: 1,
      largestBatch: 500,
    });
  });

  it('gathers records arriving during a write into the next batch', async () => {
    const dir = tempDir();
    const s = await started({ dir });
    await create(s, 'g');
    const all: Promise<unknown>[] = [];
    for (let tick = 0; tick < 50; tick++) {
      for (let k = 0; k < 20; k++) all.push(s.append('g', square('b', tick, k)));
      await nextTurn();
    }
    await Promise.all(all);
    const { batches, records, walSyncs } = s.stats();
    expect(records).toBe(1000);
    expect(walSyncs).toBe(batches);
    expect(batches).toBeLessThan(records / 10);
  });

  it('keeps batches within maxBatch', async () => {
    const s = await started({ dir: tempDir(), maxBatch: 64 });
    await create(s, 'g');
    await Promise.all(Array.from({ length: 200 }, (_, i) => s.append('g', square('b', i, 0))));
    expect(s.stats().largestBatch).toBe(64);
    expect(s.stats().batches).toBe(4);
  });
});

describe('sequence numbers', () => {
  it('are 1, 2, 3, … per game, in append order, and continue after a restart', async () => {
    const dir = tempDir();
    const s = await started({ dir });
    await create(s, 'a');
    await create(s, 'b');
    const first = await Promise.all([
      s.append('a', square('x', 1, 1)),
      s.append('b', square('y', 1, 1)),
      s.append('a', square('x', 2, 2)),
      s.append('a', square('x', 3, 3)),
    ]);
    expect(first.map(r => r.unwrap().seq)).toEqual([1, 1, 2, 3]);
    await s.stop();
    const again = await started({ dir });
    expect(
      again
        .openGames()
        .map(g => [g.header.game, g.lastSeq])
        .sort(),
    ).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
    expect((await again.append('a', square('x', 4, 4))).unwrap().seq).toBe(4);
    await again.stop();
    const read = await readJournalAll(join(dir, 'games', 'a.jsonl'));
    expect(read.unwrap().records.map(r => r.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe('games', () => {
  it('finishes a game: a final record, no more appends, the file kept', async () => {
    const dir = tempDir();
    const s = await started({ dir });
    await create(s, 'g');
    await s.append('g', square('b', 1, 1));
    const fin = await s.finish('g', 99, '1-0', 'resignation');
    expect(fin.unwrap()).toMatchObject({
      seq: 2,
      type: 'finish',
      result: '1-0',
      reason: 'resignation',
      at: 99,
    });
    const late = await s.append('g', square('b', 100, 1));
    expect(late.isErr && late.error.kind).toBe('game-finished');
    expect(s.openGames()).toEqual([]);
    await s.stop();
    const list = (await listJournals(dir)).unwrap();
    expect(list.journals.map(j => [j.header.game, j.lastSeq, j.finished])).toEqual([['g', 2, true]]);
    const again = await started({ dir });
    expect(again.openGames()).toEqual([]);
    const dup = await again.createGame({ game: 'g', board: 'b', settings: SETTINGS });
    expect(dup.isErr && dup.error.kind).toBe('game-exists');
  });

  it('refuses bad ids, duplicates and unknown games', async () => {
    const s = await started({ dir: tempDir() });
    const bad = await s.createGame({ game: '../etc/passwd', board: 'b', settings: SETTINGS });
    expect(bad.isErr && bad.error.kind).toBe('bad-id');
    await create(s, 'g');
    const dup = await s.createGame({ game: 'g', board: 'b', settings: SETTINGS });
    expect(dup.isErr && dup.error.message).toMatch(/game "g" already has a journal: .*g\.jsonl$/);
    const unknown = await s.append('nope', square('b', 1, 1));
    expect(unknown.isErr && unknown.error.kind).toBe('unknown-game');
  });

  it('throws TypeError for an entry JSON cannot hold (a programmer error)', async () => {
    const s = await started({ dir: tempDir() });
    await create(s, 'g');
    expect(() => s.append('g', { type: 'command', at: 1, action: 'x', params: { n: 1n } as never })).toThrow(
      TypeError,
    );
    expect((await s.append('g', square('b', 1, 1))).unwrap().seq).toBe(1);
  });
});

describe('lifecycle', () => {
  it('refuses work before start and after stop; start and stop are idempotent', async () => {
    const dir = tempDir();
    const s = new JournalStore({ dir });
    stores.push(s);
    expect((await s.append('g', square('b', 1, 1))).isErr).toBe(true);
    const [a, b] = await Promise.all([s.start(), s.start()]);
    expect(a).toBe(b);
    await create(s, 'g');
    const pending = s.append('g', square('b', 1, 1));
    await Promise.all([s.stop(), s.stop()]);
    expect((await pending).isOk).toBe(true); // queued before stop: drained, not dropped
    const after = await s.append('g', square('b', 2, 1));
    expect(after.isErr && after.error.kind).toBe('closed');
    expect(readdirSync(join(dir, 'wal'))).toEqual([]);
  });

  it('a store never started stops at once', async () => {
    const s = new JournalStore({ dir: join(tempDir(), 'never') });
    await s.stop();
    expect((await s.createGame({ game: 'g', board: 'b', settings: SETTINGS })).isErr).toBe(true);
  });
});

describe('checkpoints', () => {
  it('rotate the log, sync the game files, then delete the old segment', async () => {
    const dir = tempDir();
    let clock = 1_000_000;
    const { io, calls } = countingFs();
    const s = await started({ dir, io, now: () => clock, checkpointMs: 5_000 });
    await create(s, 'g1');
    await create(s, 'g2');
    await s.append('g1', square('b', 1, 1));
    await s.whenIdle();
    expect(readdirSync(join(dir, 'wal'))).toEqual(['000000000001.wal']);
    calls.length = 0;
    clock += 6_000;
    await Promise.all([s.append('g1', square('b', 2, 2)), s.append('g2', square('c', 2, 2))]);
    await s.whenIdle();
    expect(s.stats().checkpoints).toBe(1);
    expect(readdirSync(join(dir, 'wal'))).toEqual(['000000000002.wal']);
    const syncs = calls.filter(c => c.op === 'fdatasync' && isGame(c)).map(c => c.path.slice(-8));
    expect(syncs.sort()).toEqual(['g1.jsonl', 'g2.jsonl']);
  });

  it('rotate when the segment outgrows walMaxBytes, and close finished games', async () => {
    const dir = tempDir();
    const s = await started({ dir, walMaxBytes: 2_000 });
    await create(s, 'g');
    await create(s, 'h');
    // Each append waits for the checkpoint it may start: while one runs (a slow disk), a log that
    // outgrows its size again waits for the next append, so without this the count depends on
    // the disk's speed.
    for (let i = 0; i < 30; i++) {
      await s.append('g', square('b', i, i % 64));
      await s.whenIdle();
    }
    await s.finish('h', 1, '0-1', 'flag');
    await s.append('g', square('b', 99, 1));
    await s.whenIdle();
    expect(s.stats().checkpoints).toBeGreaterThanOrEqual(2);
    expect(readdirSync(join(dir, 'wal'))).toHaveLength(1);
    expect(s.openGames().map(g => g.header.game)).toEqual(['g']);
  });
});

describe('recovery', () => {
  it('copies records that reached only the log into the game file on the next start', async () => {
    const dir = tempDir();
    const real = nodeJournalFs();
    const paths = new Map<number, string>();
    let failGameWrites = false;
    const flaky: JournalFs = {
      ...real,
      open: async (p, f) => {
        const fd = await real.open(p, f);
        paths.set(fd, p);
        return fd;
      },
      write: (fd, data) =>
        failGameWrites && (paths.get(fd) ?? '').includes('/games/')
          ? Promise.reject(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }))
          : real.write(fd, data),
    };
    const problems: JournalProblem[] = [];
    const s = new JournalStore({ dir, io: flaky, onProblem: p => problems.push(p) });
    (await s.start()).unwrap();
    await create(s, 'g');
    await s.append('g', square('b', 1, 1));
    failGameWrites = true;
    for (let i = 2; i <= 5; i++) expect((await s.append('g', square('b', i, i))).isOk).toBe(true);
    expect(problems.map(p => p.kind)).toEqual(['game-file-behind']);
    // The daemon dies here (no stop): the game file has 1 record, the log all 5.
    const gamePath = join(dir, 'games', 'g.jsonl');
    expect(readFileSync(gamePath, 'utf8').trim().split('\n')).toHaveLength(2);
    const merged = (await readJournalAll(gamePath)).unwrap();
    expect(merged.records.map(r => r.seq)).toEqual([1, 2, 3, 4, 5]);
    const fileOnly = (await readJournalAll(gamePath, { includeWal: false })).unwrap();
    expect(fileOnly.records.map(r => r.seq)).toEqual([1]);

    const again = new JournalStore({ dir });
    stores.push(again);
    const report = (await again.start()).unwrap();
    expect(report.walRecordsApplied).toBe(4);
    expect(report.games.map(g => [g.header.game, g.lastSeq])).toEqual([['g', 5]]);
    expect(readFileSync(gamePath, 'utf8').trim().split('\n')).toHaveLength(6);
    expect(readdirSync(join(dir, 'wal'))).toEqual(['000000000002.wal']);
  });
});

describe('with the venue configuration', () => {
  it('takes the laws and a pairing of a loaded config as the game settings', async () => {
    const config = (
      await loadConfig({ path: fileURLToPath(new URL('../../../config/single-board.yaml', import.meta.url)) })
    ).unwrap();
    const board = config.boards[0];
    const pairing = config.pairings.find(p => p.serial === board?.serial);
    expect(board).toBeDefined();
    expect(pairing).toBeDefined();
    const dir = tempDir();
    const s = await started({ dir, checkpointMs: config.journal.checkpointSeconds * 1000 });
    const { edition, gameType, supervision, timeControl } = config.laws;
    const settings: GameSettings = {
      edition,
      gameType,
      supervision,
      timeControl,
      startFen: SETTINGS.startFen,
      pairing,
    };
    const header = (
      await s.createGame({
        game: `r${pairing?.round ?? 0}-${board?.id ?? ''}`,
        board: board?.id ?? '',
        settings,
      })
    ).unwrap();
    await s.stop();
    const read = (await readJournalAll(join(dir, 'games', `${header.game}.jsonl`))).unwrap();
    // The header keeps the pairing's players and numbers; the board's serial is the config's.
    const { serial: _serial, ...played } = pairing as NonNullable<typeof pairing> & { serial?: string };
    expect(read.header).toEqual({ ...header, settings: { ...header.settings, pairing: played } });
    expect(read.header.settings.pairing?.white.name).toBe('Smith, Anna');
  });
});
