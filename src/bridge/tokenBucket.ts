/**
 * Token buckets for rate limits (requests, LiveChess messages): `size` tokens at once after a
 * quiet spell, then `perSecond` on average. A bucket is a plain record so that gates can keep
 * many in a map; time comes in as an argument.
 *
 *   const bucket = fullBucket(100, now);
 *   if (!takeToken(bucket, now, 20, 100)) reply('rate limited');
 */

export interface Bucket {
  tokens: number;
  /** When it was last refilled (ms). */
  at: number;
}

/** A bucket holding `size` tokens at `now`. */
export const fullBucket = (size: number, now: number): Bucket => ({ tokens: size, at: now });

/** Refills a bucket to `now` and takes one token if there is one. */
export const takeToken = (bucket: Bucket, now: number, perSecond: number, size: number): boolean => {
  bucket.tokens = Math.min(size, bucket.tokens + (Math.max(0, now - bucket.at) * perSecond) / 1000);
  bucket.at = Math.max(bucket.at, now);
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
};
