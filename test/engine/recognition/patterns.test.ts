/**
 * Every way of handling the pieces, one table row each, with the source it comes from: the serial
 * captures of real play (reference dgt-protocol.md §5.4 Q2 and §5.5) and the scenarios of the
 * Laws reference (fide-laws-for-boards.md §13). Scripts use the shorthand `TIME SQUARE PIECE`.
 */
import { describe, expect, it } from 'vitest';
import { recognise, sansOf, summarise } from './support.js';

/** Kingside and queenside castling available to both sides (reference §13.3, FEN C1). */
const C1 = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
/** En passant available: after 1.e4 a6 2.e5 d5 (reference §13.4, FEN EP). */
const EP = 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3';
/** A pawn about to promote (reference §13.5, FEN PR) and one that can capture on b8 (PRX). */
const PR = '4k3/P7/8/8/8/8/8/4K3 w - - 0 1';
const PRX = '1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1';
/** White knight d5 can take a bishop on e7; e6 is empty for a ghost (§5.4 Q2). */
const KNIGHT_TAKES = 'rn1qk2r/ppppbppp/8/3N4/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1';
/** A rook on a1 with the first rank clear to f1 (§5.5: Ra1–d1–e1–f1). */
const ROOK_RUN = '4k3/8/8/8/8/8/8/R5K1 w - - 0 1';

interface Case {
  readonly name: string;
  /** Where the case comes from. */
  readonly source: string;
  readonly script: string;
  readonly fen?: string;
  readonly moves?: string;
  readonly expected: readonly string[];
  /** The recognised game afterwards (default: the SANs of the expected moves). */
  readonly sans?: string;
}

