/**
 * Chess960 (Fischer random) start positions: the 960 back ranks by their standard number (0–959,
 * 518 = the standard position), the number of a back rank or of a start FEN, and the start
 * position a board shows (the 16 pieces of each side on ranks 1–2 and 7–8, mirrored).
 *
 *   chess960Rank(518);                 // 'RNBQKBNR'
 *   chess960Fen(0);                    // 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'
 *   chess960NumberOfFen(chess960Fen(0)); // 0
 *
 * Numbering (the usual scheme, also lichess's): n mod 4 puts the light-squared bishop on b, d, f
 * or h; the next factor 4 the dark-squared bishop on a, c, e or g; the next factor 6 the queen on
 * one of the six files left; the last factor 10 the two knights on the five files left (in the
 * order of KNIGHTS below); the three files left hold rook, king, rook.
 */
import { Result } from '@badrap/result';
import type { Board } from 'chessops';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { Game, type GameError, parsePosition } from './game.js';
import { dataError } from './types.js';

/** The standard position's number. */
export const STANDARD_960 = 518;

const KNIGHTS: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 2],
  [0, 3],
  [0, 4],
  [1, 2],
  [1, 3],
  [1, 4],
  [2, 3],
  [2, 4],
  [3, 4],
];

const isNumber = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 959;

/** White's back rank of position `n` (a1 first, upper case), or undefined outside 0–959. */
export const chess960Rank = (n: number): string | undefined => {
  if (!isNumber(n)) return undefined;
  const rank: (string | undefined)[] = new Array<string | undefined>(8).fill(undefined);
  rank[2 * (n % 4) + 1] = 'B';
  const n2 = Math.floor(n / 4);
  rank[2 * (n2 % 4)] = 'B';
  const n3 = Math.floor(n2 / 4);
  const free = (): number[] => rank.flatMap((p, i) => (p === undefined ? [i] : []));
  rank[free()[n3 % 6] ?? 0] = 'Q';
  const [k1, k2] = KNIGHTS[Math.floor(n3 / 6)] ?? [0, 1];
  const left = free();
  rank[left[k1] ?? 0] = 'N';
  rank[left[k2] ?? 0] = 'N';
  const [r1 = 0, k = 0, r2 = 0] = free();
  rank[r1] = 'R';
  rank[k] = 'K';
  rank[r2] = 'R';
  return rank.join('');
};

const RANKS: ReadonlyMap<string, number> = new Map(
  Array.from({ length: 960 }, (_, n) => [chess960Rank(n) ?? '', n] as const),
);

/** The number of a back rank written a1 first ('RNBQKBNR' → 518), either case, or undefined. */
export const chess960NumberOfRank = (rank: string): number | undefined => RANKS.get(rank.toUpperCase());

/** The start FEN of position `n` (X-FEN castling, KQkq), or undefined outside 0–959. */
export const chess960Fen = (n: number): string | undefined => {
  const rank = chess960Rank(n);
  return rank === undefined
    ? undefined
    : `${rank.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${rank} w KQkq - 0 1`;
};

const backRank = (board: Board, rank: 0 | 7): string => {
  let out = '';
  for (let file = 0; file < 8; file++) {
    const p = board.get(rank * 8 + file);
    if (!p) return '';
    const letter = p.role === 'knight' ? 'n' : (p.role[0] ?? '');
    out += p.color === 'white' ? letter.toUpperCase() : letter;
  }
  return out;
};

/**
 * The number of the start position a board shows: the pawns on ranks 2 and 7, a Chess960 back
 * rank on rank 1 and its mirror on rank 8, nothing else. Undefined for any other board.
 */
export const chess960NumberOfBoard = (board: Board): number | undefined => {
  if (board.occupied.size() !== 32) return undefined;
  for (let file = 0; file < 8; file++) {
    const w = board.get(8 + file);
    const b = board.get(48 + file);
    if (w?.role !== 'pawn' || w.color !== 'white' || b?.role !== 'pawn' || b.color !== 'black')
      return undefined;
  }
  const white = backRank(board, 0);
  if (backRank(board, 7) !== white.toLowerCase()) return undefined;
  return /^[RNBQK]{8}$/.test(white) ? chess960NumberOfRank(white) : undefined;
};

/** The number of a start FEN (placement, White to move, all four castling rights), or undefined. */
export const chess960NumberOfFen = (fen: string): number | undefined => {
  const setup = parseFen(fen.trim());
  if (setup.isErr) return undefined;
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr || pos.value.turn !== 'white' || pos.value.castles.castlingRights.size() !== 4)
    return undefined;
  return chess960NumberOfBoard(pos.value.board);
};

/** How a Chess960 game is said to start: by number, by FEN, or neither (the standard position). */
export interface Chess960Start {
  readonly position?: number;
  readonly fen?: string;
}

/**
 * A Chess960 game record from a number or a FEN (X-FEN or Shredder-FEN castling); the standard
 * position (518) when neither is given. Errors name the number or the FEN.
 */
export const chess960Game = (start: Chess960Start = {}): Result<Game, GameError> => {
  if (start.fen !== undefined)
    return parsePosition(start.fen).map(pos => Game.fromPosition(pos, { chess960: true }));
  const n = start.position ?? STANDARD_960;
  const fen = chess960Fen(n);
  if (fen === undefined) {
    const detail = {
      kind: 'invalidFen' as const,
      fen: String(n),
      reason: 'a Chess960 position is a whole number from 0 to 959',
    };
    return Result.err(dataError(detail, `invalid Chess960 position ${String(n)}: ${detail.reason}`));
  }
  return Game.fromFen(fen, { chess960: true });
};

/** The FEN of a Chess960 start, normalised the way the game record writes it. */
export const chess960StartFen = (start: Chess960Start = {}): Result<string, GameError> =>
  chess960Game(start).map(g => makeFen(g.positionAt(0).toSetup()));
