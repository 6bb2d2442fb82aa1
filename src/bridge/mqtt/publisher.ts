/**
 * The never-lose publisher. Game events (QoS 1) wait in an ordered outgoing queue until the broker
 * acknowledges them (PUBACK); while the connection is down they stay queued, and after a reconnect
 * they are sent again in their original order, preceded by the events acknowledged shortly before
 * the connection dropped (a broker killed between its PUBACK and writing the message to disk or
 * to a subscriber would otherwise lose them). Duplicates are possible, so consumers drop events
 * whose `seq` they have seen. Retained snapshots (games, boards, PGN, info) keep their latest
 * payload here and are published again after every reconnect (an unchanged payload is not sent
 * again). Across a daemon restart, the acknowledged seq per game is recorded in an `AckLedger`,
 * and `publishFrom` re-queues the journal's events above it. An event whose PUBACK has not come
 * `ackTimeoutMs` after it was sent, on a connection that is still up, is sent again: the window
 * frees itself after any stall, without waiting for a reconnect.
 *
 *   const publisher = new EventPublisher({ connection, log, ledger });
 *   await publisher.start();
 *   publisher.publishEvent({ game: 'r1-b3', seq: 7, at: Date.now(), type: 'move', san: 'Nf3' });
 */
import { MQTT_NAMESPACE, type LogFn, type LogMessage } from './log.js';
import {
  makePayload,
  TOPIC_OPTIONS,
  type AlertMessage,
  type EventMessage,
  type Topic,
  type TopicMap,
  type TopicPattern,
  type Topics,
} from './topics.js';
import type { ConnectionListener, PublishOptions } from './client.js';

/** What the publisher needs of a connection (MqttConnection implements it). */
export interface PublishPort {
  readonly topics: Topics;
  readonly isConnected: boolean;
  publish(topic: string, payload: string | Buffer, options: PublishOptions): Promise<void>;
  onStatus(listener: ConnectionListener): () => void;
}

/** Where acknowledged seqs are recorded (AckLedger implements it). */
export interface AckRecorder {
  acked(game: string): number | undefined;
  record(game: string, seq: number): void;
}

export interface EventPublisherContext {
  readonly connection: PublishPort;
  readonly log: LogFn;
  /** Records the acknowledged seq per game, for re-publishing after a daemon restart. */
  readonly ledger?: AckRecorder;
  /** Events sent and not yet acknowledged, at most (default 100). */
  readonly maxInflight?: number;
  /** Events acknowledged this long (ms) before a disconnect are sent again after it (default 2000). */
  readonly resendAckedMs?: number;
  /** An event sent this long (ms) ago without a PUBACK is sent again (default 15000; 0: never). */
  readonly ackTimeoutMs?: number;
  /** Milliseconds stop() waits for the queue to drain (default 5000). */
  readonly drainTimeoutMs?: number;
  /** Wall clock in ms (injected for tests). */
  readonly now?: () => number;
  /** Each event's time from its queueing to its PUBACK, in ms (the daemon's /metrics histogram). */
  readonly onAcked?: (latencyMs: number) => void;
}

export interface PublisherHealth {
  /** Events waiting for a PUBACK, in flight or not yet sent. */
  readonly queued: number;
  readonly inflight: number;
  /** Event PUBACKs received (re-sent events count again). */
  readonly acked: number;
  /** Events sent again after a reconnect because they had been acknowledged just before it. */
  readonly resent: number;
  /** Events the broker refused with a reason code (0 expected). */
  readonly dropped: number;
  /** Retained topics re-published after each reconnect. */
  readonly retained: number;
  /** Events sent again because their PUBACK did not come within `ackTimeoutMs`. */
  readonly stalled: number;
  /** How long (ms) the oldest event still waiting for its PUBACK has waited; 0 when none waits. */
  readonly oldestMs: number;
}

interface Item {
  /** Position in publication order; re-sent copies keep it. */
  readonly order: number;
  readonly topic: string;
  readonly payload: string;
  /** For game events: the ledger's game and seq. */
  readonly game?: string;
  readonly seq?: number;
  /** When it was queued (wall ms). */
  readonly queuedAt: number;
  state: 'pending' | 'inflight' | 'done';
  /** Sends so far, and when the last one went (wall ms). */
  attempt: number;
  sentAt: number;
}

