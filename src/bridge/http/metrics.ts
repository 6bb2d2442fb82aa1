/**
 * Counters of the bridge and their Prometheus text exposition (format 0.0.4) for `/metrics`: boards
 * connected, events published, alerts by code, publish latency as a histogram, HTTP requests by
 * route and status. The daemon feeds the counters; the HTTP server counts its own requests.
 *
 *   const metrics = new BridgeMetrics();
 *   metrics.setBoardsConnected(12); metrics.countEvent('move'); metrics.observePublishLatency(0.004);
 *   makePrometheusText(metrics.snapshot(), now); // '# HELP chessbridge_boards_connected ...'
 */

/** Upper bounds of the publish latency buckets, in seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

export interface MetricsSnapshot {
  readonly boardsConnected: number;
  readonly eventsPublished: ReadonlyMap<string, number>;
  readonly alerts: ReadonlyMap<string, number>;
  /** Cumulative counts per bucket of LATENCY_BUCKETS (then +Inf = count). */
  readonly latencyBuckets: readonly number[];
  readonly latencyCount: number;
  readonly latencySum: number;
  readonly httpRequests: ReadonlyMap<string, number>;
  readonly startedAt: number;
  /** Events waiting for the broker's acknowledgement. */
  readonly publishQueue: number;
  /** Seconds the oldest of them has waited. */
  readonly publishOldest: number;
  /** Events sent again because their PUBACK did not come in time. */
  readonly publishStalled: number;
  /** Requests refused before their handler, by transport and reason. */
  readonly requestsRefused: ReadonlyMap<string, number>;
}

const inc = (map: Map<string, number>, key: string, by = 1): void => {
  map.set(key, (map.get(key) ?? 0) + by);
};

export class BridgeMetrics {
  private boards = 0;
  private readonly events = new Map<string, number>();
  private readonly alerts = new Map<string, number>();
  private readonly buckets: number[] = LATENCY_BUCKETS.map(() => 0);
  private count = 0;
  private sum = 0;
  private readonly http = new Map<string, number>();
  private readonly refused = new Map<string, number>();

  /**
   * @param startedAt when the process started (ms since the epoch), for the uptime gauge.
   * @param live gauges read at each scrape (the daemon's boards and publisher queue as they are
   *   then); a gauge it leaves out is the last value set.
   */
  constructor(
    private readonly startedAt = 0,
    private readonly live: () => {
      readonly boardsConnected?: number;
      readonly publishQueue?: number;
      readonly publishOldest?: number;
      readonly publishStalled?: number;
    } = () => ({}),
  ) {}

  setBoardsConnected(n: number): void {
    this.boards = n;
  }

  /** One published GameEvent of `type` (move, correction, clock, alert, end ...). */
  countEvent(type: string, by = 1): void {
    inc(this.events, type, by);
  }

  /** One arbiter alert with its code (illegal-move, touch-move, board-missing ...). */
  countAlert(code: string): void {
    inc(this.alerts, code);
  }

  /** Time from the observation to the event's publication, in seconds. */
  observePublishLatency(seconds: number): void {
    for (const [i, bound] of LATENCY_BUCKETS.entries())
      if (seconds <= bound) this.buckets[i] = (this.buckets[i] ?? 0) + 1;
    this.count++;
    this.sum += seconds;
  }

  /** One HTTP request answered: `route` is a route name (bounded set), not the raw path. */
  countHttp(route: string, status: number): void {
    inc(this.http, `${route}\u0000${status}`);
  }

  /** Requests refused before their handler: `transport` mqtt or http, `reason` rate_limited or busy. */
  countRefused(transport: string, reason: string, by = 1): void {
    inc(this.refused, `${transport}\u0000${reason}`, by);
  }

  snapshot(): MetricsSnapshot {
    const live = this.live();
    return {
      boardsConnected: live.boardsConnected ?? this.boards,
      eventsPublished: new Map(this.events),
      alerts: new Map(this.alerts),
      latencyBuckets: [...this.buckets],
      latencyCount: this.count,
      latencySum: this.sum,
      httpRequests: new Map(this.http),
      startedAt: this.startedAt,
      publishQueue: live.publishQueue ?? 0,
      publishOldest: live.publishOldest ?? 0,
      publishStalled: live.publishStalled ?? 0,
      requestsRefused: new Map(this.refused),
    };
  }
}