const CASES: readonly Case[] = [
  {
    name: 'plain move, clock pressed',
    source: '§13.1 S01; §5.5 (85 % of plies are exactly two updates)',
    script: '0 e2 -; 200 e4 P; 900 press w',
    expected: ['move 1 e4 @200', 'final 1 press'],
  },
  {
    name: 'place before lift (scan order), one-square pawn push',
    source: '§5.5 quiet moves: 2 placed before the lift; §5.4 Q1',
    script: '0 e3 P; 25 e2 -; 900 tick',
    expected: ['move 1 e3 @25'],
  },
  {
    name: 'direct replacement capture: the target changes from the captured piece to the capturer',
    source: '§5.4 Q2 (e5×f4 arrives as e5 empty, f4 black pawn); §5.5 25 of 35 captures',
    moves: 'e4 e5 f4',
    script: '0 e5 -; 250 f4 p; 900 tick',
    expected: ['move 4 exf4 @250'],
  },
  {
    name: 'captured piece removed first',
    source: '§5.5 7 of 35 captures',
    moves: 'e4 e5 f4',
    script: '0 f4 -; 500 e5 -; 800 f4 p; 1500 press b',
    expected: ['move 4 exf4 @800', 'final 4 press'],
  },
  {
    name: 'capturer lifted, captured piece removed, capturer placed',
    source: '§5.5 3 of 35 captures',
    moves: 'e4 e5 f4',
    script: '0 e5 -; 300 f4 -; 600 f4 p; 1500 tick',
    expected: ['move 4 exf4 @600'],
  },
  {
    name: 'ghost of the captured bishop on a neighbouring square',
    source: '§5.4 Q2 (after Nxe7 the bishop registered on e6); §5.5 5 of 35 captures',
    fen: KNIGHT_TAKES,
    script: '0 d5 -; 200 e7 N; 260 e6 b; 330 e6 -; 1200 tick',
    expected: ['move 1 Nxe7 @330'],
  },
  {
    name: 'touch-down on d3, itself a legal move, on the way to d4',
    source: '§5.5 intermediate squares (d2–d3–d4); issue: must not become a committed d3',
    script: '0 d2 -; 150 d3 P; 260 d3 -; 420 d4 P; 1200 tick',
    expected: ['move 1 d4 @420'],
  },
  {
    name: 'two stops on legal squares: Ra1–d1–e1–f1',
    source: '§5.5 intermediate squares (9 of 11 stops were legal moves)',
    fen: ROOK_RUN,
    script: '0 a1 -; 200 d1 R; 300 d1 -; 380 e1 R; 460 e1 -; 600 f1 R; 1300 tick',
    expected: ['move 1 Rf1 @600'],
  },
  {
    name: 'knight touching down on a square that is not a knight move',
    source: '§5.5 intermediate squares (a knight stop off its moves)',
    script: '0 g1 -; 150 g3 N; 230 g3 -; 330 f3 N; 1000 tick',
    sans: 'Nf3',
    expected: ['move 1 Nf3 @330'],
  },
  {
    name: 'slide with flicker: the queen registers on the squares it passes, the target toggles',
    source: '§5.4 Q1 (queen c1×c4 produced 7 updates); flicker occurs',
    fen: '4k3/8/8/8/8/8/8/3QK3 w - - 0 1',
    script: '0 d1 -; 30 d2 Q; 60 d2 -; 80 d3 Q; 110 d3 -; 140 d4 Q; 170 d4 -; 190 d4 Q; 900 tick',
    expected: ['move 1 Qd4 @190'],
  },
  {
    name: 'castling king first, four updates, complete only when the rook is placed',
    source: '§5.4 Q2 (e1 empty, g1 K, h1 empty, f1 R, all six castlings); §13.3 S16',
    fen: C1,
    script: '0 e1 -; 200 g1 K; 900 h1 -; 1100 f1 R; 1500 press w',
    expected: ['pending castling', 'move 1 O-O @1100', 'final 1 press'],
  },
  {
    name: 'castling queenside king first, quickly',
    source: '§13.3 S21 (castling is a king move); queenside not seen in §5.5',
    fen: C1,
    script: '0 e1 -; 150 c1 K; 250 a1 -; 400 d1 R; 1200 tick',
    expected: ['move 1 O-O-O @400'],
  },
  {
    name: 'castling rook first within the settle window: recognised as castling',
    source: '§13.3 S19 (a 4.4 breach for the supervisor; the castling itself is recognised)',
    fen: C1,
    script: '0 h1 -; 200 f1 R; 350 e1 -; 550 g1 K; 1200 press w',
    expected: ['move 1 O-O @550', 'final 1 press'],
  },
  {
    name: 'castling rook first, slowly: Rf1 is published, then corrected (never a branch)',
    source: '§13.3 S19; issue: a revision is a correction from ply N',
    fen: C1,
    script: '0 h1 -; 200 f1 R; 900 e1 -; 1100 g1 K; 1500 press w',
    expected: ['move 1 Rf1 @200', 'correction 1 O-O (revision)', 'final 1 press'],
  },
  {
    name: 'promotion: pawn placed on the last rank first, then exchanged',
    source: '§13.5 S32 (E09 4.6.c: pending until the new piece is released)',
    fen: PR,
    script: '0 a7 -; 200 a8 P; 900 a8 -; 1500 a8 Q; 2000 press w',
    expected: ['pending promotion', 'move 1 a8=Q+ @1500', 'final 1 press'],
  },
  {
    name: 'promotion: pawn removed, new piece placed directly (under-promotion)',
    source: '§13.5 S33 (E14+ 4.6.a–b)',
    fen: PR,
    script: '0 a7 -; 700 a8 N; 1500 tick',
    expected: ['move 1 a8=N @700'],
  },
  {
    name: 'promotion with capture: captured rook and pawn removed, queen placed',
    source: '§13.5 S37 (4.6.3: order free)',
    fen: PRX,
    script: '0 b8 -; 300 a7 -; 700 b8 Q; 1500 press w',
    expected: ['move 1 axb8=Q+ @700', 'final 1 press'],
  },
  {
    name: 'promotion with capture by direct replacement of the captured rook with a knight',
    source: '§5.5 direct replacement applied to §13.5 S37',
    fen: PRX,
    script: '0 a7 -; 600 b8 N; 1500 tick',
    expected: ['move 1 axb8=N @600'],
  },
  {
    name: 'en passant, capturer first, captured pawn removed last',
    source: '§5.5 en passant (the one observed); §13.4 S27 (the transient is not rejected)',
    fen: EP,
    script: '0 e5 -; 200 d6 P; 900 d5 -; 1500 press w',
    expected: ['pending enPassant', 'move 1 exd6 @900', 'final 1 press'],
  },
  {
    name: 'en passant, captured pawn removed first',
    source: '§13.4 S28',
    fen: EP,
    script: '0 d5 -; 400 e5 -; 600 d6 P; 1500 tick',
    expected: ['move 1 exd6 @600'],
  },
  {
    name: 'en passant, capturer lifted, captured pawn removed, capturer placed',
    source: '§13.4 (third order the daemon must accept, reference §2.3)',
    fen: EP,
    script: '0 e5 -; 200 d5 -; 450 d6 P; 1500 tick',
    expected: ['move 1 exd6 @450'],
  },
  {
    name: 'adjustment: a piece lifted and put back is not a move',
    source: "§13.2 S08 (j'adoube); §1.2 of the reference",
    script: '0 adjust w; 100 g1 -; 300 g1 N; 1500 e2 -; 1700 e4 P; 2500 tick',
    expected: ['move 1 e4 @1700'],
  },
  {
    name: 'knocked-over piece vanishes after the move and reappears: the move is made when it landed',
    source:
      'issue: knocked-over pieces that vanish and reappear; a piece the move did not touch lying is displaced (7.4)',
    script: '0 e2 -; 200 e4 P; 300 d2 -; 1500 d2 P; 2500 tick',
    expected: ['move 1 e4 @200'],
  },
  {
    name: 'opponent piece knocked over after the move: the move is made, the opponent has the move',
    source: 'issue: knocked-over pieces; reference §1.1 (the opponent may act once the move is made)',
    script: '0 e2 -; 200 e4 P; 300 d7 -; 1500 d7 p; 2500 tick',
    expected: ['move 1 e4 @200'],
  },
  {
    name: 'pieces held in the air never produce a move',
    source: 'issue: pieces in the air; reference §1.2 (release is seen only as placement + debounce)',
    script: '0 g1 -; 3000 f3 N; 4000 tick',
    expected: ['move 1 Nf3 @3000'],
  },
  {
    name: 'two plies between quiet moments (blitz): both published, the first final by the reply',
    source: '§5.5 clock (the reply within one tick; a stable position may be two plies ahead)',
    script: '0 e2 -; 200 e4 P; 300 e7 -; 450 e5 p; 1200 tick',
    expected: ['move 1 e4 @200', 'move 2 e5 @450', 'final 1 reply'],
  },
  {
    name: 'transposed orders reach the same board: the events decide (e4 e5 Nf3, not Nf3 e5 e4)',
    source: '§5.5 (blitz); issue: never invent moves',
    script: '0 e2 -; 200 e4 P; 300 e7 -; 450 e5 p; 520 g1 -; 700 f3 N; 2000 tick',
    expected: ['move 1 e4 @200', 'move 2 e5 @450', 'move 3 Nf3 @700', 'final 1 reply', 'final 2 reply'],
  },
  {
    name: 'the opponent replies before the press; the press still completes the first move',
    source: '§13.1 S02 (E14+: the opponent has the move once it is made)',
    script: '0 e2 -; 200 e4 P; 700 e7 -; 900 e5 p; 1500 press w; 2000 tick',
    expected: ['move 1 e4 @200', 'move 2 e5 @900', 'final 1 reply'],
  },
  {
    name: 'touch-down on b3, then b4, answered at once by a.xb3 e.p. (not b3 axb3)',
    source: '§5.5 stops + en passant; the board alone cannot tell them apart, the dwell can',
    fen: '4k3/8/8/8/p7/8/1P6/4K3 w - - 0 1',
    script: '0 b2 -; 100 b3 P; 160 b3 -; 300 b4 P; 450 b4 -; 600 a4 -; 750 b3 p; 1500 tick',
    expected: ['move 1 b4 @300', 'move 2 axb3 @750', 'final 1 reply'],
  },
  {
    name: 'h3, answered at once by gxh3 with a ghost of the pawn on h4 (not h4 gxh3 e.p.)',
    source: '§5.5 ghosts + captured piece first; the ghost shows the double-step square briefly',
    fen: '4k3/8/8/8/6p1/8/7P/4K3 w - - 0 1',
    script: '0 h2 -; 200 h3 P; 350 h3 -; 380 h4 P; 450 h4 -; 600 g4 -; 750 h3 p; 1500 tick',
    expected: ['move 1 h3 @200', 'move 2 gxh3 @750', 'final 1 reply'],
  },
  {
    name: 'a legal move released, then moved on (release lock): published, then corrected',
    source: "§13.1 S04 (the Art. 4 verdict is the supervisor's; recognition reports what the board shows)",
    script: '0 g1 -; 200 f3 N; 800 f3 -; 1000 h3 N; 1500 press w',
    expected: ['move 1 Nf3 @200', 'correction 1 Nh3 (revision)', 'final 1 press'],
  },
  {
    name: 'an illegal placement is a mismatch until corrected',
    source: '§13.1 S05 (bishop put on f3, then c4)',
    moves: 'e4 e5',
    script: '0 f1 -; 200 f3 B; 800 f3 -; 1000 c4 B; 1600 press w',
    expected: ['mismatch f1,f3 (settle, unreachable)', 'move 3 Bc4 @1000', 'resolved 3', 'final 3 press'],
  },
  {
    name: 'clock pressed with the pawn left on the last rank: reported at the press',
    source: '§13.5 S36 (Art. 7 decides: E14+ replaced by a queen)',
    fen: PR,
    script: '0 a7 -; 200 a8 P; 400 press w',
    expected: ['pending promotion', 'mismatch a7,a8 (press, unreachable)'],
    sans: '',
  },
  {
    name: 'a press without a move changes nothing',
    source: '§13.1 S03 (pressing again has no effect on recognition)',
    script: '0 e2 -; 200 e4 P; 900 press w; 1500 press w; 2000 tick',
    expected: ['move 1 e4 @200', 'final 1 press'],
  },
];

