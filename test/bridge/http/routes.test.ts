/**
 * The HttpServer's extra routes, on real sockets: a reply route under the static prefix wins over
 * the folder and is written like the server's own routes (HEAD, 304, metrics); a stream route (an
 * SSE hub) gets the raw response, is counted when it closes, and lets stop() return at once once
 * its hub has ended the streams; reserved and repeated paths are refused at start.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFeedState } from '../../../src/bridge/feed/feedState.js';
import { BridgeMetrics, makePrometheusText } from '../../../src/bridge/http/metrics.js';
import { HttpServer } from '../../../src/bridge/http/server.js';
import { makeFileReplier } from '../../../src/bridge/http/staticFiles.js';
import { SseHub, type SseMessage } from '../../../src/bridge/web/sse.js';

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-routes-'));
const pages = join(dir, 'web');
const vendor = join(dir, 'bundle.js');
const feed = () => makeFeedState({ name: 'routes' }, 0);

/** One request with its path sent as written; the status, headers and body. */
const send = (
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      res => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.once('error', reject);
    req.end();
  });

describe('HttpServer extra routes', () => {
  const messages = new Subject<SseMessage>();
  const hub = new SseHub({ messages$: messages.asObservable(), retainedFilters: ['t/+'] });
  const metrics = new BridgeMetrics(0);
  const bundle = makeFileReplier(vendor);
  const server = new HttpServer({
    port: 0,
    feed,
    metrics,
    staticDir: pages,
    stopGraceMs: 10_000,
    routes: [
      { path: '/events', name: 'events', stream: (req, res) => hub.handle(req, res) },
      { path: '/ui/vendor/bundle.js', name: 'vendor', reply: req => bundle(req.headers) },
    ],
  });
  let port = 0;

  beforeAll(async () => {
    mkdirSync(join(pages, 'vendor'), { recursive: true });
    writeFileSync(join(pages, 'vendor', 'other.js'), 'export {};\n');
    writeFileSync(vendor, 'export const answer = 42;\n');
    hub.start();
    port = (await server.start()).port;
  });
  afterAll(async () => {
    hub.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a reply route under the static prefix, with validators, HEAD and 304', async () => {
    const first = await send(port, '/ui/vendor/bundle.js?v=1');
    expect(first.status).toBe(200);
    expect(first.body).toBe('export const answer = 42;\n');
    expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const head = await send(port, '/ui/vendor/bundle.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(first.body.length));
    expect((await send(port, '/ui/vendor/bundle.js', { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    // Other methods are refused as on every public route; the rest of the folder is served as before.
    expect((await send(port, '/ui/vendor/bundle.js', { method: 'POST' })).status).toBe(405);
    expect((await send(port, '/ui/vendor/other.js')).status).toBe(200);
    expect((await send(port, '/ui/vendor/%2e%2e/x')).status).toBe(400);
    const text = makePrometheusText(metrics.snapshot(), 0);
    expect(text).toContain('chessbridge_http_requests_total{route="vendor",code="200"} 2');
    expect(text).toContain('chessbridge_http_requests_total{route="vendor",code="304"} 1');
  });

  it('hands a stream route the raw response and counts it once it closes', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/events' }, res => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
          if (text.includes('hello')) {
            res.destroy();
            resolve(text);
          }
        });
        // Published once the client is registered (its opening retry line has arrived).
        res.once('data', () => messages.next({ topic: 't/1', payload: '"hello"' }));
      });
      req.once('error', reject);
      req.end();
    });
    expect(received).toContain('data: {"topic":"t/1","payload":"\\"hello\\""}');
    await expect
      .poll(() => makePrometheusText(metrics.snapshot(), 0))
      .toContain('chessbridge_http_requests_total{route="events",code="200"} 1');
  }, 15_000);

  it('stops at once when the hub has ended its streams first', async () => {
    const extra = new HttpServer({
      port: 0,
      feed,
      stopGraceMs: 30_000,
      routes: [{ path: '/events', name: 'events', stream: (req, res) => ownHub.handle(req, res) }],
    });
    const ownHub = new SseHub({ messages$: new Subject<SseMessage>(), retainedFilters: [] });
    ownHub.start();
    const { port: p } = await extra.start();
    const open = new Promise<void>(resolve => {
      request({ host: '127.0.0.1', port: p, path: '/events' }, res => {
        res.once('data', () => resolve());
        res.resume();
      }).end();
    });
    await open;
    const t0 = Date.now();
    ownHub.stop();
    await extra.stop();
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('refuses routes that take the server’s own paths or repeat one, at start', async () => {
    const reply = () => ({ status: 204, headers: {} });
    for (const routes of [
      [{ path: '/healthz', name: 'h', reply }],
      [{ path: '/api/x', name: 'a', reply }],
      [{ path: 'events', name: 'e', reply }],
      [
        { path: '/x', name: 'x', reply },
        { path: '/x', name: 'y', reply },
      ],
    ]) {
      const bad = new HttpServer({ port: 0, feed, routes });
      await expect(bad.start()).rejects.toThrow(TypeError);
      await bad.stop();
    }
  });

  it('answers 404 for a file route whose file is gone', async () => {
    const gone = makeFileReplier(join(dir, 'missing.js'));
    expect((await gone({})).status).toBe(404);
  });
});
