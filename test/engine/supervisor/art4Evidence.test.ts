/**
 * What counts as a touch on a board that cannot see hands (docs/supervisor.md, "Evidence"): each
 * script is a false alert once raised on the handling corpus (scripts/supervisionCorpus.ts), cut
 * down to the moves concerned, next to the unambiguous pattern that must still be reported.
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';

const failuresOf = (name: string, text: string): string[] =>
  runScript(parseScript(text, name).unwrap()).flatMap(r => r.failures);

describe('touches after the move is made are not the mover’s', () => {
  it('a piece next to the destination knocked over as the hand withdraws (twic1256 #3071)', () => {
    // Rxc2, then the bishop on d3 falls and is set up again: no 4.3.3 duty to take it.
    const script = `@edition all
@start 1r4k1/2qb1ppp/4p3/3pP3/Pp1BnP2/1PrB4/2P3PP/3RQR1K b - - 0 33
0    c3 -
245  c2 r
295  d3 -
523  d3 B
> move 1 Rxc2
1800 press black
`;
    expect(failuresOf('knocked-after-move.cbs', script)).toEqual([]);
  });

  it('a ghost of the captured piece, then a knocked piece (twic0920 #1754)', () => {
    // Nxb4: the queen carried off registers on b3, then the rook on e1 falls and is set up again.
    const script = `@edition E23
@start 1kr5/1bN3pp/3Rp3/4n3/1Q4P1/3n4/PPP4P/1K2R3 b - - 0 29
0    d3 -
333  b4 n
403  b3 Q
492  b3 -
731  e1 -
811  e1 R
> move 1 Nxb4
`;
    expect(failuresOf('ghost-then-knocked.cbs', script)).toEqual([]);
  });

  it('the opponent adjusts his piece within the settle window, then replies with it (carlsen #595)', () => {
    // Qb8 (no clock), and Black lifts and puts back the queen on a4 225 ms later: not White's 4.3.3.
    const script = `@edition all
@start 8/4p1k1/3p1pp1/2nP4/qQ6/1b2N1P1/5PBK/8 w - - 14 44
0    b4 -
650  b8 Q
875  a4 -
1007 a4 q
1900 a4 -
2200 a2 q
> move 1 Qb8
> move 2 Qa2
`;
    expect(failuresOf('reply-in-window.cbs', script)).toEqual([]);
  });
});

describe('a piece lifted while the player holds one of his own', () => {
  it('and put back is no touch: it may have been knocked by the hand', () => {
    const script = `@edition all
@moves e4 e5 Nf3 Nc6
0    f3 -
150  e5 -
400  e5 p
700  g5 N
> move 5 Ng5
`;
    expect(failuresOf('knocked-in-hand.cbs', script)).toEqual([]);
  });

  it('with nothing in hand, the same touches are a 4.3.3 duty to capture, graded possible', () => {
    // The knight (touched first, put back) was moved: its duty is met. The duty to capture comes
    // from the black pawn, and the board cannot tell whose hand lifted it: a possible finding.
    const script = `@edition all
@moves e4 e5 Nf3 Nc6
0    f3 -
300  f3 N
800  e5 -
1100 e5 p
1600 f3 -
1800 g5 N
> move 5 Ng5
> [E97] finding touch-move 4.3 white possible
> [E09 E14] finding touch-move 4.3.c white possible
> [E17+] finding touch-move 4.3.3 white possible
`;
    expect(failuresOf('touched-then-other.cbs', script)).toEqual([]);
  });
});

describe('4.5: a touched piece with no legal move', () => {
  it('is information, not a breach: no loss of a right to claim, nothing taken back when enforcing', () => {
    const script = `@edition E23
@mode enforce
0    c1 -
400  c1 B
900  e2 -
1100 e4 P
> move 1 e4
1800 press white
> finding touched-no-legal-move 4.5 white proven information
3000 e7 -
3200 e5 p
> move 2 e5
`;
    expect(failuresOf('no-legal-move-information.cbs', script)).toEqual([]);
  });
});

describe('the published record', () => {
  it('stops at the end, although the recogniser goes on tracking the board', () => {
    // Kxe2 leaves two bare kings: the game ends at once; the king walk after it is no ply.
    const game = Game.fromFen('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1').unwrap();
    const { state } = startSupervision(
      { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full' },
      { game },
    );
    const out = runSupervision(state, parseShorthand('0 e1 -; 300 e2 K; 2000 e8 -; 2300 d7 k; 4000 tick'));
    expect(out.events.flatMap(e => (e.type === 'end' ? [e.reason] : []))).toEqual(['deadPosition']);
    expect(publishedSans(out.events)).toEqual(['Kxe2']);
  });

  it('applies corrections: plies from fromPly are replaced', () => {
    const move = (ply: number, san: string) =>
      ({ type: 'move', ply, san, uci: '', fen: '', game: 'g', seq: ply, at: ply }) as const;
    expect(
      publishedSans([
        move(1, 'e4'),
        move(2, 'd6'),
        {
          type: 'correction',
          fromPly: 2,
          moves: [{ ply: 2, san: 'd5', uci: '', fen: '' }],
          reason: 'revision',
          game: 'g',
          seq: 3,
          at: 3,
        },
        move(3, 'exd5'),
      ]),
    ).toEqual(['e4', 'd5', 'exd5']);
  });
});
