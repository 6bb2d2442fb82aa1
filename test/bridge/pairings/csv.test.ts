import { describe, expect, it } from 'vitest';
import { parseCsvPairings, splitCsv } from '../../../src/bridge/pairings/csv.js';

const problemsOf = (text: string) => {
  const r = parseCsvPairings(text);
  if (r.isOk) throw new Error('expected an error');
  return r.error;
};

describe('parseCsvPairings', () => {
  it('reads the columns in any order, quoted names, optional ids and serials, sorted by round and board', () => {
    const text = [
      'board,round,white,black,white_fide_id,black_fide_id,board_serial',
      '2,1,"Lei,Tingjie","Ju, Wenjun",8605114,8603006,23012',
      '1,1,"Goryachkina, Aleksandra","Koneru, Humpy",,,',
      '1,2,"Ju, Wenjun","Goryachkina, Aleksandra",8603006,,',
    ].join('\n');
    const pairings = parseCsvPairings(text).unwrap();
    expect(pairings.map(p => [p.round, p.board, p.white.name, p.black.name, p.line])).toEqual([
      [1, 1, 'Goryachkina, Aleksandra', 'Koneru, Humpy', 3],
      [1, 2, 'Lei, Tingjie', 'Ju, Wenjun', 2],
      [2, 1, 'Ju, Wenjun', 'Goryachkina, Aleksandra', 4],
    ]);
    expect(pairings[1]).toMatchObject({
      white: { fideId: '8605114' },
      black: { fideId: '8603006' },
      boardSerial: '23012',
    });
    expect(pairings[0]!.white).toEqual({ name: 'Goryachkina, Aleksandra' });
    expect(pairings[0]!.boardSerial).toBeUndefined();
  });

  it('reads spreadsheet exports: byte order mark, CRLF, semicolons, header case and blank lines', () => {
    const text = '\uFEFFRound;Board;White;Black;Board Serial\r\n1;1;"Ding; Liren";Gukesh D;S-01\r\n\r\n';
    expect(parseCsvPairings(text).unwrap()).toEqual([
      {
        round: 1,
        board: 1,
        white: { name: 'Ding; Liren' },
        black: { name: 'Gukesh D' },
        boardSerial: 'S-01',
        line: 2,
      },
    ]);
  });

  it('names the line and the column of every problem', () => {
    const text = [
      'round,board,white,black,white_fide_id',
      '1,1,"A, A","B, B",123',
      'one,2,"C, C","D, D",', // line 3: round not a number
      '1,x,,"E, E",12ab', // line 4: board, white missing, bad id
      '1,1,"F, F","G, G",', // line 5: board 1 again in round 1
      '1,3,"A, A","H, H",', // line 6: A twice in round 1 (same name, no id)
      '1,4,"I, I","J, J",,extra', // line 7: a field beyond the header
    ].join('\n');
    const error = problemsOf(text);
    expect(error.problems.map(p => [p.kind, p.line, p.field])).toEqual([
      ['badField', 3, 'round'],
      ['badField', 4, 'board'],
      ['missingField', 4, 'white'],
      ['badField', 4, 'white_fide_id'],
      ['duplicate', 5, 'board'],
      ['duplicate', 6, 'white'],
      ['badField', 7, 'column 6'],
    ]);
    expect(error.message).toContain("line 3, field 'round': 'one' is not a round number (1, 2, ...)");
    expect(error.message).toContain("line 5, field 'board': '1' already given on line 2");
  });

  it('refuses unknown and missing columns on the header line, and the same serial twice in a round', () => {
    const header = problemsOf('round,board,white,blak,serial\n1,1,a,b,c\n');
    expect(header.problems.map(p => [p.kind, p.line, p.field])).toEqual([
      ['unknownColumn', 1, 'blak'],
      ['unknownColumn', 1, 'serial'],
      ['missingColumn', 1, 'black'],
    ]);
    const serial = problemsOf('round,board,white,black,board_serial\n1,1,a,b,S1\n1,2,c,d,S1\n2,1,a,b,S1\n');
    expect(serial.problems).toEqual([
      { kind: 'duplicate', line: 3, field: 'board_serial', value: 'S1', firstLine: 2 },
    ]);
  });

  it('reports an unclosed quote and text after a closing quote', () => {
    expect(
      problemsOf('round,board,white,black\n1,1,"A, A" x,"B\n').problems.map(p => [p.line, p.field]),
    ).toEqual([
      [2, 'column 3'],
      [2, 'column 4'],
    ]);
  });

  it('reports a file with a header and no pairings, and an empty file', () => {
    expect(problemsOf('round,board,white,black\n').problems).toEqual([
      { kind: 'empty', line: 1, field: 'round' },
    ]);
    expect(problemsOf('').problems).toEqual([{ kind: 'empty', line: 1, field: 'round' }]);
  });
});

describe('splitCsv', () => {
  it('keeps doubled quotes and line breaks inside quoted fields, counting lines', () => {
    const { rows, problems } = splitCsv('a,"say ""hi""\nthere"\nb,c\n', ',');
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 1, fields: ['a', 'say "hi"\nthere'] },
      { line: 3, fields: ['b', 'c'] },
    ]);
  });
});
