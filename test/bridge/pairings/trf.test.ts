import { describe, expect, it } from 'vitest';
import { parseTrf } from '../../../src/bridge/pairings/trf.js';
import { trfPlayerLine as player } from '../../support/trf.js';

// A 7-player Swiss after two rounds, with round 3 paired but not played; player 7 took a
// half-point bye in round 1 and left. Board orders worked out by hand in the comments below.
const PLAYERS = [
  player({
    rank: 1,
    title: 'g',
    name: 'Alpha,Anna',
    rating: '2500',
    fed: 'NOR',
    id: '1000001',
    rounds: [
      ['4', 'w', '1'],
      ['2', 'b', '='],
      ['3', 'b', ' '],
    ],
  }),
  player({
    rank: 2,
    title: 'wm',
    name: 'Bravo, Ben',
    rating: '2400',
    rounds: [
      ['5', 'b', '1'],
      ['1', 'w', '='],
      ['4', 'w', ' '],
    ],
  }),
  player({
    rank: 3,
    name: 'Charlie, Cid',
    rating: '2300',
    rounds: [
      ['6', 'w', '='],
      ['5', 'b', '1'],
      ['1', 'w', ' '],
    ],
  }),
  player({
    rank: 4,
    name: 'Delta, Dan',
    rating: '2200',
    rounds: [
      ['1', 'b', '0'],
      ['6', 'w', '+'],
      ['2', 'b', ' '],
    ],
  }),
  player({
    rank: 5,
    name: 'Echo, Eve',
    rating: '2100',
    rounds: [
      ['2', 'w', '0'],
      ['3', 'w', '0'],
      ['6', 'b', ' '],
    ],
  }),
  player({
    rank: 6,
    name: 'Foxtrot, Fay',
    rating: '0',
    id: '0',
    rounds: [
      ['3', 'b', '='],
      ['4', 'b', '-'],
      ['5', 'w', ' '],
    ],
  }),
  player({ rank: 7, name: 'Golf, Gus', rounds: [['0000', '-', 'H']] }),
];
const HEADER = ['012 Spring Swiss 2025', '022 Bern', '042 2025/03/01', '122 90 min + 30 s'];
const DATES = `132${' '.repeat(88)}25/03/01  25/03/02  25/03/03`;
const TRF = [...HEADER, DATES, ...PLAYERS, ''].join('\n');

const boards = (round: number) =>
  parseTrf(TRF)
    .unwrap()
    .pairings.filter(p => p.round === round)
    .map(p => [p.board, p.white.name, p.black.name, p.result ?? null]);

