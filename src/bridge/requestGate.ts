/**
 * Backpressure for requests, whichever door they come in by (MQTT request topics, the HTTP arbiter
 * actions): a token bucket per client, a token bucket for all clients together, and a bound on
 * the requests taken and not yet answered. A request the gate refuses is answered "rate limited"
 * (its client is over its rate) or "busy" (the daemon is), counted, and reported in one log line
 * per interval (`summary()`), never one line a request. Memory stays bounded under any flood: at
 * most `maxClients` buckets and `maxNamed` names in the summary are kept. Before all that,
 * `readDelayMs()` paces the reading of MQTT requests (`readPerSecond`): what a flood sends beyond
 * it waits at the broker, which drops what its queue cannot hold, and costs the daemon nothing.
 *
 * Who a client is comes from one function, `requestClientKey`: the verified user once requests
 * are authenticated, else what the transport tells (an MQTT 5 response topic, an HTTP address),
 * else one shared anonymous bucket per transport.
 *
 *   const gate = new RequestGate({ limits: config.requests, now: Date.now });
 *   const ticket = gate.admit({ transport: 'mqtt', responseTopic: 'replies/console-1' });
 *   if (ticket.ok) { await handle(); ticket.release(); } else answer(ticket.message);
 *   setInterval(() => { const line = gate.summary(); if (line) log.warn(line); }, 10_000);
 */
import { type Bucket, takeToken } from './tokenBucket.js';

/** What the transport knows of who sent a request. */
export interface RequestOrigin {
  readonly transport: 'mqtt' | 'http';
  /** The user the request was authenticated as (the embedded broker's verified login, an HTTP user). */
  readonly user?: string;
  /** The MQTT client id (`<client id>@<address>` from the embedded broker). */
  readonly clientId?: string;
  /** The MQTT 5 response topic the request asked for (each client normally has its own). */
  readonly responseTopic?: string;
  /** The HTTP peer address. */
  readonly address?: string;
}

/**
 * The one place that says who a request is from, for its rate limit: the verified user when there
 * is one, then the MQTT client id, the MQTT 5 response topic, the HTTP address; requests with none
 * of these (MQTT 3.1.1 clients answered on the shared response topic) share one bucket.
 */
export const requestClientKey = (origin: RequestOrigin): string => {
  if (origin.user !== undefined) return `user:${origin.user}`;
  if (origin.clientId !== undefined) return `${origin.transport}:client:${origin.clientId}`;
  if (origin.responseTopic !== undefined) return `${origin.transport}:reply:${origin.responseTopic}`;
  if (origin.address !== undefined) return `${origin.transport}:address:${origin.address}`;
  return `${origin.transport}:anonymous`;
};

/** The limits (the config's `requests` section). */
export interface RequestLimits {
  /** Requests per second each client may make on average. */
  readonly perSecond: number;
  /** Requests a client may make at once (its bucket's size). */
  readonly burst: number;
  /** Requests per second of all clients together. */
  readonly totalPerSecond: number;
  /** Requests taken and not yet answered, at most. */
  readonly queue: number;
  /** Refusals answered per second, at most (the others are only counted). */
  readonly refusalsPerSecond: number;
  /** MQTT request messages read per second, at most. */
  readonly readPerSecond: number;
}

/** The shortest pause in reading (ms): shorter ones cost more in timers than they save. */
const MIN_READ_PAUSE_MS = 10;

export type RefusalReason = 'rate_limited' | 'busy';

export type Ticket =
  | { readonly ok: true; readonly client: string; release(): void }
  | {
      readonly ok: false;
      readonly client: string;
      readonly reason: RefusalReason;
      /** The refusal's words for the caller: `rate limited: …` or `busy: …`. */
      readonly message: string;
      /** When to try again, in seconds (HTTP Retry-After). */
      readonly retryAfterS: number;
    };

export interface RequestGateContext {
  readonly limits: RequestLimits;
  /** Clock in ms. */
  readonly now: () => number;
  /** Called for every refusal (the /metrics counter). */
  readonly onRefused?: (transport: RequestOrigin['transport'], reason: RefusalReason) => void;
  /** Buckets kept at most; the oldest is forgotten first (default 10 000). */
  readonly maxClients?: number;
  /** Clients named in the summary at most; the others are counted (default 1000). */
  readonly maxNamed?: number;
}

/** The gate (see the module comment). */
export class RequestGate {
  private readonly clients = new Map<string, Bucket>();
  private readonly total: Bucket;
  private readonly refusals: Bucket;
  private readonly reads: Bucket;
  private readPauses = 0;
  private pendingCount = 0;
  private refusedSince = { rate_limited: 0, busy: 0, unanswered: 0 };
  private readonly refusedBy = new Map<string, number>();
  private since: number;

  constructor(private readonly ctx: RequestGateContext) {
    const now = ctx.now();
    const { totalPerSecond, refusalsPerSecond } = ctx.limits;
    this.total = { tokens: totalPerSecond, at: now };
    this.refusals = { tokens: refusalsPerSecond, at: now };
    this.reads = { tokens: ctx.limits.readPerSecond, at: now };
    this.since = now;
  }

