/**
 * A game file damaged in the middle (8 bytes flipped inside a record, after a clean stop): the
 * daemon restarts with every good ply in the live PGN and on MQTT, one journal_damaged alert, the
 * game goes on and the board's next game plays; `replay` marks the range and exits 3
 * (damagedJournal.ts runs it).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeDamagedJournal, flip, middleClockLine, offsetOfLine } from './damagedJournal.js';

describeDamagedJournal({
  name: 'a game file with 8 bytes flipped inside a record',
  base: 'jdamage',
  serialBase: 53000,
  checkpointSeconds: 2,
  damage: async (daemon, journalDir) => {
    expect(await daemon.stop()).toBe(0); // a clean stop: the game file alone holds the game
    const file = join(journalDir, 'games', 'r1-b1.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const victim = middleClockLine(lines, 1);
    await flip(file, offsetOfLine(lines, victim) + 12, 8);
    return victim; // line k (0-based, the header is 0) holds seq k
  },
});
