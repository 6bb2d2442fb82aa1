/**
 * The HTTP server of the bridge on node:http: the live PGN feed, the JSON API, arbiter actions,
 * `/healthz`, `/metrics` and the static web pages, plus the routes its owner adds (`routes`: the
 * daemon's `/events` stream and the MQTT.js bundle of the pages). `start()` and `stop()` are
 * idempotent; the constructor only keeps its options. Routes are listed in docs/broadcast.md.
 *
 *   const http = new HttpServer({ port: 0, feed: () => state, staticDir: 'web',
 *     routes: [{ path: '/events', name: 'events', stream: (req, res) => hub.handle(req, res) }] });
 *   const { port } = await http.start();
 *   await http.stop();
 *
 * Time comes from `clock` (default Date.now) and is handed to the feed as `now`. With `tls` (a
 * certificate and key, read by security/tlsFiles.ts) it serves HTTPS only.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { FeedFiles } from '../feed/feedFiles.js';
import type { FeedState } from '../feed/feedState.js';
import { apiReply } from './apiRoutes.js';
import { type ArbiterOptions, arbiterReply, httpLogin } from './arbiterRoutes.js';
import type { Role } from '../security/roles.js';
import { FailureLimiter } from './auth.js';
import { type RouteContext, feedReply, feedRouteName } from './feedRoutes.js';
import { BridgeMetrics, makePrometheusText } from './metrics.js';
import { type HttpReply, errorReply, jsonReply, methodNotAllowed, textReply } from './reply.js';
import { SessionStore, sessionReply } from './sessions.js';
import { StaticFiles } from './staticFiles.js';
import { pageLanguage } from '../i18n/choose.js';

/**
 * A route added by the server's owner, at one exact path (the query is ignored). It is looked up
 * after the arbiter routes and the method check (GET and HEAD only) and before every other route,
 * so it may stand under the static prefix (`/ui/vendor/mqtt.esm.js`).
 */
export type ExtraRoute = {
  /** The raw path answered, e.g. '/events'. */
  readonly path: string;
  /** Its name in `chessbridge_http_requests_total{route}`. */
  readonly name: string;
} & (
  | {
      /** Answered with a reply value, written like the server's own (HEAD, 304, content-length). */
      readonly reply: (req: IncomingMessage) => Promise<HttpReply> | HttpReply;
    }
  | {
      /** Takes the response over (a long-lived stream); counted with its status once it closes. */
      readonly stream: (req: IncomingMessage, res: ServerResponse) => void;
      /**
       * Only for these roles: the request must log in as the arbiter routes do (a configured
       * user's Basic login, or the venue's token or password, which count as an arbiter), or carry
       * the cookie of such a login (`POST /api/session`, sessions.ts).
       */
      readonly roles?: readonly Role[];
    }
);

/** Paths an extra route may not take: the server's own. */
const isReservedPath = (path: string): boolean =>
  path === '/healthz' || path === '/metrics' || path === '/api' || path.startsWith('/api/');

/** What /healthz reports: `ok` decides 200 or 503; other fields are shown as they are. */
export interface HealthReport {
  readonly ok: boolean;
  readonly [detail: string]: unknown;
}

