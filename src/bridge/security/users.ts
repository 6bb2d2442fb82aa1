/**
 * The users of a venue and the check of a login, shared by the embedded broker and the HTTP server.
 *
 * A secret is checked against its salted hash once; after that the daemon remembers, in memory
 * only, a keyed digest of the secret that worked, so the right credentials are accepted at once
 * however hard someone guesses (a plain secret from the environment or a file is known from the
 * start). Guesses are slowed per address and per user: each has a few hash checks at once, then
 * one a second; a check beyond either budget is refused unchecked ("try again later"). The per-user
 * budget only binds addresses that have themselves failed for that user lately, so a guesser
 * elsewhere never slows the right person's first login; a bounded number of checks run at a time,
 * and an address without recent failures goes ahead of those with. Failures are counted for one
 * log line per address and interval, never one line per attempt.
 *
 *   const users = new UserDirectory([{ name: 'anna', role: 'arbiter', hash }]);
 *   const v = await users.check('anna', 'the secret', '192.0.2.7');
 *   if (v.ok) v.principal;   // { user: 'anna', role: 'arbiter' }
 *   users.failureReport();   // ['3 failed logins from 192.0.2.7 (users anna) …'] once per interval
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseHash, verifyPassword, type ScryptHash } from './passwords.js';
import type { Role } from './roles.js';

export interface Principal {
  readonly user: string;
  readonly role: Role;
}

/** A user as the daemon holds it: the hash from the configuration, or a plain secret (env, file). */
export interface UserEntry {
  readonly name: string;
  readonly role: Role;
  readonly hash?: string;
  readonly secret?: string;
}

export type LoginVerdict =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly why: 'wrong' | 'slowed' | 'busy' };

export interface LoginLimits {
  /** Hash checks an address may have at once before it is slowed. */
  readonly burst: number;
  /** Hash checks per second an address gets back. */
  readonly perSecond: number;
  /** Hash checks running at once across every address; more wait, up to `queue`. */
  readonly concurrent: number;
  readonly queue: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { burst: 10, perSecond: 1, concurrent: 2, queue: 32 };

/** How long a failure marks an address as guessing for a user. */
const FAILURE_MEMORY_MS = 10 * 60_000;

interface Bucket {
  tokens: number;
  at: number;
}

interface FailureTally {
  wrong: number;
  slowed: number;
  busy: number;
  readonly users: Set<string>;
}

/** A name a client chose, safe to log: control characters replaced, at most 64 characters. */
const printable = (name: string): string =>
  name === '' ? '(none)' : JSON.stringify(name.slice(0, 64)).slice(1, -1);

/** The users of a venue and their login check (see the module comment). */
export class UserDirectory {
  private readonly entries = new Map<string, UserEntry & { readonly parsed?: ScryptHash }>();
  private readonly key = randomBytes(32);
  /** Keyed digests of secrets that worked (or were given in plain), per user. */
  private readonly known = new Map<string, Buffer>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly userBuckets = new Map<string, Bucket>();
  /** Last failure time per `address\0user`. */
  private readonly failedAt = new Map<string, number>();
  private readonly tallies = new Map<string, FailureTally>();
  private running = 0;
  /** Checks waiting for a slot: from clean addresses first, then from guessing ones. */
  private readonly waitingClean: (() => void)[] = [];
  private readonly waiting: (() => void)[] = [];

  constructor(
    users: readonly UserEntry[],
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    for (const u of users) {
      const parsed = u.hash === undefined ? undefined : parseHash(u.hash);
      if (parsed?.isErr === true) throw new TypeError(`user ${u.name}: ${parsed.error.message}`);
      this.entries.set(u.name, { ...u, ...(parsed === undefined ? {} : { parsed: parsed.value }) });
      if (u.secret !== undefined) this.known.set(u.name, this.digest(u.name, u.secret));
    }
  }

  /** The role of a user, if there is one of that name. */
  roleOf(user: string): Role | undefined {
    return this.entries.get(user)?.role;
  }

