import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Game } from '../../../src/engine/game.js';
import { readPgn } from '../../../src/engine/pgnRead.js';
import { tempPathFor, writeFileAtomic } from '../../../src/bridge/feed/atomicWrite.js';
import {
  type FeedState,
  makeFeedState,
  removeGame,
  setRound,
  upsertGame,
} from '../../../src/bridge/feed/feedState.js';
import { FolderExport } from '../../../src/bridge/feed/folderExport.js';
import type { LiveGame } from '../../../src/bridge/feed/types.js';

const T0 = Date.UTC(2025, 2, 1, 14, 0, 0);
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'feed-export-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const play = (...sans: string[]): Game =>
  sans.reduce((g, san) => g.playSan(san, { clockMs: 600_000 - g.length * 1000 }).unwrap(), Game.standard());

const live = (round: number, board: number, game: Game): LiveGame => ({
  round,
  board,
  white: { name: `White, Player ${board}`, fideId: String(100 + board) },
  black: { name: `Black, Player ${board}` },
  game,
  boardSerial: `S${board}`,
});

const tournament = (): FeedState => {
  let s = makeFeedState({ name: 'Export Open', site: 'Bern' }, T0);
  s = setRound(s, 1, { date: '2025-03-01' }, T0);
  s = setRound(s, 2, { date: '2025-03-02' }, T0);
  s = upsertGame(s, live(1, 1, play('e4', 'e5')), T0 + 1000);
  s = upsertGame(s, live(1, 2, play('d4')), T0 + 2000);
  s = upsertGame(s, live(2, 1, Game.standard()), T0 + 3000);
  return s;
};

