/**
 * The daemon's HTTP front door. The bridge's HttpServer serves the feed, the JSON API, metrics and
 * the pages under /ui/; the pages also need the MQTT.js browser bundle at /ui/vendor/mqtt.esm.js
 * and a server-sent events stream at /events (docs/web.md), which that server has no route for.
 * The front listens on the configured address, answers those two itself, and passes every other
 * request to the HttpServer listening on a loopback port of its own.
 *
 *   const front = new WebFront({ host, port, backend: () => httpPort, hub, log });
 *   const { port } = await front.start();   // http://host:port/ui/display/index.html
 *   await front.stop();
 */
import { createReadStream } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import type { SseHub } from '../web/sse.js';
import { vendorFile } from '../web/paths.js';

export interface WebFrontContext {
  readonly host: string;
  readonly port: number;
  /** The HttpServer's loopback port. */
  readonly backendPort: () => number;
  /** The event stream's hub (undefined: no /events). */
  readonly hub?: SseHub;
  readonly log: Logger;
}

export class WebFront {
  private server: Server | undefined;

  constructor(private readonly ctx: WebFrontContext) {}

  start(): Promise<AddressInfo> {
    const server = createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 5000;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.ctx.port, this.ctx.host, () => {
        server.off('error', reject);
        this.server = server;
        resolve(server.address() as AddressInfo);
      });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    await new Promise<void>(resolve => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const vendor = path.startsWith('/ui/') ? vendorFile(path.slice('/ui/'.length)) : undefined;
    if (vendor !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
      if (req.method === 'HEAD') res.end();
      else
        createReadStream(vendor)
          .on('error', () => res.destroy())
          .pipe(res);
      return;
    }
    if (path === '/events' && this.ctx.hub !== undefined) {
      this.ctx.hub.handle(req, res);
      return;
    }
    this.proxy(req, res);
  }

  private proxy(req: IncomingMessage, res: ServerResponse): void {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: this.ctx.backendPort(),
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      answer => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', e => {
      this.ctx.log.debug(`proxying ${req.url ?? '/'}: ${e.message}`);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('bad gateway\n');
    });
    req.pipe(upstream);
  }
}
