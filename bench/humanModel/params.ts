/**
 * The knobs of the independent handling model, with defaults taken from the handling observed in
 * real DGT captures (three games, 199 plies: ../shared/reference/dgt-protocol.md §5.5), and a
 * parser for `key=value` overrides so every frequency and the dwell can be swept from the command line.
 *
 *   const p = withOverrides(defaultParams, 'stop=0.2,ghost=0', { dwellMs: [800, 1200] });
 */

export interface HandlingParams {
  /** How long a piece rests on a stop on its way (ms, uniform in [lo, hi]). */
  readonly dwellMs: readonly [number, number];
  /** Quiet moves: chance of 1–2 stops on the way (§5.5: 8 of 157). */
  readonly stop: number;
  /** Of those, chance of a second stop (§5.5: 11 stops in 8 plies, so 3 of 8 had two). */
  readonly secondStop: number;
  /** Of the stops, chance the square is off the piece's line, not a legal move (§5.5: 2 of 11). */
  readonly offLine: number;
  /** Knights and kings: chance of being set down next to the destination first, then corrected. */
  readonly nextTo: number;
  /** When a stop square would show an earlier position of the game, chance it is the one taken. */
  readonly repeatStop: number;
  /** Sliding moves: chance the piece registers for a moment on every square it passes (header quirk Q1, §5.4). */
  readonly slide: number;
  /** Chance the destination square flickers (empty, then the piece again, within 0.1 s) after the piece lands (§5.4 Q2). */
  readonly flicker: number;
  /** One-square pawn pushes: chance the arrival is sensed before the departure (§5.5: 2 plies). */
  readonly placeBeforeLift: number;
  /** Capture orders, relative weights (§5.5: 25 direct replacement, 7 captured first, 3 capturer first). */
  readonly captureDirect: number;
  readonly capturedFirst: number;
  readonly capturerFirst: number;
  /** Captures: chance the capturer stops on 1–2 squares on its way (§5.5: 2 of 35). */
  readonly captureStop: number;
  /** Captures: chance the captured piece, carried off, registers on a neighbouring square (§5.5: 5 of 35). */
  readonly ghost: number;
  /** Castling orders, relative weights (§5.5: 6 of 6 king first). Rook first is a 4.4 breach. */
  readonly castleKingFirst: number;
  readonly castleBothInHand: number;
  readonly castleRookFirst: number;
  /** En passant orders, relative weights (§5.5: the one seen was capturer first, captured pawn last). */
  readonly epCapturedLast: number;
  readonly epCapturedFirst: number;
  readonly epCapturerInHand: number;
  /** Promotion: chance the pawn is set down on the last rank before being swapped for the piece. */
  readonly promoPawnFirst: number;
  /** After releasing his move, chance the mover adjusts a piece (lift and put back), before the press. */
  readonly adjust: number;
  /** Chance of the same right after the press. */
  readonly adjustAfterPress: number;
  /** Chance the reply starts within a second of the press (blitz). */
  readonly blitz: number;
  /** Chance the reply's first lift is sensed before the press is (the clock's message arrives late). */
  readonly replyBeforePress: number;
  /**
   * Chance the mover forgets to press his clock (his time keeps running). The opponent's press
   * after the reply then reports nothing (his lever is already down): the next press reported is
   * the forgetter's, three plies after the last one. Not in the §5.5 captures; ours to sweep.
   */
  readonly forgetPress: number;
  /**
   * Chance the hand withdrawing from its move knocks over a piece beside the destination (no
   * king): lying on its side it is not sensed. Not in the §5.5 captures; ours to sweep. Who sets it
   * up again, and when, by relative weights: the mover before his press, the mover after it, the
   * opponent before his reply, the mover at his next turn before his move.
   */
  readonly knock: number;
  readonly knockBeforePress: number;
  readonly knockAfterPress: number;
  readonly knockByOpponent: number;
  readonly knockNextTurn: number;
  /** Press after the move is complete (ms, log-uniform; §5.5: 0–3 clock ticks). */
  readonly pressMs: readonly [number, number];
  /** Thinking time before a move (ms, log-uniform). */
  readonly thinkMs: readonly [number, number];
  /** Hand travel between lift and place, or between two stops (ms). */
  readonly travelMs: readonly [number, number];
}

