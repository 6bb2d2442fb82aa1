/**
 * A blitz reply begun before the press was reported (found by the independent handling model,
 * bench/humanCheck.ts, carlsen.pgn #1157 seed 1): Black plays ...Bxe3+ and presses, but White has
 * already taken the bishop off e3 to recapture when the press arrives. The board then shows Black's
 * move made and a piece lifted off it, which is no proof of an unfinished move: no illegal move.
 *
 * The same with the reply's piece already set down on its way (the model at think times of
 * 0.15–1.5 s, carlsen.pgn #55 seed 1): White plays b4, Black's king goes from f7 towards e8 and
 * touches down on d7, then White's press arrives. The board shows b4 made and a black king where
 * no king could go: the black king is the reply in hand, not part of White's move.
 *
 * And with the piece the reply captured, carried off, registering on a square next to the capture
 * when the press arrives (a ghost, reference §5.5; the model, fide-womens-world-rapid-2024.pgn
 * #244 seed 1 at think times of 0.08–0.6 s): White's e2-e4 (resting on e3, touching d4), ...dxe4
 * at once, the white pawn carried over d4, then White's press. The press made e4 final through
 * the reply published with it, and was then judged as a press with nothing made: an illegal move.
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const failuresOf = (name: string, text: string): string[] =>
  runScript(parseScript(text, name).unwrap()).flatMap(r => r.failures);

describe('the reply begun before the press is reported', () => {
  it("...Bxe3+, the bishop taken off e3 by White before Black's press arrives: no 7.5.1", () => {
    const script = `@edition E23
@timecontrol 5400+30
@start 3r2k1/p6p/1pq1pnpb/2p2P2/2B1P3/2P1BQ2/P5PP/5RK1 b - - 0 24
0    h6 -
224  e3 b
520  e3 -
> move 1 Bxe3+
781  press black
1500 f3 -
2500 e3 Q
> move 2 Qxe3
3200 press white
`;
    expect(failuresOf('reply-before-press.cbs', script)).toEqual([]);
  });

  it('a piece lifted and pressed for without ever being set down is still an illegal move', () => {
    const script = `@edition E23
@timecontrol 5400+30
@start 3r2k1/p6p/1pq1pnpb/2p2P2/2B1P3/2P1BQ2/P5PP/5RK1 b - - 0 24
0    h6 -
300  e3 -
781  press black
> alert illegal-move 7.5.1 black
`;
    expect(failuresOf('pressed-in-hand.cbs', script)).toEqual([]);
  });

  it("b4, Black's king set down on d7 on its way to e8 before White's press arrives: no 7.5.1", () => {
    const script = `@edition E23
@timecontrol 180+2
@start r1n5/p1R1pk1p/1n2p1p1/2R1P3/8/6P1/PP3P1P/6K1 w - - 7 26
0    b2 -
173  b4 P
453  f7 -
608  d7 k
720  press white
> move 1 b4
1000 d7 -
1200 e8 k
> move 2 Ke8
1500 press black
`;
    expect(failuresOf('king-on-its-way.cbs', script)).toEqual([]);
  });

  it("White's piece on a square it cannot reach at the press is still an illegal move, whatever Black's hand does", () => {
    const script = `@edition E23
@timecontrol 180+2
@start r1n5/p1R1pk1p/1n2p1p1/2R1P3/8/6P1/PP3P1P/6K1 w - - 7 26
0    b2 -
173  b5 P
453  f7 -
608  d7 k
720  press white
> alert illegal-move 7.5.1 white
`;
    expect(failuresOf('illegal-with-reply.cbs', script)).toEqual([]);
  });

  it('e4, ...dxe4 at once, the captured pawn passing over d4 as the press arrives: e4 dxe4, no alert', () => {
    const events = scriptEvents(
      `@edition E23
@timecontrol 600+5
@start 6k1/3q1p2/pp2r1pp/1n1p1n2/5B2/3P2PP/1Q2PPBK/1R6 w - - 0 29
515  e2 -
812  e3 P
1150 e3 -
1400 d4 P
1716 d4 -
1817 e4 P
2037 d5 -
2170 e4 p
2244 d4 P
2297 press white
2402 d4 -
2458 press black
8000 tick
`,
      'ghost-at-press.cbs',
    );
    expect(publishedSans(events)).toEqual(['e4', 'dxe4']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('fxe5, ...dxe5 at once, the captured pawn set down on f5 as the press arrives: not f5 with d6 lifted', () => {
    // The model at fast hands with knocks (twic0920.pgn #1798 seed 1): the board also reads as f5
    // with the reply's pawn lifted from d6, a story it never showed (White's pawn never stood on
    // f5 with d6 occupied); taken, Black's press was a 7.5.1 and the game ended at the second.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start 1r1q1r2/5pkp/p2pbnp1/1p2p3/2pPPP1P/2P3P1/PP2Q1BN/R3K2R w KQ - 1 18
0    e5 -
300  f4 -
627  e5 P
1119 d6 -
1267 e5 p
1347 f5 P
1350 press white
1628 f5 -
3186 press black
8000 tick
`,
      'pawn-ghost-at-press.cbs',
    );
    expect(publishedSans(events)).toEqual(['fxe5', 'dxe5']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('Rf8+ slid along the file, ...Kxf8 at once, the rook carried off over f7 as the press arrives: not Rf7', () => {
    // The model over the whole corpus (twic1256.pgn #1400 seed 5, fast hands): the rook touched
    // f2 to f7 for 0.06-0.16 s each on its way, Rf8+ stood 1.1 s. With the king's capture begun
    // and the captured rook's ghost on f7 at the press, the board also reads as Rf7 with Black's
    // king in hand, set down on f8 (a square Rf7 leaves it no move to), a position that passed in
    // 65 ms; taken, Black's press was a 7.5.1.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start 6k1/3qr1n1/2p3RQ/p1p4p/P2pP2P/1P1P4/2P3P1/5R1K w - - 0 50
0    f1 -
90   f2 R
200  f2 -
284  f3 R
444  f3 -
546  f4 R
647  f4 -
718  f5 R
775  f5 -
853  f6 R
920  f6 -
993  f7 R
1058 f7 -
1110 f8 R
2209 g8 -
2328 f8 k
2393 f7 R
2473 press white
2524 f7 -
3746 h6 -
3969 press black
4011 h8 Q
4250 press white
12000 tick
`,
      'ghost-after-slide.cbs',
    );
    expect(publishedSans(events)).toEqual(['Rf8+', 'Kxf8', 'Qh8+']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it("a piece of the presser's own on a square it cannot reach, next to no capture, is still an illegal move", () => {
    const script = `@edition E23
@timecontrol 600+5
@start 6k1/3q1p2/pp2r1pp/1n1p1n2/5B2/3P2PP/1Q2PPBK/1R6 w - - 0 29
515  e2 -
1817 e4 P
2037 d5 -
2170 e4 p
2244 a3 P
2297 press white
> alert illegal-move 7.5.1 white
`;
    expect(failuresOf('not-a-ghost.cbs', script)).toEqual([]);
  });

  it('c5 published, the pawn going on to take on d5, taken off d5 by the reply as the press arrives: cxd5 Nxd5', () => {
    // The model at think times of 0.08-0.6 s (carlsen.pgn #868 seed 1): c4 rests on c5 (published),
    // touches e4, takes on d5 (shown standing 0.24 s); Black lifts the pawn off d5 to recapture
    // before White's press arrives. Read as c5 kept with pieces in hand, the press made the stop
    // final and Black's Nxd5 became an illegal move.
    const events = scriptEvents(
      `@edition E23
@timecontrol 180+2
@start rn1qkb1r/pbp2ppp/1p2pn2/3p4/2PP4/P1N2N2/1P2PPPP/R1BQKB1R w KQkq - 0 6
746  c4 -
1214 c5 P
1523 c5 -
1991 e4 P
2301 e4 -
2405 d5 -
2640 d5 P
2880 d5 -
2981 press white
3322 f6 -
3808 c6 n
4051 c6 -
4530 c4 n
4820 c4 -
5048 d5 n
5259 press black
9000 tick
`,
      'revision-at-press.cbs',
    );
    expect(publishedSans(events)).toEqual(['cxd5', 'Nxd5']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('b4, the pawn taken off b4 for ...axb3 e.p. before the press is reported: no 7.5.1', () => {
    // The pawn an en passant capture takes stands beside the square the capturer lands on: it
    // was not counted as one the reply could take, so b4 read as still in White's hand.
    const script = `@edition E23
@timecontrol 5400+30
@start rnbqkbnr/1ppppppp/8/8/p3P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3
0    b2 -
400  b4 P
550  b4 -
600  press white
> move 1 b4
2000 a4 -
2300 b3 p
> move 2 axb3
2700 press black
`;
    expect(failuresOf('ep-captured-first.cbs', script)).toEqual([]);
  });

  it('Re8+, the rook resting on e7 on its way and taken off e8 by the reply before the press: no 7.5.1', () => {
    // Found by the independent handling model at fast hands (fide-womens-world-rapid-2024.pgn #54):
    // Re7 and Re8+ each with the rook lifted by the reply (...Bxe7, ...Rxe8) fit the board; where
    // the rook was set down last is the move.
    const script = `@edition E23
@timecontrol 5400+30
@start 3r2k1/5ppp/3b4/8/8/8/4RPPP/6K1 w - - 0 30
0    e2 -
460  e7 R
730  e7 -
835  e8 R
1120 e8 -
1200 press white
> move 1 Re8+
2200 d8 -
2600 e8 r
> move 2 Rxe8
2900 press black
`;
    expect(failuresOf('rook-rest-then-taken.cbs', script)).toEqual([]);
  });

  it('bxa5, the captured pawn carried over b5 (a ghost) and a5 taken off by the reply: not b5', () => {
    // The stressed frequencies (carlsen.pgn #796 seed 2): b5 with the pawn lifted fits too, and a
    // piece was set down on b5 last, but it was the captured black pawn, not the mover's.
    const script = `@edition E23
@timecontrol 5400+30
@start rn1qr1k1/pb3pp1/1pp2b1p/3p4/PP1P4/2N1PN2/4BPPP/R2Q1RK1 b - - 0 13
0    a7 -
507  a5 p
> move 1 a5
1118 press black
3024 b4 -
3298 b5 P
3404 b5 -
3559 a6 P
3662 a6 -
3984 a5 P
4259 b5 p
4568 b5 -
5906 a5 -
5952 press white
> move 2 bxa5
6778 a8 -
7453 a5 r
> move 3 Rxa5
9627 press black
`;
    expect(failuresOf('ghost-not-landing.cbs', script)).toEqual([]);
  });

  it('c5 (resting 0.1 s on c6), ...exd5 before the press, the captured pawn passing c6: c5 exd5, not c6 exd5', () => {
    // The whole corpus at seed 8, 1 s (carlsen.pgn #355): two black pawns stray at the press, c5
    // and c6; with c5 read as the ghost, c6 exd5 fits too, and the game was ended by the daemon
    // after two false 7.5.1s. The reading whose move stood a settle window is taken.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPPN1PPP/R1BQKBNR b KQkq - 1 3
0    c7 -
87   c6 p
202  c6 -
254  c5 p
1183 e4 -
1338 d5 P
1456 c6 p
1468 press black
1744 c6 -
1829 press white
2258 e6 -
2679 e5 p
3620 e5 -
3834 d5 p
4124 press black
4345 g1 -
4684 f3 N
4979 press white
`,
      'ghost-on-the-stop.cbs',
    );
    expect(publishedSans(events)).toEqual(['c5', 'exd5', 'exd5', 'Ngf3']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('Bf4 kept 0.3 s, the bishop going on to take on g5, ...Nxg5 before the press, its ghost on f4: Bxg5 Nxg5', () => {
    // The whole corpus at the fastest hands with knocks, seed 11 (fide-womens-world-rapid-2024.pgn
    // #488): the bishop rested on f4 for a settle window (Bf4 published), took on g5 (the captured
    // bishop set down on f6 for 0.4 s as it was carried off), Bxg5 stood 0.25 s, then Black's
    // knight took on g5 and the white bishop was carried off over f4 as White's press arrived. Read
    // as Bf4 with Black's pieces in hand, Black's press was a 7.5.1 and the game ended at the second.
    // The bishop went on from f4 (Bxg5 shown standing after Bf4 was last shown): Bxg5 Nxg5.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start rr4k1/1pqb1p1n/3p2p1/p1nPp1b1/P3P1Pp/N1N1BP1P/1P2BK2/R2Q3R w - - 5 20
46   e3 -
505  f4 B
807  f4 -
959  g5 -
1197 g5 B
1354 f6 b
1747 f6 -
1993 h7 -
2126 g5 n
2196 f4 B
2233 press white
2349 f4 -
2600 press black
2685 f2 -
2911 g2 K
2966 press white
3445 g5 -
3674 h7 n
3731 press black
`,
      'stop-gone-on-ghost.cbs',
    );
    expect(publishedSans(events)).toEqual(['Bxg5', 'Nxg5', 'Kg2', 'Nh7']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it("...dxe4, fxe4 before Black's press, the captured pawn set down on d5, where it came from: dxe4 fxe4", () => {
    // The whole corpus at the fastest hands with knocks, seed 11 (fide-womens-world-rapid-2024.pgn
    // #516): ...dxe4 (resting on e5 and e3 on its way) stood 0.29 s, White took on e4 and carried
    // the black pawn off over d5 as Black's press arrived. The board then shows the position before
    // ...dxe4 with White's f-pawn lifted: Black's press with nothing made, a false 7.5.1.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start 2r1rqk1/1p1n1ppb/p1p4p/3p4/2nPPNPP/3N1PQ1/PP6/2R1RBK1 b - - 0 28
533  d5 -
1000 e5 p
1325 e5 -
1556 e3 p
1826 e3 -
1930 e4 p
2216 f3 -
2366 e4 P
2450 d5 p
2459 press black
2719 d5 -
2846 press white
3015 c4 -
3381 c7 n
3633 c7 -
3746 d6 n
3953 d7 -
4202 d7 n
4487 press black
9000 tick
`,
      'ghost-on-its-square.cbs',
    );
    expect(publishedSans(events)).toEqual(['dxe4', 'fxe4', 'Nd6']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('cxd4, ...Nxd4 before the press, the captured pawn on d5 and the e5 pawn knocked over: cxd4 Nxd4', () => {
    // The same run at seed 11 (twic1256.pgn #2966): White's hand knocked the e5 pawn over after
    // cxd4, Black's knight took on d4 and the white pawn was carried off over d5 as White's press
    // arrived; with e5 empty the board is no story exactly, and White's press was a 7.5.1.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start r2q1rk1/3nbppp/b1n1p3/p1ppP3/8/2P2N2/PPB2PPN/R1BQR1K1 w - - 2 16
13   g3 P
58   g2 -
58   press black
439  d5 -
643  d4 p
718  press white
841  d4 -
877  d4 p
1579 c3 -
1815 d4 -
1844 press black
2615 d4 P
2797 e5 -
3028 c6 -
3133 d4 n
3212 d5 P
3265 press white
3488 d5 -
3808 d4 -
3937 d4 n
4100 press black
4372 e5 P
7000 tick
`,
      'ghost-and-knock.cbs',
    );
    expect(publishedSans(events)).toEqual(['g3', 'd4', 'cxd4', 'Nxd4']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('Nxe5 standing, ...fxe5 before the press, the knight set down on f6 as it arrives: not Nxf6+', () => {
    // The whole corpus at the fastest hands with knocks, seed 11 (fide-womens-world-rapid-2024.pgn
    // #39): the board at White's press is Nxf6+ exactly (the knight on f6, the e5 pawn standing), a
    // revision of Nxe5 shown only after Black's pawn was set down on e5. Taken, it was published
    // and final, and Black's press a 7.5.1; the game ended at the second.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start 3rbrk1/4b1pp/p4p2/1p1Pp3/Pn2PBN1/6P1/1P1N1PBP/R5K1 w - - 0 23
245  g4 -
356  e5 N
687  e5 -
904  e5 N
1420 f6 -
1532 e5 p
1609 f6 N
1717 press white
1726 f6 -
2335 f4 -
2421 press black
2834 f5 B
3176 f5 -
3372 e5 B
3421 press white
3892 e7 -
4138 c5 b
4257 press black
7000 tick
`,
      'revision-after-capture.cbs',
    );
    expect(publishedSans(events)).toEqual(['Nxe5', 'fxe5', 'Bxe5', 'Bc5']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('e3, ...Bxf1 before the press, the captured bishop set down on e2, where the pawn came from: e3 Bxf1', () => {
    // The whole corpus at the fastest hands with knocks, seed 13 (kasparov.pgn #455): the e-pawn
    // resting on d3 on its way, ...Bxf1 made directly and the white bishop carried off over e2 as
    // White's press arrived. The pawn on e3 stands where no white piece stood, so the bishop on e2
    // (a square White's pieces stood on) was never tried as the ghost: a false 7.5.1.
    const events = scriptEvents(
      `@edition E23
@timecontrol 5400+30
@start 1r2k2r/p2qp2p/bp3pp1/2p5/3P4/1QP5/P3PPPP/R3KB1R w KQk - 0 15
36   press black
907  e2 -
1121 d3 P
1457 d3 -
1635 e3 P
1866 a6 -
2054 f1 b
2163 e2 B
2164 press white
2562 e2 -
2808 press black
3057 f1 -
3461 f1 b
4175 e1 -
4400 f1 K
4496 press white
8000 tick
`,
      'ghost-on-the-moved-square.cbs',
    );
    expect(publishedSans(events)).toEqual(['e3', 'Bxf1', 'Kxf1']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });
});
