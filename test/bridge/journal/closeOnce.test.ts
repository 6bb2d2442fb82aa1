/**
 * Every descriptor the journal opens is closed once. A checkpoint (or a stop) whose deletion of an
 * old log segment fails keeps the segment listed for the next try, and used to close it again:
 * by then the process may have handed that descriptor number to another file (a new log segment,
 * a game file), which the second close took away from under its owner. Found by the full-disk
 * tests, where a store stopped while its folder was being removed broke the next store's log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSettings } from '../../../src/bridge/journal/format.js';
import { nodeJournalFs, type JournalFs } from '../../../src/bridge/journal/fsio.js';
import { readJournalAll } from '../../../src/bridge/journal/read.js';
import { JournalStore } from '../../../src/bridge/journal/store.js';

const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'rapid',
  supervision: 'full',
  timeControl: '15+10',
  startFen: 'startpos',
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The real filesystem, counting closes of descriptors that are not open; unlinks of log segments fail. */
const countingFs = (): { io: JournalFs; badCloses: number[] } => {
  const real = nodeJournalFs();
  const open = new Set<number>();
  const badCloses: number[] = [];
  return {
    badCloses,
    io: {
      ...real,
      open: async (p, flags) => {
        const fd = await real.open(p, flags);
        open.add(fd);
        return fd;
      },
      close: async fd => {
        if (!open.delete(fd)) badCloses.push(fd);
        return real.close(fd);
      },
      unlink: async p => {
        if (p.includes('/wal/'))
          throw Object.assign(new Error('EACCES: permission denied, unlink'), { code: 'EACCES' });
        return real.unlink(p);
      },
    },
  };
};

describe('closing journal files', () => {
  it('closes a log segment once even when deleting it fails at every checkpoint and at stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chessbridge-close-'));
    dirs.push(dir);
    const { io, badCloses } = countingFs();
    let clock = 0;
    const store = new JournalStore({ dir, io, checkpointMs: 10, now: () => clock });
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    for (let i = 1; i <= 6; i++) {
      clock += 20; // every batch is due a checkpoint: a new segment, and a failed deletion of the old ones
      (await store.append('g', { type: 'command', at: i, action: 'note', params: { i } })).unwrap();
      await store.whenIdle();
    }
    await store.stop();
    expect(badCloses).toEqual([]);
    const read = (await readJournalAll(join(dir, 'games', 'g.jsonl'), { includeWal: false })).unwrap();
    expect(read.records.map(r => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
