/**
 * The board tracker (issue "Board tracker", DESIGN.md): when the board jumps (a snapshot after a
 * reconnect, missed updates, a position restored by hand) it is found among earlier plies
 * (takeback) or up to three plies forward when the path is unique; otherwise the board does not
 * match. Moves are never invented. Result gestures (reference data/sensor README: kings on the
 * centre squares) are results, never moves.
 */
import { describe, expect, it } from 'vitest';
import { recognise, sansOf, summarise } from './support.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';

describe('board tracker: jumps of the board', () => {
  const cases: readonly {
    name: string;
    source: string;
    moves?: string;
    script: string;
    expected: readonly string[];
    sans: string;
  }[] = [
    {
      name: 'takeback to the start after two completed moves',
      source: 'issue: a takeback to any earlier ply',
      moves: 'e4 e5',
      script: `0 snapshot ${START}; 5000 tick`,
      expected: ['correction 1 - (takeback)'],
      sans: '',
    },
    {
      name: 'takeback of one ply, pieces moved back by hand',
      source: 'issue: an arbiter restored an earlier position',
      moves: 'e4 e5 Nf3',
      script: '0 f3 -; 200 g1 N; 5000 tick',
      expected: ['correction 3 - (takeback)'],
      sans: 'e4 e5',
    },
    {
      name: 'one missed move (reconnect)',
      source: 'issue: missed updates',
      moves: 'e4',
      script: '0 snapshot rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR; 1000 tick',
      expected: ['move 2 e5 @0'],
      sans: 'e4 e5',
    },
    {
      name: 'three missed plies, unique path',
      source: 'issue: up to 3 missed moves forward when the path is unique',
      moves: 'e4',
      script: '0 snapshot rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR; 1000 tick',
      expected: ['move 2 d5 @0', 'move 3 exd5 @0', 'move 4 Qxd5 @0', 'final 2 reply', 'final 3 reply'],
      sans: 'e4 d5 exd5 Qxd5',
    },
    {
      name: 'three missed plies with a capture on one square, which also read as one move with two pieces in hand',
      source:
        'recovery benchmark: a daemon restarted after Bb5+ published Qd7 (a bishop each side "in hand")',
      moves: 'e4 c5 Nf3 d6 Bb5+',
      script: '0 snapshot rn2kbnr/pp1qpppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQK2R; 1000 press black',
      expected: [
        'move 6 Bd7 @0',
        'move 7 Bxd7+ @0',
        'move 8 Qxd7 @0',
        'final 6 reply',
        'final 7 reply',
        'final 8 press',
      ],
      sans: 'e4 c5 Nf3 d6 Bb5+ Bd7 Bxd7+ Qxd7',
    },
    {
      name: 'two missed plies, then a move seen live within the settle window: the dump vouches for the plies before it',
      source: 'recovery benchmark: Nxd4 Nf6 in the dump, then Nc3 (not Nc3 Nf6 Nxd4, not an illegal move)',
      moves: 'e4 c5 Nf3 e6 d4 cxd4',
      script:
        '0 snapshot rnbqkb1r/pp1p1ppp/4pn2/8/3NP3/8/PPP2PPP/RNBQKB1R; 85 b1 -; 118 c3 N; 258 press white',
      expected: [
        'move 7 Nxd4 @0',
        'move 8 Nf6 @0',
        'move 9 Nc3 @118',
        'final 7 reply',
        'final 8 reply',
        'final 9 press',
      ],
      sans: 'e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3',
    },
    {
      name: 'three missed plies in either order (e5 Nf3 Nc6 or Nc6 Nf3 e5): not unique, nothing invented',
      source: 'issue: only when the path is unique',
      moves: 'e4',
      script: '0 snapshot r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R; 1000 tick',
      expected: ['mismatch g1,f3,e5,c6,e7,b8 (settle, ambiguous)'],
      sans: 'e4',
    },
    {
      name: 'transposed orders with no events in between: ambiguous, nothing invented',
      source: 'issue: it never invents moves',
      script: '0 snapshot rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R; 1000 tick',
      expected: ['mismatch g1,e2,f3,e4,e5,e7 (settle, ambiguous)'],
      sans: '',
    },
    {
      name: 'a snapshot showing the same position changes nothing',
      source: 'DGT connection recipe: a dump after every reconnect (dgt-protocol.md §5.3)',
      moves: 'e4',
      script: '0 snapshot rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR; 1000 tick',
      expected: [],
      sans: 'e4',
    },
  ];
  it.each(cases)('$name ($source)', c => {
    const r = recognise(c.script, c.moves ? { moves: c.moves } : {});
    expect(summarise(r.outputs)).toEqual(c.expected);
    expect(sansOf(r)).toBe(c.sans);
  });

  it('five missed plies in several orders: one mismatch naming the squares and the candidate orders', () => {
    // After a restart or a lost link the tracker looks as far as catchUpPlies (8) for the moves
    // made meanwhile: e5 Nf3 Nc6 Bc4 Nf6 and its transpositions all reach the board.
    const r = recognise('0 snapshot r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R; 1000 tick', {
      moves: 'e4',
    });
    const out = r.outputs.filter(o => o.type === 'mismatch');
    expect(out).toHaveLength(1);
    const m = out[0];
    if (m?.type === 'mismatch') {
      expect(m.reason).toBe('ambiguous');
      expect(m.squares.length).toBe(10);
      expect(m.orders?.root).toBe(1);
      expect(m.orders?.lines.map(l => l.join(' '))).toContain('e5 Nf3 Nc6 Bc4 Nf6');
      expect(m.orders?.lines.every(l => l.length === 5)).toBe(true);
    }
    expect(sansOf(r)).toBe('e4');
  });

  it('a board beyond the catch-up reach is a mismatch naming the squares, nothing invented', () => {
    // Nine plies from the start (e4 e5 Nf3 Nc6 Bc4 Nf6 d3 d6 O-O): more than catchUpPlies.
    const r = recognise('0 snapshot r1bqkb1r/ppp2ppp/2np1n2/4p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1; 1000 tick', {});
    const out = r.outputs.find(o => o.type === 'mismatch');
    expect(out).toMatchObject({ type: 'mismatch', reason: 'unreachable' });
    expect(sansOf(r)).toBe('');
  });

  it('a takeback to a repeated position goes to the latest such ply and says so', () => {
    // Reference §13.9 knight shuffle: the start position recurs after 4 plies.
    const r = recognise(`0 snapshot ${START}; 5000 tick`, { moves: 'Nf3 Nf6 Ng1 Ng8 e4' });
    const c = r.outputs.find(o => o.type === 'correction');
    expect(c?.type === 'correction' && [c.fromPly, c.reason, c.confidence]).toEqual([
      5,
      'takeback',
      'repeated',
    ]);
    expect(sansOf(r)).toBe('Nf3 Nf6 Ng1 Ng8');
  });

  it('moves found across a jump are marked as not observed', () => {
    const r = recognise('0 snapshot rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R; 1000 tick', {
      moves: 'e4',
    });
    const moves = r.outputs.flatMap(o => (o.type === 'move' ? [o] : []));
    expect(moves.map(m => [m.san, m.observed])).toEqual([
      ['e5', false],
      ['Nf3', true],
    ]);
  });

  describe('a dump two move orders reach (recovery benchmark r1-b9: gxf6 c4 cxd4 or cxd4 c4 gxf6)', () => {
    const moves = 'd4 Nf6 Bg5 d5 e3 c5 Bxf6';
    const dump = '500 snapshot rnbqkb1r/pp2pp1p/5p2/3p4/2Pp4/4P3/PP3PPP/RN1QKBNR';
    const ordersOf = (r: ReturnType<typeof recognise>) =>
      r.outputs.flatMap(o => (o.type === 'mismatch' && o.orders ? [o.orders] : []));

    it('the mismatch names the orders; nothing is published', () => {
      const r = recognise(`${dump}; 537 press b`, { moves });
      expect(summarise(r.outputs)).toEqual(['mismatch c2,c4,d4,c5,f6,g7 (press, ambiguous)']);
      const orders = ordersOf(r)[0];
      expect(orders?.root).toBe(7);
      expect(orders?.lines.map(l => l.join(' ')).sort()).toEqual(['cxd4 c4 gxf6', 'gxf6 c4 cxd4']);
      expect(sansOf(r)).toBe(moves);
    });

    it('moves played on from it are not guessed into the record; the orders stay open', () => {
      // 6. exd4: from the record the board is four plies away; a half-made gxf6 (or c4) would guess.
      const r = recognise(`${dump}; 537 press b; 2600 e3 -; 2630 d4 P; 2750 press w; 4000 tick`, { moves });
      expect(r.outputs.filter(o => o.type === 'move' || o.type === 'correction')).toEqual([]);
      expect(ordersOf(r).length).toBeGreaterThanOrEqual(2);
      expect(r.state.undecided?.root).toBe(7);
      expect(sansOf(r)).toBe(moves);
    });

    it('the board set back to the recorded position resolves it', () => {
      const back = '3000 snapshot rnbqkb1r/pp2pppp/5B2/2pp4/3P4/4P3/PPP2PPP/RN1QKBNR; 4000 tick';
      const r = recognise(`${dump}; 1000 tick; ${back}`, { moves });
      expect(summarise(r.outputs)).toEqual(['mismatch c2,c4,d4,c5,f6,g7 (settle, ambiguous)', 'resolved 7']);
      expect(r.state.undecided).toBeUndefined();
    });
  });
});

