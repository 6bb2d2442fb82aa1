/**
 * How often each way of handling the pieces occurs, and how fast people play. The defaults
 * reproduce what real serial captures of human play show (reference dgt-protocol.md §5.5, 199
 * plies): 25 of 35 captures were direct replacements, 7 removed the captured piece first, 3
 * lifted the capturer, removed the captured piece and then placed the capturer; 5 captures left a
 * ghost; 8 of 157 quiet moves stopped on intermediate squares (9 of 11 stops legal moves); 2 were
 * placed before the lift (one-square pawn pushes); all castlings went king first. What the
 * captures did not show (promotions, rook-first castling, adjustments, knocked pieces) gets
 * plausible rates so every pattern is exercised.
 *
 *   const rates = { ...DEFAULT_RATES, ghost: 0.5 };
 *   TEMPOS.blitz.replyInWindow;   // share of replies landing within one settle window
 */

export interface HandlingRates {
  /** Captures: the target changes from the captured piece to the capturer with no empty step. */
  readonly captureDirect: number;
  /** Captures: the captured piece is removed first (the rest: capturer lifted, captured removed, capturer placed). */
  readonly captureVictimFirst: number;
  /** Captures: the captured piece, carried away, registers briefly on a neighbouring empty square. */
  readonly ghost: number;
  /** Quiet moves that can stop on the way (sliders, pawn double steps, knights): they do. */
  readonly stop: number;
  /** Of the stops on a line that offers legal ones: a stop on a square that is not a legal move. */
  readonly illegalStop: number;
  /** Quiet moves (any piece) that rest on an empty square next to the destination first. */
  readonly besideStop: number;
  /** Captures by a slider over two squares or more: the capturer stops on the way. */
  readonly captureStop: number;
  /** Slider moves registering on one or two passing squares (a slide). */
  readonly slide: number;
  /** One-square pawn pushes seen on the new square before the old one empties. */
  readonly placeBeforeLift: number;
  /** Moves whose destination flickers (empty, then the piece again) right after the placement. */
  readonly flicker: number;
  /** Castling with the rook moved first. */
  readonly castlingRookFirst: number;
  /** Promotion with the pawn put on the last rank first, then exchanged (else removed, new piece placed). */
  readonly promotionPawnFirst: number;
  /** En passant with the captured pawn removed first. */
  readonly enPassantVictimFirst: number;
  /** En passant with the capturer lifted, the captured pawn removed, the capturer placed. */
  readonly enPassantLiftRemovePlace: number;
  /** Moves preceded by adjusting the piece that is then moved (lift and put back). */
  readonly adjustMover: number;
  /** Moves preceded by an announced adjustment (j'adoube) of another own piece. */
  readonly adjustAnnounced: number;
  /** Moves after which a piece next to the destination falls over (vanishes) and is set up again. */
  readonly knockOver: number;
  /** Moves where the piece is held a long while (1–4 s) before it is put down. */
  readonly longHold: number;
}

export const DEFAULT_RATES: HandlingRates = {
  captureDirect: 25 / 35,
  captureVictimFirst: 7 / 35,
  ghost: 5 / 35,
  stop: 0.125,
  illegalStop: 2 / 11,
  besideStop: 0.012,
  captureStop: 2 / 35,
  slide: 0.05,
  placeBeforeLift: 0.05,
  flicker: 0.03,
  castlingRookFirst: 0.15,
  promotionPawnFirst: 0.5,
  enPassantVictimFirst: 0.35,
  enPassantLiftRemovePlace: 0.15,
  adjustMover: 0.02,
  adjustAnnounced: 0.01,
  knockOver: 0.01,
  longHold: 0.05,
};

export type Tempo = 'classical' | 'rapid' | 'blitz';

export interface TempoProfile {
  /** Thinking time before a move (ms). */
  readonly thinkMs: readonly [number, number];
  /** Share of replies that start within one settle window of the previous move (no clock) or one clock tick of the press. */
  readonly replyInWindow: number;
  /** Time from the last placement to the clock press (ms). */
  readonly pressMs: readonly [number, number];
  /** Time a piece is carried (ms). */
  readonly carryMs: readonly [number, number];
}

export const TEMPOS: { readonly [T in Tempo]: TempoProfile } = {
  classical: { thinkMs: [1500, 9000], replyInWindow: 0.03, pressMs: [250, 2500], carryMs: [200, 800] },
  rapid: { thinkMs: [700, 4000], replyInWindow: 0.12, pressMs: [120, 1500], carryMs: [150, 600] },
  blitz: { thinkMs: [250, 1800], replyInWindow: 0.35, pressMs: [60, 700], carryMs: [100, 400] },
};
