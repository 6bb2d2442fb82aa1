/**
 * The reconnection back-off shared by every board session: the delay before each new attempt
 * grows by `factor` from `initialMs` up to `maxMs`.
 *
 *   backoffDelay(1); // 500
 *   backoffDelay(4, { initialMs: 100, maxMs: 400 }); // 400
 */

export interface Backoff {
  /** Delay before the first reconnection attempt, ms; default 500. */
  readonly initialMs?: number;
  /** Longest delay, ms; default 8000. */
  readonly maxMs?: number;
  /** Growth per failed attempt; default 2. */
  readonly factor?: number;
}

/** Delay before reconnection attempt `n` (1-based). */
export const backoffDelay = (n: number, b: Backoff = {}): number => {
  const initial = b.initialMs ?? 500;
  const max = b.maxMs ?? 8000;
  return Math.min(max, initial * (b.factor ?? 2) ** Math.max(0, n - 1));
};
