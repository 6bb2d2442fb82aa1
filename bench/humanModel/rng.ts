/**
 * A small seeded random source for the independent handling model (bench/humanModel): the same
 * seed gives the same handling on every machine, so a failing case replays from (game, seed).
 * Written apart from the engine's own handling generator on purpose (sfc32 mixed from a string).
 *
 *   const rng = seededRng('carlsen.pgn:12:1');
 *   rng.float(); rng.int(1, 6); rng.chance(0.05); rng.pick(['a', 'b']);
 */

export interface Rng {
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [lo, hi] (both included). */
  int(lo: number, hi: number): number;
  /** Uniform real in [lo, hi). */
  between(lo: number, hi: number): number;
  /** Log-uniform real in [lo, hi): short waits are more common than long ones. */
  logBetween(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element (the array must not be empty). */
  pick<T>(items: readonly T[]): T;
  /** Index chosen with the given non-negative weights. */
  weighted(weights: readonly number[]): number;
}

/** 32-bit hash of a string (FNV-1a), used to seed from readable keys. */
const hash32 = (text: string, salt: number): number => {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
};

/** A generator seeded from any string (e.g. `file:game:seed`). */
export const seededRng = (key: string): Rng => {
  let a = hash32(key, 1);
  let b = hash32(key, 2);
  let c = hash32(key, 3);
  let d = hash32(key, 4) | 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    float: next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    between: (lo, hi) => lo + next() * (hi - lo),
    logBetween: (lo, hi) => Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo))),
    chance: p => next() < p,
    pick: items => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new TypeError('pick: empty list');
      return item;
    },
    weighted: weights => {
      const total = weights.reduce((s, w) => s + w, 0);
      let x = next() * total;
      for (let i = 0; i < weights.length; i++) {
        x -= weights[i] ?? 0;
        if (x < 0) return i;
      }
      return weights.length - 1;
    },
  };
  return rng;
};
