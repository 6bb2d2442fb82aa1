import { Chess, type Position, parseUci } from 'chessops';
import { makeFen, parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import {
  type KeyRules,
  castlingRookSquares,
  keyAfterMove,
  legalEnPassantSquare,
  makePositionKey,
} from '../../src/engine/positionKey.js';

const fromFen = (fen: string): Position => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

/** The position after SAN moves from a FEN (default: the initial position). */
const after = (sans: string, fen?: string): Position => {
  const pos = fen ? fromFen(fen) : Chess.default();
  for (const san of sans.split(/\s+/).filter(s => s.length > 0)) {
    const move = parseSan(pos, san);
    if (!move) throw new Error(`bad move ${san} in ${makeFen(pos.toSetup())}`);
    pos.play(move);
  }
  return pos;
};

const epField = (pos: Position): string => makePositionKey(pos).split(' ')[3]!;

const BOTH_RULES: KeyRules[] = [{ castling: 'permanent' }, { castling: 'temporaryOrPermanent' }];

describe('makePositionKey', () => {
  it('is placement, side to move, castling rook squares and e.p. square', () => {
    // Initial position: castling is temporarily impossible (pieces in between) but the rights count.
    expect(makePositionKey(Chess.default())).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w a1h1a8h8 -');
  });

  it('leaves out the move counters', () => {
    // 9.2 compares positions, not the moment they occur: FEN fields 5 and 6 play no part.
    const a = fromFen('8/8/4k3/8/8/8/3QK3/8 w - - 0 1');
    const b = fromFen('8/8/4k3/8/8/8/3QK3/8 w - - 99 80');
    expect(makePositionKey(a)).toBe(makePositionKey(b));
  });

  it('tells the side to move apart', () => {
    // 9.2: "the same player has the move".
    const w = fromFen('8/8/4k3/8/8/8/3QK3/8 w - - 0 1');
    const b = fromFen('8/8/4k3/8/8/8/3QK3/8 b - - 0 1');
    expect(makePositionKey(w)).not.toBe(makePositionKey(b));
  });
});

describe('en passant counts only when the capture is legal', () => {
  // Reference §2.3 and 9.2 (E09 "a pawn that could have been captured e.p."; E18 9.2.2.1).
  const cases: { name: string; pos: () => Position; ep: string }[] = [
    {
      // Double push with no enemy pawn beside it: chessops remembers e3, the key must not.
      name: 'double push, no capturing pawn adjacent (1.e4)',
      pos: () => after('e4'),
      ep: '-',
    },
    {
      // S79 of the reference (§13.9): after 1.e4 Nc6 2.e5 d5, exd6 e.p. is legal.
      name: 'S79: 2...d5 with the e5 pawn able to take',
      pos: () => after('e4 Nc6 e5 d5'),
      ep: 'd6',
    },
    {
      // Constructed: the e5 pawn is pinned to Kc3 along c3-g7 by Bg7; exd6 would leave the diagonal.
      name: 'adjacent pawn pinned on a diagonal',
      pos: () => after('d5', '4k3/3p2b1/8/4P3/8/2K5/8/8 b - - 0 1'),
      ep: '-',
    },
    {
      // Constructed: bxc6 e.p. removes b5 and c5 from the fifth rank and opens Rh5 onto Ka5.
      name: 'capture that uncovers a check along the rank',
      pos: () => after('c5', '8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1'),
      ep: '-',
    },
    {
      // Constructed: the e5 pawn is pinned along g3-c7, but exd6 stays on that line: legal.
      name: 'pinned pawn capturing along its pin line',
      pos: () => after('d5', '4k3/2bp4/8/4P3/8/6K1/8/8 b - - 0 1'),
      ep: 'd6',
    },
    {
      // Constructed: after 1...e5 both d5 and f5 are beside it; f5 is pinned to Kh7 by Bd3 and
      // fxe6 would leave the h7-d3 diagonal, but dxe6 is legal, so the square counts.
      name: 'two candidates, one of them pinned',
      pos: () => after('e5', 'k7/4p2K/8/3P1P2/8/3b4/8/8 b - - 0 1'),
      ep: 'e6',
    },
    {
      // Same without the d5 pawn: the only candidate is pinned.
      name: 'only candidate pinned (diagonal through the capturer)',
      pos: () => after('e5', 'k7/4p2K/8/5P2/8/3b4/8/8 b - - 0 1'),
      ep: '-',
    },
    {
      // Black to capture: after 1.d4 (from a set-up), ...exd3 e.p. is legal.
      name: 'black capturer',
      pos: () => after('d4', '4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1'),
      ep: 'd3',
    },
  ];

  it.each(cases)('$name -> $ep', ({ pos, ep }) => {
    const p = pos();
    expect(p.epSquare).toBeDefined(); // a double push was just made in every case
    expect(epField(p)).toBe(ep);
    expect(legalEnPassantSquare(p) === undefined).toBe(ep === '-');
  });

  it('a position whose e.p. square does not count equals the same position with no e.p. square', () => {
    // Pinned capturer: same key as the FEN written without the e.p. square.
    const pinned = after('d5', '4k3/3p2b1/8/4P3/8/2K5/8/8 b - - 0 1');
    expect(pinned.epSquare).toBeDefined(); // chessops does remember the double push
    expect(makePositionKey(pinned)).toBe(makePositionKey(fromFen('4k3/6b1/8/3pP3/8/2K5/8/8 w - - 0 2')));
    // A counting e.p. square makes it another position.
    const legal = after('e4 Nc6 e5 d5');
    expect(makePositionKey(legal)).not.toBe(makePositionKey(after('e4 Nc6 e5 d5 Nf3 Nb8 Ng1 Nc6')));
  });
});

describe('castling rights', () => {
  // S80 of the reference (§13.9): the kings go and come back: same placement, but the rights are gone.
  const S80 = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';

  it.each(BOTH_RULES)('king moved and came back is another position ($castling)', rules => {
    const start = fromFen(S80);
    const back = after('Kf1 Kf8 Ke1 Ke8', S80);
    expect(makePositionKey(start, rules)).toBe('r3k2r/8/8/8/8/8/8/R3K2R w a1h1a8h8 -');
    expect(makePositionKey(back, rules)).toBe('r3k2r/8/8/8/8/8/8/R3K2R w - -');
    expect(makePositionKey(after('Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8', S80), rules)).toBe(
      makePositionKey(back, rules),
    );
  });

  it('a rook moved and came back loses only its own right', () => {
    // 9.2 (E18 9.2.2.2): only the right of the moved rook is lost.
    expect(makePositionKey(after('Rb1 Rb8 Ra1 Ra8', S80))).toBe('r3k2r/8/8/8/8/8/8/R3K2R w h1h8 -');
  });

  it('Chess960 rights are by rook square', () => {
    // Chess960 start BQNBRKRN (king f1, rooks e1 and g1). X-FEN KQkq and Shredder EGeg say the same.
    const xfen = fromFen('bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1');
    const shredder = fromFen('bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w EGeg - 0 1');
    expect(castlingRookSquares(xfen)).toEqual([4, 6, 60, 62]);
    expect(makePositionKey(xfen)).toBe('bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w e1g1e8g8 -');
    expect(makePositionKey(shredder)).toBe(makePositionKey(xfen));
    // Only the g-rooks keep their rights: another position.
    const gOnly = fromFen('bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w Gg - 0 1');
    expect(makePositionKey(gOnly)).toBe('bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w g1g8 -');
  });

  it('both castling readings give the same key, also when castling is blocked for now', () => {
    // Reference §8.2: "temporarily" (E97) adds nothing beyond placement. Positions below have
    // rights that are temporarily unusable (check, attacked square, pieces in between).
    const fens = [
      'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
      'r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1', // White in check
      'r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1', // f1, which the king crosses, attacked
      'r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1', // pieces in between
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    ];
    for (const fen of fens) {
      const pos = fromFen(fen);
      expect(makePositionKey(pos, { castling: 'temporaryOrPermanent' })).toBe(
        makePositionKey(pos, { castling: 'permanent' }),
      );
      expect(makePositionKey(pos)).toContain(' a1h1a8h8 ');
    }
  });
});

describe('keyAfterMove', () => {
  it('gives the key of the position the intended move would make, without playing it', () => {
    // S76 of the reference: the claimant writes his move and does not play it.
    const pos = after('Nf3 Nf6 Ng1');
    const before = makePositionKey(pos);
    const key = keyAfterMove(pos, parseSan(pos, 'Ng8')!).unwrap();
    expect(key).toBe(makePositionKey(Chess.default()));
    expect(makePositionKey(pos)).toBe(before);
  });

  it('refuses an illegal intended move with the move and the position', () => {
    const pos = Chess.default();
    const r = keyAfterMove(pos, parseUci('e2e5')!);
    expect(r.isErr).toBe(true);
    if (r.isErr) {
      expect(r.error).toMatchObject({
        kind: 'illegalIntendedMove',
        move: 'e2e5',
        fen: makeFen(pos.toSetup()),
      });
    }
  });
});
