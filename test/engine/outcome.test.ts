import { describe, expect, it } from 'vitest';
import { getProfile } from '../../src/engine/editions.js';
import {
  DECISIVE_KINDS,
  DRAWN_KINDS,
  makeCitation,
  makeFideResult,
  makeOutcome,
  makeResultToken,
  makeScore,
  makeTermination,
  type DecisiveKind,
  type DrawnKind,
  type Outcome,
} from '../../src/engine/outcome.js';
import { EDITIONS, type Edition } from '../../src/engine/types.js';

const standard = (e: Edition) => getProfile(e, 'standard');

describe('articles cited by outcomes (reference §0.3 concordance)', () => {
  it.each([
    // edition, checkmate, threefold, flag (§4.1, §8.2, §5.3)
    ['E97', '5.1.a', '9.2', '6.9'],
    ['E09', '5.1.a', '9.2', '6.9'],
    ['E14', '5.1.a', '9.2', '6.9'],
    ['E17', '5.1.1', '9.2', '6.9'],
    ['E18', '5.1.1', '9.2', '6.9'],
    ['E23', '5.1.1', '9.2', '6.9'],
  ] as const)('%s: mate %s, threefold %s, flag %s', (edition, mate, threefold, flag) => {
    const p = standard(edition);
    expect(makeOutcome('checkmate', 'white', p).unwrap().article).toEqual({ edition, article: mate });
    expect(makeOutcome('threefold', undefined, p).unwrap().article).toEqual({ edition, article: threefold });
    expect(makeOutcome('flag', 'black', p).unwrap().article).toEqual({ edition, article: flag });
  });

  it.each([
    // kind, winner, edition, game type, supervision, expected article (source)
    ['fivefold', undefined, 'E14', 'standard', 'full', '9.6.a'], // S82
    ['fivefold', undefined, 'E23', 'standard', 'full', '9.6.1'], // S82, S83
    ['seventyFiveMoves', undefined, 'E18', 'standard', 'full', '9.6.2'], // S84
    ['agreement', undefined, 'E97', 'standard', 'full', '5.3'], // §4.3
    ['agreement', undefined, 'E23', 'standard', 'full', '5.2.3'], // §4.3
    ['deadPosition', undefined, 'E97', 'standard', 'full', '9.6'], // §4.1
    ['stalemate', undefined, 'E09', 'standard', 'full', '5.2.a'], // §4.1
    ['resignation', 'black', 'E14', 'standard', 'full', '5.1.b'], // §4.2
    ['resignationVsCannotMate', undefined, 'E23', 'standard', 'full', '5.1.2'], // S92
    ['illegalMoves', 'black', 'E97', 'standard', 'full', '10.3'], // S42 (quickplay finish)
    ['illegalMoves', 'black', 'E09', 'standard', 'full', '7.4.b'], // S42
    ['illegalMoves', 'black', 'E18', 'standard', 'full', '7.5.5'], // S41
    ['illegalMoves', 'black', 'E14', 'rapid', 'reduced', 'A.4.b'], // S51
    ['illegalMoves', 'black', 'E09', 'blitz', 'reduced', 'B.3.c'], // S57
    ['illegalMovesVsCannotMate', undefined, 'E09', 'standard', 'full', '7.4.b'], // S43
    ['flagVsCannotMate', undefined, 'E23', 'standard', 'full', '6.9'], // S62
    ['flagVsCannotMate', undefined, 'E97', 'blitz', 'full', 'C4'], // errata 7
    ['bothFlags', undefined, 'E09', 'standard', 'full', '6.11.b'], // S67
    ['bothFlags', undefined, 'E97', 'standard', 'full', '10.4'], // errata 10
    ['bothFlags', undefined, 'E09', 'rapid', 'reduced', 'A.4.d.3'], // S68
    ['flag', 'white', 'E09', 'rapid', 'reduced', 'A.4.d.1'], // S68
    ['illegalPosition', undefined, 'E18', 'rapid', 'reduced', 'A.4.4'], // S59
    ['illegalPosition', undefined, 'E23', 'blitz', 'reduced', 'A.5.4'], // S59
    ['quickplayFinish', undefined, 'E14', 'standard', 'full', 'G.5'], // S98
    ['defaultTime', 'black', 'E09', 'standard', 'full', '6.6.a'], // S73
    ['forfeit', 'white', 'E23', 'standard', 'full', '12.9'], // §0.3 penalties
    ['bothLose', undefined, 'E09', 'standard', 'full', '12.9'], // §10
    ['bothLose', undefined, 'E23', 'standard', 'full', '11.8'], // §10
  ] as const)('%s under %s %s %s cites %s', (kind, winner, edition, type, sup, article) => {
    const p = getProfile(edition, type, sup);
    const made =
      winner === undefined
        ? makeOutcome(kind as DrawnKind, undefined, p)
        : makeOutcome(kind as DecisiveKind, winner, p);
    expect(made.unwrap().article).toEqual({ edition, article });
  });
});

