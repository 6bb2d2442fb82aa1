/**
 * Without a clock, moves made faster than the settle window: each a quarter of a second after the
 * last, four plies with no quiet moment between them, so the first board judged is already beyond
 * the tracker's reach (`maxPlies`). Every position was shown in order, so the board is followed
 * further (`chasePlies`). Found by the independent handling model at think times of 0.15–1.5 s
 * (bench/humanCheck.ts, kasparov.pgn #443, seed 1, no clock): the record stopped at ply 90 and an
 * `illegal-position` alert followed 4 s after the last move.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] =>
  scriptEvents(`@edition E23\n${script}`, 'no-clock-fast.cbs');

const START = '@start 8/5pp1/3Pk3/7p/2N5/1K4P1/5n1P/8 w - - 0 46';

describe('a game played faster than the settle window, no clock', () => {
  it('four plies a quarter of a second apart, then more: every ply published, no alert', () => {
    const events = run(`${START}
0     c4 -
289   e5 N
546   e6 -
797   d6 k
1043  e5 -
1191  f7 N
1480  d6 -
1599  d5 k
2520  b3 -
2898  c2 K
3661  d5 -
3893  e4 k
6184  f7 -
6289  g5 N
7629  e4 -
7835  e3 k
8176  g5 -
8342  e6 N
8838  g7 -
9016  g6 p
10299 e6 -
10447 f4 N
16000 tick
`);
    expect(publishedSans(events)).toEqual([
      'Ne5',
      'Kxd6',
      'Nxf7+',
      'Kd5',
      'Kc2',
      'Ke4',
      'Ng5+',
      'Ke3',
      'Ne6',
      'g6',
      'Nf4',
    ]);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('the same with a knight touching down on a square that is no move on its way: the same record', () => {
    const events = run(`${START}
0     c4 -
289   e5 N
546   e6 -
797   d6 k
1043  e5 -
1100  d7 N
1150  d7 -
1191  f7 N
1480  d6 -
1599  d5 k
8000  tick
`);
    expect(publishedSans(events)).toEqual(['Ne5', 'Kxd6', 'Nxf7+', 'Kd5']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('four plies the board never showed one by one (both hands full at once) are not followed', () => {
    // Knight and king lifted together, put down together, twice: no position after Ne5 or after
    // Nxf7+ was ever on the board, so no story is supported step by step; nothing is published
    // past the tip (the board is the arbiter's once it has stood, as before).
    const events = run(`${START}
0     c4 -
100   e6 -
289   e5 N
350   d6 k
600   e5 -
650   d6 -
800   f7 N
850   d5 k
8000  tick
`);
    expect(publishedSans(events)).toEqual([]);
  });
});
