/**
 * A record destroyed inside a game file is put back at start-up from its intact copy in the
 * write-ahead log (src/bridge/journal/repair.ts): after a crash the log holds every record since
 * the last checkpoint, so damage to the game file's copy of one of them loses nothing. Damage
 * the log cannot make good is left as it was, for salvage to keep the records around it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../src/bridge/journal/format.js';
import { readJournalAll } from '../../../src/bridge/journal/read.js';
import { lostSeqs } from '../../../src/bridge/journal/salvage.js';
import { JournalStore, type JournalProblem } from '../../../src/bridge/journal/store.js';
import { entryFor, SETTINGS, tempDir } from './damageKit.js';

/** Byte offset of the start of 1-based line `n` (line 1 is the header, line k + 1 holds seq k). */
const lineOffset = (data: Buffer, n: number): number => {
  let offset = 0;
  for (let i = 1; i < n; i++) offset = data.indexOf(0x0a, offset) + 1;
  return offset;
};

const flip = (path: string, at: number, count: number): void => {
  const data = readFileSync(path);
  for (let i = at; i < at + count; i++) data[i] = (data[i] ?? 0) ^ 0xff;
  writeFileSync(path, data);
};

/** A game of `n` records after a crash: the game file and the log both hold every record. */
const crashedGame = async (
  n: number,
): Promise<{ dir: string; path: string; wal: string; records: readonly JournalRecord[] }> => {
  const dir = tempDir('repair');
  const store = new JournalStore({ dir, checkpointMs: 3_600_000 });
  (await store.start()).unwrap();
  (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
  for (let i = 1; i <= n; i++) (await store.append('g', entryFor(i))).unwrap();
  await store.whenIdle(); // abandoned, not stopped: the log stays
  const path = join(dir, 'games', 'g.jsonl');
  const records = (await readJournalAll(path, { includeWal: false })).unwrap().records;
  expect(records).toHaveLength(n);
  return { dir, path, wal: join(dir, 'wal', '000000000001.wal'), records };
};

const restart = async (dir: string): Promise<JournalProblem[]> => {
  const problems: JournalProblem[] = [];
  const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
  expect((await store.start()).unwrap().games.map(g => g.lastSeq)).toEqual([20]);
  await store.stop();
  return problems;
};

describe('a game file repaired from the write-ahead log at start', () => {
  it('a record with bytes flipped is put back from the log, as it was', async () => {
    const { dir, path, records } = await crashedGame(20);
    flip(path, lineOffset(readFileSync(path), 11) + 3, 8); // seq 10
    expect((await readJournalAll(path, { salvage: true })).unwrap().damage.map(lostSeqs)).toEqual([
      { from: 10, to: 10 },
    ]);
    const problems = await restart(dir);
    expect(problems).toEqual([{ kind: 'restored-from-log', file: path, seqs: [{ from: 10, to: 10 }] }]);
    const r = (await readJournalAll(path, { salvage: true, includeWal: false })).unwrap();
    expect(r.damage).toEqual([]);
    expect(r.records).toEqual(records);
    expect(existsSync(`${path}.repair`)).toBe(false);
  });

  it('two records joined (a line break flipped away) are both put back', async () => {
    const { dir, path, records } = await crashedGame(20);
    const data = readFileSync(path);
    data[lineOffset(data, 6) - 1] = 0x20; // the line break after seq 4: seq 4 and 5 joined
    writeFileSync(path, data);
    const problems = await restart(dir);
    expect(problems).toEqual([{ kind: 'restored-from-log', file: path, seqs: [{ from: 4, to: 5 }] }]);
    const r = (await readJournalAll(path, { salvage: true, includeWal: false })).unwrap();
    expect(r.damage).toEqual([]);
    expect(r.records).toEqual(records);
  });

  it('a record damaged in the log too is left as it was, and salvage keeps the records around it', async () => {
    const { dir, path, wal } = await crashedGame(20);
    flip(path, lineOffset(readFileSync(path), 11) + 3, 8); // seq 10 in the game file
    flip(wal, lineOffset(readFileSync(wal), 10) + 3, 8); // seq 10 in the log (no header there)
    const damaged = readFileSync(path);
    const problems = await restart(dir);
    expect(problems.filter(p => p.kind === 'restored-from-log' || p.kind === 'repair-failed')).toEqual([]);
    expect(readFileSync(path).subarray(0, damaged.length)).toEqual(damaged);
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(r.damage.map(lostSeqs)).toEqual([{ from: 10, to: 10 }]);
    expect(r.records).toHaveLength(19);
  });
});