describe('endings a profile does not know', () => {
  it.each([
    ['fivefold', 'E97', 'standard', 'full'], // §8.5: no automatic draws before E14
    ['fivefold', 'E09', 'standard', 'full'],
    ['seventyFiveMoves', 'E09', 'standard', 'full'],
    ['resignationVsCannotMate', 'E18', 'standard', 'full'], // S92: 0-1 under E18
    ['illegalMovesVsCannotMate', 'E97', 'standard', 'full'], // errata 3
    ['illegalPosition', 'E23', 'standard', 'full'], // only rapid/blitz with reduced supervision
    ['illegalPosition', 'E09', 'rapid', 'reduced'], // E09 A.4.c: the arbiter intervenes instead
    ['quickplayFinish', 'E23', 'blitz', 'full'], // III.2.2
  ] as const)('%s under %s %s %s', (kind, edition, type, sup) => {
    const made = makeOutcome(kind, undefined, getProfile(edition, type, sup));
    expect(made.isErr).toBe(true);
    if (made.isErr) {
      expect(made.error).toMatchObject({
        kind: 'notInProfile',
        outcome: kind,
        edition,
        gameType: type,
        supervision: sup,
      });
      expect(made.error.message).toContain(kind);
    }
  });

  it('S92: resigning against a bare king is a draw under E23 and a loss under E18', () => {
    expect(
      makeOutcome('resignationVsCannotMate', undefined, standard('E23'), 'white')
        .map(makeFideResult)
        .unwrap(),
    ).toBe('½-½');
    expect(makeOutcome('resignation', 'black', standard('E18')).map(makeFideResult).unwrap()).toBe('0-1');
  });

  it('throws on a winner mismatch that the types would have caught', () => {
    const loose = makeOutcome as (
      k: string,
      w: string | undefined,
      p: ReturnType<typeof standard>,
    ) => unknown;
    expect(() => loose('checkmate', undefined, standard('E23'))).toThrow(TypeError);
    expect(() => loose('stalemate', 'white', standard('E23'))).toThrow(TypeError);
  });

  it('covers every kind in exactly one family', () => {
    const kinds = [...DECISIVE_KINDS, ...DRAWN_KINDS, 'bothLose'];
    expect(new Set(kinds).size).toBe(kinds.length);
  });
});

