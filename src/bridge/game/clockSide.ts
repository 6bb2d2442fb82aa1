/**
 * Where White sits at the clock, learned during a game (used by inputs.ts when it is not configured).
 *
 *   let l = startSideLearning(gameStartOf(undefined));  // the standard position, White to move
 *   l = withSquare(l, 12, 'empty');                     // the board as the observations show it
 *   l = withSquare(l, 28, { color: 'white', role: 'pawn' });
 *   learnWhiteSide(l, 'right');                         // 'left': White moved, pressed, Black's clock runs
 *
 * The rule: White's side is learned at the first change of the clock seen during the game (the
 * clock starting, or the other side's clock running now), never from a reading alone. A reading
 * can be stale: when a new game starts on a board, the previous game's clock still runs on the side
 * of whoever was to move when it ended. At a change, the side whose clock now runs is the side to
 * move (Art. 6.6: the clock of the player to move starts; a press starts the opponent's), and the
 * board says who that is:
 * - the board stands as the game began: nothing was played, so the player to move at the start
 *   (White, in the standard position) is still to move. This is the clock set and started for
 *   White, whether by the arbiter or by Black pressing his lever, and whether or not it was stopped
 *   first;
 * - the board differs from the start by exactly one move of the player to move at the start (two
 *   squares: one of his pieces left a square for an empty one): he moved and pressed, his
 *   opponent's clock runs;
 * - anything else (more moves made before the first change seen, e.g. the game was created while
 *   play was under way or the daemon was not reading the board): the side is not learned there. It
 *   is not guessed: the clock is not read for the game until a later change tells (docs/daemon.md).
 */
import { Board, type Color } from 'chessops';
import { parseFen } from 'chessops/fen';
import type { ClockSide } from '../../drivers/observation.js';
import type { SensedContent } from '../../engine/recognition/boardEvent.js';

/** A game's start: its position as the sensors would show it, and the side to move. */
export interface GameStart {
  readonly board: readonly SensedContent[];
  readonly turn: Color;
}

/** What the learning keeps while White's side is unknown: the start, and the board as it stands. */
export interface SideLearning {
  readonly start: GameStart;
  readonly board: readonly SensedContent[];
}

const sensedBoard = (board: Board): SensedContent[] =>
  Array.from({ length: 64 }, (_, sq): SensedContent => {
    const p = board.get(sq);
    return p === undefined ? 'empty' : { color: p.color, role: p.role };
  });

export const STANDARD_START: GameStart = { board: sensedBoard(Board.default()), turn: 'white' };

/** The start of a game from its FEN (the standard position when absent or unreadable). */
export const gameStartOf = (fen: string | undefined): GameStart => {
  if (fen === undefined) return STANDARD_START;
  const setup = parseFen(fen);
  return setup.isOk ? { board: sensedBoard(setup.value.board), turn: setup.value.turn } : STANDARD_START;
};

export const startSideLearning = (start: GameStart): SideLearning => ({ start, board: start.board });

const sameSensed = (a: SensedContent | undefined, b: SensedContent | undefined): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && a.color === b.color && a.role === b.role);

/** Whether what a sensor shows fits what a square holds (an occupancy sensor sees any piece). */
const fits = (seen: SensedContent | undefined, held: SensedContent | undefined): boolean =>
  seen === 'occupied' ? held !== 'empty' && held !== undefined : sameSensed(seen, held);

export const withSquare = (l: SideLearning, square: number, piece: SensedContent): SideLearning => {
  if (sameSensed(l.board[square], piece)) return l;
  const board = l.board.slice();
  board[square] = piece;
  return { ...l, board };
};

export const withBoard = (l: SideLearning, board: readonly SensedContent[]): SideLearning => ({
  ...l,
  board,
});

const other = (side: ClockSide): ClockSide => (side === 'left' ? 'right' : 'left');

/** Not a piece of the other colour (a piece of `color`, or a sensor that cannot tell). */
const mayBeOf = (c: SensedContent | undefined, color: Color): boolean =>
  typeof c !== 'object' || c.color === color;

/** Whether the two changed squares are one move of `color` (a piece of his left one for the other, empty). */
const oneMoveBy = (l: SideLearning, changed: readonly number[], color: Color): boolean => {
  const [a, b] = changed;
  if (a === undefined || b === undefined) return false;
  const isMove = (from: number, to: number): boolean =>
    l.board[from] === 'empty' &&
    l.start.board[from] !== 'empty' &&
    mayBeOf(l.start.board[from], color) &&
    l.start.board[to] === 'empty' &&
    l.board[to] !== 'empty' &&
    mayBeOf(l.board[to], color);
  return isMove(a, b) || isMove(b, a);
};

/**
 * White's side at a change of the clock seen during the game, `running` the side whose clock runs
 * after it; undefined when the board does not tell (see the module comment).
 */
export const learnWhiteSide = (l: SideLearning, running: ClockSide): ClockSide | undefined => {
  const changed: number[] = [];
  for (let sq = 0; sq < 64; sq++) {
    if (fits(l.board[sq], l.start.board[sq])) continue;
    changed.push(sq);
    if (changed.length > 2) return undefined;
  }
  const { turn } = l.start;
  let toMove: ClockSide;
  if (changed.length === 0) toMove = running;
  else if (changed.length === 2 && oneMoveBy(l, changed, turn)) toMove = other(running);
  else return undefined;
  // `toMove`: the clock side of the player to move at the start.
  return turn === 'white' ? toMove : other(toMove);
};
