/**
 * Full disks, read-only folders and failing calls. The real cases run on a small tmpfs mounted
 * by the test (root on Linux, as here and in CI); the same failures are also injected through
 * the fs interface, which needs no privileges.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSettings, JournalEntry } from '../../../src/bridge/journal/format.js';
import { nodeJournalFs, type JournalFs } from '../../../src/bridge/journal/fsio.js';
import { listJournals, readJournalAll } from '../../../src/bridge/journal/read.js';
import { JournalStore, type JournalProblem } from '../../../src/bridge/journal/store.js';

const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'rapid',
  supervision: 'full',
  timeControl: '15+10',
  startFen: 'startpos',
};

/** About 1 KiB per record, so a small disk fills in a few dozen appends. */
const padded = (i: number): JournalEntry => ({
  type: 'command',
  at: i,
  action: 'note',
  params: { i, pad: 'x'.repeat(1000) },
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'chessbridge-disk-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
};

const canMount = (): boolean => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'chessbridge-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
};
const MOUNTABLE = canMount();

/** A fresh tmpfs of `size` bytes, unmounted after the test. */
const mountTmpfs = (size: string): string => {
  const d = tempDir();
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', d]);
  cleanups.push(() => execFileSync('umount', ['-l', d]));
  return d;
};

/** Every line of every file under `dir/wal` and `dir/games` is whole JSON. */
const everyLineWhole = (dir: string): void => {
  for (const sub of ['wal', 'games']) {
    for (const name of readdirSync(join(dir, sub))) {
      const text = readFileSync(join(dir, sub, name), 'utf8');
      if (text === '') continue;
      expect(text.endsWith('\n'), `${sub}/${name}`).toBe(true);
      for (const line of text.slice(0, -1).split('\n'))
        expect(() => JSON.parse(line) as unknown).not.toThrow();
    }
  }
};

describe.skipIf(!MOUNTABLE)(
  'a real full disk (tmpfs; skipped when mounting is impossible: needs root on Linux)',
  () => {
    it('refuses with a typed error naming the file, keeps every acknowledged record, and goes on once space is freed', async () => {
      const mount = mountTmpfs('256k');
      const dir = join(mount, 'journal');
      const problems: JournalProblem[] = [];
      // fullDisk 'refuse': the appends fail at once (the default holds them: fullDisk.test.ts).
      const store = new JournalStore({
        dir,
        checkpointMs: 3_600_000,
        fullDisk: 'refuse',
        onProblem: p => problems.push(p),
      });
      cleanups.push(() => void store.stop());
      (await store.start()).unwrap();
      (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
      // Leave about 40 KiB.
      const { bavail, bsize } = statfsSync(mount);
      writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 40 * 1024)));

      let acked = 0;
      let failure;
      for (let i = 1; i <= 200; i++) {
        const r = await store.append('g', padded(i));
        if (r.isErr) {
          failure = r.error;
          break;
        }
        acked = r.value.seq;
      }
      expect(acked).toBeGreaterThan(5);
      expect(failure?.kind).toBe('no-space');
      expect(failure?.message).toMatch(
        /^journal: disk full \(ENOSPC\) while appending to .*\/journal\/(wal|games)\/.+$/,
      );
      if (failure?.kind === 'no-space') expect(failure.file.startsWith(dir)).toBe(true);
      everyLineWhole(dir);
      const during = (await readJournalAll(join(dir, 'games', 'g.jsonl'))).unwrap();
      expect(during.tornTail).toBeUndefined();
      expect(during.records.map(r => r.seq)).toEqual(Array.from({ length: acked }, (_, i) => i + 1));

      rmSync(join(mount, 'filler'));
      const next = await store.append('g', padded(999));
      expect(next.unwrap().seq).toBe(acked + 1);
      await store.stop();
      everyLineWhole(dir);
      const after = (await readJournalAll(join(dir, 'games', 'g.jsonl'), { includeWal: false })).unwrap();
      expect(after.records.map(r => r.seq)).toEqual(Array.from({ length: acked + 1 }, (_, i) => i + 1));
      expect(after.records.at(-1)).toMatchObject({ type: 'command', params: { i: 999 } });
      expect(problems.every(p => p.kind === 'game-file-behind')).toBe(true);
    });

    it('a read-only folder: start fails naming the file, reading still works', async () => {
      const mount = mountTmpfs('1m');
      const dir = join(mount, 'journal');
      const store = new JournalStore({ dir });
      (await store.start()).unwrap();
      (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
      (await store.append('g', padded(1))).unwrap();
      await store.stop();
      execFileSync('mount', ['-o', 'remount,ro', mount]);
      cleanups.push(() => execFileSync('mount', ['-o', 'remount,rw', mount]));

      const again = new JournalStore({ dir });
      const r = await again.start();
      expect(r.isErr && r.error.kind).toBe('read-only');
      expect(r.isErr && r.error.message).toMatch(
        /^journal: read-only filesystem \(EROFS\) while opening .*\/journal\/games\/g\.jsonl$/,
      );
      // An arbiter can still read it.
      expect((await readJournalAll(join(dir, 'games', 'g.jsonl'))).unwrap().records).toHaveLength(1);
      expect((await listJournals(dir)).unwrap().journals.map(j => j.lastSeq)).toEqual([1]);
    });
  },
);