export const defaultParams: HandlingParams = {
  dwellMs: [300, 2000],
  stop: 8 / 157,
  secondStop: 3 / 8,
  offLine: 2 / 11,
  nextTo: 0.05,
  repeatStop: 0.5,
  slide: 0.03,
  flicker: 0.02,
  placeBeforeLift: 0.06,
  captureDirect: 25,
  capturedFirst: 7,
  capturerFirst: 3,
  captureStop: 2 / 35,
  ghost: 5 / 35,
  castleKingFirst: 0.85,
  castleBothInHand: 0.15,
  castleRookFirst: 0,
  epCapturedLast: 0.6,
  epCapturedFirst: 0.25,
  epCapturerInHand: 0.15,
  promoPawnFirst: 0.3,
  adjust: 0.02,
  adjustAfterPress: 0.005,
  blitz: 0.1,
  replyBeforePress: 0.02,
  forgetPress: 0,
  knock: 0,
  knockBeforePress: 1,
  knockAfterPress: 1,
  knockByOpponent: 1,
  knockNextTurn: 1,
  pressMs: [150, 2500],
  thinkMs: [1000, 30000],
  travelMs: [200, 900],
};

type NumberKey = {
  [K in keyof HandlingParams]: HandlingParams[K] extends number ? K : never;
}[keyof HandlingParams];

const numberKeys = Object.keys(defaultParams).filter(
  k => typeof defaultParams[k as keyof HandlingParams] === 'number',
) as NumberKey[];
/** The ranges (`[lo, hi]` ms) that `key=lo-hi` may set; the dwell is set by the sweep level instead. */
const rangeKeys = ['pressMs', 'thinkMs', 'travelMs'] as const;

/**
 * `defaults` with `key=value,...` applied and then `extra`: a frequency takes a number ≥ 0, a range
 * (`thinkMs`, `pressMs`, `travelMs`) takes `lo-hi` in ms. Throws a TypeError naming the key or value
 * that is wrong (a command-line mistake).
 */
export const withOverrides = (
  defaults: HandlingParams,
  spec: string | undefined,
  extra: Partial<HandlingParams> = {},
): HandlingParams => {
  const out: Record<string, unknown> = { ...defaults };
  for (const part of (spec ?? '').split(',').filter(s => s.trim() !== '')) {
    const [key, value] = part.split('=').map(s => s.trim());
    if ((rangeKeys as readonly string[]).includes(key ?? '')) {
      const [lo, hi] = (value ?? '').split('-').map(Number);
      if (lo === undefined || hi === undefined || !(lo > 0) || !(hi >= lo))
        throw new TypeError(`--rates: ${key} needs a range lo-hi in ms (0 < lo ≤ hi), got '${value ?? ''}'`);
      out[key as string] = [lo, hi];
      continue;
    }
    if (key === undefined || !numberKeys.includes(key as NumberKey))
      throw new TypeError(
        `--rates: unknown key '${key ?? ''}' (known: ${[...numberKeys, ...rangeKeys].join(', ')})`,
      );
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < 0)
      throw new TypeError(`--rates: ${key} needs a number ≥ 0, got '${value ?? ''}'`);
    out[key] = n;
  }
  return { ...(out as unknown as HandlingParams), ...extra };
};

/** The dwell range of a sweep level in ms: `mix` is 0.3–2 s, a number L is L ± 20 %. */
export const dwellOfLevel = (level: string): readonly [number, number] => {
  if (level === 'mix') return [300, 2000];
  const l = Number(level);
  if (!(l > 0)) throw new TypeError(`--dwell: expected ms or 'mix', got '${level}'`);
  return [Math.round(l * 0.8), Math.round(l * 1.2)];
};