  get size(): number {
    return this.entries.size;
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Checks a login from `address`; never rejects. */
  async check(user: string, secret: string, address: string): Promise<LoginVerdict> {
    const entry = this.entries.get(user);
    const digest = this.digest(user, secret);
    const known = this.known.get(user);
    if (entry !== undefined && known !== undefined && timingSafeEqual(known, digest))
      return { ok: true, principal: { user, role: entry.role } };
    // Every guess costs from the budgets, whether or not a hash is then computed: guessing a plain
    // secret (or user names) is slowed as much as guessing a hashed one.
    const guessing = this.guessing(address, user);
    if (!this.take(this.buckets, address, guessing ? undefined : 0)) {
      this.fail(address, user, 'slowed');
      return { ok: false, why: 'slowed' };
    }
    if (guessing && !this.take(this.userBuckets, user)) {
      this.fail(address, user, 'slowed');
      return { ok: false, why: 'slowed' };
    }
    if (entry?.parsed === undefined) {
      // No such user, or a plain secret that did not match: no hash to spend time on.
      this.fail(address, user, 'wrong');
      return { ok: false, why: 'wrong' };
    }
    if (guessing && this.running >= this.limits.concurrent && this.waiting.length >= this.limits.queue) {
      this.fail(address, user, 'busy');
      return { ok: false, why: 'busy' };
    }
    const parsed = entry.parsed;
    const ok = await this.slot(guessing, () => verifyPassword(secret, parsed)).catch(() => false);
    if (!ok) {
      this.fail(address, user, 'wrong');
      return { ok: false, why: 'wrong' };
    }
    this.known.set(user, digest);
    this.failedAt.delete(`${address}\u0000${user}`);
    return { ok: true, principal: { user, role: entry.role } };
  }

  /**
   * One line per address that failed since the last call (how many, which users, how many were
   * slowed or refused as busy), and forgets them; for a periodic log.
   */
  failureReport(): string[] {
    const lines = [...this.tallies].map(([address, t]) => {
      const total = t.wrong + t.slowed + t.busy;
      const users = [...t.users].slice(0, 5).join(', ') + (t.users.size > 5 ? ', …' : '');
      const extra = [
        ...(t.slowed > 0 ? [`${t.slowed} refused unchecked while slowed`] : []),
        ...(t.busy > 0 ? [`${t.busy} refused as busy`] : []),
      ];
      return `${total} failed login${total === 1 ? '' : 's'} from ${address} (users ${users})${
        extra.length === 0 ? '' : `; ${extra.join(', ')}`
      }`;
    });
    this.tallies.clear();
    return lines;
  }

  private digest(user: string, secret: string): Buffer {
    return createHmac('sha256', this.key).update(user).update('\u0000').update(secret).digest();
  }

  /** Whether `address` failed for `user` lately (then the user's budget binds it too). */
  private guessing(address: string, user: string): boolean {
    const key = `${address}\u0000${user}`;
    const at = this.failedAt.get(key);
    if (at === undefined) return false;
    if (this.now() - at < FAILURE_MEMORY_MS) return true;
    this.failedAt.delete(key);
    return false;
  }

  /**
   * Takes one hash check from the bucket of `key`; a clean address (`floor` 0) always gets its
   * check, even when guesses elsewhere from the same address emptied the bucket for other users.
   */
  private take(buckets: Map<string, Bucket>, key: string, floor?: number): boolean {
    const now = this.now();
    const { burst, perSecond } = this.limits;
    const b = buckets.get(key) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    if (buckets.size >= 10_000 && !buckets.has(key)) buckets.clear();
    buckets.set(key, b);
    if (b.tokens < 1 && floor === undefined) return false;
    b.tokens = Math.max(floor ?? 0, b.tokens - 1);
    return true;
  }

  private async slot<T>(guessing: boolean, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrent)
      await new Promise<void>(r => (guessing ? this.waiting : this.waitingClean).push(r));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      (this.waitingClean.shift() ?? this.waiting.shift())?.();
    }
  }

  private fail(address: string, user: string, why: 'wrong' | 'slowed' | 'busy'): void {
    if (this.failedAt.size >= 100_000) this.failedAt.clear();
    this.failedAt.set(`${address}\u0000${user}`, this.now());
    this.tally(address, user, why);
  }

  private tally(address: string, user: string, why: 'wrong' | 'slowed' | 'busy'): void {
    let t = this.tallies.get(address);
    if (t === undefined) {
      if (this.tallies.size >= 1000) return;
      t = { wrong: 0, slowed: 0, busy: 0, users: new Set() };
      this.tallies.set(address, t);
    }
    t[why]++;
    if (t.users.size < 20) t.users.add(printable(user));
  }
}
