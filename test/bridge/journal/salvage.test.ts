/**
 * Salvage of damaged journals: the reader takes up again after damage at the next record that
 * checks out (its line parses, its seq fits), keeps every good record before and after, and
 * reports each damaged stretch with its lines, bytes and the seq numbers lost. The cases are the
 * kinds of damage docs/journal.md lists: bytes flipped mid-file, a flipped seq, a line break
 * flipped away, a cut last record, garbage appended, records missing from the write-ahead log.
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../src/bridge/journal/format.js';
import { readJournalAll } from '../../../src/bridge/journal/read.js';
import {
  describeDamage,
  lostSeqs,
  salvageLines,
  type SalvageItem,
} from '../../../src/bridge/journal/salvage.js';
import { JournalStore, type JournalProblem } from '../../../src/bridge/journal/store.js';
import { entryFor, SETTINGS, tempDir } from './damageKit.js';

/** A cleanly stopped game of `n` records: the game file alone holds them. */
const writeGame = async (dir: string, n: number): Promise<string> => {
  const store = new JournalStore({ dir });
  (await store.start()).unwrap();
  (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
  for (let i = 1; i <= n; i++) (await store.append('g', entryFor(i))).unwrap();
  await store.stop();
  return join(dir, 'games', 'g.jsonl');
};

/** Byte offset of the start of 1-based line `n`. */
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

const seqs = (records: readonly JournalRecord[]): number[] => records.map(r => r.seq);
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('salvageLines (pure)', () => {
  const rec = (seq: number): JournalRecord => ({ seq, wall: 0, ...entryFor(seq) });
  let offset = 0;
  const item = (line: number, seq: number | undefined, bytes = 100): SalvageItem => {
    const it = {
      line,
      offset,
      end: offset + bytes,
      text: seq === undefined ? '\u00ff\u00ff' : `{"seq":${seq}}`,
      record: seq === undefined ? undefined : rec(seq),
      detail: seq === undefined ? 'not JSON' : '',
    };
    offset += bytes;
    return it;
  };

  it('keeps a clean run and reports nothing', () => {
    offset = 0;
    const s = salvageLines('f', [item(2, 1), item(3, 2), item(4, 3)]);
    expect(seqs(s.records)).toEqual([1, 2, 3]);
    expect(s.damage).toEqual([]);
    expect(s.tail).toEqual([]);
  });

  it('takes up again after a bad line, the lost seq from the next one', () => {
    offset = 0;
    const s = salvageLines('f', [item(2, 1), item(3, undefined), item(4, 3), item(5, 4)]);
    expect(seqs(s.records)).toEqual([1, 3, 4]);
    expect(s.damage).toHaveLength(1);
    expect(s.damage[0]).toMatchObject({
      fromLine: 3,
      toLine: 3,
      offset: 100,
      bytes: 100,
      afterSeq: 1,
      nextSeq: 3,
    });
    expect(lostSeqs(s.damage[0]!)).toEqual({ from: 2, to: 2 });
  });

  it('a seq that jumps without the next record continuing it is damage (a flipped digit)', () => {
    offset = 0;
    const s = salvageLines('f', [item(2, 1), item(3, 92), item(4, 3), item(5, 4)]);
    expect(seqs(s.records)).toEqual([1, 3, 4]);
    expect(s.damage[0]).toMatchObject({ fromLine: 3, toLine: 3, afterSeq: 1, nextSeq: 3 });
    expect(s.damage[0]?.detail).toBe('seq 92 where 2 was expected');
  });

  it('a seq that goes back is damage, and the records after it are kept', () => {
    offset = 0;
    const s = salvageLines('f', [item(2, 1), item(3, 2), item(4, 1), item(5, 3)]);
    expect(seqs(s.records)).toEqual([1, 2, 3]);
    expect(s.damage[0]).toMatchObject({ fromLine: 4, toLine: 4, afterSeq: 2, nextSeq: 3 });
    expect(lostSeqs(s.damage[0]!)).toBeUndefined();
  });

  it('the last record after damage is kept when the damaged bytes could hold what it skips', () => {
    offset = 0;
    const kept = salvageLines('f', [item(2, 1), item(3, undefined, 200), item(4, 4)]);
    expect(seqs(kept.records)).toEqual([1, 4]);
    offset = 0;
    // 40 bytes of damage cannot have held 30 records: the last line's seq is itself damaged.
    const refused = salvageLines('f', [item(2, 1), item(3, undefined, 40), item(4, 32)]);
    expect(seqs(refused.records)).toEqual([1]);
    expect(refused.tail.map(t => t.line)).toEqual([3, 4]);
  });

  it('bad lines after the last good record are the tail, not a range', () => {
    offset = 0;
    const s = salvageLines('f', [item(2, 1), item(3, 2), item(4, undefined), item(5, undefined)]);
    expect(seqs(s.records)).toEqual([1, 2]);
    expect(s.damage).toEqual([]);
    expect(s.tail.map(t => t.line)).toEqual([4, 5]);
  });

  it('two damaged stretches are two ranges', () => {
    offset = 0;
    const s = salvageLines('f', [
      item(2, 1),
      item(3, undefined),
      item(4, 3),
      item(5, 4),
      item(6, undefined),
      item(7, undefined),
      item(8, 7),
      item(9, 8),
    ]);
    expect(seqs(s.records)).toEqual([1, 3, 4, 7, 8]);
    expect(s.damage.map(d => [d.fromLine, d.toLine, d.bytes, lostSeqs(d)])).toEqual([
      [3, 3, 100, { from: 2, to: 2 }],
      [6, 7, 200, { from: 5, to: 6 }],
    ]);
  });
});

describe('a damaged game file read with salvage', () => {
  it('8 bytes flipped mid-file: every other record kept, one range with the seq lost', async () => {
    const dir = tempDir('salvage');
    const path = await writeGame(dir, 40);
    const data = readFileSync(path);
    const at = lineOffset(data, 21) + 10; // inside record 20 (line 21; the header is line 1)
    flip(path, at, 8);
    expect((await readJournalAll(path)).isErr).toBe(true); // the strict reader still refuses
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual([...range(1, 19), ...range(21, 40)]);
    expect(r.damage).toHaveLength(1);
    const d = r.damage[0]!;
    expect(d).toMatchObject({ file: path, fromLine: 21, toLine: 21, afterSeq: 19, nextSeq: 21 });
    expect(d.offset).toBe(lineOffset(data, 21));
    expect(d.bytes).toBe(lineOffset(data, 22) - lineOffset(data, 21));
    expect(describeDamage(d)).toMatch(
      /line 21 \(\d+ bytes at offset \d+\) damaged: not JSON; record seq 20 lost$/,
    );
    expect(r.tornTail).toBeUndefined();
  });

  it('a line break flipped away joins two records into one bad line: both reported lost', async () => {
    const dir = tempDir('salvage');
    const path = await writeGame(dir, 10);
    const data = readFileSync(path);
    flip(path, lineOffset(data, 6) - 1, 1); // the \n ending line 5 (record 4)
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual([1, 2, 3, 6, 7, 8, 9, 10]);
    expect(r.damage.map(lostSeqs)).toEqual([{ from: 4, to: 5 }]);
  });

  it('a cut last record is a torn tail; garbage appended too; neither hides a record', async () => {
    const dir = tempDir('salvage');
    const path = await writeGame(dir, 10);
    const size = statSync(path).size;
    writeFileSync(path, readFileSync(path).subarray(0, size - 25));
    const cut = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(cut.records)).toEqual(range(1, 9));
    expect(cut.damage).toEqual([]);
    expect(cut.tornTail).toMatchObject({ line: 11 });

    const dir2 = tempDir('salvage');
    const path2 = await writeGame(dir2, 10);
    appendFileSync(path2, Buffer.from('\u0000\u0000garbage\n{"not":"a record"}\n\u0001\u0002'));
    const garbage = (await readJournalAll(path2, { salvage: true })).unwrap();
    expect(seqs(garbage.records)).toEqual(range(1, 10));
    expect(garbage.tornTail).toMatchObject({ line: 12, offset: statSync(path).size + 25 });
  });

  it('a damaged file restarts: the store appends after it, and the damage stays reported once per range', async () => {
    const dir = tempDir('salvage');
    const path = await writeGame(dir, 30);
    flip(path, lineOffset(readFileSync(path), 11) + 5, 8);
    const problems: JournalProblem[] = [];
    const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
    const report = (await store.start()).unwrap();
    expect(report.games.map(g => g.lastSeq)).toEqual([30]);
    expect((await store.append('g', entryFor(31))).unwrap().seq).toBe(31);
    await store.stop();
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual([...range(1, 9), ...range(11, 31)]);
    expect(r.damage.map(lostSeqs)).toEqual([{ from: 10, to: 10 }]);
  });
});

