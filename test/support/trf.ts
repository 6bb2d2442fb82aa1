/**
 * Writes FIDE TRF-16 player lines for tests, column for column, so a test states a tournament
 * (ranks, titles, ratings, round-by-round opponents, colours and results) and gets the text a
 * pairing program would export.
 *
 *   trfPlayerLine({ rank: 1, title: 'g', name: 'Alpha, Anna', rating: '2500', rounds: [['2', 'w', '1']] });
 */
/** One TRF-16 player line, column for column (rank 5-8, title 11-13, name 15-47, rating 49-52, fed 54-56, id 58-68, rounds from 92). */
export const trfPlayerLine = (p: {
  rank: number | string;
  title?: string;
  name: string;
  rating?: string;
  fed?: string;
  id?: string;
  points?: string;
  rounds: [opp: string, color: string, result: string][];
}): string =>
  [
    '001 ',
    String(p.rank).padStart(4),
    ' ',
    ' ',
    (p.title ?? '').padStart(3),
    ' ',
    p.name.padEnd(33),
    ' ',
    (p.rating ?? '').padStart(4),
    ' ',
    (p.fed ?? '').padEnd(3),
    ' ',
    (p.id ?? '').padStart(11),
    ' ',
    '2000/01/01',
    ' ',
    (p.points ?? '0.0').padStart(4),
    ' ',
    '   0',
    ...p.rounds.map(([opp, color, result]) => `  ${opp.padStart(4)} ${color} ${result}`),
  ]
    .join('')
    .trimEnd();
