import { describe, expect, it } from 'vitest';
import { decodePgnBytes, readPgn } from '../../src/engine/pgnRead.js';
import { splitPgn } from '../../src/engine/pgnLex.js';

const SCHOLAR = `[Event "Club"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 { [%clk 0:04:58] attack } Nf6?? 4. Qxf7# 1-0
`;

describe('readPgn', () => {
  it('reads tags, moves, result, clock readings and comments', () => {
    const [r] = readPgn(SCHOLAR);
    const g = r!.unwrap();
    expect(g.index).toBe(1);
    expect(g.headers.get('White')).toBe('A');
    expect(g.result).toBe('1-0');
    expect(g.game.moves.map(m => m.san)).toEqual(['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
    expect(g.game.moves[4]).toMatchObject({ clockMs: 298_000, comment: 'attack' });
  });

  it('reads several games and keeps going after a bad one', () => {
    const text = `${SCHOLAR}\n[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n\n${SCHOLAR}`;
    const rs = readPgn(text);
    expect(rs.map(r => r.isOk)).toEqual([true, false, true]);
    expect(rs[2]!.unwrap().index).toBe(3);
  });

  it('accepts coordinate moves as pgn-extract does', () => {
    const [r] = readPgn('1. g1f3 c7c5 2. e2e4 *');
    expect(r!.unwrap().game.moves.map(m => m.san)).toEqual(['Nf3', 'c5', 'e4']);
  });

  it('starts from a FEN tag, and from a Chess960 FEN with the Variant tag', () => {
    const [r] = readPgn('[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1. e4 Kd7 *');
    expect(r!.unwrap().game.fenAt(2)).toBe('8/3k4/8/8/4P3/8/8/4K3 w - - 1 2');
    const [c] = readPgn('[Variant "Chess960"]\n[FEN "4k3/8/8/8/8/8/8/R4K1R w HA - 0 1"]\n\n1. O-O *');
    expect(c!.unwrap().game.moves[0]?.uci).toBe('f1h1');
  });

  it('drops a UTF-8 byte order mark and falls back to Latin-1 for non-UTF-8 bytes', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('[White "Ä"]\n\n1. e4 *')]);
    expect(readPgn(decodePgnBytes(bom))[0]!.unwrap().headers.get('White')).toBe('Ä');
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('[White "'),
      0xc4,
      ...new TextEncoder().encode('"]\n\n1. e4 *'),
    ]);
    expect(readPgn(decodePgnBytes(latin1))[0]!.unwrap().headers.get('White')).toBe('Ä');
  });
});

describe('readPgn: bad input gives typed errors naming what and where', () => {
  it.each([
    // [text, kind, exact message]
    [
      '[White "X"]\n[Black "Y"]\n\n1. e4 e5 2. Ke3 *',
      'illegalMove',
      'game 1 (X - Y): illegal move 2. Ke3 (ply 3) in position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    ],
    [
      '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O-O *',
      'illegalMove',
      'game 1 (? - ?): illegal move 5. O-O-O (ply 9) in position r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5',
    ],
    [
      '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*',
      'badStartPosition',
      'game 1 (? - ?): bad FEN tag "8/8/8/8/8/8/8/8 w - - 0 1": illegal position "8/8/8/8/8/8/8/8 w - - 0 1": the board is empty',
    ],
    [
      '[FEN "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"]\n\n*',
      'badStartPosition',
      'game 1 (? - ?): bad FEN tag "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1": invalid FEN "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1": bad piece placement field',
    ],
    [
      '[Variant "Atomic"]\n\n1. e4 *',
      'unsupportedVariant',
      'game 1 (? - ?): variant "Atomic" is not standard chess or Chess960',
    ],
    [
      'this is not pgn',
      'syntax',
      "game 1 (? - ?): not a move, move number, annotation or result: 'this' at line 1, column 1",
    ],
    [
      '[Event "x"\n\n1. e4 *',
      'syntax',
      `game 1 (? - ?): malformed tag pair: '[Event "x"' at line 1, column 1`,
    ],
    [
      '[White "W"]\n[Black "B"]\n\n1. e4 e5\n2. Nf3 {never closed\n',
      'syntax',
      "game 1 (W - B): comment never closed: '{' at line 5, column 8",
    ],
    ['1. e4 (1. d4 d5 2. c4 *', 'syntax', "game 1 (? - ?): variation never closed: '(' at line 1, column 7"],
    [
      '1. e4 e5 ) 2. Nf3 *',
      'syntax',
      "game 1 (? - ?): closing a variation that was never opened: ')' at line 1, column 10",
    ],
  ])('%#: %s', (text, kind, message) => {
    const [r] = readPgn(text);
    expect(r!.isErr).toBe(true);
    if (r!.isErr) {
      expect(r!.error.kind).toBe(kind);
      expect(r!.error.message).toBe(message);
    }
  });

  it('reports the line of a syntax error in a later game', () => {
    const text = `${SCHOLAR}\n[Event "second"]\n\n1. e4 e5 2. Nf3 Kingside *\n`;
    const rs = readPgn(text);
    expect(rs[0]!.isOk).toBe(true);
    expect(rs[1]!.isErr && rs[1]!.error).toMatchObject({
      kind: 'syntax',
      game: 2,
      line: 10,
      column: 17,
      token: 'Kingside',
    });
  });
});

describe('splitPgn', () => {
  it('splits games at results and at tag sections, skipping % escape lines', () => {
    const chunks = splitPgn('% a comment line\n[Event "1"]\n\n1. e4 1-0\n[Event "2"]\n1. d4 *\n1. c4 *');
    expect(chunks.map(c => c.line)).toEqual([2, 5, 7]);
    expect(chunks.every(c => c.syntaxError === undefined)).toBe(true);
  });

  it('accepts the notations found in real files', () => {
    const chunks = splitPgn(
      '1.Nf3 d5 2. 0-0 ... 12...Qd7 13. exd6 e.p. $1 dxe8=Q+ 14. e8N!? a1=R#! ; rest\n1/2-1/2',
    );
    // '...' alone is not a token we accept: it is reported.
    expect(chunks[0]?.syntaxError).toMatchObject({ token: '...', line: 1 });
    expect(
      splitPgn('1.Nf3 d5 2. 0-0 12...Qd7 13. exd6 e.p. $1 dxe8=Q+ 14. e8N!? a1=R#! ; x\n1/2-1/2')[0]
        ?.syntaxError,
    ).toBeUndefined();
  });
});
