/**
 * Enforce mode (Art. 4 taken back automatically, docs/supervisor.md): the recogniser is moved onto
 * the shortened line in the middle of a board event's outputs; the outputs still to come belong to
 * the line it left and must not be judged on the new one.
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';

const failuresOf = (name: string, text: string): string[] =>
  runScript(parseScript(text, name).unwrap()).flatMap(r => r.failures);

describe('enforce mode: outputs after a takeback', () => {
  it('a forbidden castling still on the board, then the opponent moves (fide-womens-world-rapid-2024 #10)', () => {
    // O-O with the rook first is taken back (4.4.2) but left standing; White plays Be3 and presses.
    // The press gives O-O again (forbidden: the line goes back to ply 9) and then Be3 as ply 11,
    // which once crashed with "no position at ply 10". Nothing is recorded while O-O stands.
    const script = `@edition E23
@type rapid
@mode enforce
@moves d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Be2
0    h8 -
249  f8 r
318  e8 -
2413 g8 k
4633 press black
> move 10 O-O
> alert castling-order 4.4.2 black
> correction 10 arbiter
6000 c1 -
6400 e3 B
8000 press white
`;
    expect(failuresOf('forbidden-castling-then-reply.cbs', script)).toEqual([]);
  });
});
