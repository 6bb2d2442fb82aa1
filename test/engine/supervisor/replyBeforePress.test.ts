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
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';

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
});