export interface HttpServerOptions {
  /** Address to listen on (default 127.0.0.1; '0.0.0.0' or '::' for the venue network). */
  readonly host?: string;
  /** Port (default 8080; 0 = any free port, as tests use). */
  readonly port?: number;
  /** Serve HTTPS with this certificate (chain) and key, both PEM; absent = plain HTTP. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  /** The feed as it is now. */
  readonly feed: () => FeedState;
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
  /** Feed renderer (share one with the folder export to render once). */
  readonly files?: FeedFiles;
  /** Folder of the web pages; none = no static files. */
  readonly staticDir?: string;
  /** URL prefix of the web pages (default '/ui/'). */
  readonly staticPrefix?: string;
  /** Arbiter credentials and action handlers; none = arbiter actions refused (403). */
  readonly arbiter?: ArbiterOptions;
  /** Counters for /metrics (a fresh set when not given). */
  readonly metrics?: BridgeMetrics;
  /** Health check for /healthz (default: always ok). */
  readonly health?: () => HealthReport;
  /** What /api/broadcast answers: the broadcast delay, where public pages read, the push (default: no delay). */
  readonly broadcast?: () => unknown;
  /** Access-Control-Allow-Origin of the public routes (default '*'). */
  readonly corsOrigin?: string;
  /** Failed arbiter logins allowed per address per minute (default 20). */
  readonly maxAuthFailures?: number;
  /**
   * How long stop() lets requests in progress finish before closing their connections (default
   * 2000 ms). End long-lived streams (an SSE hub's `stop()`) first, or stop() waits this long.
   */
  readonly stopGraceMs?: number;
  /**
   * `GET /api/boards`: the status of every configured board (docs/http.md); none = 404. Not cached:
   * it says how the boards stand at the moment of asking.
   */
  readonly boards?: () => unknown;
  /**
   * The venue's language (`http.language`): the index page's when the address (`?lang=`) and the
   * reader's `Accept-Language` name no language of the catalogs (default English).
   */
  readonly language?: string;
  /** Routes added at exact paths (see ExtraRoute); a reserved or repeated path is a TypeError at start. */
  readonly routes?: readonly ExtraRoute[];
}

type Routed =
  | { readonly route: string; readonly reply: HttpReply }
  | { readonly route: string; readonly stream: (req: IncomingMessage, res: ServerResponse) => void };

const PUBLIC_METHODS = 'GET, HEAD, OPTIONS';

/** Splits a request target into its raw path and query; the absolute form (proxies) is accepted. */
export const splitTarget = (url: string): { path: string; query: string } | undefined => {
  const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  if (!target.startsWith('/')) return undefined;
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
};

