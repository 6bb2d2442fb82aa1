/**
 * Group commit, measured on the temp folder's disk. Prints records/s for three loads, so the
 * figures in docs/journal.md can be re-measured: `npx vitest run test/bridge/journal/throughput.test.ts`.
 * The assertions are about syncs, not speed (CI disks differ).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameSettings, JournalEntry } from '../../../src/bridge/journal/format.js';
import { JournalStore, type JournalStats } from '../../../src/bridge/journal/store.js';

const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '15+10',
  startFen: 'startpos',
};

/** A clock reading: the most frequent observation (once a second per board with a clock). */
const clockReading = (board: number, at: number): JournalEntry => ({
  type: 'observation',
  board: `b${board}`,
  observation: {
    type: 'clock',
    at,
    connected: true,
    left: { ms: 5_400_000 - at, flagFallen: false, flagShown: false, timePerMove: false },
    right: { ms: 5_400_000, flagFallen: false, flagShown: false, timePerMove: false },
    running: 'left',
    lever: 'right',
    batteryLow: false,
    status: 1,
  },
});

const root = mkdtempSync(join(tmpdir(), 'chessbridge-throughput-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = async (
  name: string,
  boards: number,
  options: { maxBatch?: number },
  load: (store: JournalStore) => Promise<void>,
): Promise<JournalStats & { perSecond: number; ms: number }> => {
  const store = new JournalStore({ dir: join(root, name), ...options });
  (await store.start()).unwrap();
  const created = await Promise.all(
    Array.from({ length: boards }, (_, b) =>
      store.createGame({ game: `g${b}`, board: `b${b}`, settings: SETTINGS }),
    ),
  );
  for (const c of created) c.unwrap();
  const t0 = performance.now();
  await load(store);
  const ms = performance.now() - t0;
  await store.stop();
  const stats = store.stats();
  const perSecond = Math.round((stats.records / ms) * 1000);
  console.log(
    `journal ${name}: ${stats.records} records in ${ms.toFixed(0)} ms = ${perSecond} records/s; ` +
      `${stats.walSyncs} log syncs, ${(stats.records / stats.batches).toFixed(1)} records per batch`,
  );
  return { ...stats, perSecond, ms };
};

describe('group commit throughput', () => {
  it('500 boards, every board one record per tick: one log sync per tick', async () => {
    const ticks = 40;
    const r = await run('ticks', 500, {}, async store => {
      for (let t = 0; t < ticks; t++) {
        await Promise.all(
          Array.from({ length: 500 }, (_, b) => store.append(`g${b}`, clockReading(b, t * 1000))),
        );
      }
    });
    expect(r.records).toBe(500 * ticks);
    expect(r.walSyncs).toBe(ticks);
  });

  it('200 producers appending as fast as acknowledgements come back: batches form by themselves', async () => {
    const r = await run('firehose', 200, {}, async store => {
      await Promise.all(
        Array.from({ length: 200 }, async (_, b) => {
          for (let i = 0; i < 100; i++) (await store.append(`g${b}`, clockReading(b, i))).unwrap();
        }),
      );
    });
    expect(r.records).toBe(20_000);
    expect(r.batches).toBeLessThan(r.records / 20);
  });

  it('for comparison, one sync per record (maxBatch 1)', async () => {
    const r = await run('unbatched', 20, { maxBatch: 1 }, async store => {
      await Promise.all(
        Array.from({ length: 20 }, async (_, b) => {
          for (let i = 0; i < 15; i++) (await store.append(`g${b}`, clockReading(b, i))).unwrap();
        }),
      );
    });
    expect(r.walSyncs).toBe(r.records);
  });
});
