/**
 * Reads a FIDE Tournament Report File (TRF, the fixed-column text that pairing programs export):
 * the header lines (012 name, 022 city, 042/052 dates, 122 time control, 132 round dates), the
 * player lines `001` with their round-by-round opponent, colour and result, and derives the
 * pairings of every round: who played whom with which colour, in board order.
 *
 *   const r = parseTrf(text);
 *   if (r.isOk) r.value.pairings.filter(p => p.round === 5); // boards of round 5
 *   else console.error(r.error.message);                    // "line 12, field 'rating (columns 49-52)': ..."
 *
 * Board order follows the usual Swiss arrangement: the higher score of the two players before the
 * round, then the sum of their scores, then the better starting rank of the two. Column layout and
 * result codes: docs/broadcast.md.
 */
import { Result } from '@badrap/result';
import type { FideResult } from '../../engine/outcome.js';
import { type Mutable, type TrfHeader, type TrfPlayer, readHeaderLine, readPlayerLine } from './trfLines.js';
import { type Bye, type Pairing, type PairingsError, type PairingsProblem, pairingsError } from './types.js';

export type { TrfColor, TrfHeader, TrfPlayer, TrfRound } from './trfLines.js';

export interface TrfImport {
  readonly header: TrfHeader;
  readonly players: readonly TrfPlayer[];
  /** Every paired game of every round, by round then board. */
  readonly pairings: readonly Pairing[];
  readonly byes: readonly Bye[];
  /** Highest round number that holds a block in any player line. */
  readonly rounds: number;
}

/** Codes that go with an opponent, as (this player, opponent) pairs. */
const VALID_CODE_PAIRS = new Set([
  '10',
  '01',
  '==',
  '+-',
  '-+',
  '--',
  'WL',
  'LW',
  'DD',
  '  ',
  '**',
  ' *',
  '* ',
]);
const POINTS: Readonly<Record<string, number>> = {
  '1': 1,
  '+': 1,
  W: 1,
  F: 1,
  U: 1,
  '=': 0.5,
  D: 0.5,
  H: 0.5,
};

const pointsBefore = (p: TrfPlayer, round: number): number =>
  p.rounds.reduce((sum, b) => (b.round < round ? sum + (POINTS[b.code] ?? 0) : sum), 0);

const gameResult = (whiteCode: string, blackCode: string): FideResult | undefined => {
  switch (whiteCode) {
    case '1':
    case 'W':
      return '1-0';
    case '0':
    case 'L':
      return '0-1';
    case '=':
    case 'D':
      return '½-½';
    case '+':
      return '+/-';
    case '-':
      return blackCode === '+' ? '-/+' : '0-0';
    default:
      return undefined;
  }
};

interface PairedGame {
  readonly round: number;
  readonly white: TrfPlayer;
  readonly black: TrfPlayer;
  readonly result: FideResult | undefined;
  readonly line: number;
}

/** Cross-checks both sides of every game and collects games and byes. */
const collectGames = (
  players: readonly TrfPlayer[],
  problems: PairingsProblem[],
): { games: PairedGame[]; byes: Bye[] } => {
  const byRank = new Map(players.map(p => [p.startRank, p]));
  const games: PairedGame[] = [];
  const byes: Bye[] = [];
  for (const p of players) {
    for (const b of p.rounds) {
      const field = `round ${b.round} opponent`;
      if (b.opponent === 0) {
        if (b.code !== ' ') byes.push({ round: b.round, player: p.player, code: b.code, line: p.line });
        continue;
      }
      const q = byRank.get(b.opponent);
      if (!q) {
        problems.push({ kind: 'unknownPlayer', line: p.line, field, value: String(b.opponent) });
        continue;
      }
      const back = q.rounds.find(x => x.round === b.round);
      if (back?.opponent !== p.startRank) {
        const reason = `names player ${q.startRank}, whose round ${b.round} names ${back?.opponent ?? 'nobody'}`;
        problems.push({
          kind: 'inconsistent',
          line: p.line,
          field,
          value: String(b.opponent),
          otherLine: q.line,
          reason,
        });
        continue;
      }
      if (p.startRank > q.startRank) continue; // the pair is handled once, from the lower rank
      if (b.color !== undefined && b.color === back.color) {
        const reason = `has the same colour in round ${b.round} as this player`;
        problems.push({
          kind: 'inconsistent',
          line: p.line,
          field: `round ${b.round} colour`,
          value: String(q.startRank),
          otherLine: q.line,
          reason,
        });
        continue;
      }
      if (!VALID_CODE_PAIRS.has(`${b.code}${back.code}`)) {
        const reason = `has result '${back.code}' in round ${b.round}, which does not match '${b.code}'`;
        problems.push({
          kind: 'inconsistent',
          line: p.line,
          field: `round ${b.round} result`,
          value: String(q.startRank),
          otherLine: q.line,
          reason,
        });
        continue;
      }
      const pWhite =
        b.color === 'white' || back.color === 'black' || (b.color === undefined && back.color === undefined);
      const [white, black, wb, bb] = pWhite ? [p, q, b, back] : [q, p, back, b];
      games.push({ round: b.round, white, black, result: gameResult(wb.code, bb.code), line: white.line });
    }
  }
  return { games, byes };
};

/** Board order of one round's games: higher score, then sum of scores, then better starting rank. */
const orderBoards = (games: readonly PairedGame[]): Pairing[] => {
  const scored = games.map(g => {
    const w = pointsBefore(g.white, g.round);
    const b = pointsBefore(g.black, g.round);
    return { g, max: Math.max(w, b), sum: w + b, rank: Math.min(g.white.startRank, g.black.startRank) };
  });
  scored.sort((x, y) => y.max - x.max || y.sum - x.sum || x.rank - y.rank);
  return scored.map(({ g }, i) => ({
    round: g.round,
    board: i + 1,
    white: g.white.player,
    black: g.black.player,
    ...(g.result !== undefined ? { result: g.result } : {}),
    line: g.line,
  }));
};

/** Parses a TRF text into players, pairings in board order, and byes; every problem is reported with its line. */
export const parseTrf = (text: string): Result<TrfImport, PairingsError> => {
  const problems: PairingsProblem[] = [];
  const header: Mutable<TrfHeader> = { roundDates: [] };
  const players: TrfPlayer[] = [];
  const firstLineOfRank = new Map<number, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\s+$/, '');
    const code = line.slice(0, 3);
    if (code === '001') {
      const player = readPlayerLine({ problems, line: i + 1 }, line);
      if (!player) continue;
      const first = firstLineOfRank.get(player.startRank);
      if (first !== undefined) {
        const field = 'starting rank (columns 5-8)';
        problems.push({
          kind: 'duplicate',
          line: i + 1,
          field,
          value: String(player.startRank),
          firstLine: first,
        });
        continue;
      }
      firstLineOfRank.set(player.startRank, i + 1);
      players.push(player);
    } else if (/^\d{3}$/.test(code)) readHeaderLine(code, line, header);
  }
  if (players.length === 0 && problems.length === 0) problems.push({ kind: 'empty', line: 1, field: '001' });
  const { games, byes } = collectGames(players, problems);
  if (problems.length > 0) return Result.err(pairingsError('trf', problems));
  const rounds = Math.max(0, ...players.flatMap(p => p.rounds.map(b => b.round)));
  const pairings: Pairing[] = [];
  for (let round = 1; round <= rounds; round++)
    pairings.push(...orderBoards(games.filter(g => g.round === round)));
  return Result.ok({ header, players, pairings, byes, rounds });
};