interface Fault {
  readonly op: 'write' | 'fdatasync' | 'open';
  readonly where: string;
  readonly code: string;
  /** For writes: bytes written before the failure (a short write). */
  readonly partial?: number;
  /** How many times to fail (default forever). */
  times?: number;
}

/** The real filesystem with faults on chosen calls for paths containing `where`. */
const faultyFs = (faults: Fault[]): JournalFs => {
  const real = nodeJournalFs();
  const paths = new Map<number, string>();
  const due = (op: Fault['op'], path: string): Fault | undefined => {
    const f = faults.find(x => x.op === op && path.includes(x.where) && (x.times ?? 1) > 0);
    if (f?.times !== undefined) f.times -= 1;
    return f;
  };
  const fail = (f: Fault): Error => Object.assign(new Error(`${f.code}: injected`), { code: f.code });
  let partialDone = false;
  return {
    ...real,
    open: async (p, flags) => {
      const f = due('open', p);
      if (f !== undefined) throw fail(f);
      const fd = await real.open(p, flags);
      paths.set(fd, p);
      return fd;
    },
    write: async (fd, data) => {
      const f = due('write', paths.get(fd) ?? '');
      if (f === undefined) return real.write(fd, data);
      if (f.partial !== undefined && !partialDone) {
        partialDone = true;
        return real.write(fd, data.subarray(0, f.partial));
      }
      partialDone = false;
      throw fail(f);
    },
    fdatasync: async fd => {
      const f = due('fdatasync', paths.get(fd) ?? '');
      if (f !== undefined) throw fail(f);
      return real.fdatasync(fd);
    },
  };
};

const startWith = async (dir: string, io: JournalFs): Promise<JournalStore> => {
  const s = new JournalStore({ dir, io, fullDisk: 'refuse' });
  cleanups.push(() => void s.stop());
  (await s.start()).unwrap();
  (await s.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
  return s;
};

describe('injected failures', () => {
  it('a short write then ENOSPC in the log: cut back, typed error, the next append continues the seq', async () => {
    const dir = tempDir();
    const fault: Fault = { op: 'write', where: '/wal/', code: 'ENOSPC', partial: 100, times: 0 };
    const s = await startWith(dir, faultyFs([fault]));
    (await s.append('g', padded(1))).unwrap();
    fault.times = 2; // the short write, then the failing one
    const r = await s.append('g', padded(2));
    expect(r.isErr && r.error).toMatchObject({ kind: 'no-space', code: 'ENOSPC', doing: 'appending to' });
    expect(r.isErr && r.error.message).toMatch(
      /disk full \(ENOSPC\) while appending to .*\/wal\/000000000001\.wal$/,
    );
    everyLineWhole(dir);
    expect((await s.append('g', padded(3))).unwrap().seq).toBe(2);
    await s.stop();
    const read = (await readJournalAll(join(dir, 'games', 'g.jsonl'))).unwrap();
    expect(read.records.map(r => [r.seq, r.type === 'command' && (r.params as { i: number }).i])).toEqual([
      [1, 1],
      [2, 3],
    ]);
  });

  it('a failed sync of the log stops the journal: nothing more is acknowledged', async () => {
    const dir = tempDir();
    const s = await startWith(dir, faultyFs([{ op: 'fdatasync', where: '/wal/', code: 'EIO', times: 1 }]));
    const r = await s.append('g', padded(1));
    expect(r.isErr && r.error).toMatchObject({ kind: 'io', code: 'EIO', doing: 'syncing' });
    const later = await s.append('g', padded(2));
    expect(later.isErr && later.error.kind).toBe('io');
    expect((await s.createGame({ game: 'h', board: 'b', settings: SETTINGS })).isErr).toBe(true);
  });

  it('a full disk while creating a game leaves no headerless file behind', async () => {
    const dir = tempDir();
    const fault: Fault = { op: 'write', where: '/games/h', code: 'ENOSPC', times: 1 };
    const s = await startWith(dir, faultyFs([fault]));
    const r = await s.createGame({ game: 'h', board: 'b', settings: SETTINGS });
    expect(r.isErr && r.error.message).toMatch(/disk full \(ENOSPC\) while creating .*\/games\/h\.jsonl$/);
    expect(readdirSync(join(dir, 'games')).sort()).toEqual(['g.jsonl']);
    expect((await s.createGame({ game: 'h', board: 'b', settings: SETTINGS })).isOk).toBe(true);
  });

  it('a folder the daemon may not write: start names it', async () => {
    const dir = tempDir();
    const s = new JournalStore({ dir, io: faultyFs([{ op: 'open', where: '/wal/', code: 'EACCES' }]) });
    const r = await s.start();
    expect(r.isErr && r.error).toMatchObject({ kind: 'permission', code: 'EACCES' });
    expect(r.isErr && r.error.message).toMatch(
      /permission denied \(EACCES\) while creating .*\/wal\/000000000001\.wal$/,
    );
  });

  it('a read-only filesystem appearing under a running store is reported as such', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'games'), { recursive: true });
    const s = await startWith(dir, faultyFs([{ op: 'write', where: '/wal/', code: 'EROFS' }]));
    const r = await s.append('g', padded(1));
    expect(r.isErr && r.error).toMatchObject({ kind: 'read-only', code: 'EROFS' });
    expect(r.isErr && r.error.message).toMatch(
      /^journal: read-only filesystem \(EROFS\) while appending to /,
    );
  });
});
