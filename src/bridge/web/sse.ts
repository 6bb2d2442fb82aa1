/**
 * Server-sent events for the web pages, for venues where browsers cannot reach the broker's
 * WebSocket: one hub subscribes to the MQTT topics the pages read and writes every message to
 * each connected `text/event-stream` client as `data: {"topic": …, "payload": "…"}`. A client
 * that connects first receives the latest payload of every retained topic (the hub keeps them:
 * one shared MQTT subscription cannot ask the broker to send retained messages again), then the
 * live stream. The pages drop duplicates by `seq`, so a reconnect costs nothing but bandwidth.
 *
 *   const filters = sseFilters('chessbridge');
 *   const hub = new SseHub({ messages$: merge(...filters.forward.map(f => mqtt.messages$(f))),
 *                            retainedFilters: filters.retained });
 *   hub.start();
 *   // in the HTTP server: if (path === '/events') { hub.handle(req, res); return; }
 *   hub.stop();
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Observable, Subscription } from 'rxjs';
import { matchesFilter } from '../mqtt/topics.js';

/** One MQTT message to forward. */
export interface SseMessage {
  readonly topic: string;
  readonly payload: Buffer | string;
}

export interface SseHubOptions {
  /** The messages to forward: the MQTT subscriptions of `sseFilters(base).forward`, merged. */
  readonly messages$: Observable<SseMessage>;
  /** Topics whose latest payload is replayed to each new client (an empty payload clears one). */
  readonly retainedFilters: readonly string[];
  /** Milliseconds between keep-alive comments (default 15000), so proxies keep the stream open. */
  readonly heartbeatMs?: number;
  /** Clients served at once; more are answered 503 (default 500). */
  readonly maxClients?: number;
  /** A client whose unsent output exceeds this many bytes is dropped (default 4 MiB). */
  readonly maxBufferedBytes?: number;
  /** Reconnection delay advised to EventSource, ms (default 2000). */
  readonly retryMs?: number;
}

/** The filters a display and a console need, under a base. */
export const sseFilters = (base: string): { forward: string[]; retained: string[] } => ({
  forward: [
    `${base}/games/+`,
    `${base}/games/+/events`,
    `${base}/alerts`,
    `${base}/boards/+/state`,
    `${base}/bridge/state`,
  ],
  retained: [`${base}/games/+`, `${base}/boards/+/state`, `${base}/bridge/state`],
});

/**
 * One event in the `text/event-stream` format: every line of `data` gets its own `data:` field
 * (a newline inside the data would otherwise end the field), then a blank line.
 */
export const makeSseEvent = (data: string, fields: { event?: string; id?: string } = {}): string => {
  const head =
    (fields.event === undefined ? '' : `event: ${fields.event.replace(/[\r\n]/g, '')}\n`) +
    (fields.id === undefined ? '' : `id: ${fields.id.replace(/[\r\n\0]/g, '')}\n`);
  const body = data
    .split(/\r\n|\r|\n/)
    .map(line => `data: ${line}\n`)
    .join('');
  return `${head}${body}\n`;
};

/**
 * The data of one forwarded message: the topic, the payload as text, and `retained: true` for the
 * stored payloads a client receives when it connects (as MQTT flags retained messages).
 */
export const makeSseData = (message: SseMessage, retained = false): string =>
  JSON.stringify({
    topic: message.topic,
    payload: typeof message.payload === 'string' ? message.payload : message.payload.toString('utf8'),
    ...(retained ? { retained: true } : {}),
  });

/** Fans MQTT messages out to server-sent-event clients (see the module comment). */
export class SseHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly retained = new Map<string, string>();
  private subscription: Subscription | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly opts: SseHubOptions) {}

  /** Clients connected now. */
  get clientCount(): number {
    return this.clients.size;
  }

  /** Subscribes to the messages and starts the keep-alive. Idempotent. */
  start(): void {
    if (this.subscription) return;
    this.subscription = this.opts.messages$.subscribe({
      next: message => this.forward(message),
      error: () => this.stop(),
    });
    this.heartbeat = setInterval(() => this.broadcast(': keep-alive\n\n'), this.opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  /** Ends every client's stream and stops forwarding. Idempotent. */
  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.clients.forEach(res => res.end());
    this.clients.clear();
  }

  /** Serves one request: a GET becomes a stream (retained state first), anything else is refused. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET', 'content-type': 'text/plain; charset=utf-8' }).end('use GET\n');
      return;
    }
    if (!this.subscription || this.clients.size >= (this.opts.maxClients ?? 500)) {
      res
        .writeHead(503, { 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' })
        .end('live stream unavailable\n');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    let opening = `retry: ${this.opts.retryMs ?? 2000}\n\n`;
    this.retained.forEach(
      (payload, topic) => (opening += makeSseEvent(makeSseData({ topic, payload }, true))),
    );
    res.write(opening);
    this.clients.add(res);
    const drop = () => this.clients.delete(res);
    req.on('close', drop);
    res.on('close', drop);
    res.on('error', drop);
  }

  private forward(message: SseMessage): void {
    const payload = typeof message.payload === 'string' ? message.payload : message.payload.toString('utf8');
    if (this.opts.retainedFilters.some(filter => matchesFilter(filter, message.topic))) {
      if (payload === '') this.retained.delete(message.topic);
      else this.retained.set(message.topic, payload);
    }
    if (payload === '') return;
    this.broadcast(makeSseEvent(makeSseData({ topic: message.topic, payload })));
  }

  private broadcast(chunk: string): void {
    const limit = this.opts.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.clients.forEach(res => {
      if (res.writableLength > limit) {
        this.clients.delete(res);
        res.destroy();
        return;
      }
      res.write(chunk);
    });
  }
}
