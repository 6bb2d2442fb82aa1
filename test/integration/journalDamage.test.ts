/**
 * Game files damaged after a clean stop, one kind of damage a board, found by one restart: 8 bytes
 * flipped inside a record in the middle (board 1), the last record cut short (board 2), garbage
 * appended (board 3). The daemon restarts with every good record kept and every ply in the live
 * PGN and on MQTT, one journal_damaged alert a game, the games go on and each board's next game
 * plays; `replay` marks the flipped range and exits 3 (damagedJournal.ts runs it).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeDamagedJournal } from './damagedJournal.js';
import {
  appendGarbage,
  cutLastRecord,
  flip,
  middleClockLine,
  offsetOfLine,
  seqOfLine,
} from './journalDamageTools.js';

describeDamagedJournal({
  name: 'game files: bytes flipped in a record, the last record cut short, garbage appended',
  base: 'jdamage',
  serialBase: 53000,
  boards: 3,
  checkpointSeconds: 2,
  stop: 'clean', // the game files alone hold the games
  damage: async (journalDir, games) => {
    const [flipped, cut, appended] = games.map(g => join(journalDir, 'games', `${g}.jsonl`));
    if (flipped === undefined || cut === undefined || appended === undefined) throw new Error('3 games');
    const lines = (await readFile(flipped, 'utf8')).split('\n');
    const victim = middleClockLine(lines, 1);
    const victimSeq = seqOfLine(lines[victim] ?? '');
    await flip(flipped, offsetOfLine(lines, victim) + 12, 8);
    const cutSeq = seqOfLine(await cutLastRecord(cut));
    await appendGarbage(appended);
    return [
      { alert: `record seq ${victimSeq} lost`, lost: [victimSeq], replayExit: 3 },
      // Nothing else holds the record cut short (the log is empty after a clean stop).
      { alert: 'were cut off', lost: [cutSeq], replayExit: 0 },
      // The reader cannot tell garbage from a record cut short, so the arbiter is told.
      { alert: 'were cut off', lost: [], replayExit: 0 },
    ];
  },
});
