/**
 * Bounds the log lines of refused publishes and subscriptions: a client with a valid login that
 * publishes where it may not, reconnecting again and again, would otherwise write one line per
 * attempt. The first few refusals of each user in a window (a minute by default) are written as
 * they come; the rest are counted, and each report gives one line per user for them.
 *
 *   const refusals = new RefusalLog({ now: Date.now });
 *   if (refusals.note('anna')) log.warn(`publish refused: …`); // the first 3 of anna's in a minute
 *   for (const line of refusals.report()) log.warn(line);    // "anna: 120 more refusals not logged one by one"
 */
export interface RefusalLogOptions {
  /** The clock (ms). */
  readonly now: () => number;
  /** Refusals of one user written one by one in a window; default 3. */
  readonly perWindow?: number;
  /** The window, ms; default 60 000. */
  readonly windowMs?: number;
}

interface Tally {
  windowStart: number;
  inWindow: number;
  notLogged: number;
}

export class RefusalLog {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly options: RefusalLogOptions) {}

  /** Counts a refusal of `user`; true when it is to be logged on its own. */
  note(user: string): boolean {
    const now = this.options.now();
    const windowMs = this.options.windowMs ?? 60_000;
    let tally = this.tallies.get(user);
    if (tally === undefined || now - tally.windowStart >= windowMs) {
      tally = { windowStart: now, inWindow: 0, notLogged: tally?.notLogged ?? 0 };
      this.tallies.set(user, tally);
    }
    tally.inWindow += 1;
    if (tally.inWindow <= (this.options.perWindow ?? 3)) return true;
    tally.notLogged += 1;
    return false;
  }

  /** One line per user for the refusals not logged one by one since the last report. */
  report(): string[] {
    const lines: string[] = [];
    for (const [user, tally] of this.tallies) {
      if (tally.notLogged > 0)
        lines.push(`${user || 'anonymous'}: ${tally.notLogged} more refusals not logged one by one`);
      tally.notLogged = 0;
    }
    return lines;
  }
}
