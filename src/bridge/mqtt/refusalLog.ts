/**
 * Bounds the log lines of refused publishes and subscriptions: a client with a valid login that
 * publishes where it may not, reconnecting again and again, would otherwise write one line per
 * attempt. The first few refusals of each user in a period are written as they come; the rest are
 * counted and written as one line per user when the period ends.
 *
 *   const refusals = new RefusalLog(3);
 *   if (refusals.note('anna')) log.warn(`publish refused: …`); // the first 3 of anna's in a period
 *   for (const line of refusals.report()) log.warn(line);    // "anna: 120 more refusals not logged one by one"
 */
export class RefusalLog {
  private readonly counts = new Map<string, number>();

  /** `perPeriod`: refusals of one user written one by one in a period. */
  constructor(private readonly perPeriod = 3) {}

  /** Counts a refusal of `user`; true when it is to be logged on its own. */
  note(user: string): boolean {
    const n = (this.counts.get(user) ?? 0) + 1;
    this.counts.set(user, n);
    return n <= this.perPeriod;
  }

  /** The lines for the refusals not logged one by one since the last report; starts a new period. */
  report(): string[] {
    const lines = [...this.counts]
      .filter(([, n]) => n > this.perPeriod)
      .map(
        ([user, n]) => `${user || 'anonymous'}: ${n - this.perPeriod} more refusals not logged one by one`,
      );
    this.counts.clear();
    return lines;
  }
}