const MAX_RECENT = 10_000;

/** Reads the broker's reason code on a refused publish. */
const refusalCode = (error: unknown): number | undefined => {
  const code: unknown = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= 0x80 ? code : undefined;
};

/** The never-lose publisher (see the module comment). */
export class EventPublisher {
  private queue: Item[] = [];
  private recent: { readonly item: Item; readonly ackedAt: number }[] = [];
  private readonly retainedPayloads = new Map<
    string,
    { readonly payload: string; readonly options: PublishOptions }
  >();
  private nextOrder = 0;
  private nextIndex = 0;
  private inflight = 0;
  private generation = 0;
  private offlineAt: number | undefined;
  private retainedInflight = 0;
  private counters = { acked: 0, resent: 0, dropped: 0, stalled: 0 };
  private unsubscribe: (() => void) | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];

  constructor(private readonly ctx: EventPublisherContext) {}

  /** Starts following the connection; sends what is queued once it is up. Idempotent. */
  start(): Promise<void> {
    if (this.unsubscribe) return Promise.resolve();
    this.unsubscribe = this.ctx.connection.onStatus(this.onStatus);
    if (this.ctx.connection.isConnected) this.onStatus('online');
    const ackTimeoutMs = this.ctx.ackTimeoutMs ?? 15_000;
    if (ackTimeoutMs > 0) {
      this.stallTimer = setInterval(() => this.resendStalled(ackTimeoutMs), Math.max(10, ackTimeoutMs / 3));
      this.stallTimer.unref();
    }
    return Promise.resolve();
  }

  /**
   * Waits up to `drainTimeoutMs` for every queued event to be acknowledged, then stops following
   * the connection. What is still unacknowledged is logged; the journal and ledger bring it back
   * at the next start. Idempotent.
   */
  async stop(): Promise<void> {
    if (!this.unsubscribe) return;
    const timeoutMs = this.ctx.drainTimeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.drained(),
      new Promise<void>(resolve => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    clearTimeout(this.retryTimer);
    clearInterval(this.stallTimer);
    this.stallTimer = undefined;
    this.unsubscribe();
    this.unsubscribe = undefined;
    const left = this.unacked();
    if (left > 0)
      this.log(
        'warning',
        `${left} events not acknowledged at stop; the journal re-publishes them at next start`,
      );
  }

  /** Queues a game event on `<base>/games/<game>/events` (QoS 1). Per game, call in seq order. */
  publishEvent(event: EventMessage): void {
    const topic = this.ctx.connection.topics.gameEvents(event.game);
    this.enqueue(topic.name, makePayload(topic, event), event.game, event.seq);
  }

  /** Queues an alert on `<base>/alerts` (QoS 1, same guarantee, no seq bookkeeping). */
  publishAlert(alert: AlertMessage): void {
    const topic = this.ctx.connection.topics.alerts();
    this.enqueue(topic.name, makePayload(topic, alert), undefined, undefined);
  }

  /**
   * After a restart: queues the journal's events of one game whose seq is above the ledger's
   * acknowledged seq (all of them without a ledger). Returns how many were queued.
   */
  publishFrom(game: string, events: Iterable<EventMessage>): number {
    const after = this.ctx.ledger?.acked(game) ?? -1;
    let count = 0;
    for (const event of events) {
      if (event.game !== game || event.seq <= after) continue;
      this.publishEvent(event);
      count += 1;
    }
    return count;
  }

  /** Sets a retained topic's payload: published now and again after every reconnect. */
  retain<
    P extends
      'games/<game>' | 'public/games/<game>' | 'games/<game>/pgn' | 'boards/<board>/state' | 'bridge/info',
  >(topic: Topic<P>, payload: TopicMap[P]): void {
    this.retainRaw(topic, makePayload(topic, payload));
  }

  /**
   * Clears a retained topic on the broker (empty retained payload) and stops re-publishing it. While
   * the broker has not acknowledged the clearing (offline), it is sent again after the reconnect.
   */
  clearRetained(topic: Topic<TopicPattern>): void {
    this.retainRaw(topic, '');
  }

  /** Resolves when nothing is waiting for an acknowledgement. */
  drained(): Promise<void> {
    if (this.isDrained()) return Promise.resolve();
    return new Promise<void>(resolve => this.waiters.push(resolve));
  }

  health(): PublisherHealth {
    const oldest = this.queue.find(item => item.state !== 'done');
    return {
      queued: this.unacked(),
      inflight: this.inflight,
      acked: this.counters.acked,
      resent: this.counters.resent,
      dropped: this.counters.dropped,
      retained: this.retainedPayloads.size,
      stalled: this.counters.stalled,
      oldestMs: oldest === undefined ? 0 : Math.max(0, (this.ctx.now ?? Date.now)() - oldest.queuedAt),
    };
  }

  private readonly onStatus = (status: 'online' | 'offline'): void => {
    const now = (this.ctx.now ?? Date.now)();
    if (status === 'offline') {
      this.generation += 1;
      this.offlineAt = now;
      this.inflight = 0;
      this.retainedInflight = 0;
      this.queue.forEach(item => {
        if (item.state === 'inflight') item.state = 'pending';
      });
      this.nextIndex = 0;
      return;
    }
    const windowMs = this.ctx.resendAckedMs ?? 2000;
    if (this.offlineAt !== undefined && windowMs > 0) this.requeueRecent(this.offlineAt - windowMs);
    this.recent = [];
    this.offlineAt = undefined;
    this.retainedPayloads.forEach((entry, name) => this.sendRetained(name, entry.payload, entry.options));
    this.pump();
  };

  private retainRaw<P extends TopicPattern>(topic: Topic<P>, payload: string): void {
    // The same payload again: the broker has it, or is being sent it, or gets it after the
    // reconnect (every retained payload is published again then), so there is nothing to do.
    if (this.retainedPayloads.get(topic.name)?.payload === payload) return;
    const options = TOPIC_OPTIONS[topic.pattern];
    this.retainedPayloads.set(topic.name, { payload, options });
    if (this.unsubscribe && this.ctx.connection.isConnected) this.sendRetained(topic.name, payload, options);
  }

  private sendRetained(name: string, payload: string, options: PublishOptions): void {
    const generation = this.generation;
    this.retainedInflight += 1;
    this.ctx.connection.publish(name, payload, options).then(
      () => {
        if (generation !== this.generation) return;
        this.retainedInflight -= 1;
        // A clearing the broker has: nothing left to re-publish.
        if (payload === '' && this.retainedPayloads.get(name)?.payload === '')
          this.retainedPayloads.delete(name);
        this.notifyIfDrained();
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        this.retainedInflight -= 1;
        this.log(
          'warning',
          `retained ${name} not acknowledged (${String(error)}); re-published after reconnect`,
        );
        this.notifyIfDrained();
      },
    );
  }

  private enqueue(topic: string, payload: string, game: string | undefined, seq: number | undefined): void {
    const item: Item = {
      order: this.nextOrder++,
      topic,
      payload,
      queuedAt: (this.ctx.now ?? Date.now)(),
      state: 'pending',
      attempt: 0,
      sentAt: 0,
      ...(game === undefined ? {} : { game }),
      ...(seq === undefined ? {} : { seq }),
    };
    this.queue.push(item);
    this.pump();
  }

  /** Puts the events acknowledged since `since` back in the queue, in their original order. */
  private requeueRecent(since: number): void {
    const again = this.recent
      .filter(r => r.ackedAt >= since)
      .map(({ item }): Item => ({ ...item, state: 'pending', attempt: 0, sentAt: 0 }));
    this.recent = [];
    if (again.length === 0) return;
    this.counters.resent += again.length;
    this.queue = [...again, ...this.queue].sort((a, b) => a.order - b.order);
    this.nextIndex = 0;
    this.log('info', `re-sending ${again.length} events acknowledged just before the connection dropped`);
  }

  private pump(): void {
    if (!this.unsubscribe || !this.ctx.connection.isConnected) return;
    const max = this.ctx.maxInflight ?? 100;
    while (this.inflight < max && this.nextIndex < this.queue.length) {
      const item = this.queue[this.nextIndex];
      this.nextIndex += 1;
      if (item?.state === 'pending') this.send(item);
    }
  }

  private send(item: Item): void {
    const generation = this.generation;
    item.state = 'inflight';
    item.attempt += 1;
    item.sentAt = (this.ctx.now ?? Date.now)();
    const attempt = item.attempt;
    this.inflight += 1;
    this.ctx.connection.publish(item.topic, item.payload, { qos: 1, retain: false }).then(
      () => this.onAck(item, generation),
      (error: unknown) => this.onFail(item, generation, attempt, error),
    );
  }

  /**
   * Sends again, in order, the events in flight for `ackTimeoutMs` without a PUBACK while the
   * connection is up (a PUBACK lost on the way, or a publish whose confirmation never comes):
   * their places in the window are freed. A late PUBACK of an earlier send still counts.
   */
  private resendStalled(ackTimeoutMs: number): void {
    if (this.inflight === 0 || !this.ctx.connection.isConnected) return;
    const before = (this.ctx.now ?? Date.now)() - ackTimeoutMs;
    let stalled = 0;
    for (const item of this.queue) {
      if (item.state !== 'inflight' || item.sentAt > before) continue;
      item.state = 'pending';
      this.inflight -= 1;
      stalled += 1;
    }
    if (stalled === 0) return;
    this.counters.stalled += stalled;
    this.nextIndex = 0;
    this.log(
      'warning',
      `${stalled} events had no PUBACK within ${ackTimeoutMs} ms on a live connection; sending them again`,
    );
    this.pump();
  }

  private onAck(item: Item, generation: number): void {
    // An acknowledgement of any send of the item counts, also one that came after it was
    // timed out and put back in the queue.
    if (generation !== this.generation || item.state === 'done') return;
    if (item.state === 'inflight') this.inflight -= 1;
    item.state = 'done';
    this.counters.acked += 1;
    const now = (this.ctx.now ?? Date.now)();
    this.ctx.onAcked?.(now - item.queuedAt);
    this.recent.push({ item, ackedAt: now });
    const horizon = now - (this.ctx.resendAckedMs ?? 2000);
    while (
      this.recent.length > MAX_RECENT ||
      (this.recent[0] !== undefined && this.recent[0].ackedAt < horizon)
    ) {
      this.recent.shift();
    }
    this.compact();
    this.pump();
    this.notifyIfDrained();
  }

  private onFail(item: Item, generation: number, attempt: number, error: unknown): void {
    if (generation !== this.generation || item.state !== 'inflight' || item.attempt !== attempt) return;
    this.inflight -= 1;
    const code = refusalCode(error);
    if (code !== undefined) {
      item.state = 'done';
      this.counters.dropped += 1;
      this.log('error', `broker refused ${item.topic} seq ${item.seq ?? '-'} (reason code ${code}); dropped`);
      this.compact();
      this.pump();
      this.notifyIfDrained();
      return;
    }
    // Not a refusal: the connection is going away. Retry in order when it is back (or shortly).
    item.state = 'pending';
    this.nextIndex = 0;
    this.retryTimer ??= setTimeout(() => {
      this.retryTimer = undefined;
      this.pump();
    }, 1000);
  }

  /** Drops acknowledged events from the head and advances each game's acknowledged seq. */
  private compact(): void {
    let removed = 0;
    while (this.queue[removed]?.state === 'done') {
      const item = this.queue[removed];
      if (item?.game !== undefined && item.seq !== undefined) this.ctx.ledger?.record(item.game, item.seq);
      removed += 1;
    }
    if (removed === 0) return;
    this.queue.splice(0, removed);
    this.nextIndex = Math.max(0, this.nextIndex - removed);
  }

  private unacked(): number {
    return this.queue.reduce((n, item) => (item.state === 'done' ? n : n + 1), 0);
  }

  private isDrained(): boolean {
    return this.retainedInflight === 0 && this.queue.every(item => item.state === 'done');
  }

  private notifyIfDrained(): void {
    if (this.waiters.length === 0 || !this.isDrained()) return;
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach(resolve => resolve());
  }

  private log(level: 'error' | 'warning' | 'info' | 'debug', message: LogMessage): void {
    this.ctx.log(level, message, `${MQTT_NAMESPACE}:publisher`);
  }
}
