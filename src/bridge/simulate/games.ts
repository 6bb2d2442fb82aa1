/**
 * The games a simulated venue plays, from a PGN text: standard-start games with at least one move
 * and a result, each cut where the Laws in force end it on the board (checkmate, stalemate, a dead
 * position, fivefold repetition, the 75-move rule), and otherwise ended by the players' result
 * gesture (kings on the centre squares) as recorded. The text is only split up front; each game is
 * read and judged when first asked for, so a file of thousands of games costs what is played.
 *
 *   const library = new GameLibrary(text, getProfile('E23', 'rapid'));
 *   const g = library.playableFrom(0);   // the first playable game (skipping those that are not)
 *   g?.sans;                             // ['e4', 'e5', …] as the daemon must publish them
 *   g?.ending;                           // { kind: 'rules', result: '1-0' } or { kind: 'gesture', result: '1/2-1/2' }
 */
import type { EditionProfile } from '../../engine/editions.js';
import { Game } from '../../engine/game.js';
import { makeResultToken } from '../../engine/outcome.js';
import { type PgnChunk, splitPgn } from '../../engine/pgnLex.js';
import { readPgn } from '../../engine/pgnRead.js';
import { evaluateGame } from '../../engine/status.js';

export type GameResult = '1-0' | '0-1' | '1/2-1/2';

/** How a game ends at the board. */
export type SimEnding =
  /** The last move ends it under the Laws (the daemon ends it by itself). */
  | { readonly kind: 'rules'; readonly result: string }
  /** The players show the recorded result with the kings after the last move. */
  | { readonly kind: 'gesture'; readonly result: GameResult };

export interface SimGame {
  /** 1-based position of the game in the file. */
  readonly index: number;
  readonly white: string;
  readonly black: string;
  /** The game up to where it ends on the board. */
  readonly game: Game;
  /** Its moves in SAN, as the daemon publishes them. */
  readonly sans: readonly string[];
  readonly ending: SimEnding;
}

/** A game of the file that is not played, and why. */
export interface SkippedGame {
  readonly index: number;
  readonly reason: string;
}

const isResult = (r: string): r is GameResult => r === '1-0' || r === '0-1' || r === '1/2-1/2';

const tag = (headers: ReadonlyMap<string, string>, name: string, fallback: string): string => {
  const v = headers.get(name)?.trim();
  return v === undefined || v === '' || v === '?' ? fallback : v;
};

const STANDARD_FEN = Game.standard().start.fen;

/** One game of a PGN text as played at a board, or why it cannot be. */
export const simulationGame = (
  text: string,
  index: number,
  profile: EditionProfile,
): SimGame | SkippedGame => {
  const [read] = readPgn(text);
  if (read === undefined) return { index, reason: 'no game' };
  if (read.isErr) return { index, reason: read.error.message };
  const { game, headers, result } = read.value;
  if (game.start.chess960 || game.start.fen !== STANDARD_FEN)
    return { index, reason: 'not from the standard start position' };
  if (game.length === 0) return { index, reason: 'no moves' };
  const statuses = evaluateGame(game, profile);
  const endAt = statuses.findIndex(s => s.end !== undefined);
  let played = game;
  let ending: SimEnding;
  if (endAt > 0) {
    let cut = Game.standard();
    for (const m of game.moves.slice(0, endAt)) cut = cut.play(m.move).unwrap();
    played = cut;
    ending = { kind: 'rules', result: makeResultToken(statuses[endAt]?.end) };
  } else if (isResult(result)) ending = { kind: 'gesture', result };
  else return { index, reason: 'no result (*) and the Laws do not end it' };
  return {
    index,
    white: tag(headers, 'White', 'White'),
    black: tag(headers, 'Black', 'Black'),
    game: played,
    sans: played.moves.map(m => m.san),
    ending,
  };
};

const isPlayable = (g: SimGame | SkippedGame): g is SimGame => 'game' in g;

/** The games of a PGN text, read and judged on demand (see the module comment). */
export class GameLibrary {
  private readonly chunks: readonly PgnChunk[];
  private readonly judged = new Map<number, SimGame | SkippedGame>();

  constructor(
    text: string,
    private readonly profile: EditionProfile,
  ) {
    this.chunks = splitPgn(text);
  }

  /** Games in the file, playable or not. */
  get size(): number {
    return this.chunks.length;
  }

  /** Game `position` (0-based) of the file, read and judged once. */
  at(position: number): SimGame | SkippedGame {
    let g = this.judged.get(position);
    if (g === undefined) {
      g = simulationGame(this.chunks[position]?.text ?? '', position + 1, this.profile);
      this.judged.set(position, g);
    }
    return g;
  }

  /** The first playable game at `position` (0-based, taken modulo the size) or after it, wrapping; undefined: none. */
  playableFrom(position: number): SimGame | undefined {
    for (let i = 0; i < this.size; i++) {
      const g = this.at((((position + i) % this.size) + this.size) % this.size);
      if (isPlayable(g)) return g;
    }
    return undefined;
  }

  /** The games judged so far that are not played. */
  skipped(): SkippedGame[] {
    return [...this.judged.values()].filter((g): g is SkippedGame => !isPlayable(g));
  }
}
