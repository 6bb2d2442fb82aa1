/**
 * The shared write-ahead log damaged in the middle (8 bytes flipped inside a record the game file
 * lost: a SIGKILL, then the game file cut as a power cut leaves it): the records after the damage
 * are applied, the lost one reported in one journal_damaged alert, every other ply stays in the
 * feed, the game goes on and the board's next game plays (damagedJournal.ts runs it).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeDamagedJournal, flip, middleClockLine, offsetOfLine } from './damagedJournal.js';

describeDamagedJournal({
  name: 'the write-ahead log with 8 bytes flipped inside a record, after a SIGKILL and a power cut',
  base: 'jdamagewal',
  serialBase: 54000,
  checkpointSeconds: 3600,
  restartAgain: true,
  damage: async (daemon, journalDir) => {
    await daemon.kill(); // the log stays
    const file = join(journalDir, 'games', 'r1-b1.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    // A power cut loses the game file's lines since the last checkpoint: keep a third of them.
    const kept = Math.floor(lines.length / 3);
    await writeFile(
      file,
      lines
        .slice(0, kept)
        .map(l => `${l}\n`)
        .join(''),
    );
    const segments = (await readdir(join(journalDir, 'wal'))).filter(n => n.endsWith('.wal'));
    expect(segments).toHaveLength(1);
    const wal = join(journalDir, 'wal', segments[0] ?? '');
    const log = (await readFile(wal, 'utf8')).split('\n');
    const victim = middleClockLine(log, 0);
    const seq = (JSON.parse(log[victim] ?? '') as { record: { seq: number } }).record.seq;
    expect(seq).toBeGreaterThanOrEqual(kept); // a record the game file no longer has
    await flip(wal, offsetOfLine(log, victim) + 40, 8);
    return seq;
  },
});
