/**
 * Pieces knocked over at the press: the hand that makes the move knocks a piece beside it, which
 * lies on its side (the board no longer senses it) or falls off the board, and the player presses
 * before setting it up (in blitz, or without noticing). The board shows the move made and a piece
 * missing: that is no completed illegal move (the board proves a legal move and a displaced
 * piece, 7.4), though the product judged it one (7.5.1, the move taken back and two minutes to the
 * opponent). Set up again later, in either player's time, the piece is no touch either.
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';

const failuresOf = (name: string, text: string): string[] =>
  runScript(parseScript(text, name).unwrap()).flatMap(r => r.failures);

const OPENING = `@edition E23
@timecontrol 5400+30
0     e2 -
300   e4 P
> move 1 e4
600   press white
5000  e7 -
5300  e5 p
> move 2 e5
5600  press black
`;

describe('a piece knocked over at the press', () => {
  it('Nf3 knocks the g2 pawn over, White presses, then sets it up: the move stands, a finding, no alert', () => {
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9500  g2 -
9900  press white
> finding displaced-pieces 7.4.1 white possible information
11000 g2 P
15000 b8 -
15400 c6 n
> move 4 Nc6
15800 press black
40000 tick
`;
    const [run] = runScript(parseScript(script, 'knocked-at-press.cbs').unwrap());
    expect(run?.failures).toEqual([]);
    const finding = run?.events.find(e => e.type === 'finding');
    expect(finding?.type === 'finding' && finding.text).toEqual([
      { key: 'displaced.at_press', params: { color: 'white', squares: ['g2'] } },
    ]);
  });

  it('the pawn stays off through the reply and its owner sets it up in his own time: no touch', () => {
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9500  g2 -
9900  press white
> finding displaced-pieces 7.4.1 white possible information
15000 b8 -
15400 c6 n
> move 4 Nc6
15800 press black
17000 g2 P
20000 f1 -
20400 c4 B
> move 5 Bc4
20800 press white
40000 tick
`;
    expect(failuresOf('knocked-set-up-later.cbs', script)).toEqual([]);
  });

  it('still off at his next press: the moves stand, a finding at each of his presses', () => {
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9500  g2 -
9900  press white
> finding displaced-pieces 7.4.1 white possible information
15000 b8 -
15400 c6 n
> move 4 Nc6
15800 press black
20000 f1 -
20400 c4 B
> move 5 Bc4
20800 press white
> finding displaced-pieces 7.4.1 white possible information
22000 g2 P
26000 g8 -
26400 f6 n
> move 6 Nf6
26800 press black
40000 tick
`;
    expect(failuresOf('knocked-stays-off.cbs', script)).toEqual([]);
  });

  it('knocked over just after the press, set up by its owner after the reply: no touch of his', () => {
    // Lifted in Black's time, the pawn counts as touched in Black's turn (the board cannot see
    // whose hand): information only, as Black cannot take it (4.5).
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9900  press white
10200 g2 -
15000 b8 -
15400 c6 n
> move 4 Nc6
15800 press black
> finding touched-no-legal-move 4.5 black possible information
17000 g2 P
20000 f1 -
20400 c4 B
> move 5 Bc4
20800 press white
40000 tick
`;
    expect(failuresOf('knocked-after-press.cbs', script)).toEqual([]);
  });

  it('a black pawn knocked over by White: Black sets it up in his time, then replies; no touch, no alert', () => {
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9500  f7 -
9900  press white
12000 f7 p
15000 b8 -
15400 c6 n
> move 4 Nc6
15800 press black
40000 tick
`;
    expect(failuresOf('knocked-opponent.cbs', script)).toEqual([]);
  });

  it('the moved piece itself missing is still an unfinished move: castling pressed with the rook in hand', () => {
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9900  press white
14000 b8 -
14400 c6 n
> move 4 Nc6
14800 press black
18000 f1 -
18400 c4 B
> move 5 Bc4
18800 press white
22000 g8 -
22400 f6 n
> move 6 Nf6
22800 press black
26000 e1 -
26300 g1 K
26600 h1 -
27000 press white
> alert illegal-move 7.5.1 white
40000 tick
`;
    expect(failuresOf('castling-rook-in-hand.cbs', script)).toEqual([]);
  });

  it('a capture pressed with the capturer still in hand is still an illegal move', () => {
    const script = `${OPENING}9000  g1 -
9400  f3 N
> move 3 Nf3
9900  press white
14000 b8 -
14400 c6 n
> move 4 Nc6
14800 press black
18000 e5 -
18200 f3 -
18600 press white
> alert illegal-move 7.5.1 white
40000 tick
`;
    expect(failuresOf('capturer-in-hand.cbs', script)).toEqual([]);
  });
});
