/**
 * What an operator watching the hall needs of each board, worked out from what the registry knows
 * (pure): the board's condition (`connected`, `idle`, `lost`, `not_responding`) and its problems
 * (`board_missing`, `clock_paused`, `board_mismatch`), with the thresholds of the config's `watch`
 * section. The registry keeps the result and publishes it in `boards/<board>/state`.
 *
 *   judgeBoard(status, { now, watch: config.watch, gameUnderWay: true, mismatch: false });
 *     // { condition: 'connected', problems: ['clock_paused'] }
 */
import type { LinkState } from '../../drivers/observation.js';
import type { WatchConfig } from '../config/index.js';

/** How the board stands, in one word (docs/mqtt.md, `boards/<board>/state`). */
export type BoardCondition = 'connected' | 'idle' | 'lost' | 'not_responding';

/** What the operator is alerted to for a board, in the order the console shows them. */
export const BOARD_PROBLEMS = ['board_missing', 'clock_paused', 'board_mismatch'] as const;
export type BoardProblem = (typeof BOARD_PROBLEMS)[number];

/** What a board's condition is judged from. */
export interface WatchedBoard {
  readonly link: LinkState;
  /** When the link last changed (ms). */
  readonly linkSince: number;
  /** The link was lost and has not been connected since (a reconnection under way is still lost). */
  readonly down: boolean;
  /** The game bound to the board, if any. */
  readonly game: string | undefined;
  /** The clock as the board last reported it; undefined before any reading. */
  readonly clock:
    | { readonly present: boolean; readonly running: boolean; readonly stoppedSince: number | undefined }
    | undefined;
}

export interface WatchContext {
  readonly now: number;
  readonly watch: WatchConfig;
  /** The bound game has begun (a move made) and has no result. */
  readonly gameUnderWay: boolean;
  /** The board's game raised `board_mismatch` and the board has not shown the game's position since. */
  readonly mismatch: boolean;
}

export interface BoardJudgement {
  readonly condition: BoardCondition;
  readonly problems: readonly BoardProblem[];
}

/** The board's condition and problems now. */
export const judgeBoard = (b: WatchedBoard, ctx: WatchContext): BoardJudgement => {
  const silentMs = ctx.now - b.linkSince;
  const condition: BoardCondition =
    b.link === 'lost' || (b.down && b.link === 'resynchronising')
      ? 'lost'
      : b.link === 'resynchronising' && silentMs >= ctx.watch.notRespondingSeconds * 1000
        ? 'not_responding'
        : ctx.gameUnderWay
          ? 'connected'
          : 'idle';
  const missing = condition === 'lost' || condition === 'not_responding';
  const paused =
    ctx.gameUnderWay &&
    !missing &&
    b.clock?.present === true &&
    !b.clock.running &&
    b.clock.stoppedSince !== undefined &&
    ctx.now - b.clock.stoppedSince >= ctx.watch.clockPausedSeconds * 1000;
  const problems = BOARD_PROBLEMS.filter(p => {
    switch (p) {
      case 'board_missing':
        return missing;
      case 'clock_paused':
        return paused;
      case 'board_mismatch':
        return ctx.mismatch && b.game !== undefined;
    }
  });
  return { condition, problems };
};

/** Whether two judgements say the same. */
export const sameJudgement = (a: BoardJudgement, b: BoardJudgement): boolean =>
  a.condition === b.condition && a.problems.join() === b.problems.join();
