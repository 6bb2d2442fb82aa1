/**
 * What recognition tells the rest of the engine. Moves carry their evidence (the board events
 * that made them, with times) so that Art. 4 alerts can be derived later without re-reading the
 * stream. A revision of a published move is a `correction` (replace from ply N), never a branch.
 *
 *   for (const out of outputs) {
 *     if (out.type === 'move') console.log(out.ply, out.san, out.at);
 *     if (out.type === 'correction') console.log(`from ply ${out.fromPly}:`, out.moves.map(m => m.san));
 *   }
 */
import type { Color, Square } from 'chessops';
import type { BoardEvent } from './boardEvent.js';
import type { GestureResult } from './gesture.js';
import type { Pending } from './pending.js';

/** A move as published. */
export interface PublishedMove {
  /** 1-based ply of the game record. */
  readonly ply: number;
  readonly san: string;
  readonly uci: string;
  /** FEN after the move. */
  readonly fen: string;
  /** When the move was *made*: the sensor event after which the board showed it. */
  readonly at: number;
  /** When it was published: end of the settle window, a clock press, or a later quiet moment. */
  readonly publishedAt: number;
  /** The events from the previous move being made up to this one (square changes, presses, adjustments). */
  readonly evidence: readonly BoardEvent[];
  /** False when the board never showed this position by itself (two plies landed between quiet moments). */
  readonly observed: boolean;
}

/** Why published moves were replaced. */
export type CorrectionReason =
  /** The board settled on another move from an earlier ply (d3 became d4, Rf1 became O-O). */
  | 'revision'
  /** The board tracker found the board at an earlier ply (takeback, restored position). */
  | 'takeback'
  /** A move was the first half of a result gesture. */
  | 'gesture';

/** What made a ply final (no longer revisable). */
export type FinalBy =
  /** The mover pressed his clock (Art. 6: the move is completed). */
  | 'press'
  /** The opponent's reply was made on top of it. */
  | 'reply';

export type MismatchReason =
  /** No position within reach explains the board. */
  | 'unreachable'
  /**
   * At a press after missed ones, no story within reach explains the board, and more plies may
   * have been made than the search follows (more lifts since the last final ply than `chasePlies`):
   * the arbiter's, not an illegal move the board proves.
   */
  | 'beyondReach'
  /** Several sequences of moves explain it; none is chosen (moves are never invented). */
  | 'ambiguous'
  /** The pieces stand in the game's start position again: set up after the game (reset.ts). */
  | 'reset';

/**
 * The move orders that all explain the board, none preferred (a catch-up after a reconnection
 * showing `gxf6 c4 cxd4` or `cxd4 c4 gxf6` made): SAN lines played from the position after `root`.
 */
export interface MoveOrders {
  readonly root: number;
  /** At most MAX_ORDERS of them. */
  readonly lines: readonly (readonly string[])[];
  /** How many orders reach the board (more than `lines` holds after a long gap). */
  readonly total: number;
}

/** Move orders listed at most (a long catch-up can have hundreds of transpositions). */
export const MAX_ORDERS = 12;

export type RecognitionOutput =
  | ({ readonly type: 'move' } & PublishedMove)
  | {
      readonly type: 'correction';
      readonly at: number;
      /** First ply replaced; moves[0] is the new ply `fromPly` (empty: plies removed). */
      readonly fromPly: number;
      readonly moves: readonly PublishedMove[];
      readonly reason: CorrectionReason;
      /** For a takeback: 'unique' when only that ply shows the board, else 'repeated' (the latest one is taken). */
      readonly confidence?: 'unique' | 'repeated';
    }
  | { readonly type: 'final'; readonly at: number; readonly ply: number; readonly by: FinalBy }
  | { readonly type: 'pending'; readonly at: number; readonly ply: number; readonly pending: Pending }
  | {
      readonly type: 'mismatch';
      readonly at: number;
      /** The ply the game stands at. */
      readonly ply: number;
      /** Squares where the board differs from the position at `ply`. */
      readonly squares: readonly Square[];
      readonly reason: MismatchReason;
      /** 'press': a clock was pressed with this board (Art. 7 is the supervisor's). */
      readonly trigger: 'settle' | 'press';
      /** The side that pressed, for a press. */
      readonly side?: Color;
      /** A half-made move seen at the press, if any. */
      readonly pending?: Pending;
      /**
       * The board is (`ambiguous`), or has moved on from, a legal position that several move
       * orders reach: the position is no illegal one, only the order is unknown (an undecided
       * catch-up, kept until the board matches the game again).
       */
      readonly orders?: MoveOrders;
    }
  /** The board matches the game again after a mismatch. */
  | { readonly type: 'resolved'; readonly at: number; readonly ply: number }
  | {
      readonly type: 'result';
      readonly at: number;
      readonly ply: number;
      readonly result: GestureResult;
      readonly whiteKing: Square;
      readonly blackKing: Square;
    };

export type RecognitionOutputType = RecognitionOutput['type'];