  /** Requests taken and not yet released. */
  get pending(): number {
    return this.pendingCount;
  }

  /** Takes a request, or refuses it; a taken request must be released once answered. */
  admit(origin: RequestOrigin): Ticket {
    const { limits } = this.ctx;
    const now = this.ctx.now();
    const client = requestClientKey(origin);
    if (this.pendingCount >= limits.queue)
      return this.refuse(origin, client, 'busy', `busy: ${limits.queue} requests wait already`, 1);
    if (!takeToken(this.bucketOf(client, now), now, limits.perSecond, limits.burst))
      return this.refuse(
        origin,
        client,
        'rate_limited',
        `rate limited: more than ${limits.perSecond} requests a second from this client`,
        Math.max(1, Math.ceil(1 / limits.perSecond)),
      );
    if (!takeToken(this.total, now, limits.totalPerSecond, limits.totalPerSecond))
      return this.refuse(
        origin,
        client,
        'busy',
        `busy: more than ${limits.totalPerSecond} requests a second in all`,
        1,
      );
    this.pendingCount += 1;
    let released = false;
    return {
      ok: true,
      client,
      release: () => {
        if (released) return;
        released = true;
        this.pendingCount -= 1;
      },
    };
  }

  /**
   * After reading one MQTT request: how long to wait (ms) before reading the next one, so that at
   * most `readPerSecond` are read (0: read on).
   */
  readDelayMs(): number {
    const { readPerSecond } = this.ctx.limits;
    const now = this.ctx.now();
    if (takeToken(this.reads, now, readPerSecond, Math.max(1, readPerSecond / 10))) return 0;
    this.readPauses += 1;
    return Math.max(MIN_READ_PAUSE_MS, Math.ceil(((1 - this.reads.tokens) * 1000) / readPerSecond));
  }

  /**
   * Whether a refusal may be answered now (at most `refusalsPerSecond`): answering each one of a
   * flood would be a flood of its own. A refusal not answered is counted in the summary.
   */
  answerRefusal(): boolean {
    const { refusalsPerSecond } = this.ctx.limits;
    const ok =
      refusalsPerSecond > 0 &&
      takeToken(this.refusals, this.ctx.now(), refusalsPerSecond, Math.max(1, refusalsPerSecond));
    if (!ok) this.refusedSince.unanswered += 1;
    return ok;
  }

  /**
   * The refusals since the last call as one line (undefined when there were none), e.g.
   * `refused 5120 requests in 10 s (rate limited 5000, busy 120; 4900 not answered); most from
   * mqtt:anonymous (5000)`.
   */
  summary(): string | undefined {
    const now = this.ctx.now();
    const { rate_limited: limited, busy, unanswered } = this.refusedSince;
    const paused = this.readPauses;
    this.readPauses = 0;
    const seconds = Math.max(1, Math.round((now - this.since) / 1000));
    this.since = now;
    const by = [...this.refusedBy].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const clients = this.refusedBy.size;
    this.refusedSince = { rate_limited: 0, busy: 0, unanswered: 0 };
    this.refusedBy.clear();
    const reading =
      paused > 0 ? `; reading paused ${paused} times at ${this.ctx.limits.readPerSecond} a second` : '';
    if (limited + busy === 0)
      return paused > 0
        ? `requests arrive faster than they are read: reading paused ${paused} times at ${this.ctx.limits.readPerSecond} a second`
        : undefined;
    const most = by.map(([client, n]) => `${client} (${n})`).join(', ');
    return (
      `refused ${limited + busy} requests in ${seconds} s (rate limited ${limited}, busy ${busy}` +
      `${unanswered > 0 ? `; ${unanswered} not answered` : ''}${reading}); most from ${most}` +
      `${clients > by.length ? ` and ${clients - by.length} more clients` : ''}`
    );
  }

  private bucketOf(client: string, now: number): Bucket {
    let bucket = this.clients.get(client);
    if (bucket === undefined) {
      if (this.clients.size >= (this.ctx.maxClients ?? 10_000)) {
        const oldest = this.clients.keys().next();
        if (oldest.done !== true) this.clients.delete(oldest.value);
      }
      bucket = { tokens: this.ctx.limits.burst, at: now };
      this.clients.set(client, bucket);
    }
    return bucket;
  }

  private refuse(
    origin: RequestOrigin,
    client: string,
    reason: RefusalReason,
    message: string,
    retryAfterS: number,
  ): Ticket {
    this.refusedSince[reason] += 1;
    const named = this.refusedBy.get(client);
    if (named !== undefined) this.refusedBy.set(client, named + 1);
    else if (this.refusedBy.size < (this.ctx.maxNamed ?? 1000)) this.refusedBy.set(client, 1);
    this.ctx.onRefused?.(origin.transport, reason);
    return { ok: false, client, reason, message, retryAfterS };
  }
}