describe('handling patterns', () => {
  it.each(CASES)('$name ($source)', c => {
    const r = recognise(c.script, {
      ...(c.fen ? { fen: c.fen } : {}),
      ...(c.moves ? { moves: c.moves } : {}),
    });
    expect(summarise(r.outputs)).toEqual(c.expected);
    // The game record afterwards holds the last published version of each ply.
    const last = new Map<number, string>();
    for (const line of c.expected) {
      const m = /^move (\d+) (\S+)/.exec(line);
      if (m) last.set(Number(m[1]), m[2] ?? '');
      const k = /^correction (\d+) (\S+)/.exec(line);
      if (k) last.set(Number(k[1]), k[2] ?? '');
    }
    const recorded = r.state.game.moves;
    for (const [ply, san] of last) expect(recorded[ply - 1]?.san).toBe(san);
    expect(recorded.length).toBe(Math.max(r.state.game.moves.length - last.size, 0) + last.size);
  });
});

describe('occupancy-only boards (role unknown: inferred from the game)', () => {
  const OCC = { options: { occupancyOnly: true } };
  const cases: readonly Omit<Case, 'expected'>[] = [
    // Issue "boards that see occupancy only"; DESIGN.md drivers: role unknown.
    { name: 'plain move', source: 'issue', script: '0 e2 -; 200 e4 ?; 1000 tick', sans: 'e4' },
    {
      name: 'capture with the target emptied and refilled',
      source: '§5.5 orders on an occupancy board',
      moves: 'e4 d5',
      script: '0 e4 -; 100 d5 -; 300 d5 ?; 1000 tick',
      sans: 'exd5',
    },
    {
      name: 'castling king first',
      source: '§13.3 S16',
      fen: C1,
      script: '0 e1 -; 200 g1 ?; 400 h1 -; 600 f1 ?; 1200 tick',
      sans: 'O-O',
    },
    {
      name: 'en passant, captured pawn removed last',
      source: '§13.4 S27',
      fen: EP,
      script: '0 e5 -; 200 d6 ?; 900 d5 -; 1500 tick',
      sans: 'exd6',
    },
    {
      name: 'promotion: a queen is assumed',
      source: '§3.6 of the reference (occupancy needs a UI choice)',
      fen: PR,
      script: '0 a7 -; 200 a8 ?; 1000 tick',
      sans: 'a8=Q+',
    },
    {
      name: 'two plies with a capture-recapture on one square',
      source: '§5.5 blitz',
      moves: 'e4 d5',
      script: '0 e4 -; 60 d5 -; 120 d5 ?; 200 d8 -; 230 d5 -; 280 d5 ?; 1200 tick',
      sans: 'exd5 Qxd5',
    },
  ];
  it.each(cases)('$name ($source)', c => {
    const r = recognise(c.script, {
      ...OCC,
      ...(c.fen ? { fen: c.fen } : {}),
      ...(c.moves ? { moves: c.moves } : {}),
    });
    expect(summarise(r.outputs).filter(s => s.startsWith('mismatch') || s.startsWith('correction'))).toEqual(
      [],
    );
    const n = (c.sans ?? '').split(' ').length;
    expect(sansOf(r).split(' ').slice(-n).join(' ')).toBe(c.sans);
  });

  it('a flicker on a square that could be captured is not a capture (the capturer left afterwards)', () => {
    // Corpus run on occupancy boards: ...h6 with a flicker on h6, then Bxf6 within one window.
    const r = recognise('0 h7 -; 200 h6 ?; 213 h6 -; 231 h6 ?; 445 g5 -; 537 f6 -; 673 f6 ?; 1500 tick', {
      ...OCC,
      fen: '4k3/7p/5n2/6B1/8/8/8/4K3 b - - 0 1',
    });
    expect(sansOf(r)).toBe('h6 Bxf6');
    expect(r.outputs.filter(o => o.type === 'mismatch' || o.type === 'correction')).toEqual([]);
  });

  it('a lifted pawn next to a piece it could capture is not a capture (the target never emptied)', () => {
    // Corpus run on occupancy boards: 4...d5 then e4 lifted for e5 was taken for exd5.
    const r = recognise('0 e4 -; 1000 tick', { ...OCC, moves: 'e4 e6 d4 d5' });
    expect(sansOf(r)).toBe('e4 e6 d4 d5');
    expect(r.state.status.kind).toBe('inProgress');
  });

  it('a piece adjusted just after a capture is not taken for a capture on its square', () => {
    // Corpus run on occupancy boards: ...Qxc5, then White adjusts the queen on f3 (Qxf3 was legal).
    const r = recognise('0 f5 -; 197 c5 -; 232 c5 ?; 432 f3 -; 749 f3 ?; 1500 tick', {
      ...OCC,
      fen: '4k3/8/8/2B2q2/8/5Q2/8/4K3 b - - 0 1',
    });
    expect(sansOf(r)).toBe('Qxc5');
  });

  it('a capture whose target the sensors cannot see change is made only by the press', () => {
    // Direct replacement on an occupancy board: only the capturer's square changes (§5.5 + occupancy).
    const held = recognise('0 e4 -; 1200 tick', { ...OCC, moves: 'e4 d5' });
    expect(held.state.game.length).toBe(2);
    expect(held.state.status.kind).toBe('inProgress');
    const pressed = recognise('0 e4 -; 1200 press w', { ...OCC, moves: 'e4 d5' });
    expect(sansOf(pressed)).toBe('e4 d5 exd5');
    // ... or by the next move made on top of it.
    const replied = recognise('0 e4 -; 900 d8 -; 1100 d5 -; 1150 d5 ?; 2000 tick', {
      ...OCC,
      moves: 'e4 d5',
    });
    expect(sansOf(replied)).toBe('e4 d5 exd5 Qxd5');
  });
});
