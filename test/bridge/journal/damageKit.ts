/**
 * What the journal damage tests share: a game's settings, one small journal entry per seq, and
 * temporary folders removed after each test.
 *
 *   const dir = tempDir('salvage'); // removed after the test
 *   await store.append('g1', entryFor(3));
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { GameSettings, JournalEntry } from '../../../src/bridge/journal/format.js';

export const SETTINGS: GameSettings = {
  edition: 'E23',
  gameType: 'blitz',
  supervision: 'full',
  timeControl: '3+2',
  startFen: 'startpos',
};

/** An observation entry that differs for every seq. */
export const entryFor = (seq: number): JournalEntry => ({
  type: 'observation',
  board: 'b',
  observation: { type: 'square', at: seq * 10, square: seq % 64, content: { kind: 'empty' } },
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh folder, removed after the test. */
export const tempDir = (name: string): string => {
  const d = mkdtempSync(join(tmpdir(), `chessbridge-${name}-`));
  dirs.push(d);
  return d;
};
