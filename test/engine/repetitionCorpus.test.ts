/**
 * Repetition, fifty- and seventy-five-move rules checked against real games from the shared PGN
 * corpora (data/pgn/README.md describes the files and names the games used here).
 */
import { readFileSync } from 'node:fs';
import { type Game, type PgnNodeData, parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { fiftyMoveClaim, halfmovesAfter, seventyFiveMoves } from '../../src/engine/moveCount.js';
import { type PositionKey, makePositionKey } from '../../src/engine/positionKey.js';
import {
  RepetitionTable,
  firstFivefold,
  firstThreefold,
  occurrencePlies,
} from '../../src/engine/repetition.js';
import { sharedPath } from '../support/shared.js';

/** PGN text: UTF-8 when the bytes are valid UTF-8 (a BOM is dropped), else latin1 (kasparov.pgn has one such byte in a tag). */
const readPgnText = (file: string): { text: string; encoding: 'utf-8' | 'latin1' } => {
  const bytes = readFileSync(sharedPath(`data/pgn/${file}`));
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: bytes.toString('latin1'), encoding: 'latin1' };
  }
};

const loaded = new Map<string, { games: Game<PgnNodeData>[]; encoding: 'utf-8' | 'latin1' }>();
const load = (file: string): { games: Game<PgnNodeData>[]; encoding: 'utf-8' | 'latin1' } => {
  let entry = loaded.get(file);
  if (!entry) {
    const { text, encoding } = readPgnText(file);
    entry = { games: parsePgn(text), encoding };
    loaded.set(file, entry);
  }
  return entry;
};

interface Replayed {
  /** Position keys, ply 0 = start position. */
  readonly keys: PositionKey[];
  /** Our half-move count at each ply, from the FEN's clock. */
  readonly halfmoves: number[];
  /** Plies at which our count differed from chessops' own clock (should be none). */
  readonly clockMismatches: number[];
  /** chessops' raw e.p. square at each ply: set after every double push, capturable or not. */
  readonly rawEpSquares: (number | undefined)[];
  readonly checkmate: boolean;
}

/** Replays the main line with chessops; throws on an illegal move (none expected in the games used). */
const replay = (game: Game<PgnNodeData>): Replayed => {
  const pos = startingPosition(game.headers).unwrap();
  const keys = [makePositionKey(pos)];
  const halfmoves = [pos.halfmoves];
  const clockMismatches: number[] = [];
  const rawEpSquares = [pos.epSquare];
  let count = pos.halfmoves;
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) throw new Error(`illegal move ${node.san} at ply ${keys.length}`);
    count = halfmovesAfter(pos, move, count);
    pos.play(move);
    keys.push(makePositionKey(pos));
    halfmoves.push(count);
    rawEpSquares.push(pos.epSquare);
    if (count !== pos.halfmoves) clockMismatches.push(keys.length - 1);
  }
  return { keys, halfmoves, clockMismatches, rawEpSquares, checkmate: pos.isCheckmate() };
};

const gameAt = (file: string, index: number): Game<PgnNodeData> => {
  const game = load(file).games[index - 1];
  if (!game) throw new Error(`${file} has no game ${index}`);
  return game;
};

