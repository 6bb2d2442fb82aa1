/**
 * Crash safety: a daemon killed with SIGKILL in the middle of writing loses nothing it
 * acknowledged; torn tails are tolerated by readers (reported, everything before kept) and cut
 * off by the writer before it appends again; damage before the end is an error naming file and line.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSettings, JournalEntry } from '../../../src/bridge/journal/format.js';
import { listJournals, readJournalAll, type TornTail } from '../../../src/bridge/journal/read.js';
import { JournalStore, type JournalProblem } from '../../../src/bridge/journal/store.js';

const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'blitz',
  supervision: 'full',
  timeControl: '3+2',
  startFen: 'startpos',
};
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const STORE_MODULE = pathToFileURL(join(ROOT, 'src/bridge/journal/store.ts')).href;

/** The record a writer makes for (game, seq): the checker can tell any record is the right one. */
const entryFor = (game: number, seq: number): JournalEntry => ({
  type: 'observation',
  board: `b${game}`,
  observation: { type: 'square', at: seq * 10, square: (seq * 7 + game) % 64, content: { kind: 'empty' } },
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'chessbridge-crash-'));
  dirs.push(d);
  return d;
};

const GAMES = 6;

/** A writer process: appends forever to six games and prints every acknowledgement. */
const WRITER = `
const { JournalStore } = await import(process.env.STORE_MODULE);
const entryFor = ${entryFor.toString()};
const store = new JournalStore({ dir: process.env.JOURNAL_DIR, checkpointMs: 50 });
(await store.start()).unwrap();
const settings = ${JSON.stringify(SETTINGS)};
for (let g = 0; g < ${GAMES}; g++) (await store.createGame({ game: 'g' + g, board: 'b' + g, settings })).unwrap();
process.stdout.write('ready\\n');
const next = new Array(${GAMES}).fill(1);
for (;;) {
  const burst = [];
  for (let k = 0; k < 60; k++) {
    const g = (k * 5 + next[0]) % ${GAMES};
    const seq = next[g]++;
    burst.push(store.append('g' + g, entryFor(g, seq)).then(r => {
      if (r.isErr) throw r.error;
      process.stdout.write('ack g' + g + ' ' + r.value.seq + '\\n');
    }));
  }
  await Promise.all(burst);
}
`;

describe('killed with SIGKILL while writing', () => {
  it(
    'loses no acknowledged record and duplicates none; the next start goes on',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const script = join(dir, 'writer.mjs');
      writeFileSync(script, WRITER);
      const journalDir = join(dir, 'journal');
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        env: { ...process.env, STORE_MODULE, JOURNAL_DIR: journalDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const acked = new Map<string, number>();
      let pending = '';
      let count = 0;
      const exited = new Promise<NodeJS.Signals | null>(resolve =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          pending += d.toString();
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) {
            const m = /^ack (g\d+) (\d+)$/.exec(line);
            if (m?.[1] === undefined) continue;
            acked.set(m[1], Math.max(acked.get(m[1]) ?? 0, Number(m[2])));
            if (++count === 6_000) {
              child.kill('SIGKILL');
              resolve();
            }
          }
        });
        child.on('exit', code => code !== null && reject(new Error(`writer exited with ${code}: ${stderr}`)));
      });
      expect(await exited).toBe('SIGKILL');

      // Readers see everything acknowledged even before any repair.
      for (const [game, last] of acked) {
        const read = (await readJournalAll(join(journalDir, 'games', `${game}.jsonl`))).unwrap();
        expect(read.records.length).toBeGreaterThanOrEqual(last);
      }

      const problems: JournalProblem[] = [];
      const store = new JournalStore({ dir: journalDir, onProblem: p => problems.push(p) });
      const report = (await store.start()).unwrap();
      expect(report.games).toHaveLength(GAMES);
      expect(problems.filter(p => p.kind !== 'torn-tail')).toEqual([]);
      for (const g of report.games) {
        const index = Number(g.header.game.slice(1));
        const read = (await readJournalAll(g.path, { includeWal: false })).unwrap();
        expect(read.tornTail).toBeUndefined();
        expect(g.lastSeq).toBeGreaterThanOrEqual(acked.get(g.header.game) ?? 0);
        expect(read.records.map(r => r.seq)).toEqual(Array.from({ length: g.lastSeq }, (_, i) => i + 1));
        expect(read.records.map(({ seq: _s, wall: _w, ...e }) => e)).toEqual(
          read.records.map(r => entryFor(index, r.seq)),
        );
        expect((await store.append(g.header.game, entryFor(index, g.lastSeq + 1))).unwrap().seq).toBe(
          g.lastSeq + 1,
        );
      }
      await store.stop();
    },
  );
});

