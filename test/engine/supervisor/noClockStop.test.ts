/**
 * Without a clock, a capture is never read back to its capturer's stop (found by the independent
 * handling model, bench/humanCheck.ts, stressed frequencies, no clock: twic0920.pgn #2015 seed 3
 * and engine-threefold-repetition.pgn #496 seed 2 at 1 s dwell, twic1256.pgn #3023 seed 2 at 0.3 s).
 * The move rested on a square (a stop) on its way, then stood on its destination; the reply took
 * it off first and its capturer rested on its way too. The board then read as the stop followed by
 * a move of the capturer's, and the move was revised back to its stop and kept (Re4 for Rxe1+, a5
 * for axb5, Nd3 Bxd3 for Ne4). Such a reading waits now: the capturer goes on, the capture is read.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] =>
  scriptEvents(`@edition E23\n${script}`, 'no-clock-stop.cbs');

/** Every move or correction published for `ply` from `after` ms on, as SAN. */
const publishedFor = (events: readonly GameEvent[], ply: number, after: number): string[] =>
  events.flatMap(e => {
    if (e.at < after) return [];
    if (e.type === 'move' && e.ply === ply) return [e.san];
    if (e.type === 'correction' && e.fromPly <= ply)
      return e.moves.filter(m => m.ply === ply).map(m => m.san);
    return [];
  });

describe('a capture without a clock, never read back to its stop', () => {
  it('...Re8 rests on e4, takes on e1 (a ghost on d1); White takes it off, Rb1 rests on c1, d1: never ...Re4', () => {
    const events = run(`@start r1b1r1k1/p4ppp/1n3b2/3p4/2p5/1P1B1N2/P1PB1PPP/1R2R1K1 b - - 1 18
0    e8 -
482  e4 r
1647 e4 -
2191 e1 -
2771 e1 r
2918 d1 R
3187 d1 -
4114 e1 -
5171 b1 -
5580 c1 R
6418 c1 -
6760 d1 R
7906 d1 -
8283 e1 R
8340 e2 r
8505 e2 -
`);
    expect(publishedSans(events)).toEqual(['Rxe1+', 'Rxe1']);
    // Once the capture was read (the rook standing on e1), ply 1 is never read back to the stop.
    expect(publishedFor(events, 1, 3187)).toEqual(['Rxe1+']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('...a6 rests on a5 and c6, takes on b5 (a ghost on a5); White takes it off, a4 rests on b6: never ...a5', () => {
    const events = run(`@start 1r1r2k1/5pp1/p3p2p/1P1n4/P1B5/6P1/1P3P1P/3R1RK1 b - - 1 25
0    a6 -
254  a5 p
1421 a5 -
1726 c6 p
2714 c6 -
3325 b5 p
3417 a5 P
3679 a5 -
4690 b5 -
6131 a4 -
6413 b6 P
7281 b6 -
7632 b5 P
`);
    expect(publishedSans(events)).toEqual(['axb5', 'axb5']);
    expect(publishedFor(events, 1, 3679)).toEqual(['axb5']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('...Nc5 set down on d3 and f5, stands on e4; White takes it off, Bc2 rests on d3 and f3: never ...Nd3 Bxd3', () => {
    const events = run(`@start 2r2rk1/2qnbp1p/4p1p1/p1npP3/3N1B2/2P4Q/P1B2PPP/R3RK2 b - - 0 19
0    c5 -
155  d3 n
420  d3 -
670  f5 n
1003 f5 -
1606 e4 n
2187 e4 -
2843 c2 -
3197 d3 B
3530 d3 -
3915 f3 B
4162 f3 -
4990 e4 B
5085 f5 n
5483 f5 -
7788 d5 -
8273 f5 p
8528 f5 -
9284 e4 -
9815 e4 p
`);
    expect(publishedSans(events)).toEqual(['Ne4', 'Bxe4', 'dxe4']);
    expect(publishedFor(events, 1, 1606)).toEqual(['Ne4']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('a revision the board shows standing is still read: ...Ne4 stands, then the knight goes back to d3', () => {
    // The knight rests on d3, stands on e4, then is put on d3 (the board shows ...Nd3 again, after
    // ...Ne4 was made): that is the mover's, read at once.
    const events = run(`@start 2r2rk1/2qnbp1p/4p1p1/p1npP3/3N1B2/2P4Q/P1B2PPP/R3RK2 b - - 0 19
0    c5 -
155  d3 n
420  d3 -
1606 e4 n
2187 e4 -
2500 d3 n
`);
    expect(publishedSans(events)).toEqual(['Nd3']);
    const revised = events.find(e => e.type === 'correction');
    expect(revised).toMatchObject({ fromPly: 1, at: 2800 });
  });
  it('Rd8+ rests on d7; ...Rxd8 at once, the captured rook carried off over d7: Rd8+ Rxd8, not Rd7 ...Rd8', () => {
    // The model over the whole corpus without a clock (fide-womens-world-rapid-2024.pgn #176 seed
    // 5, stressed, fast hands): Rd7 published (0.36 s on d7), Rd8+ stood 0.25 s, Black's rook
    // rested on d7 and e7 on its way and replaced White's on d8, whose ghost touched d7 for 0.11 s:
    // the board was then the position after Rd7 ...Rd8, read with White's rook lifted from d7; the
    // game then went wrong and raised an illegal-position alert.
    const events = run(`@start 2r3k1/q4pp1/3R3p/1P2P3/n1p4P/2B1PPP1/6K1/3Q4 w - - 0 42
157  d6 -
609  d7 R
967  d7 -
1218 d8 R
1467 c8 -
1624 d7 r
1982 d7 -
2148 e7 r
2410 e7 -
2550 d8 r
2616 d7 R
2726 d7 -
3247 d8 -
4625 d1 -
4729 d8 Q
5039 g8 -
5324 g6 k
5645 g6 -
5759 h7 k
12000 tick
`);
    expect(publishedSans(events)).toEqual(['Rd8+', 'Rxd8', 'Qxd8+', 'Kh7']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });
});