describe('engine-threefold-repetition.pgn: every game ends with a threefold repetition on the board', () => {
  it('finds the third occurrence exactly at the final ply of each of the 713 games, never earlier', () => {
    const { games } = load('engine-threefold-repetition.pgn');
    expect(games).toHaveLength(713);
    const differing: { game: number; finalPly: number; firstThreefold: number | undefined }[] = [];
    const clockMismatches: { game: number; plies: number[] }[] = [];
    let plies = 0;
    games.forEach((game, i) => {
      const r = replay(game);
      const finalPly = r.keys.length - 1;
      plies += finalPly;
      const first = firstThreefold(r.keys);
      if (first !== finalPly) differing.push({ game: i + 1, finalPly, firstThreefold: first });
      if (r.clockMismatches.length > 0) clockMismatches.push({ game: i + 1, plies: r.clockMismatches });
    });
    expect(differing).toEqual([]);
    expect(clockMismatches).toEqual([]);
    expect(plies).toBeGreaterThan(50_000); // the games were really replayed
  });

  it('the incremental table gives the same answers as the array functions, ply by ply', () => {
    // Every 10th game, to keep the run short: the table is fed one key at a time as a live game would.
    const { games } = load('engine-threefold-repetition.pgn');
    for (let i = 0; i < games.length; i += 10) {
      const { keys } = replay(games[i]!);
      let table = RepetitionTable.empty();
      let firstSeen: number | undefined;
      for (const key of keys) {
        table = table.add(key);
        if (firstSeen === undefined && table.threefoldHasAppeared()) firstSeen = table.lastPly;
      }
      expect(firstSeen, `game ${i + 1}`).toBe(keys.length - 1);
      expect(table.occurrencesAt().plies, `game ${i + 1}`).toEqual(occurrencePlies(keys, keys.length - 1));
    }
  });
});

describe('threefold in human games that needs the legal e.p. rule', () => {
  // Found by replaying the corpora with a key that keeps any e.p. square (a double push): in these
  // games the first occurrence of the final position follows a double push that no pawn could take,
  // so it counts; with the naive key the final position would occur only twice. python-chess (whose
  // key also keeps only a legal e.p. square) lists each as end_threefold_repetition_on_board in
  // data/pgn/edge-case-index.csv.
  const cases: { file: string; game: number; white: string; plies: number[] }[] = [
    { file: 'carlsen.pgn', game: 969, white: 'Radjabov,T', plies: [98, 102, 106] }, // 49...g5
    { file: 'carlsen.pgn', game: 1102, white: 'Radjabov,T', plies: [60, 64, 68] }, // 30...h5
    { file: 'carlsen.pgn', game: 1548, white: 'Carlsen,M', plies: [78, 82, 86] }, // 39...h5
    { file: 'carlsen.pgn', game: 1689, white: 'Nyback,T', plies: [63, 67, 71] }, // 32.a4
    { file: 'kasparov.pgn', game: 516, white: 'Karpov, Anatoly', plies: [66, 70, 74] }, // 33...a5
    { file: 'kasparov.pgn', game: 1063, white: 'Shirov, Alexei', plies: [50, 54, 58] }, // 25...h5
    { file: 'twic0920.pgn', game: 1949, white: 'Hunt,A', plies: [26, 30, 34] }, // 13...b5
  ];

  it.each(cases)('$file game $game: third occurrence at ply $plies.2', ({ file, game, white, plies }) => {
    const g = gameAt(file, game);
    expect(g.headers.get('White')).toBe(white);
    const r = replay(g);
    const finalPly = r.keys.length - 1;
    expect(finalPly).toBe(plies[2]);
    expect(firstThreefold(r.keys)).toBe(finalPly);
    expect(occurrencePlies(r.keys, finalPly)).toEqual(plies);
    // The first occurrence came right after a double push: chessops has an e.p. square, the key has none.
    expect(r.rawEpSquares[plies[0]!]).toBeDefined();
    expect(r.keys[plies[0]!]!.endsWith(' -')).toBe(true);
  });
});

