/**
 * The board model: the sensed board (bitboards; identity ignored where the sensors see occupancy
 * only), what is in hand (lift order, direct replacement, identity inferred on occupancy boards),
 * the pending states of §1.3 of the Laws reference, and the shorthand used by the tests.
 */
import { Chess, type Piece, SquareSet, parseSquare } from 'chessops';
import { parseFen } from 'chessops/fen';
import { describe, expect, it } from 'vitest';
import { liftOrPlace } from '../../../src/engine/recognition/hand.js';
import { detectPending } from '../../../src/engine/recognition/pending.js';
import {
  contentAt,
  diffSquares,
  inferFrom,
  isRemovalOnly,
  pieceAt,
  sensedOfBoard,
  withContent,
} from '../../../src/engine/recognition/sensedBoard.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';

const sq = (name: string): number => parseSquare(name) ?? -1;
const set = (...names: string[]): SquareSet => names.reduce((s, n) => s.with(sq(n)), SquareSet.empty());
const WP: Piece = { color: 'white', role: 'pawn' };
const WN: Piece = { color: 'white', role: 'knight' };
const BB: Piece = { color: 'black', role: 'bishop' };
const position = (fen: string): Chess => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

describe('sensed board', () => {
  const start = Chess.default();

  it('shows the position it was made from, square by square', () => {
    const s = sensedOfBoard(start.board);
    expect(contentAt(s, sq('e2'))).toEqual(WP);
    expect(contentAt(s, sq('e4'))).toBe('empty');
    expect(diffSquares(start.board, s).isEmpty()).toBe(true);
  });

  it('a lift and a placement differ from the position on exactly those squares', () => {
    const s = withContent(withContent(sensedOfBoard(start.board), sq('e2'), 'empty'), sq('e4'), WP);
    expect(diffSquares(start.board, s)).toEqual(set('e2', 'e4'));
    expect(isRemovalOnly(start.board, s, set('e2', 'e4'))).toBe(false);
  });

  it('a direct replacement differs by identity only', () => {
    const s = withContent(sensedOfBoard(start.board), sq('g1'), BB);
    expect(diffSquares(start.board, s)).toEqual(set('g1'));
    expect(pieceAt(s, sq('g1'))).toEqual(BB);
  });

  it('lifted pieces alone are a removal-only difference', () => {
    const s = withContent(withContent(sensedOfBoard(start.board), sq('g1'), 'empty'), sq('b8'), 'empty');
    const diff = diffSquares(start.board, s);
    expect(diff).toEqual(set('g1', 'b8'));
    expect(isRemovalOnly(start.board, s, diff)).toBe(true);
  });

  it('occupancy-only squares agree with any piece, and keep an inferred identity', () => {
    const occ = sensedOfBoard(start.board, true);
    expect(contentAt(occ, sq('e1'))).toBe('occupied');
    expect(pieceAt(occ, sq('e1'))).toEqual({ color: 'white', role: 'king' });
    const swapped = withContent(occ, sq('d1'), 'occupied', WN);
    expect(diffSquares(start.board, swapped).isEmpty()).toBe(true);
    expect(pieceAt(swapped, sq('d1'))).toEqual(WN);
    expect(pieceAt(inferFrom(swapped, start.board), sq('d1'))).toEqual({ color: 'white', role: 'queen' });
  });
});