/** Escapes a label value: backslash, double quote and newline. */
export const escapeLabel = (v: string): string =>
  v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const labels = (pairs: Record<string, string>): string => {
  const inner = Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',');
  return inner === '' ? '' : `{${inner}}`;
};

const header = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string): string[] => [
  `# HELP ${name} ${help}`,
  `# TYPE ${name} ${type}`,
];

const sorted = (map: ReadonlyMap<string, number>): [string, number][] =>
  [...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/** The Prometheus text exposition of a snapshot at time `now` (ms since the epoch). */
export const makePrometheusText = (s: MetricsSnapshot, now: number): string => {
  const lines: string[] = [];
  lines.push(...header('chessbridge_boards_connected', 'gauge', 'Boards currently connected.'));
  lines.push(`chessbridge_boards_connected ${s.boardsConnected}`);
  lines.push(...header('chessbridge_events_published_total', 'counter', 'Game events published, by type.'));
  for (const [type, n] of sorted(s.eventsPublished))
    lines.push(`chessbridge_events_published_total${labels({ type })} ${n}`);
  lines.push(...header('chessbridge_alerts_total', 'counter', 'Arbiter alerts raised, by code.'));
  for (const [code, n] of sorted(s.alerts)) lines.push(`chessbridge_alerts_total${labels({ code })} ${n}`);
  const latency = 'chessbridge_publish_latency_seconds';
  lines.push(
    ...header(latency, 'histogram', "Time from an event's queueing to the broker's acknowledgement."),
  );
  for (const [i, bound] of LATENCY_BUCKETS.entries()) {
    lines.push(`${latency}_bucket${labels({ le: String(bound) })} ${s.latencyBuckets[i] ?? 0}`);
  }
  lines.push(`${latency}_bucket${labels({ le: '+Inf' })} ${s.latencyCount}`);
  lines.push(`${latency}_sum ${s.latencySum}`);
  lines.push(`${latency}_count ${s.latencyCount}`);
  lines.push(
    ...header('chessbridge_http_requests_total', 'counter', 'HTTP requests answered, by route and status.'),
  );
  for (const [key, n] of sorted(s.httpRequests)) {
    const [route = '', code = ''] = key.split('\u0000');
    lines.push(`chessbridge_http_requests_total${labels({ route, code })} ${n}`);
  }
  lines.push(
    ...header('chessbridge_publish_queue', 'gauge', 'Events waiting for the broker to acknowledge them.'),
  );
  lines.push(`chessbridge_publish_queue ${s.publishQueue}`);
  lines.push(
    ...header(
      'chessbridge_publish_oldest_seconds',
      'gauge',
      'How long the oldest event waiting for its acknowledgement has waited.',
    ),
  );
  lines.push(`chessbridge_publish_oldest_seconds ${s.publishOldest}`);
  lines.push(
    ...header(
      'chessbridge_publish_stalled_total',
      'counter',
      'Events sent again because the broker did not acknowledge them in time.',
    ),
  );
  lines.push(`chessbridge_publish_stalled_total ${s.publishStalled}`);
  lines.push(
    ...header(
      'chessbridge_requests_refused_total',
      'counter',
      'Requests refused before their handler (rate limited or busy), by transport and reason.',
    ),
  );
  for (const [key, n] of sorted(s.requestsRefused)) {
    const [transport = '', reason = ''] = key.split('\u0000');
    lines.push(`chessbridge_requests_refused_total${labels({ transport, reason })} ${n}`);
  }
  lines.push(...header('chessbridge_uptime_seconds', 'gauge', 'Seconds since the bridge started.'));
  lines.push(`chessbridge_uptime_seconds ${Math.max(0, (now - s.startedAt) / 1000)}`);
  return `${lines.join('\n')}\n`;
};