describe('result gestures: both kings on the centre squares are results, never moves', () => {
  // A gesture is read once the board has shown it, quiet, for confirmMs (4 s): a king set down
  // beside the other on its way is no result.
  /** Kings far from the centre; e4, d5 light, d4, e5 dark. */
  const KINGS = '4k3/8/8/8/8/8/8/4K3 w - - 0 1';
  const cases: readonly { name: string; source: string; script: string; fen?: string; result: string }[] = [
    {
      name: 'both on light squares: White won',
      source: 'data/sensor README (lila #11783)',
      script: '0 e1 -; 100 e4 K; 500 e8 -; 700 d5 k; 5000 tick',
      result: '1-0',
    },
    {
      name: 'both on dark squares: Black won',
      source: 'data/sensor README (lila #11783)',
      script: '0 e1 -; 100 d4 K; 500 e8 -; 700 e5 k; 5000 tick',
      result: '0-1',
    },
    {
      name: 'one light, one dark: a draw',
      source: 'data/sensor README (picochess #263)',
      script: '0 e1 -; 100 e4 K; 500 e8 -; 700 e5 k; 5000 tick',
      result: '1/2-1/2',
    },
    {
      name: 'other pieces removed from the centre first (the ritual)',
      source: 'issue: result rituals remove other pieces from the centre before the kings are placed',
      fen: '4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1',
      script: '0 e4 -; 300 d5 -; 900 e1 -; 1100 e4 K; 1800 e8 -; 2000 d5 k; 6000 tick',
      result: '1-0',
    },
  ];
  it.each(cases)('$name ($source)', c => {
    const r = recognise(c.script, { fen: c.fen ?? KINGS });
    expect(summarise(r.outputs)).toEqual([`result ${c.result}`]);
    expect(sansOf(r)).toBe('');
    expect(r.state.status.kind).toBe('ended');
  });

  it('a king that stood next to the centre and stepped onto it legally is held back, then becomes part of the gesture', () => {
    // Issue: "never a move, even when a king stood next to the centre". Ke4 is legal here.
    const r = recognise('0 e3 -; 200 e4 K; 1200 d6 -; 1500 d5 k; 6000 tick', {
      fen: '8/8/3k4/8/8/4K3/8/8 w - - 0 1',
    });
    expect(summarise(r.outputs)).toEqual(['result 1-0']);
    expect(sansOf(r)).toBe('');
  });

  it('the same king move followed by an ordinary reply is published as a move', () => {
    const r = recognise('0 e3 -; 200 e4 K; 1200 h7 -; 1400 h6 p; 3000 tick', {
      fen: '8/7p/3k4/8/8/4K3/8/8 w - - 0 1',
    });
    expect(sansOf(r)).toBe('Ke4 h6');
    expect(r.outputs.filter(o => o.type === 'correction' || o.type === 'result')).toEqual([]);
  });

  it('the same king move left alone is published after the gesture hold', () => {
    const r = recognise('0 e3 -; 200 e4 K; 2000 tick; 2800 tick', { fen: '8/7p/3k4/8/8/4K3/8/8 w - - 0 1' });
    const move = r.outputs.find(o => o.type === 'move');
    expect(move?.type === 'move' && [move.san, move.publishedAt]).toEqual(['Ke4', 2700]);
  });

  describe('a last move onto a gesture square is never eaten by the gesture that clears it', () => {
    // Found by the venue benchmark: Qe4+ (and Be5+, Ke4) published, then retracted as "the first
    // half of the gesture" when the players took the piece off e4 and put a king there. The press
    // was read as the other side's (the clock's sides were learned from the previous game's clock).
    /** After 46... e2: White's queen on c4, kings on a2 and e7. */
    const QUEEN = '8/P1p1k1p1/7p/6bP/1PQ3P1/8/K1Prp3/8 w - - 0 47';
    /** Qe4 placed at 5, then the gesture: queen off e4, White's king to d5, Black's king to e4 (1-0). */
    const gesture = '3000 e4 -; 3400 a2 -; 3900 d5 K; 4500 e7 -; 5000 e4 k; 10000 tick';
    const cases: readonly { name: string; press: string }[] = [
      { name: 'pressed by its mover', press: '10 press w;' },
      { name: 'pressed, the press read as the opponent’s', press: '10 press b;' },
      { name: 'no clock: it stood on the board for the settle window', press: '' },
    ];
    it.each(cases)('Qe4+ $name, then the gesture: the move stays, the result is shown', c => {
      const r = recognise(`0 c4 -; 5 e4 Q; ${c.press} ${gesture}`, { fen: QUEEN });
      expect(sansOf(r)).toBe('Qe4+');
      expect(r.outputs.filter(o => o.type === 'correction')).toEqual([]);
      expect(r.outputs.at(-1)).toMatchObject({ type: 'result', result: '1-0', ply: 1 });
    });

    it('Qe4+ pressed, the gesture starting within the settle window: the press made it', () => {
      const quick = '40 e4 -; 90 a2 -; 150 d5 K; 220 e7 -; 280 e4 k; 5000 tick';
      const r = recognise(`0 c4 -; 5 e4 Q; 10 press w; ${quick}`, { fen: QUEEN });
      expect(sansOf(r)).toBe('Qe4+');
      expect(r.outputs.at(-1)).toMatchObject({ type: 'result', result: '1-0', ply: 1 });
    });

    it('a king move onto the centre followed by a press (read as either side) is a move, not half the gesture', () => {
      // Kf3-e4, pressed; then Black's king goes to d5 beside it: 1-0, Ke4 stays.
      const fen = '8/5k2/6p1/8/rp3B2/1Nb2KP1/P3R3/8 w - - 0 55';
      for (const press of ['press w', 'press b']) {
        const r = recognise(`0 f3 -; 5 e4 K; 10 ${press}; 3000 f7 -; 3600 d5 k; 8000 tick`, { fen });
        expect(sansOf(r)).toBe('Ke4');
        expect(r.outputs.filter(o => o.type === 'correction')).toEqual([]);
        expect(r.outputs.at(-1)).toMatchObject({ type: 'result', result: '1-0', ply: 1 });
      }
    });
  });
});
