/**
 * A full disk under the journal, as the daemon meets it (fullDisk: 'hold', the default): the
 * records that cannot be written wait in memory, in order and unacknowledged (so nothing is
 * decided or published from them yet), the problem is reported naming the file and ENOSPC, and
 * once space is back they are written with consecutive seqs and acknowledged. A real tmpfs
 * (root on Linux) and injected failures (everywhere).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '@badrap/result';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalError } from '../../../src/bridge/journal/errors.js';
import type { GameSettings, JournalEntry, JournalRecord } from '../../../src/bridge/journal/format.js';
import { nodeJournalFs, type JournalFs } from '../../../src/bridge/journal/fsio.js';
import { readJournalAll } from '../../../src/bridge/journal/read.js';
import { JournalStore, type JournalProblem } from '../../../src/bridge/journal/store.js';
import { waitFor } from '../../support/mosquitto.js';

const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'rapid',
  supervision: 'full',
  timeControl: '15+10',
  startFen: 'startpos',
};

const padded = (i: number, size = 1000): JournalEntry => ({
  type: 'command',
  at: i,
  action: 'note',
  params: { i, pad: 'x'.repeat(size) },
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'chessbridge-full-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
};

/** The real filesystem, with ENOSPC on every write to the log while `full.on`. */
const fillableFs = (full: { on: boolean }): JournalFs => {
  const real = nodeJournalFs();
  const paths = new Map<number, string>();
  return {
    ...real,
    open: async (p, flags) => {
      const fd = await real.open(p, flags);
      paths.set(fd, p);
      return fd;
    },
    write: async (fd, data) => {
      if (full.on && (paths.get(fd) ?? '').includes('/wal/'))
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return real.write(fd, data);
    },
  };
};

/** An append whose outcome can be looked at without awaiting it. */
const track = (p: Promise<Result<JournalRecord, JournalError>>) => {
  const box: { result?: Result<JournalRecord, JournalError> } = {};
  void p.then(r => (box.result = r));
  return box;
};

const seqsOf = async (path: string, includeWal = true): Promise<number[]> =>
  (await readJournalAll(path, { includeWal })).unwrap().records.map(r => r.seq);

