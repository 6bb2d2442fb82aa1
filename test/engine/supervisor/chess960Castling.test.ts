/**
 * Chess960 castling made on a board, judged under Art. 4 (FIDE Laws, Guidelines on Chess960: the
 * king and rook end on the standard squares, g/f or c/d; the king may stay, the rook may stay, or
 * they may swap; the king is best taken off the board first). The board shows which pieces left
 * which squares and in what order: castling is recognised in every geometry, and the rook lifted
 * before the king is the breach of 4.4.2 as in standard chess; nothing else is alerted.
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';

const failuresOf = (name: string, body: string): string[] =>
  runScript(parseScript(`@edition E23\n@timecontrol 5400+30\n@chess960\n${body}\n`, name).unwrap()).flatMap(
    r => r.failures,
  );

/** King e1, rooks b1 and f1: O-O is the king alone, e1 to g1. */
const KING_ONLY = '1r2kr2/pppppppp/8/8/8/8/PPPPPPPP/1R2KR2 w KQkq - 0 1';
/** King g1, rooks b1 and h1: O-O is the rook alone, h1 to f1 (over the king). */
const ROOK_ONLY = '1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1';
/** King f1, rook g1: O-O swaps them. */
const SWAP = '1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1';
/** King d1, rook a1: O-O-O puts the king on c1 and the rook where the king stood. */
const ROOK_ON_KING = 'r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1';
/** King e1, rook g1: O-O puts the king where the rook stood. */
const KING_ON_ROOK = '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1';
/** King b1, rook a1: the rook crosses the king's square to d1. */
const ACROSS = 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1';

describe('Chess960 castling on the board', () => {
  it('the king alone moves (the rook already on f1)', () => {
    const s = `@start ${KING_ONLY}\n0 e1 -\n400 g1 K\n> move 1 O-O\n1000 press white`;
    expect(failuresOf('king-only.cbs', s)).toEqual([]);
  });

  it('the rook alone moves, the king untouched', () => {
    const s = `@start ${ROOK_ONLY}\n0 h1 -\n600 f1 R\n> move 1 O-O\n1500 press white`;
    expect(failuresOf('rook-only.cbs', s)).toEqual([]);
  });

  it('the rook alone moves, the king taken off first and put back (the Guidelines way)', () => {
    const s = `@start ${ROOK_ONLY}\n0 g1 -\n300 h1 -\n600 f1 R\n900 g1 K\n> move 1 O-O\n1500 press white`;
    expect(failuresOf('rook-only-king-off.cbs', s)).toEqual([]);
  });

  it('king and rook swap, king first, both in hand', () => {
    const s = `@start ${SWAP}\n0 f1 -\n300 g1 -\n600 f1 R\n900 g1 K\n> move 1 O-O\n1500 press white`;
    expect(failuresOf('swap.cbs', s)).toEqual([]);
  });

  it('king and rook swap, the rook lifted half a second before the king: 4.4.2', () => {
    const s = `@start ${SWAP}\n0 g1 -\n500 f1 -\n900 f1 R\n1200 g1 K\n> move 1 O-O\n> alert castling-order 4.4.2 white proven\n1800 press white`;
    expect(failuresOf('swap-rook-first.cbs', s)).toEqual([]);
  });

  it('king and rook lifted together for the swap (scan order g1 after f1 or before): no 4.4.2', () => {
    const s = `@start ${SWAP}\n0 g1 -\n20 f1 -\n600 f1 R\n900 g1 K\n> move 1 O-O\n1500 press white`;
    expect(failuresOf('swap-together.cbs', s)).toEqual([]);
  });

  it('the king put on c1 first (a legal king move by itself), then the rook onto d1: revised to O-O-O', () => {
    const s = `@start ${ROOK_ON_KING}\n0 d1 -\n300 c1 K\n> move 1 Kc1\n1500 a1 -\n1800 d1 R\n> correction 1 revision O-O-O\n2500 press white`;
    expect(failuresOf('rook-on-king.cbs', s)).toEqual([]);
  });

  it("the king off the board, the rook onto the king's square, the king down last", () => {
    const s = `@start ${ROOK_ON_KING}\n0 d1 -\n300 a1 -\n700 d1 R\n1000 c1 K\n> move 1 O-O-O\n2500 press white`;
    expect(failuresOf('rook-on-king-off.cbs', s)).toEqual([]);
  });

  it("the king onto the rook's square, the rook lifted after the king", () => {
    const s = `@start ${KING_ON_ROOK}\n0 e1 -\n300 g1 -\n700 g1 K\n1000 f1 R\n> move 1 O-O\n2500 press white`;
    expect(failuresOf('king-on-rook.cbs', s)).toEqual([]);
  });

  it('the rook across the king, moved first: castling stands, with 4.4.2', () => {
    const s = `@start ${ACROSS}\n0 a1 -\n300 d1 R\n900 b1 -\n1200 c1 K\n> move 1 O-O-O\n> alert castling-order 4.4.2 white proven\n2000 press white`;
    expect(failuresOf('across-rook-first.cbs', s)).toEqual([]);
  });

  it('the king and then the rook touched, another move made while O-O was legal: 4.4.1', () => {
    const s = `@start ${ROOK_ONLY}\n0 g1 -\n300 g1 K\n600 h1 -\n800 h1 R\n1200 a2 -\n1500 a3 P\n> move 1 a3\n> alert touch-move 4.4.1 white proven\n2500 press white`;
    expect(failuresOf('king-rook-touched.cbs', s)).toEqual([]);
  });
});