describe('a damaged write-ahead log at start', () => {
  /** A game of `n` records whose game file lost everything after `kept` (a power cut), the log intact. */
  const crashedGame = async (
    dir: string,
    n: number,
    kept: number,
  ): Promise<{ wal: string; path: string }> => {
    const store = new JournalStore({ dir, checkpointMs: 3_600_000 });
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    for (let i = 1; i <= n; i++) (await store.append('g', entryFor(i))).unwrap();
    await store.whenIdle();
    // Abandoned, not stopped: the log stays. The game file loses its unsynced lines.
    const path = join(dir, 'games', 'g.jsonl');
    const data = readFileSync(path);
    writeFileSync(path, data.subarray(0, lineOffset(data, kept + 2)));
    return { wal: join(dir, 'wal', '000000000001.wal'), path };
  };

  it('a byte flipped mid-log: the records after it are applied, the gap reported and kept as a gap', async () => {
    const dir = tempDir('salvage');
    const { wal, path } = await crashedGame(dir, 20, 5);
    const log = readFileSync(wal);
    flip(wal, lineOffset(log, 10) + 3, 8); // the log's line 10 is record 10
    const problems: JournalProblem[] = [];
    const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
    const report = (await store.start()).unwrap();
    expect(report.games.map(g => g.lastSeq)).toEqual([20]);
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'wal-damage', file: wal, line: 10, offset: lineOffset(log, 10) }),
      { kind: 'wal-gap', game: 'g', expected: 10, found: 11 },
    ]);
    expect((await store.append('g', entryFor(21))).unwrap().seq).toBe(21);
    await store.stop();
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual([...range(1, 9), ...range(11, 21)]);
    expect(r.damage.map(lostSeqs)).toEqual([{ from: 10, to: 10 }]);
  });

  it('a flipped digit in a seq in the log does not hide the records after it', async () => {
    const dir = tempDir('salvage');
    const { wal, path } = await crashedGame(dir, 20, 5);
    writeFileSync(wal, readFileSync(wal, 'utf8').replace('{"seq":10,', '{"seq":90,'));
    const problems: JournalProblem[] = [];
    const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
    expect((await store.start()).unwrap().games.map(g => g.lastSeq)).toEqual([20]);
    expect(problems).toEqual([{ kind: 'wal-gap', game: 'g', expected: 10, found: 11 }]);
    await store.stop();
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual([...range(1, 9), ...range(11, 20)]);
    expect(r.damage.map(lostSeqs)).toEqual([{ from: 10, to: 10 }]);
  });

  it('a cut last line and garbage appended to the log: a torn tail, every whole record applied', async () => {
    const dir = tempDir('salvage');
    const { wal, path } = await crashedGame(dir, 12, 3);
    const size = statSync(wal).size;
    writeFileSync(wal, readFileSync(wal).subarray(0, size - 30));
    appendFileSync(wal, '\u0000\u0000 junk');
    const problems: JournalProblem[] = [];
    const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
    expect((await store.start()).unwrap().games.map(g => g.lastSeq)).toEqual([11]);
    expect(problems).toEqual([
      { kind: 'torn-tail', tail: expect.objectContaining({ file: wal, line: 12 }) as unknown },
    ]);
    await store.stop();
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual(range(1, 11));
    expect(r.damage).toEqual([]);
  });

  it('a reader before the restart salvages the game file and the log together', async () => {
    const dir = tempDir('salvage');
    const { wal, path } = await crashedGame(dir, 20, 5);
    flip(wal, lineOffset(readFileSync(wal), 14) + 3, 8);
    const r = (await readJournalAll(path, { salvage: true })).unwrap();
    expect(seqs(r.records)).toEqual([...range(1, 13), ...range(15, 20)]);
    expect(r.damage).toEqual([
      expect.objectContaining({ file: join(dir, 'wal'), afterSeq: 13, nextSeq: 15 }),
    ]);
  });
});
