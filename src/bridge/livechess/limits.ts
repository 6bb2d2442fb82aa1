/**
 * A token bucket for one LiveChess connection's messages: `burst` at once after a quiet spell,
 * then `perSecond` on average. Time comes in as an argument.
 *
 *   const bucket = new TokenBucket(100, 20);
 *   if (!bucket.take(now)) reply('rate limited');
 */
export class TokenBucket {
  private tokens: number;
  private at: number | undefined;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one token at `now` (ms); false when none is left. */
  take(now: number): boolean {
    if (this.at !== undefined && now > this.at)
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = this.at === undefined ? now : Math.max(this.at, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
