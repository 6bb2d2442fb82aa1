/**
 * Without a clock, a published move is not revised by a board shown only after the opponent's
 * reply on top of it had stood (`minReplyMs`), when the tip's own stories cannot follow what came
 * next (found by the independent handling model over the whole corpus, bench/humanCheck.ts,
 * stressed frequencies, fast hands and knocks, seed 10, 0.3 s, no clock: kasparov.pgn #1752,
 * twic1256.pgn #2770). The reply stood a quarter of a second, the next move's piece rested on its
 * way, and the board for a moment showed a revision of the published move (its captured piece's
 * ghost, or the reply's capture passing): published, then corrected back. Such a board now waits.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] =>
  scriptEvents(`@edition E23\n${script}`, 'no-clock-reply-stood.cbs');

/** Every SAN published for `ply`, as a move or in a correction, in order (`(none)`: taken away). */
const publishedFor = (events: readonly GameEvent[], ply: number): string[] =>
  events.flatMap(e => {
    if (e.type === 'move' && e.ply === ply) return [e.san];
    if (e.type === 'correction' && e.fromPly <= ply) {
      const moves = e.moves.filter(m => m.ply === ply).map(m => m.san);
      return moves.length > 0 || e.fromPly < ply ? moves : ['(none)'];
    }
    return [];
  });

describe('no revision of a published move shown only after the reply stood on top of it', () => {
  it('...Rc5 standing, Bd5 (0.25 s, after stops), the rook resting on c4 on its way to d5: never ...Rxc4', () => {
    const events = run(`@start r2k4/1p4q1/p2p4/5Rnp/2B1P3/1P6/1PP4K/4R3 b - - 3 33
100   a8 -
293   b8 r
603   b8 -
788   c8 r
2052  e1 -
2262  e2 R
2496  b3 -
2948  b3 P
3725  c2 -
4023  c2 P
4620  c8 -
4920  c5 r
5760  c4 -
5961  c6 B
6311  c6 -
6682  e5 B
6932  e5 -
7069  d5 B
7322  d5 -
8557  c5 -
8973  c4 r
9300  c4 -
9537  c6 r
9841  c6 -
10031 d5 r
`);
    expect(publishedSans(events)).toEqual(['Rc8', 'Re2', 'Rc5', 'Bd5', 'Rxd5']);
    expect(publishedFor(events, 3)).toEqual(['Rc5']);
  });

  it('Kc3, ...d2 (0.2 s), Kxd2 over e3 and c1, the pawn carried off over d3: Kc3 is never put back', () => {
    const events = run(`@start R7/7p/1k4p1/8/2p1P3/1p1p2P1/p2K2P1/8 w - - 0 48
156   d2 -
301   c3 K
1151  d3 -
1391  d2 p
1592  c3 -
1748  e3 K
2065  e3 -
2282  c1 K
2528  c1 -
2718  d2 K
2771  d3 p
3087  d3 -
3782  d2 -
4253  d2 K
4679  b3 -
4916  b2 p
`);
    expect(publishedSans(events)).toEqual(['Kc3', 'd2', 'Kxd2', 'b2']);
    expect(publishedFor(events, 1)).toEqual(['Kc3']);
  });
});