const extraRouteMap = (routes: readonly ExtraRoute[]): ReadonlyMap<string, ExtraRoute> => {
  const map = new Map<string, ExtraRoute>();
  for (const r of routes) {
    if (!r.path.startsWith('/') || /[?#]/.test(r.path))
      throw new TypeError(`HttpServer routes: '${r.path}' is not a path`);
    if (isReservedPath(r.path)) throw new TypeError(`HttpServer routes: '${r.path}' is the server's own`);
    if (map.has(r.path)) throw new TypeError(`HttpServer routes: '${r.path}' is given twice`);
    map.set(r.path, r);
  }
  return map;
};

/** /api/broadcast of a server told nothing about a delay: the pages read the live topics. */
const NO_BROADCAST_DELAY = {
  delay_ms: 0,
  delay_results: true,
  public_base: null,
  public_events: null,
  push: null,
} as const;

export class HttpServer {
  private server: Server | undefined;
  private starting: Promise<AddressInfo> | undefined;
  private stopping: Promise<void> | undefined;
  private parts:
    | {
        files: FeedFiles;
        metrics: BridgeMetrics;
        pages: StaticFiles | undefined;
        limiter: FailureLimiter;
        sessions: SessionStore;
        extra: ReadonlyMap<string, ExtraRoute>;
      }
    | undefined;

  constructor(private readonly opts: HttpServerOptions) {}

  /** Starts listening; resolves with the bound address. Calling it again returns the same address. */
  start(): Promise<AddressInfo> {
    this.starting ??= this.listen().catch((e: unknown) => {
      this.starting = undefined;
      throw e;
    });
    return this.starting;
  }

  /** Stops accepting, lets requests finish (up to the grace period), closes keep-alive connections. */
  async stop(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const server = this.server;
    if (!server) return this.stopping;
    this.server = undefined;
    this.starting = undefined;
    this.stopping = new Promise<void>(resolve => {
      const force = setTimeout(() => server.closeAllConnections(), this.opts.stopGraceMs ?? 2000);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
    return this.stopping;
  }

  /** Counters shown at /metrics. */
  get metrics(): BridgeMetrics {
    return this.components().metrics;
  }

  private components(): NonNullable<HttpServer['parts']> {
    this.parts ??= {
      files: this.opts.files ?? new FeedFiles(),
      metrics: this.opts.metrics ?? new BridgeMetrics(this.now()),
      pages:
        this.opts.staticDir === undefined
          ? undefined
          : new StaticFiles({ root: this.opts.staticDir, prefix: this.opts.staticPrefix ?? '/ui/' }),
      limiter: new FailureLimiter({ maxFailures: this.opts.maxAuthFailures ?? 20, windowMs: 60_000 }),
      sessions: new SessionStore({ now: () => this.now() }),
      extra: extraRouteMap(this.opts.routes ?? []),
    };
    return this.parts;
  }

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }

  private async listen(): Promise<AddressInfo> {
    this.components(); // a bad route is a TypeError here, and start() rejects with it
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      void this.handle(req, res);
    };
    const tls = this.opts.tls;
    const server: Server =
      tls === undefined
        ? createServer(handler)
        : createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
    server.keepAliveTimeout = 5000;
    const port = this.opts.port ?? 8080;
    const host = this.opts.host ?? '127.0.0.1';
    return await new Promise<AddressInfo>((resolve, reject) => {
      // A refusal names the listener, the address and what to do (the daemon prints it at start).
      const refused = (error: NodeJS.ErrnoException): void => {
        const why =
          error.code === 'EADDRINUSE'
            ? 'the port is in use (another daemon or web server?); set http.port or stop the other one'
            : error.code === 'EACCES'
              ? 'no permission (ports below 1024 need privileges); set http.port to 1024 or above'
              : error.message;
        reject(
          new Error(
            `HTTP${tls === undefined ? '' : 'S'}: cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${why}`,
          ),
        );
      };
      server.once('error', refused);
      server.listen(port, host, () => {
        server.off('error', refused);
        this.server = server;
        resolve(server.address() as AddressInfo);
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { metrics } = this.components();
    let routed: Routed;
    try {
      routed = await this.route(req);
    } catch {
      routed = { route: 'other', reply: errorReply(500, 'internal error', 'text') };
    }
    if ('stream' in routed) {
      res.once('close', () => metrics.countHttp(routed.route, res.statusCode));
      try {
        routed.stream(req, res);
      } catch {
        if (!res.headersSent) this.write(req, res, errorReply(500, 'internal error', 'text'));
        else res.destroy();
      }
      return;
    }
    metrics.countHttp(routed.route, routed.reply.status);
    this.write(req, res, routed.reply);
  }

  private write(req: IncomingMessage, res: ServerResponse, reply: HttpReply): void {
    const headers: Record<string, string | readonly string[]> = { ...reply.headers };
    if (reply.body && reply.status !== 304) headers['content-length'] = String(reply.body.length);
    res.writeHead(reply.status, headers as Record<string, string | string[]>);
    if (req.method === 'HEAD' || reply.status === 304 || !reply.body) res.end();
    else res.end(reply.body);
  }

  private async route(req: IncomingMessage): Promise<Routed> {
    const { files, metrics, pages, limiter, sessions, extra } = this.components();
    const method = req.method ?? 'GET';
    const target = splitTarget(req.url ?? '/');
    if (!target) {
      if (method === 'OPTIONS' && req.url === '*')
        return { route: 'options', reply: { status: 204, headers: { allow: PUBLIC_METHODS } } };
      return { route: 'bad_request', reply: errorReply(400, 'bad request target', 'text') };
    }
    const { path, query } = target;
    const now = this.now();
    if (path.startsWith('/api/arbiter/')) {
      const options = this.opts.arbiter ?? { actions: {} };
      return {
        route: 'arbiter',
        reply: await arbiterReply(req, path.slice('/api/arbiter/'.length), { options, limiter, now }),
      };
    }
    // A page's login for the live stream (sessions.ts): the same credentials as the arbiter routes.
    if (path === '/api/session') {
      const options = this.opts.arbiter ?? { actions: {} };
      const secure = this.opts.tls !== undefined;
      return {
        route: 'session',
        reply: await sessionReply(req, { options, limiter, now, sessions, secure }),
      };
    }
    const cors = this.opts.corsOrigin ?? '*';
    if (method === 'OPTIONS') return { route: 'options', reply: this.preflight(cors) };
    const form = path.startsWith('/api/') ? 'json' : 'text';
    if (method !== 'GET' && method !== 'HEAD')
      return { route: 'method', reply: methodNotAllowed(PUBLIC_METHODS, form) };
    const added = extra.get(path);
    if (added !== undefined) {
      if (!('stream' in added)) return { route: added.name, reply: await added.reply(req) };
      if (added.roles !== undefined) {
        const options = this.opts.arbiter ?? { actions: {} };
        // A page's session cookie (an EventSource sends no Authorization), else a login.
        const session = sessions.actorOf(req.headers.cookie);
        const login =
          session !== undefined
            ? { ok: true as const, actor: session }
            : await httpLogin(req, { options, limiter, now });
        if (!login.ok) return { route: added.name, reply: login.reply };
        if (!added.roles.includes(login.actor.role))
          return {
            route: added.name,
            reply: errorReply(
              403,
              `${login.actor.user} (role ${login.actor.role}) may not read ${path}: only ${added.roles.join(', ')}`,
              'text',
            ),
          };
      }
      return { route: added.name, stream: added.stream };
    }
    if (path === '/healthz') return { route: 'healthz', reply: this.healthReply(now) };
    if (path === '/metrics') {
      const text = makePrometheusText(metrics.snapshot(), now);
      return {
        route: 'metrics',
        reply: textReply(200, text, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }),
      };
    }
    const boards = this.opts.boards;
    if (path === '/api/boards' && boards !== undefined)
      return {
        route: 'api',
        reply: jsonReply(200, boards(), {
          'cache-control': 'no-store',
          'access-control-allow-origin': cors,
        }),
      };
    const ctx: RouteContext = {
      state: this.opts.feed(),
      now,
      files,
      headers: req.headers,
      cors,
      lang: pageLanguage({
        query,
        acceptLanguage: req.headers['accept-language'],
        venue: this.opts.language,
      }),
    };
    if (path === '/api/broadcast')
      return {
        route: 'api',
        reply: jsonReply(200, this.opts.broadcast?.() ?? NO_BROADCAST_DELAY, { 'cache-control': 'no-cache' }),
      };
    if (path.startsWith('/api/'))
      return { route: 'api', reply: apiReply(path, new URLSearchParams(query), ctx) };
    if (pages?.handles(path)) return { route: 'static', reply: await pages.reply(path, req.headers) };
    const feed = feedReply(path, ctx);
    if (feed) return { route: feedRouteName(path), reply: feed };
    return { route: 'not_found', reply: errorReply(404, 'not found', 'text') };
  }

  private preflight(cors: string): HttpReply {
    return {
      status: 204,
      headers: {
        allow: PUBLIC_METHODS,
        'access-control-allow-origin': cors,
        'access-control-allow-methods': PUBLIC_METHODS,
        'access-control-allow-headers': 'If-None-Match, If-Modified-Since, Cache-Control',
        'access-control-max-age': '86400',
      },
    };
  }

  private healthReply(now: number): HttpReply {
    const report = this.opts.health?.() ?? { ok: true };
    const uptime = Math.round((now - this.components().metrics.snapshot().startedAt) / 1000);
    const degraded = Array.isArray(report.degraded) && report.degraded.length > 0;
    return jsonReply(report.ok ? 200 : 503, {
      status: report.ok ? (degraded ? 'degraded' : 'ok') : 'fail',
      uptime_s: uptime,
      ...report,
    });
  }
}
