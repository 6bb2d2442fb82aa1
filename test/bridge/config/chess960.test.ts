/**
 * Chess960 in the config (pairings, boards, tournament.chess960) and the CSV pairings file: the
 * errors name the key, and the start of a game is the pairing's, else the board's, else the round's.
 */
import { describe, expect, it } from 'vitest';
import { startOf } from '../../../src/bridge/config/chess960.js';
import { parseConfig } from '../../../src/bridge/config/load.js';
import { parseCsvPairings } from '../../../src/bridge/pairings/csv.js';
import { parsePairingsFile } from '../../../src/bridge/pairings/fromFile.js';
import { describePairingsProblem } from '../../../src/bridge/pairings/types.js';
import { chess960Fen } from '../../../src/engine/chess960.js';

const problemsOf = (lines: readonly string[]): readonly string[] => {
  const r = parseConfig(lines.join('\n'));
  return r.isOk ? [] : r.error.problems;
};

const PAIRING = 'round: 1, board: 1, white: { name: W }, black: { name: B }';

describe('Chess960 settings in the config', () => {
  it.each([
    [
      'both position and fen',
      ['pairings:', `  - { ${PAIRING}, variant: chess960, position: 1, fen: '${chess960Fen(0) ?? ''}' }`],
      ['pairings[0].fen: give position or fen, not both (line 2)'],
    ],
    [
      'a position without variant: chess960',
      ['boards:', '  - { id: b1, driver: dgt, port: /dev/a, position: 12 }'],
      ['boards[0].position: a start position is for Chess960 games: add variant: chess960 (line 2)'],
    ],
    [
      'a FEN that is no position',
      ['pairings:', `  - { ${PAIRING}, variant: chess960, fen: 'rnbqkbnr/pppppppp/8 w - - 0 1' }`],
      ['pairings[0].fen: invalid FEN "rnbqkbnr/pppppppp/8 w - - 0 1": bad piece placement field (line 2)'],
    ],
    [
      'a round listed twice, one beyond the rounds',
      [
        'tournament:',
        '  rounds: 2',
        '  chess960:',
        '    - { round: 2 }',
        '    - { round: 2, position: 7 }',
        '    - { round: 3 }',
      ],
      [
        'tournament.chess960[1].round: round 2 is listed twice (line 5)',
        'tournament.chess960[2].round: round 3 is beyond tournament.rounds (2) (line 6)',
      ],
    ],
    [
      'a position out of range',
      ['tournament:', '  chess960:', '    - { round: 1, position: 960 }'],
      ['tournament.chess960[0].position: must be at most 959, got 960 (line 3)'],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(problemsOf(lines)).toEqual(expected);
  });

  it('takes the pairing’s start, else the board’s, else the round’s', () => {
    const r = parseConfig(
      [
        'tournament:',
        '  rounds: 3',
        '  chess960: [{ round: 1, position: 0 }, { round: 2 }]',
        'boards:',
        '  - { id: b1, driver: dgt, port: /dev/a, variant: chess960, position: 959 }',
        '  - { id: b2, driver: dgt, port: /dev/b }',
        'pairings:',
        `  - { ${PAIRING}, variant: chess960, fen: 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1' }`,
        `  - { round: 1, board: 2, white: { name: X }, black: { name: Y }, variant: standard }`,
      ].join('\n'),
    ).unwrap();
    const [b1, b2] = r.boards;
    const [p1, p2] = r.pairings;
    expect(startOf(r, p1, b2)).toEqual({ variant: 'chess960', fen: chess960Fen(0) });
    expect(startOf(r, p2, b1)).toEqual({ variant: 'standard' });
    expect(startOf(r, { round: 3 }, b1)).toEqual({ variant: 'chess960', fen: chess960Fen(959) });
    expect(startOf(r, { round: 1 }, b2)).toEqual({ variant: 'chess960', fen: chess960Fen(0) });
    expect(startOf(r, { round: 2 }, b2)).toEqual({ variant: 'chess960', fen: undefined });
    expect(startOf(r, { round: 3 }, b2)).toEqual({ variant: 'standard' });
  });
});

describe('the chess960 column of a CSV pairings file', () => {
  const HEAD = 'round,board,white,black,chess960';

  it('reads a number, a FEN or "board", and leaves an empty field to the config', () => {
    const text = [HEAD, '1,1,A,B,97', `1,2,C,D,${chess960Fen(5) ?? ''}`, '1,3,E,F,board', '1,4,G,H,'].join(
      '\n',
    );
    const pairings = parsePairingsFile('round.csv', text).unwrap();
    expect(pairings.map(p => [p.variant, p.position, p.fen])).toEqual([
      ['chess960', 97, undefined],
      ['chess960', undefined, chess960Fen(5)],
      ['chess960', undefined, undefined],
      [undefined, undefined, undefined],
    ]);
  });

  it('names the line and the column of a bad value', () => {
    const r = parseCsvPairings([HEAD, '1,1,A,B,960', '1,2,C,D,fischer'].join('\n'));
    const problems = r.isErr && 'problems' in r.error ? r.error.problems : [];
    expect(problems.map(describePairingsProblem)).toEqual([
      `line 2, field 'chess960': '960' is not a Chess960 position number (0-959), a FEN, or "board"`,
      `line 3, field 'chess960': 'fischer' is not a Chess960 position number (0-959), a FEN, or "board"`,
    ]);
  });
});
