/**
 * The server-sent events helper: the event format, and a hub on a real node:http server that
 * replays the latest retained payloads to a new client, then streams live messages.
 */
import { createServer, get, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { SseHub, makeSseEvent, sseFilters, type SseMessage } from '../../src/bridge/web/sse.js';

/** Reads server-sent events from a response until `count` data events arrived. */
const readEvents = (res: IncomingMessage, count: number): Promise<unknown[]> =>
  new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`only got: ${text}`)), 5000);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      const events = text
        .split('\n\n')
        .slice(0, -1)
        .map(block =>
          block
            .split('\n')
            .filter(line => line.startsWith('data: '))
            .map(line => line.slice(6))
            .join('\n'),
        )
        .filter(data => data !== '');
      if (events.length >= count) {
        clearTimeout(timer);
        resolve(events.slice(0, count).map(data => JSON.parse(data) as unknown));
      }
    });
  });

describe('makeSseEvent', () => {
  it('gives every line of the data its own field and ends with a blank line', () => {
    expect(makeSseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
    expect(makeSseEvent('one\ntwo\r\nthree', { event: 'pgn', id: '7' })).toBe(
      'event: pgn\nid: 7\ndata: one\ndata: two\ndata: three\n\n',
    );
  });
});

describe('SseHub', () => {
  const base = 'venue/hall-a';
  let server: Server | undefined;
  let hub: SseHub | undefined;

  afterEach(async () => {
    hub?.stop();
    if (server) {
      server.closeAllConnections();
      await new Promise(resolve => server?.close(resolve));
    }
    server = undefined;
  });

  const start = async (source: Subject<SseMessage>) => {
    const filters = sseFilters(base);
    hub = new SseHub({ messages$: source, retainedFilters: filters.retained, heartbeatMs: 60_000 });
    hub.start();
    const created = createServer((req, res) => hub?.handle(req, res));
    server = created;
    await new Promise<void>(resolve => created.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(created.address() as AddressInfo).port}/events`;
  };

  it('replays retained state to a new client, then streams live messages', async () => {
    const source = new Subject<SseMessage>();
    const url = await start(source);
    source.next({ topic: `${base}/games/g1`, payload: Buffer.from('{"game":"g1","seq":4}') });
    source.next({ topic: `${base}/games/g2`, payload: '{"game":"g2","seq":1}' });
    source.next({ topic: `${base}/games/g2`, payload: '' }); // cleared: not replayed
    source.next({ topic: `${base}/games/g1/events`, payload: '{"game":"g1","seq":4}' }); // before the client: gone

    const res = await new Promise<IncomingMessage>(resolve => get(url, resolve));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toContain('no-cache');
    const events = readEvents(res, 2);
    await expect.poll(() => hub?.clientCount).toBe(1);
    source.next({ topic: `${base}/games/g1/events`, payload: '{"game":"g1","seq":5,"san":"Nf3"}' });
    expect(await events).toEqual([
      { topic: `${base}/games/g1`, payload: '{"game":"g1","seq":4}', retained: true },
      { topic: `${base}/games/g1/events`, payload: '{"game":"g1","seq":5,"san":"Nf3"}' },
    ]);

    const ended = new Promise(resolve => res.on('end', resolve));
    hub?.stop();
    await ended;
    expect(hub?.clientCount).toBe(0);
  });

  it('refuses other methods, and answers 503 once stopped', async () => {
    const source = new Subject<SseMessage>();
    const url = await start(source);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(url, { method: 'POST' }, res => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(405);
    hub?.stop();
    const refused = await new Promise<IncomingMessage>(resolve => get(url, resolve));
    expect(refused.statusCode).toBe(503);
    refused.resume();
  });

  it('names the topics a page reads under a base', () => {
    expect(sseFilters('chessbridge').forward).toEqual([
      'chessbridge/games/+',
      'chessbridge/games/+/events',
      'chessbridge/alerts',
      'chessbridge/boards/+/state',
      'chessbridge/bridge/state',
    ]);
  });
});