describe('fivefold repetition in human games (data/pgn/README.md)', () => {
  const cases: {
    file: string;
    game: number;
    white: string;
    encoding: 'utf-8' | 'latin1';
    finalPly: number;
    /** First ply at which the position appeared a fifth time (E17+ 9.6.1): the game was drawn there. */
    anyFive: number;
    /** The plies of that position up to then. */
    evidence: number[];
    /** Same under the E14 'consecutiveAlternate' reading (p, p+4, …, p+16), undefined if never. */
    consecutiveAlternate: number | undefined;
  }[] = [
    // Wagner–Huang, rapid 2024: the fifth occurrence is the last move, one unbroken run of shuffles.
    {
      file: 'fide-womens-world-rapid-2024.pgn',
      game: 291,
      white: 'Wagner, Dinara',
      encoding: 'utf-8',
      finalPly: 84,
      anyFive: 84,
      evidence: [68, 72, 76, 80, 84],
      consecutiveAlternate: 84,
    },
    // Tokhirjonova–Jarocka, rapid 2024: another position reached its fifth occurrence at ply 256
    // (the run is broken at 244); the players went on for 7 plies, to a sixth occurrence of the
    // final position (231, 235, 239, 255, 259, 263). Under 9.6.1 the game ended at ply 256.
    {
      file: 'fide-womens-world-rapid-2024.pgn',
      game: 469,
      white: 'Tokhirjonova, Gulrukhbegim',
      encoding: 'utf-8',
      finalPly: 263,
      anyFive: 256,
      evidence: [232, 236, 240, 248, 256],
      consecutiveAlternate: undefined,
    },
    // Kasparov–Miles, Internet 1998: fifth occurrence at ply 101, the game went on to a sixth at 105
    // (no automatic draw existed then; E14+ would have ended it at 101).
    {
      file: 'kasparov.pgn',
      game: 1403,
      white: 'Kasparov, Gary',
      encoding: 'latin1',
      finalPly: 105,
      anyFive: 101,
      evidence: [85, 89, 93, 97, 101],
      consecutiveAlternate: 101,
    },
    // Quiroga Jaquez–Pacan-Milej, 2018: fifth occurrence on the last move, but with an 8-ply gap
    // (116, 124): no draw under the strict E14 reading.
    {
      file: 'twic1256.pgn',
      game: 2313,
      white: 'Quiroga Jaquez,Angel Ivan',
      encoding: 'utf-8',
      finalPly: 136,
      anyFive: 136,
      evidence: [116, 124, 128, 132, 136],
      consecutiveAlternate: undefined,
    },
  ];

  it.each(cases)('$file game $game: fivefold at ply $anyFive', c => {
    expect(load(c.file).encoding).toBe(c.encoding);
    const game = gameAt(c.file, c.game);
    expect(game.headers.get('White')).toBe(c.white);
    const { keys } = replay(game);
    expect(keys.length - 1).toBe(c.finalPly);
    expect(firstFivefold(keys, 'anyFive')).toBe(c.anyFive);
    expect(occurrencePlies(keys, c.anyFive)).toEqual(c.evidence);
    expect(firstFivefold(keys, 'consecutiveAlternate')).toBe(c.consecutiveAlternate);
    expect(firstFivefold(keys, 'none')).toBeUndefined();
    // A threefold claim was available well before.
    expect(firstThreefold(keys)).toBeLessThan(c.anyFive);
  });
});

describe('carlsen.pgn game 1674: fifty-move claim possible, no seventy-five-move draw', () => {
  it('ends with the count at 102, first at 100 on ply 203', () => {
    expect(load('carlsen.pgn').encoding).toBe('utf-8'); // ASCII with CRLF line ends
    const game = gameAt('carlsen.pgn', 1674);
    expect(game.headers.get('Black')).toBe('Le Quang Liem');
    expect(game.headers.get('Result')).toBe('1-0');
    const r = replay(game);
    const finalPly = r.keys.length - 1;
    expect(finalPly).toBe(205);
    expect(r.halfmoves[finalPly]).toBe(102);
    expect(r.halfmoves.indexOf(100)).toBe(203);
    expect(r.clockMismatches).toEqual([]);
    expect(fiftyMoveClaim(102).unwrap()).toEqual({ holds: true, basis: 'completed', halfmoves: 102 });
    expect(fiftyMoveClaim(r.halfmoves[202]!).unwrap().holds).toBe(false);
    expect(seventyFiveMoves(102, r.checkmate)).toBe(false);
    expect(r.checkmate).toBe(false); // the decisive result came from something else (a claim must be made for 9.3)
    expect(firstThreefold(r.keys)).toBeUndefined();
  });
});