describe('parseTrf', () => {
  it('reads the column layout of the player lines', () => {
    expect(PLAYERS[0]!.slice(91, 99)).toBe('   4 w 1'); // round 1 block starts at column 92
    const trf = parseTrf(TRF).unwrap();
    expect(trf.players).toHaveLength(7);
    expect(trf.players[0]).toMatchObject({
      startRank: 1,
      line: 6,
      player: { name: 'Alpha, Anna', title: 'GM', rating: 2500, federation: 'NOR', fideId: '1000001' },
    });
    expect(trf.players[1]!.player).toEqual({ name: 'Bravo, Ben', title: 'WIM', rating: 2400 });
    expect(trf.players[5]!.player).toEqual({ name: 'Foxtrot, Fay' }); // rating 0 and id 0 mean unknown
    expect(trf.rounds).toBe(3);
    expect(trf.header).toMatchObject({
      name: 'Spring Swiss 2025',
      city: 'Bern',
      timeControl: '90 min + 30 s',
    });
    expect(trf.header.roundDates).toEqual(['25/03/01', '25/03/02', '25/03/03']);
  });

  it('derives who played whom with which colour, in Swiss board order', () => {
    // round 1: everyone on 0 points, so boards go by the better starting rank
    expect(boards(1)).toEqual([
      [1, 'Alpha, Anna', 'Delta, Dan', '1-0'],
      [2, 'Echo, Eve', 'Bravo, Ben', '0-1'],
      [3, 'Charlie, Cid', 'Foxtrot, Fay', '½-½'],
    ]);
    // round 2: 2-1 (both on 1), then 5-3 and 4-6 (both max 0.5, sum 0.5: rank 3 before rank 4)
    expect(boards(2)).toEqual([
      [1, 'Bravo, Ben', 'Alpha, Anna', '½-½'],
      [2, 'Echo, Eve', 'Charlie, Cid', '0-1'],
      [3, 'Delta, Dan', 'Foxtrot, Fay', '+/-'],
    ]);
    // round 3, not played yet: 3-1 (1.5 + 1.5), 2-4 (1.5 + 1), 6-5 (0.5 + 0)
    expect(boards(3)).toEqual([
      [1, 'Charlie, Cid', 'Alpha, Anna', null],
      [2, 'Bravo, Ben', 'Delta, Dan', null],
      [3, 'Foxtrot, Fay', 'Echo, Eve', null],
    ]);
  });

  it('keeps byes apart from the boards', () => {
    const { byes } = parseTrf(TRF).unwrap();
    expect(byes).toEqual([{ round: 1, player: { name: 'Golf, Gus' }, code: 'H', line: 12 }]);
  });

  it('reads CRLF files and a byte order mark', () => {
    const crlf = `\uFEFF${TRF.replace(/\n/g, '\r\n')}`;
    expect(parseTrf(crlf).unwrap().pairings).toEqual(parseTrf(TRF).unwrap().pairings);
  });

  it('reports every bad field with its line and columns', () => {
    const bad = [
      ...HEADER,
      player({ rank: 1, name: 'Alpha, Anna', rating: '25x0', rounds: [['2', 'w', '1']] }),
      player({ rank: 'x', name: 'Bravo, Ben', rounds: [] }),
      player({ rank: 3, title: 'zz', name: '', rounds: [['4', 'q', '1']] }),
      player({ rank: 4, name: 'Delta, Dan', fed: 'N0R', id: '12ab', rounds: [['3', 'b', 'X']] }),
    ].join('\n');
    const r = parseTrf(bad);
    expect(r.isErr).toBe(true);
    if (!r.isErr) return;
    expect(r.error.kind).toBe('invalidPairings');
    expect(r.error.problems.map(p => [p.line, p.field])).toEqual([
      [5, 'rating (columns 49-52)'],
      [6, 'starting rank (columns 5-8)'],
      [7, 'title (columns 11-13)'],
      [7, 'name (columns 15-47)'],
      [7, 'round 1 colour (column 97)'],
      [8, 'federation (columns 54-56)'],
      [8, 'FIDE id (columns 58-68)'],
      [8, 'round 1 result (column 99)'],
      [5, 'round 1 opponent'],
    ]);
    expect(r.error.message).toContain("line 5, field 'rating (columns 49-52)': '25x0' is not a whole number");
    expect(r.error.message).toContain("line 5, field 'round 1 opponent': no player with starting rank 2");
  });

  it('reports games the two player lines disagree on', () => {
    const text = [
      player({
        rank: 1,
        name: 'A, A',
        rounds: [
          ['2', 'w', '1'],
          ['3', 'w', '1'],
          ['2', 'w', '1'],
        ],
      }),
      player({
        rank: 2,
        name: 'B, B',
        rounds: [
          ['1', 'b', '0'],
          ['3', 'b', '0'],
          ['1', 'w', '0'],
        ],
      }),
      player({
        rank: 3,
        name: 'C, C',
        rounds: [
          ['4', 'w', '1'],
          ['1', 'b', '1'],
        ],
      }),
      player({ rank: 3, name: 'D, D', rounds: [] }),
    ].join('\n');
    const r = parseTrf(text);
    if (!r.isErr) throw new Error('expected an error');
    expect(r.error.problems.map(p => [p.kind, p.line, p.field])).toEqual([
      ['duplicate', 4, 'starting rank (columns 5-8)'],
      ['inconsistent', 1, 'round 2 result'], // both claim the win
      ['inconsistent', 1, 'round 3 colour'], // both White
      ['inconsistent', 2, 'round 2 opponent'], // 2 names 3, who names 1
      ['unknownPlayer', 3, 'round 1 opponent'], // no player 4 (the second rank 3 is refused)
    ]);
  });

  it('reports a file with no player lines', () => {
    const r = parseTrf('012 Nothing here\n');
    expect(r.isErr && r.error.problems).toEqual([{ kind: 'empty', line: 1, field: '001' }]);
  });
});