describe('rendering', () => {
  const p = standard('E23');
  const win = (kind: DecisiveKind, winner: 'white' | 'black'): Outcome =>
    makeOutcome(kind, winner, p).unwrap();
  const draw = (kind: DrawnKind, by?: 'white' | 'black'): Outcome =>
    makeOutcome(kind, undefined, p, by).unwrap();
  const bothLose = makeOutcome('bothLose', undefined, p).unwrap();

  it.each([
    // label, outcome, PGN token, FIDE symbol, PGN Termination, score white, score black
    ['checkmate white', win('checkmate', 'white'), '1-0', '1-0', 'normal', 1, 0],
    ['resignation black', win('resignation', 'black'), '0-1', '0-1', 'normal', 0, 1],
    ['flag black', win('flag', 'black'), '0-1', '0-1', 'time forfeit', 0, 1],
    ['illegalMoves white', win('illegalMoves', 'white'), '1-0', '1-0', 'rules infraction', 1, 0],
    ['defaultTime white', win('defaultTime', 'white'), '1-0', '+/-', 'abandoned', 1, 0],
    ['defaultTime black', win('defaultTime', 'black'), '0-1', '-/+', 'abandoned', 0, 1],
    ['forfeit black', win('forfeit', 'black'), '0-1', '0-1', 'rules infraction', 0, 1],
    ['stalemate', draw('stalemate'), '1/2-1/2', '½-½', 'normal', 0.5, 0.5],
    ['threefold', draw('threefold'), '1/2-1/2', '½-½', 'normal', 0.5, 0.5],
    ['fivefold', draw('fivefold'), '1/2-1/2', '½-½', 'normal', 0.5, 0.5],
    [
      'flagVsCannotMate by white',
      draw('flagVsCannotMate', 'white'),
      '1/2-1/2',
      '½-½',
      'time forfeit',
      0.5,
      0.5,
    ],
    ['bothFlags', draw('bothFlags'), '1/2-1/2', '½-½', 'time forfeit', 0.5, 0.5],
    [
      'illegalMovesVsCannotMate by black',
      draw('illegalMovesVsCannotMate', 'black'),
      '1/2-1/2',
      '½-½',
      'rules infraction',
      0.5,
      0.5,
    ],
    ['quickplayFinish', draw('quickplayFinish'), '1/2-1/2', '½-½', 'adjudication', 0.5, 0.5],
    ['bothLose', bothLose, '*', '0-0', 'rules infraction', 0, 0],
  ] as const)('%s', (_label, outcome, token, fide, termination, white, black) => {
    expect(makeResultToken(outcome)).toBe(token);
    expect(makeFideResult(outcome)).toBe(fide);
    expect(makeTermination(outcome).tag).toBe(termination);
    expect(makeScore(outcome)).toEqual({ white, black });
  });

  it('renders a game in progress', () => {
    expect(makeResultToken(undefined)).toBe('*');
    expect(makeFideResult(undefined)).toBe('*');
    expect(makeTermination(undefined)).toEqual({ tag: 'unterminated', text: 'Game in progress' });
  });

  it('uses the event scoring when given (11.1 / 10.1 "unless announced otherwise")', () => {
    const scoring = { win: 3, draw: 1, loss: 0 };
    expect(makeScore(win('checkmate', 'black'), scoring)).toEqual({ white: 0, black: 3 });
    expect(makeScore(draw('agreement'), scoring)).toEqual({ white: 1, black: 1 });
  });

  it('writes a precise text with the article and the edition', () => {
    expect(makeTermination(win('checkmate', 'white')).text).toBe(
      'White won by checkmate (Art. 5.1.1, FIDE Laws of Chess, 1 January 2023)',
    );
    expect(makeTermination(draw('flagVsCannotMate', 'black')).text).toBe(
      "Draw: Black's flag fell, but White cannot checkmate by any series of legal moves (Art. 6.9, FIDE Laws of Chess, 1 January 2023)",
    );
    expect(makeTermination(draw('flagVsCannotMate')).text).toContain(
      'a flag fell, but the opponent cannot checkmate',
    );
    const e97 = makeOutcome('illegalMoves', 'black', standard('E97')).unwrap();
    expect(makeTermination(e97).text).toBe(
      'White completed a losing illegal move; Black won (Art. 10.3, FIDE Laws of Chess, 1 July 1997)',
    );
  });

  it.each([
    ['E23', '5.1.1', 'Art. 5.1.1, FIDE Laws of Chess, 1 January 2023'],
    ['E18', 'A.4.2', 'Art. A.4.2, FIDE Laws of Chess, 1 January 2018'],
    ['E23', 'III.3.1', 'Guidelines III.3.1, FIDE Laws of Chess, 1 January 2023'],
    ['E14', 'App. G', 'Appendix G, FIDE Laws of Chess, 1 July 2014'],
    ['E97', 'B6', 'Art. B6, FIDE Laws of Chess, 1 July 1997'],
  ] as const)('cites %s %s', (edition, article, text) => {
    expect(makeCitation({ edition, article })).toBe(text);
  });

  it('has a text for every kind under every edition that knows it', () => {
    for (const e of EDITIONS) {
      const prof = standard(e);
      for (const kind of DECISIVE_KINDS)
        expect(makeTermination(makeOutcome(kind, 'white', prof).unwrap()).text).toMatch(/White|Black/);
      for (const kind of DRAWN_KINDS) {
        const made = makeOutcome(kind, undefined, prof);
        if (made.isOk) expect(makeTermination(made.value).text).toMatch(/^Draw/);
      }
    }
  });
});