/** Every file under `dir`, relative, '/'-separated, sorted. */
const listFiles = (dir: string, prefix = ''): string[] =>
  readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap(e => (e.isDirectory() ? listFiles(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();

describe('folder export', () => {
  it('writes the layout of the local export: tournament.json, round-N/index.json, games.pgn and game-K.pgn', async () => {
    const dir = tempDir();
    const out = new FolderExport({ dir });
    const state = tournament();
    const report = await out.sync(state, T0 + 5000);
    const expected = [
      'round-1/game-1.pgn',
      'round-1/game-2.pgn',
      'round-1/games.pgn',
      'round-1/index.json',
      'round-2/game-1.pgn',
      'round-2/games.pgn',
      'round-2/index.json',
      'tournament.json',
    ];
    expect(listFiles(dir)).toEqual(expected);
    expect([...report.written].sort()).toEqual(expected);
    const index = JSON.parse(await readFile(join(dir, 'round-1/index.json'), 'utf8')) as {
      date: string;
      pairings: { white: { fideid: number; lname: string; fname: string }; board: number; serial: string }[];
    };
    expect(index.date).toBe('2025-03-01');
    expect(index.pairings.map(p => [p.board, p.serial, p.white.fideid, p.white.lname])).toEqual([
      [1, 'S1', 101, 'White'],
      [2, 'S2', 102, 'White'],
    ]);
    const t = JSON.parse(await readFile(join(dir, 'tournament.json'), 'utf8')) as {
      rounds: unknown;
      eboards: unknown;
    };
    expect(t.rounds).toEqual([
      { count: 2, live: 2 },
      { count: 1, live: 1 },
    ]);
    expect(t.eboards).toEqual(['S1', 'S2']);
    const games = readPgn(await readFile(join(dir, 'round-1/games.pgn'), 'utf8')).map(r => r.unwrap());
    expect(games.map(g => g.headers.get('Round'))).toEqual(['1.1', '1.2']);
    expect(statSync(join(dir, 'round-1/game-2.pgn')).mtimeMs).toBe(T0 + 2000);
  });

  it('rewrites only the files a move changed, and removes the file of a withdrawn game', async () => {
    const dir = tempDir();
    const out = new FolderExport({ dir });
    let state = tournament();
    await out.sync(state, T0 + 5000);
    state = upsertGame(state, live(1, 2, play('d4', 'Nf6')), T0 + 6000);
    const second = await out.sync(state, T0 + 6000);
    expect([...second.written].sort()).toEqual(['round-1/game-2.pgn', 'round-1/games.pgn']);
    expect(await readFile(join(dir, 'round-1/game-2.pgn'), 'utf8')).toContain(
      '1. d4 { [%clk 0:10:00] } 1... Nf6',
    );
    state = removeGame(state, 2, 1, T0 + 7000);
    const third = await out.sync(state, T0 + 7000);
    // A round left without games has no games.pgn at all: an empty PGN fails a site's whole fetch.
    expect([...third.removed].sort()).toEqual(['round-2/game-1.pgn', 'round-2/games.pgn']);
    expect(listFiles(dir)).not.toContain('round-2/game-1.pgn');
    expect(listFiles(dir)).not.toContain('round-2/games.pgn');
    expect(listFiles(dir)).toContain('round-2/index.json');
  });

  it('leaves files that are already up to date alone after a restart, and other files in the folder too', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'README.txt'), 'operator notes');
    const state = tournament();
    await new FolderExport({ dir }).sync(state, T0 + 5000);
    const again = await new FolderExport({ dir }).sync(state, T0 + 9000);
    expect(again.written).toEqual([]);
    expect(listFiles(dir)).toContain('README.txt');
  });

  it('serialises overlapping syncs and never leaves temporary files', async () => {
    const dir = tempDir();
    const out = new FolderExport({ dir });
    let state = tournament();
    const runs: Promise<unknown>[] = [];
    const moves = ['Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6'];
    for (const [i] of moves.entries()) {
      state = upsertGame(state, live(1, 1, play('e4', 'e5', ...moves.slice(0, i + 1))), T0 + 10_000 + i);
      runs.push(out.sync(state, T0 + 10_000 + i));
    }
    await Promise.all(runs);
    expect(listFiles(dir).filter(f => f.includes('.tmp-'))).toEqual([]);
    expect(await readFile(join(dir, 'round-1/game-1.pgn'), 'utf8')).toContain(
      '4. Ba4 { [%clk 0:09:54] } 4... Nf6 { [%clk 0:09:53] } *',
    );
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file by rename: a reader holding the old file still reads all of the old bytes', async () => {
    const dir = tempDir();
    const target = join(dir, 'games.pgn');
    const oldBytes = Buffer.from('[Event "old"]\n\n1. e4 *\n'.repeat(2000));
    await writeFileAtomic(target, oldBytes);
    const reader = await open(target, 'r');
    try {
      const inode = statSync(target).ino;
      await writeFileAtomic(target, Buffer.from('[Event "new"]\n\n1. d4 *\n'), { mtime: T0 });
      expect(statSync(target).ino).not.toBe(inode);
      expect((await reader.readFile()).equals(oldBytes)).toBe(true);
      expect(await readFile(target, 'utf8')).toBe('[Event "new"]\n\n1. d4 *\n');
      expect(statSync(target).mtimeMs).toBe(T0);
    } finally {
      await reader.close();
    }
    expect(readdirSync(dir)).toEqual(['games.pgn']);
  });

  it('removes its temporary file and keeps the old file when the write fails', async () => {
    const dir = tempDir();
    const target = join(dir, 'index.json');
    await writeFileAtomic(target, Buffer.from('{"old":true}\n'));
    // renaming a file over a non-empty folder fails
    const blocked = join(dir, 'sub', 'x');
    mkdirSync(join(blocked, 'inner'), { recursive: true });
    await expect(writeFileAtomic(blocked, Buffer.from('new'))).rejects.toThrow();
    expect(readdirSync(join(dir, 'sub'))).toEqual(['x']);
    expect(await readFile(target, 'utf8')).toBe('{"old":true}\n');
    expect(tempPathFor(target)).toMatch(/\/\.index\.json\.tmp-\d+-[0-9a-f]{8}$/);
  });
});
