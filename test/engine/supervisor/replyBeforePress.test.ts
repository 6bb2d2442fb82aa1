/**
 * A blitz reply begun before the press was reported (found by the independent handling model,
 * bench/humanCheck.ts, carlsen.pgn #1157 seed 1): Black plays ...Bxe3+ and presses, but White has
 * already taken the bishop off e3 to recapture when the press arrives. The board then shows Black's
 * move made and a piece lifted off it, which is no proof of an unfinished move: no illegal move.
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
});
