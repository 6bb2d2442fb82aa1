/**
 * The shared write-ahead log damaged, after a SIGKILL and the game files cut as a power cut leaves
 * them: 8 bytes flipped inside a record in the middle that a game file lost, and the log's last
 * record cut short (one being written when the power went), and a record of another game flipped
 * in its game file while the log holds it intact (put back from there), found by one restart; later, after the rest of the games, another SIGKILL
 * with the game files cut back and garbage appended to the log. The records after the damage are
 * applied, the flipped one reported in one journal_damaged alert, every other record and ply
 * stays, nothing is lost to the garbage, the games go on and each board's next game plays
 * (damagedJournal.ts runs it).
 */
import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeDamagedJournal } from './damagedJournal.js';
import {
  appendGarbage,
  appendTornRecord,
  flip,
  middleClockLine,
  offsetOfLine,
} from './journalDamageTools.js';

/** The one segment of the write-ahead log. */
const segment = async (journalDir: string): Promise<string> => {
  const segments = (await readdir(join(journalDir, 'wal'))).filter(n => n.endsWith('.wal'));
  expect(segments).toHaveLength(1);
  return join(journalDir, 'wal', segments[0] ?? '');
};

const entryOf = (line: string): { game: string; seq: number } => {
  const e = JSON.parse(line) as { game: string; record: { seq: number } };
  return { game: e.game, seq: e.record.seq };
};

describeDamagedJournal({
  name: 'the write-ahead log: bytes flipped in a record, the last record cut short, garbage appended',
  base: 'jdamagewal',
  serialBase: 54000,
  boards: 3,
  checkpointSeconds: 3600,
  stop: 'kill', // the log stays
  damage: async (journalDir, games) => {
    // A power cut loses the game files' lines since the last checkpoint: keep a third of them.
    const kept = new Map<string, number>();
    for (const g of games) {
      const file = join(journalDir, 'games', `${g}.jsonl`);
      const lines = (await readFile(file, 'utf8')).split('\n');
      kept.set(g, Math.floor(lines.length / 3)); // line k holds seq k: seq 1 … kept-1 stay
      await writeFile(
        file,
        lines
          .slice(0, kept.get(g))
          .map(l => `${l}\n`)
          .join(''),
      );
    }
    const wal = await segment(journalDir);
    const log = (await readFile(wal, 'utf8')).split('\n');
    const victim = middleClockLine(log, 0);
    const flipped = entryOf(log[victim] ?? '');
    expect(flipped.seq).toBeGreaterThanOrEqual(kept.get(flipped.game) ?? Infinity); // a record the game file lost
    await flip(wal, offsetOfLine(log, victim) + 40, 8);
    // A record of another game flipped in its game file, whose copy in the log is intact: put
    // back from the log at the restart, so nothing is lost and that game gets no alert.
    const other = games.find(g => g !== flipped.game) ?? '';
    const otherFile = join(journalDir, 'games', `${other}.jsonl`);
    const otherLines = (await readFile(otherFile, 'utf8')).split('\n');
    await flip(otherFile, offsetOfLine(otherLines, middleClockLine(otherLines, 1)) + 12, 8);
    // The log's last record cut short: one being written when the power went (the whole records
    // before it were acknowledged and published; this one was not).
    const torn = entryOf(await appendTornRecord(wal));
    expect(torn.seq).toBeGreaterThan(kept.get(torn.game) ?? Infinity);
    return games.map(g => ({
      alert: g === flipped.game ? `record seq ${flipped.seq} lost` : undefined,
      lost: g === flipped.game ? [flipped.seq] : [],
      replayExit: g === flipped.game ? (3 as const) : (0 as const),
    }));
  },
  later: async (journalDir, sizes) => {
    // Another power cut: the game files lose what was written since the restart (the log holds
    // it), and garbage follows the log's last record.
    for (const [file, size] of sizes) await truncate(file, size);
    await appendGarbage(await segment(journalDir));
  },
});
