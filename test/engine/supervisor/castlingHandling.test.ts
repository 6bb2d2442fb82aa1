/**
 * Castling as people make it on a sensor board, found false by the independent handling model
 * (bench/humanCheck.ts): king and rook lifted together, which the board reports in its scan order
 * (a1 before e1: "rook first" by a few ms), and a castling whose king was lifted before the
 * opponent's press was reported. Neither proves the rook was touched first (4.4.2).
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';

const failuresOf = (name: string, text: string): string[] =>
  runScript(parseScript(text, name).unwrap()).flatMap(r => r.failures);

describe('castling handled by people: no 4.4.2 the board cannot prove', () => {
  it('queenside with king and rook in hand together: a1 reported 20 ms before e1', () => {
    const script = `@edition E23
@timecontrol 5400+30
@start r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1
0    a1 -
20   e1 -
600  c1 K
700  d1 R
> move 1 O-O-O
1400 press white
`;
    expect(failuresOf('both-in-hand-queenside.cbs', script)).toEqual([]);
  });

  it('the rook set down before the king is lifted is still rook first (S19 timing)', () => {
    const script = `@edition E23
@timecontrol 5400+30
@start r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1
0    a1 -
150  d1 R
220  e1 -
280  c1 K
> move 1 O-O-O
> alert castling-order 4.4.2 white
1000 press white
`;
    expect(failuresOf('rook-then-king-quick.cbs', script)).toEqual([]);
  });

  it("king first, the opponent's press reported after the king's lift (carlsen.pgn #434, seed 2)", () => {
    const script = `@edition E23
@timecontrol 5400+30
@start r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1
0    a2 -
300  a3 P
> move 1 a3
1500 e8 -
1670 press white
2000 g8 k
2350 h8 -
2800 f8 r
> move 2 O-O
3500 press black
`;
    expect(failuresOf('king-before-press.cbs', script)).toEqual([]);
  });
});
