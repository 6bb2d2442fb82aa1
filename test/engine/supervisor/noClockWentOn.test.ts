/**
 * Without a clock, a move is not made final by a reply read while its piece had gone on (found by
 * the independent handling model over the whole corpus, bench/humanCheck.ts, stressed frequencies
 * and fast hands, seed 5, 0.3 s, no clock: twic0920.pgn #568 and #1635, kasparov.pgn #767, #874
 * and #1000, twic1256.pgn #2461). The move rested on a square on its way (a stop, published), went
 * on and stood on its destination for about a settle window, and the reply took it off first, its
 * capturer resting on the stop's square or the captured piece carried off over it: the board then
 * showed the stop and a reply for a moment, and the stop was made final by that reply. Or the
 * reply captured the move's piece where it stood and the captured piece was set down on the
 * square the capturer came from, which read as the move revised to take the capturer instead.
 * Such readings wait now for the board to stand; the capturer goes on, the ghost is lifted.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] =>
  scriptEvents(`@edition E23\n${script}`, 'no-clock-went-on.cbs');

/** Every move or correction published for `ply`, as SAN, in order. */
const publishedFor = (events: readonly GameEvent[], ply: number): string[] =>
  events.flatMap(e => {
    if (e.type === 'move' && e.ply === ply) return [e.san];
    if (e.type === 'correction' && e.fromPly <= ply)
      return e.moves.filter(m => m.ply === ply).map(m => m.san);
    return [];
  });

const alerts = (events: readonly GameEvent[]): readonly GameEvent[] => events.filter(e => e.type === 'alert');

describe('a stop is not made final by a reply read while its piece had gone on', () => {
  it('...Qe6 published, the queen on d6 for 0.3 s, taken off, Qe5 resting on e6: ...Qd6 Qxd6, not ...Qe6 Qxe6', () => {
    const events = run(`@start 3r3k/5pp1/1p4qp/p1pNQ3/4P3/PP1BB2P/6PK/8 b - - 4 37
0    g6 -
233  f6 q
484  f6 -
955  e6 q
1257 e6 -
1645 d6 q
1944 d6 -
2859 e5 -
3102 e6 Q
3437 e6 -
3734 d6 Q
4527 d6 -
4980 d6 Q
5338 d6 -
6519 d8 -
6720 d6 r
6869 d6 -
6935 d6 r
7119 e6 Q
7414 e6 -
7952 e3 -
8073 f4 B
8135 f4 -
8166 f4 B
`);
    expect(publishedSans(events)).toEqual(['Qd6', 'Qxd6', 'Rxd6', 'Bf4']);
    expect(publishedFor(events, 2)).not.toContain('Qxe6');
    expect(alerts(events)).toEqual([]);
  });

  it('Rd5 resting on d7 and c8, Rd8+ standing, ...Rxd8 with the rook carried off over d7: never Rd7 ...Rd8', () => {
    const events = run(`@start r4kqr/4b3/p4pQ1/1pnRp2B/5P2/8/PPP3PP/2KR4 w - - 1 24
0    d5 -
474  d7 R
734  d7 -
1158 c8 R
1417 c8 -
1618 d8 R
1910 d8 -
2629 a8 -
2973 d8 r
3108 d7 R
3412 d7 -
`);
    expect(publishedSans(events)).toEqual(['Rd8+', 'Rxd8']);
    expect(publishedFor(events, 2)).toEqual(['Rxd8']);
    expect(alerts(events)).toEqual([]);
  });

  it('b3 published, the pawn on b4 for 0.4 s (a flicker), taken en passant: b4 cxb3, not b3 cxb3', () => {
    const events = run(`@start r3rbk1/1b3p1n/p5pp/1p2p3/P1p1P1P1/2P1BPN1/1PB2KP1/R3R3 w - - 0 24
0    b2 -
399  b3 P
721  b3 -
867  b4 P
1029 b4 -
1064 b4 P
1306 b4 -
2356 c4 -
2523 b3 p
`);
    expect(publishedSans(events)).toEqual(['b4', 'cxb3']);
    expect(alerts(events)).toEqual([]);
  });
});

describe("the reply's capture is not read as the captured piece's move (a ghost)", () => {
  it('Nxh6+ standing, ...gxh6 with the knight set down on g7 as it is carried off: never Nxg7', () => {
    const events = run(`@start 2rq1rk1/p2n1pp1/1p5p/2b2N2/2B5/5PP1/PPQ2P2/3R1RK1 w - - 5 21
0    h6 -
675  f5 -
1027 h7 N
1295 h7 -
1548 h6 N
2710 g7 -
2875 h6 p
3042 g7 N
3401 g7 -
`);
    expect(publishedSans(events)).toEqual(['Nxh6+', 'gxh6']);
    expect(publishedFor(events, 1)).toEqual(['Nxh6+']);
    expect(alerts(events)).toEqual([]);
  });

  it('...Nxc4+ standing, dxc4 with the knight set down on d3 as it is carried off: never ...Nxd3', () => {
    const events = run(`@start 8/6pp/1p6/pPkN4/2P5/3P1P2/1n1K4/8 b - - 2 46
0    c4 -
1110 b2 -
1279 c4 n
1372 b4 P
1612 b4 -
2734 c4 -
3455 d3 -
3626 c4 P
3854 d3 n
4168 d3 -
`);
    expect(publishedSans(events)).toEqual(['Nxc4+', 'dxc4']);
    expect(publishedFor(events, 1)).toEqual(['Nxc4+']);
    expect(alerts(events)).toEqual([]);
  });
});

describe('other runs of the whole corpus without a clock (seed 8, 1 s)', () => {
  it('O-O-O, Bg5 slid over d2-e3-f4, ...h6 at once, Be3 back: never Be3 ...h6 (the bishop stood on g5 before h6)', () => {
    const events = run(`@start r3kb1r/ppqnp2p/2pp1np1/8/2PP3P/3B1QN1/PP3PP1/R1B1K2R b KQkq - 0 11
0    a8 -
33   e8 -
193  d8 r
449  c8 k
730  c1 -
870  d2 B
1042 d2 -
1174 e3 B
1360 e3 -
1412 f4 B
1476 f4 -
1549 g5 B
1847 h6 p
1863 h7 -
2116 g5 -
2393 e3 B
2532 e3 -
2592 e3 B
3065 e3 -
3418 e3 B
4174 c7 -
4488 a5 q
`);
    expect(publishedSans(events)).toEqual(['O-O-O', 'Bg5', 'h6', 'Be3', 'Qa5+']);
    expect(alerts(events)).toEqual([]);
  });

  it('Rac5 standing, ...Rh5 (a flicker), Rxh5 with the rook set down on h4 as it is carried off: never Rh5 from a5', () => {
    const events = run(`@start 8/5pk1/4p1p1/R7/r6r/2R3KP/8/8 w - - 0 45
0    a5 -
380  c5 R
1467 h4 -
1823 h5 r
2033 h5 -
2079 h5 r
2329 h5 -
2682 c5 -
2956 h5 R
3129 h4 r
3299 h4 -
4208 g6 -
4495 h5 -
5063 h5 p
5183 g6 R
5516 g6 -
`);
    expect(publishedSans(events)).toEqual(['Rac5', 'Rh5', 'Rxh5', 'gxh5']);
    expect(publishedFor(events, 1)).toEqual(['Rac5']);
    expect(alerts(events)).toEqual([]);
  });
});
