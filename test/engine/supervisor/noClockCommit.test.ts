/**
 * Without a clock, a reply seen under way makes the move it answers final (commit.ts,
 * commitOnReply), but only a reply the board proves. Two readings were not (the corpus script,
 * scripts/supervisionCorpus.ts, seed 3: carlsen.pgn #267 at 1 s dwell, twic1256.pgn #1344 at
 * every dwell): the mover's piece went on from its stop to the square where it was then captured,
 * and a captured bishop carried off passed for a moment over the square the queen had rested on.
 * Each made the stop final, and the record stopped there.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] =>
  scriptEvents(`@edition E23\n${script}`, 'no-clock-commit.cbs');

const alertsOf = (events: readonly GameEvent[]): GameEvent[] => events.filter(e => e.type === 'alert');

describe('a reply under way makes the move final only when the board proves it', () => {
  it('...Rf6 rests on g6, goes on to f5; the queen from g5 takes it there: Rf5 Qxf5, not Rg6 kept', () => {
    const events = run(`@start 3R1n1k/5qp1/2P1pr2/p5Qp/2B3p1/8/5PPP/6K1 b - - 0 32
0    f6 -
549  g6 r
1651 g6 -
1832 f5 r
2008 g5 -
2164 f5 Q
`);
    expect(publishedSans(events)).toEqual(['Rf5', 'Qxf5']);
    expect(alertsOf(events)).toEqual([]);
  });

  it('Qd2 rests on g5; the bishop on h6 taken off passes g5; the queen lands on h6: Qxh6 Nf5, not Qg5 kept', () => {
    const events = run(`@start r2q1rk1/1b2np1p/2n1p1pb/pp2P3/3p4/3P1NP1/PP1Q1PBP/R3RNK1 w - - 0 16
0    d2 -
1804 g5 Q
2752 g5 -
3517 h6 -
3592 g5 b
3685 g5 -
3894 h6 Q
4663 e7 -
4912 f5 n
`);
    expect(publishedSans(events)).toEqual(['Qxh6', 'Nf5']);
    expect(alertsOf(events)).toEqual([]);
  });
});
