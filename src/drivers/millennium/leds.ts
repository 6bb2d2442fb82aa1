/**
 * Millennium LED addressing (reference §1.7): 81 LEDs at the grid corners (9×9), so a square is
 * shown by its 4 corners and neighbours share LEDs. In orientation A the 0-based LED index is
 * 9·c + r, c counting grid lines from the h-file edge and r from the rank-1 edge; a rotated
 * board (orientation B) uses 80 − n. Each LED gets an 8-slot blink pattern, shown from bit 7 down.
 *
 *   squareLeds(parseSquare('e2')!, 'normal'); // [28, 29, 37, 38]
 *   makeLedPatterns([{ squares: SquareSet.fromSquare(12), style: 'steady' }], 'normal'); // 81 bytes
 *   parseLedPatterns(patterns, 'normal'); // the squares whose 4 corners are all lit
 */
import type { Square } from 'chessops';
import { SquareSet } from 'chessops';
import { orientSquare, type Orientation } from '../observation.js';
import type { LedGroup, LedStyle } from '../observationExtra.js';

export const LED_COUNT = 81;

/** Slot time in 4.096 ms units; the vendor's Android sample uses 0x32 (204.8 ms). */
export const DEFAULT_SLOT_TIME = 0x32;

/** Blink pattern per style (§1.7): steady on, and two blinks in opposite phase. */
export const STYLE_PATTERN: Readonly<Record<LedStyle, number>> = {
  steady: 0xff,
  blink: 0xcc,
  'blink-inverse': 0x33,
};

/** The 4 LED indices (0-based, LED 1 = index 0) around a square, in the game's frame. */
export const squareLeds = (square: Square, orientation: Orientation): readonly number[] => {
  const board = orientSquare(square, orientation);
  const f = board & 7;
  const k = board >> 3;
  const out: number[] = [];
  for (const c of [7 - f, 8 - f]) for (const r of [k, k + 1]) out.push(9 * c + r);
  return out;
};

/** 81 pattern bytes, LED 1 first. Overlapping corners combine their patterns with OR. */
export const makeLedPatterns = (groups: readonly LedGroup[], orientation: Orientation): number[] => {
  const patterns = new Array<number>(LED_COUNT).fill(0);
  for (const g of groups) {
    for (const sq of g.squares) {
      for (const n of squareLeds(sq, orientation)) patterns[n] = (patterns[n] ?? 0) | STYLE_PATTERN[g.style];
    }
  }
  return patterns;
};

/** The squares whose 4 corner LEDs are all on at some time (not off); the emulator's view. */
export const parseLedPatterns = (patterns: readonly number[], orientation: Orientation): SquareSet => {
  let set = SquareSet.empty();
  for (let sq = 0; sq < 64; sq++) {
    if (squareLeds(sq, orientation).every(n => (patterns[n] ?? 0) !== 0)) set = set.with(sq);
  }
  return set;
};
