/**
 * The hands at the board: a small builder that lifts and puts down pieces on a tracked board and
 * writes the board events a sensor would report, with times. Gaps are drawn from the tempo and
 * come in three kinds: `scan` (the same physical instant seen in two sensor reads), `brief`
 * (shorter than the settle window and than a human reply: a transient the recogniser must never
 * judge, such as a piece touching down on a square that is itself a legal move) and
 * `carry`/`pause` (any length: the board shows pieces in hand or a half-made move, which the
 * recogniser may judge safely).
 *
 *   const h = makeHands(rng, Chess.default().board, { settleMs: 300, occupancy: false, tempo: TEMPOS.rapid, rates });
 *   h.take(12, 0); h.put(28, { color: 'white', role: 'pawn' }, h.carry());
 *   h.events.length;   // 2
 */
import type { Board, Color, Piece, Square } from 'chessops';
import { SquareSet, kingAttacks } from 'chessops';
import type { BoardEvent, SensedContent } from '../recognition/boardEvent.js';
import type { Rng } from './prng.js';
import type { HandlingRates, TempoProfile } from './rates.js';

export interface HandsOptions {
  /** The recogniser's settle window: brief gaps stay well inside it. */
  readonly settleMs: number;
  /** Report occupancy only, as boards without piece recognition do. */
  readonly occupancy: boolean;
  readonly tempo: TempoProfile;
  readonly rates: HandlingRates;
  /**
   * How long a piece rests on a square on its way (a stop), ms: people set a piece down for 0.3–2 s
   * on an intermediate square before its destination (issue patterns; reference §5.5 saw the stops,
   * not their length). Default DEFAULT_DWELL_MS.
   */
  readonly dwellMs?: readonly [number, number];
}

export interface Hands {
  readonly rng: Rng;
  readonly options: HandsOptions;
  /** The board as the pieces stand now (mutated as the hands work). */
  readonly board: Board;
  readonly events: BoardEvent[];
  /** Time of the last event written (or of the last wait). */
  now(): number;
  /** Lets time pass. */
  wait(ms: number): void;
  /** Lifts the piece on `square` after `gap` ms; returns it. */
  take(square: Square, gap: number): Piece | undefined;
  /** Puts `piece` on `square` (replacing whatever stands there, as a direct replacement) after `gap` ms. */
  put(square: Square, piece: Piece, gap: number): void;
  /** A direct replacement on `square`; occupancy-only boards see the square empty for a scan. */
  replace(square: Square, piece: Piece, gap: number): void;
  press(side: Color, gap: number): void;
  adjust(side: Color, gap: number): void;
  scan(): number;
  brief(): number;
  /** How long a stop on the way lasts (the dwell). */
  dwell(): number;
  carry(): number;
  pause(): number;
  /** An empty square next to `square`, if any (for ghosts and stray touch-downs). */
  emptyNeighbour(square: Square, avoid?: SquareSet): Square | undefined;
}

/** Longest transient (a touch-down, a ghost), ms: shorter than any reply (MIN_REPLY_MS). */
export const BRIEF_MAX_MS = 110;

/** A stop on the way lasts this long by default (ms): the range people show. */
export const DEFAULT_DWELL_MS: readonly [number, number] = [300, 2000];

/** Shortest time before the opponent's first touch after a move is made, ms (human reaction). */
export const MIN_REPLY_MS = 130;

export const makeHands = (rng: Rng, board: Board, options: HandsOptions, start = 0): Hands => {
  const events: BoardEvent[] = [];
  let t = start;
  // Transients (touch-downs, ghosts) last less than a reply takes, and well inside the window.
  const briefMax = Math.max(20, Math.min(BRIEF_MAX_MS, options.settleMs - 90));
  const content = (piece: Piece): SensedContent => (options.occupancy ? 'occupied' : piece);
  const hands: Hands = {
    rng,
    options,
    board,
    events,
    now: () => t,
    wait: ms => {
      t += Math.max(0, Math.round(ms));
    },
    take: (square, gap) => {
      hands.wait(gap);
      const piece = board.take(square);
      if (piece) events.push({ kind: 'square', at: t, square, piece: 'empty' });
      return piece;
    },
    put: (square, piece, gap) => {
      hands.wait(gap);
      board.set(square, piece);
      events.push({ kind: 'square', at: t, square, piece: content(piece) });
    },
    replace: (square, piece, gap) => {
      if (options.occupancy && board.has(square)) {
        hands.take(square, gap);
        hands.put(square, piece, hands.scan());
        return;
      }
      hands.put(square, piece, gap);
    },
    press: (side, gap) => {
      hands.wait(gap);
      events.push({ kind: 'press', at: t, side });
    },
    adjust: (side, gap) => {
      hands.wait(gap);
      events.push({ kind: 'adjust', at: t, side });
    },
    scan: () => rng.int(3, 40),
    brief: () => rng.int(15, briefMax),
    dwell: () => {
      const [lo, hi] = options.dwellMs ?? DEFAULT_DWELL_MS;
      return rng.int(lo, hi);
    },
    carry: () => {
      if (rng.chance(options.rates.longHold)) return rng.int(1000, 4000);
      const [lo, hi] = options.tempo.carryMs;
      return rng.int(lo, hi);
    },
    pause: () => rng.int(80, 900),
    emptyNeighbour: (square, avoid = SquareSet.empty()) =>
      rng.pick([...kingAttacks(square).diff(board.occupied).diff(avoid)]),
  };
  return hands;
};
