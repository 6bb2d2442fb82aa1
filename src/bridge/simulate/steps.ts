/**
 * From what people do at a board to what the DGT emulator plays: the board events of the handling
 * generator (or of the fault injector) become timed emulator steps (squares, clock presses, a
 * pulled cable for a lost link), and a board left in any position is cleared and set up again for
 * the next game. Shared by `chessbridge demo` and `chessbridge simulate`.
 *
 *   const run = generateHandling(Chess.default(), moves, { seed: 7, clock: 'press' });
 *   const steps = stepsOfEvents(run.events, { startAt: 1000 });   // square and clock-press steps
 *   runner.play$(resetBoardSteps(lettersOf(board)));              // pieces back to the start
 */
import type { Board } from 'chessops';
import type { PieceLetter } from '../../drivers/dgt/emulator.js';
import { letterOf, type ScriptStep } from '../../drivers/dgt/emulatorScript.js';
import { START_SQUARES } from '../../drivers/observation.js';
import type { SupervisorInput } from '../../engine/events.js';
import type { SensedContent } from '../../engine/recognition/boardEvent.js';

/** What stands on each square (index = chessops square), in the emulator's letters. */
export type BoardLetters = (PieceLetter | 'empty')[];

export interface StepsOptions {
  /** Script time of the events' time 0 (ms). */
  readonly startAt: number;
  /** Bus address put on every step (boards on a bus line). */
  readonly board?: number;
  /**
   * Extra script time after a lost link comes back (ms), so the host has reconnected and read
   * the board again before the game goes on. Default 0.
   */
  readonly reconnectMs?: number;
}

const letter = (piece: SensedContent): PieceLetter | 'empty' =>
  piece === 'empty' || piece === 'occupied' ? 'empty' : letterOf(piece);

/**
 * Emulator steps of board events (White sits at the clock's left side). A lost link becomes a
 * pulled cable until it comes back; snapshots, ticks, announcements and operator commands have
 * nothing to play at the board and are left out.
 */
export const stepsOfEvents = (events: readonly SupervisorInput[], options: StepsOptions): ScriptStep[] => {
  const board = options.board === undefined ? {} : { board: options.board };
  const steps: ScriptStep[] = [];
  let shift = options.startAt;
  let lostAt: number | undefined;
  for (const e of events) {
    const at = shift + e.at;
    switch (e.kind) {
      case 'square':
        steps.push({ at, kind: 'square', square: e.square, piece: letter(e.piece), ...board });
        break;
      case 'press':
        steps.push({ at, kind: 'clock-press', side: e.side === 'white' ? 'left' : 'right', ...board });
        break;
      case 'link':
        if (e.state === 'lost') lostAt = at;
        else if (lostAt !== undefined) {
          steps.push({ at: lostAt, kind: 'disconnect', forMs: Math.max(1, at - lostAt), ...board });
          lostAt = undefined;
          shift += options.reconnectMs ?? 0;
        }
        break;
      case 'snapshot':
      case 'tick':
      case 'adjust':
      case 'clock':
      case 'claim':
      case 'offer':
      case 'offerReply':
      case 'resign':
      case 'arbiter':
      case 'boardLog':
        break;
    }
  }
  // The cable is pulled when the link is lost: keep the steps in time order.
  return steps.sort((a, b) => a.at - b.at);
};

/** The letters of a chessops board. */
export const lettersOf = (b: Board): BoardLetters =>
  Array.from({ length: 64 }, (_, sq) => {
    const p = b.get(sq);
    return p === undefined ? 'empty' : letterOf(p);
  });

/** Steps that clear the board as it stands and set up the start position (a piece every 40 ms). */
export const resetBoardSteps = (
  current: readonly (PieceLetter | 'empty')[],
  options: { readonly board?: number } = {},
): ScriptStep[] => {
  const board = options.board === undefined ? {} : { board: options.board };
  const steps: ScriptStep[] = [];
  let at = 0;
  current.forEach((p, sq) => {
    if (p !== 'empty') steps.push({ at: (at += 40), kind: 'square', square: sq, piece: 'empty', ...board });
  });
  START_SQUARES.forEach((c, sq) => {
    if (c.kind === 'piece')
      steps.push({ at: (at += 40), kind: 'square', square: sq, piece: letterOf(c), ...board });
  });
  return steps;
};

/** Follows the squares a list of steps changes (from `start`); returns the board after them. */
export const applySteps = (
  start: readonly (PieceLetter | 'empty')[],
  steps: readonly ScriptStep[],
): BoardLetters => {
  const out = [...start];
  for (const s of steps) if (s.kind === 'square' && typeof s.square === 'number') out[s.square] = s.piece;
  return out;
};
