/**
 * A small seeded pseudo-random generator (a Weyl sequence through a 32-bit integer mixer): the
 * same seed gives the same stream on every platform, which is all the handling generator needs.
 * Not for cryptography.
 *
 *   const rng = makeRng(42);
 *   rng.int(1, 6);          // a die roll, the same every run for seed 42
 *   rng.chance(0.71);       // true about 71 % of the time
 */

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array (undefined for an empty one). */
  pick<T>(items: readonly T[]): T | undefined;
}

const GOLDEN = 0x9e3779b9;

export const makeRng = (seed: number): Rng => {
  let state = (Math.trunc(seed) ^ 0x5bd1e995) >>> 0;
  const next = (): number => {
    state = (state + GOLDEN) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: p => next() < p,
    pick: items => items[Math.floor(next() * items.length)],
  };
};

/** A seed for game `index` of run `seed`, so each game's stream is independent of the others. */
export const deriveSeed = (seed: number, index: number): number =>
  (Math.imul(seed ^ 0x27d4eb2f, 0x165667b1) + Math.imul(index + 1, GOLDEN)) >>> 0;
