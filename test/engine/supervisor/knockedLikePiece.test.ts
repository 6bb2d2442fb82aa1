/**
 * Two like pieces could have made the presser's move, the other knocked over, and the moving piece
 * passed over the knocked piece's square on its way (found by the independent handling model over
 * the whole corpus, bench/humanCheck.ts, stressed frequencies, fast hands and knocks, seed 9,
 * 0.3 s: twic0920.pgn #2134 and #2204, twic1256.pgn #2041). The move was read as made by the
 * knocked piece, because its square was the last one emptied before the move's square was filled:
 * but what left it then was the moving piece, set down there a moment before. The like pieces are
 * now followed through the events, a hand setting down the piece it lifted last: the knocked piece
 * stays in the air under it. Both runs gave two false 7.5.1s and a game ended by the daemon.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] =>
  scriptEvents(`@edition E23\n@timecontrol 5400+30\n${script}`, 'knocked-like-piece.cbs');

const alerts = (events: readonly GameEvent[]): readonly GameEvent[] => events.filter(e => e.type === 'alert');

describe('the like piece that passed over a knocked piece’s square made the move', () => {
  it('the rook of e2 knocked over by Black, Rae1 resting on b1 and e2: Rae1, not Ree1, and ...Bxd2 legal', () => {
    const events = run(`@start 6k1/pp4p1/8/3p1qb1/8/B1P5/1K1NR3/R7 b - - 1 37
38   f5 -
170  d3 q
411  d3 -
466  d3 q
624  e2 -
773  press black
934  a1 -
1129 b1 R
1396 b1 -
1618 e2 R
1910 e2 -
2211 e1 R
2792 press white
3683 b2 -
3864 b2 K
4039 e2 R
4387 g5 -
4431 f4 b
4557 f4 -
4699 e3 b
4831 e3 -
4956 d2 b
5105 d1 N
5368 d1 -
5692 press black
`);
    expect(publishedSans(events)).toEqual(['Qd3', 'Rae1', 'Bxd2']);
    expect(alerts(events)).toEqual([]);
    expect(events.some(e => e.type === 'end')).toBe(false);
  });

  it('the c7 pawn knocked over at Nxb6+, ...axb6 resting on c7: ...axb6, not ...cxb6, and d4 legal', () => {
    const events = run(`@start 2kr3r/pppb1pb1/1n1p1n1p/6p1/2N5/2NP2B1/PPP1BPPP/2KR3R w - - 8 15
97   c4 -
423  a5 N
725  a5 -
1009 b6 -
1306 b6 N
1599 c5 n
1923 c5 -
1978 c7 -
2255 press white
2496 a7 -
2835 c7 p
3080 c7 -
3197 b6 -
3790 b6 p
3980 press black
5070 c7 p
6462 d3 -
6680 d4 P
6826 press white
`);
    expect(publishedSans(events)).toEqual(['Nxb6+', 'axb6', 'd4']);
    expect(alerts(events)).toEqual([]);
  });

  it('with nothing passing over it, the piece that left its square last still made the move', () => {
    // The rook of a1 knocked over before White's turn, Re2-e1 made afterwards: Ree1.
    const events = run(`@start 6k1/pp4p1/8/3p1qb1/8/B1P5/1K1NR3/R7 b - - 1 37
38   f5 -
170  d3 q
624  a1 -
773  press black
1500 e2 -
1800 e1 R
2300 press white
`);
    expect(publishedSans(events)).toEqual(['Qd3', 'Ree1']);
    expect(alerts(events)).toEqual([]);
  });
});