const writeGame = async (dir: string, records: number): Promise<string> => {
  const store = new JournalStore({ dir });
  (await store.start()).unwrap();
  (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
  for (let i = 1; i <= records; i++) (await store.append('g', entryFor(0, i))).unwrap();
  await store.stop();
  return join(dir, 'games', 'g.jsonl');
};

describe('torn tails', () => {
  it('a reader reports a torn last line of a game file and keeps everything before it', async () => {
    const dir = tempDir();
    const path = await writeGame(dir, 3);
    const clean = statSync(path).size;
    appendFileSync(path, '{"seq":4,"wall":17,"type":"obs');
    let tail: TornTail | undefined;
    const read = (await readJournalAll(path, { onTornTail: t => (tail = t) })).unwrap();
    expect(read.records.map(r => r.seq)).toEqual([1, 2, 3]);
    expect(read.tornTail).toEqual({
      file: path,
      line: 5,
      offset: clean,
      bytes: 30,
      preview: '{"seq":4,"wall":17,"type":"obs',
    });
    expect(tail).toEqual(read.tornTail);
    expect((await listJournals(dir)).unwrap().journals[0]).toMatchObject({ lastSeq: 3, tornBytes: 30 });
  });

  it('the writer cuts a torn tail off before appending again', async () => {
    const dir = tempDir();
    const path = await writeGame(dir, 3);
    const clean = statSync(path).size;
    appendFileSync(path, Buffer.concat([Buffer.from('{"seq":4,"wa'), Buffer.alloc(50)]));
    const problems: JournalProblem[] = [];
    const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
    const report = (await store.start()).unwrap();
    expect(report.games.map(g => g.lastSeq)).toEqual([3]);
    expect(problems).toEqual([
      {
        kind: 'torn-tail',
        tail: {
          file: path,
          line: 0,
          offset: clean,
          bytes: 62,
          preview: expect.stringMatching(/^{"seq":4,"wa/) as string,
        },
      },
    ]);
    expect(statSync(path).size).toBe(clean);
    expect((await store.append('g', entryFor(0, 4))).unwrap().seq).toBe(4);
    await store.stop();
    const read = (await readJournalAll(path)).unwrap();
    expect(read.tornTail).toBeUndefined();
    expect(read.records.map(r => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it('a torn last line of the write-ahead log is reported and the rest applied', async () => {
    const dir = tempDir();
    const store = new JournalStore({ dir });
    (await store.start()).unwrap();
    (await store.createGame({ game: 'g', board: 'b', settings: SETTINGS })).unwrap();
    for (let i = 1; i <= 3; i++) (await store.append('g', entryFor(0, i))).unwrap();
    // Killed here, in the middle of the next log write (the store is abandoned, not stopped).
    const wal = join(dir, 'wal', '000000000001.wal');
    appendFileSync(wal, '{"game":"g","record":{"seq":4,"wall":1,"type":"obse');
    const problems: JournalProblem[] = [];
    const again = new JournalStore({ dir, onProblem: p => problems.push(p) });
    const report = (await again.start()).unwrap();
    expect(report.games.map(g => g.lastSeq)).toEqual([3]);
    expect(
      problems.map(p => (p.kind === 'torn-tail' ? [p.kind, p.tail.file, p.tail.line] : [p.kind])),
    ).toEqual([['torn-tail', wal, 4]]);
    await again.stop();
  });
});

describe('damage before the end', () => {
  it('is an error naming the file and the line', async () => {
    const dir = tempDir();
    const path = await writeGame(dir, 4);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = lines[2]?.slice(0, 20) ?? '';
    writeFileSync(path, lines.join('\n'));
    const r = await readJournalAll(path);
    expect(r.isErr && r.error).toMatchObject({ kind: 'corrupt', file: path, line: 3 });
    expect(r.isErr && r.error.message).toMatch(new RegExp(`^journal: ${path}:3: `));
  });

  it('a seq out of order is an error naming the line', async () => {
    const dir = tempDir();
    const path = await writeGame(dir, 4);
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, [lines[0], lines[1], lines[3], lines[2], lines[4], ''].join('\n'));
    const r = await readJournalAll(path);
    expect(r.isErr && r.error.message).toBe(`journal: ${path}:3: seq 3 where 2 was expected`);
  });

  it('a file that is not a journal: an error for readers, skipped and reported at start', async () => {
    const dir = tempDir();
    await writeGame(dir, 1);
    const stray = join(dir, 'games', 'notes.jsonl');
    writeFileSync(stray, 'hello\n');
    const r = await readJournalAll(stray);
    expect(r.isErr && r.error.message).toBe(`journal: ${stray}:1: not a journal header: not JSON`);
    const list = (await listJournals(dir)).unwrap();
    expect(list.journals.map(j => j.header.game)).toEqual(['g']);
    expect(list.problems.map(p => p.kind)).toEqual(['bad-header']);
    const problems: JournalProblem[] = [];
    const store = new JournalStore({ dir, onProblem: p => problems.push(p) });
    expect((await store.start()).unwrap().games).toHaveLength(1);
    expect(problems.map(p => p.kind)).toEqual(['unreadable']);
    await store.stop();
  });
});