describe('a full disk holds records until there is space (injected ENOSPC)', () => {
  it('waits unacknowledged, reports the file and ENOSPC, then writes everything in order', async () => {
    const dir = tempDir();
    const full = { on: false };
    const problems: JournalProblem[] = [];
    const store = new JournalStore({
      dir,
      io: fillableFs(full),
      spaceRetryMs: 20,
      onProblem: p => problems.push(p),
    });
    cleanups.push(() => void store.stop());
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    (await store.createGame({ game: 'h', board: 'c', settings: SETTINGS })).unwrap();
    expect((await store.append('g', padded(1))).unwrap().seq).toBe(1);

    full.on = true;
    const waiting = [
      track(store.append('g', padded(2))),
      track(store.append('h', padded(3))),
      track(store.append('g', padded(4))),
    ];
    await waitFor(() => problems.some(p => p.kind === 'disk-full'), 5000, 'the disk-full report');
    await new Promise(resolve => setTimeout(resolve, 150)); // several retries
    expect(waiting.map(w => w.result)).toEqual([undefined, undefined, undefined]);
    const report = problems.find(p => p.kind === 'disk-full');
    expect(report?.kind === 'disk-full' && report.error.message).toMatch(
      /^journal: disk full \(ENOSPC\) while appending to .*\/wal\/000000000001\.wal$/,
    );
    expect(report?.kind === 'disk-full' && report.heldRecords).toBe(3);
    // Reported once, not at every retry.
    expect(problems.filter(p => p.kind === 'disk-full')).toHaveLength(1);
    // Nothing of the held records is on disk; what was acknowledged is intact.
    expect(await seqsOf(join(dir, 'games', 'g.jsonl'))).toEqual([1]);
    // More appends while full queue behind them.
    const later = track(store.append('h', padded(5)));

    full.on = false;
    await waitFor(() => later.result !== undefined, 5000, 'the held records to be written');
    expect(waiting.map(w => w.result?.unwrap().seq)).toEqual([2, 1, 3]);
    expect(later.result?.unwrap().seq).toBe(2);
    expect(problems.filter(p => p.kind === 'disk-space-back')).toEqual([
      { kind: 'disk-space-back', records: 4, heldMs: expect.any(Number) as unknown },
    ]);
    await store.stop();
    const g = (await readJournalAll(join(dir, 'games', 'g.jsonl'), { includeWal: false })).unwrap();
    expect(g.records.map(r => [r.seq, r.type === 'command' && (r.params as { i: number }).i])).toEqual([
      [1, 1],
      [2, 2],
      [3, 4],
    ]);
    expect(await seqsOf(join(dir, 'games', 'h.jsonl'), false)).toEqual([1, 2]);
  });

  it('refuses appends at once beyond maxHeldBytes; the records already held still get written', async () => {
    const dir = tempDir();
    const full = { on: false };
    const problems: JournalProblem[] = [];
    const store = new JournalStore({
      dir,
      io: fillableFs(full),
      spaceRetryMs: 20,
      maxHeldBytes: 3000,
      onProblem: p => problems.push(p),
    });
    cleanups.push(() => void store.stop());
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    full.on = true;
    const held = [track(store.append('g', padded(1))), track(store.append('g', padded(2)))];
    await waitFor(() => problems.some(p => p.kind === 'disk-full'), 5000, 'the disk-full report');
    const refused = await store.append('g', padded(3, 2000));
    expect(refused.isErr && refused.error).toMatchObject({ kind: 'no-space', code: 'ENOSPC' });
    full.on = false;
    await waitFor(() => held.every(h => h.result !== undefined), 5000, 'the held records');
    expect(held.map(h => h.result?.unwrap().seq)).toEqual([1, 2]);
    expect((await store.append('g', padded(4))).unwrap().seq).toBe(3);
  });

  it('stop does not hang on a full disk: the held appends fail with the error, nothing half-written', async () => {
    const dir = tempDir();
    const full = { on: false };
    const store = new JournalStore({ dir, io: fillableFs(full), spaceRetryMs: 60_000 });
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    (await store.append('g', padded(1))).unwrap();
    full.on = true;
    const held = store.append('g', padded(2));
    await new Promise(resolve => setTimeout(resolve, 50));
    const t0 = Date.now();
    await store.stop();
    expect(Date.now() - t0).toBeLessThan(5000);
    const r = await held;
    if (r.isOk) console.log('OK?', r.value, Date.now() - t0);
    expect(r.isErr && r.error.kind).toBe('no-space');
    expect(await seqsOf(join(dir, 'games', 'g.jsonl'))).toEqual([1]);
  });

  it("fullDisk 'refuse' fails the append at once, as before", async () => {
    const dir = tempDir();
    const full = { on: true };
    const store = new JournalStore({ dir, io: fillableFs(full), fullDisk: 'refuse' });
    cleanups.push(() => void store.stop());
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    const r = await store.append('g', padded(1));
    expect(r.isErr && r.error.kind).toBe('no-space');
  });
});

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

describe.skipIf(!canMount())('a real full disk (tmpfs; needs root on Linux)', () => {
  it('holds while the tmpfs is full and writes every record, whole, once a file is deleted', async () => {
    const mount = tempDir();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount]);
    cleanups.push(() => execFileSync('umount', ['-l', mount]));
    const dir = join(mount, 'journal');
    const problems: JournalProblem[] = [];
    const store = new JournalStore({
      dir,
      checkpointMs: 3_600_000,
      spaceRetryMs: 25,
      onProblem: p => problems.push(p),
    });
    cleanups.push(() => void store.stop());
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    const { bavail, bsize } = statfsSync(mount);
    writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 24 * 1024)));

    const appends = Array.from({ length: 60 }, (_, i) => track(store.append('g', padded(i + 1))));
    await waitFor(() => problems.some(p => p.kind === 'disk-full'), 10_000, 'the disk-full report');
    const acked = appends.filter(a => a.result !== undefined).length;
    expect(acked).toBeLessThan(60);
    expect(appends.slice(0, acked).every(a => a.result?.isOk)).toBe(true);
    const before = readFileSync(join(dir, 'games', 'g.jsonl'));

    rmSync(join(mount, 'filler'));
    await waitFor(() => appends.every(a => a.result !== undefined), 10_000, 'every append');
    expect(appends.map(a => a.result?.unwrap().seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    await store.stop();
    const after = readFileSync(join(dir, 'games', 'g.jsonl'));
    // What was written before the disk filled is unchanged; the rest follows it.
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(await seqsOf(join(dir, 'games', 'g.jsonl'), false)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    expect(problems.map(p => p.kind)).toContain('disk-space-back');
  });
});