describe('in hand', () => {
  // Source: §5.5 of the DGT reference (lift then place; direct replacement; a ghost).
  const cases: readonly {
    name: string;
    steps: readonly [square: string, before: Piece | undefined, after: Piece | 'empty' | 'occupied'][];
    hand: readonly string[];
    inferred?: Piece;
  }[] = [
    { name: 'a lift puts the piece in hand', steps: [['g1', WN, 'empty']], hand: ['g1'] },
    {
      name: 'lift then place empties the hand',
      steps: [
        ['g1', WN, 'empty'],
        ['f3', undefined, WN],
      ],
      hand: [],
    },
    {
      name: 'a direct replacement puts the captured piece in hand and takes the capturer out',
      steps: [
        ['d5', WN, 'empty'],
        ['e7', BB, WN],
      ],
      hand: ['e7'],
    },
    {
      name: 'a ghost of the captured piece passes through the hand',
      steps: [
        ['d5', WN, 'empty'],
        ['e7', BB, WN],
        ['e6', undefined, BB],
        ['e6', BB, 'empty'],
      ],
      hand: ['e6'],
    },
    {
      name: 'occupancy-only: the piece put down is the one lifted last',
      steps: [
        ['g1', WN, 'empty'],
        ['f3', undefined, 'occupied'],
      ],
      hand: [],
      inferred: WN,
    },
    {
      name: 'a piece from outside the board (promotion) leaves the hand alone',
      steps: [['a8', undefined, WN]],
      hand: [],
    },
  ];
  it.each(cases)('$name', c => {
    let hand: ReturnType<typeof liftOrPlace>['hand'] = [];
    let inferred: Piece | undefined;
    c.steps.forEach(([square, before, after], i) => {
      const r = liftOrPlace(hand, sq(square), before, after, i * 100);
      hand = r.hand;
      inferred = r.inferred;
    });
    expect(hand.map(h => h.square)).toEqual(c.hand.map(sq));
    if (c.inferred) expect(inferred).toEqual(c.inferred);
  });
});

describe('pending states (reference §1.3)', () => {
  const cases: readonly {
    name: string;
    source: string;
    fen: string;
    edits: [string, Piece | 'empty'][];
    kind?: string;
    legal?: boolean;
  }[] = [
    {
      name: 'king released on its castling square, rook not moved',
      source: '§13.3 S16/S17',
      fen: 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1',
      edits: [
        ['e1', 'empty'],
        ['g1', { color: 'white', role: 'king' }],
      ],
      kind: 'castling',
      legal: true,
    },
    {
      name: 'king on g1 with kingside castling illegal (f1 attacked)',
      source: '§13.3 S18, FEN C2',
      fen: '4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1',
      edits: [
        ['e1', 'empty'],
        ['g1', { color: 'white', role: 'king' }],
      ],
      kind: 'castling',
      legal: false,
    },
    {
      name: 'pawn released on the promotion square',
      source: '§13.5 S32',
      fen: '4k3/P7/8/8/8/8/8/4K3 w - - 0 1',
      edits: [
        ['a7', 'empty'],
        ['a8', WP],
      ],
      kind: 'promotion',
      legal: true,
    },
    {
      name: 'en passant with the captured pawn still standing',
      source: '§13.4 S27',
      fen: 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
      edits: [
        ['e5', 'empty'],
        ['d6', WP],
      ],
      kind: 'enPassant',
    },
    {
      name: 'a plain lift is not pending',
      source: 'control',
      fen: 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1',
      edits: [['e1', 'empty']],
    },
  ];
  it.each(cases)('$name ($source)', c => {
    const pos = position(c.fen);
    let s = sensedOfBoard(pos.board);
    let touched = SquareSet.empty();
    for (const [name, content] of c.edits) {
      s = withContent(s, sq(name), content);
      touched = touched.with(sq(name));
    }
    const pending = detectPending(pos, s, diffSquares(pos.board, s), touched);
    expect(pending?.kind).toBe(c.kind);
    if (c.legal !== undefined && pending && pending.kind !== 'enPassant') expect(pending.legal).toBe(c.legal);
  });
});

describe('event shorthand', () => {
  it('reads squares, pieces, presses, ticks and snapshots', () => {
    const events = parseShorthand(
      '0 e2 -; 250 e4 P; 260 d5 ?; 900 press w; 950 adjust b; 1000 tick; 1200 snapshot 8/8/8/8/8/8/8/K6k',
    );
    expect(events.map(e => e.kind)).toEqual([
      'square',
      'square',
      'square',
      'press',
      'adjust',
      'tick',
      'snapshot',
    ]);
    expect(events[1]).toEqual({ kind: 'square', at: 250, square: sq('e4'), piece: WP });
    expect(events[2]).toEqual({ kind: 'square', at: 260, square: sq('d5'), piece: 'occupied' });
    const snap = events[6];
    expect(snap?.kind === 'snapshot' && snap.board[0]).toEqual({ color: 'white', role: 'king' });
  });

  it('rejects a malformed entry with its text', () => {
    expect(() => parseShorthand('12 z9 P')).toThrow(/z9/);
    expect(() => parseShorthand('x e2 -')).toThrow(TypeError);
  });
});
