/**
 * The LiveChess WebSocket listener (docs/livechess-api.md): `ws://host:port/api/v1.0`, a login on
 * the upgrade request (HTTP Basic, or `?user=…&password=…` for browsers, checked against the
 * venue's users), an Origin allow-list for browsers, and per connection a bound on message size
 * and rate. Calls are read by protocol.ts and answered from a `LiveChessPort` (the daemon's
 * boards and games); every bad message gets an error reply, never a closed connection.
 *
 *   const server = new LiveChessServer({ host: '127.0.0.1', port: 1982, port: boardsPort, … });
 *   const { port } = await server.start();
 *   server.notify('b-01');   // a board or its game changed: subscribed feeds get what changed
 *   await server.stop();
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Result } from '@badrap/result';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { basicCredentials } from '../http/auth.js';
import type { Logger } from '../logger.js';
import { isLoopbackHost } from '../mqtt/embeddedBroker.js';
import type { Actor, Role } from '../security/roles.js';
import type { UserDirectory } from '../security/users.js';
import { type Bucket, fullBucket, takeToken } from '../tokenBucket.js';
import {
  type BoardEvent,
  type Call,
  type EBoard,
  feedParamOf,
  makeError,
  makeFeed,
  makeReply,
  parseCall,
  type Source,
} from './protocol.js';

/** The path LiveChess serves its API on. */
export const LIVECHESS_PATH = '/api/v1.0';
/** Past this a message closes the connection (the size ws reads at all). */
const HARD_MAX_BYTES = 1_048_576;
/** Replies waiting to be read past this: the client does not read, it is closed. */
const MAX_BUFFERED_BYTES = 4 * 1_048_576;
const MAX_FEEDS = 64;

/** What the listener needs of the daemon. */
export interface LiveChessPort {
  eboards(): readonly EBoard[];
  sources(): readonly Source[];
  /** The board id of a serial number, or undefined. */
  boardOf(serialnr: string): string | undefined;
  /** What a board's feed says now. */
  event(board: string): BoardEvent | undefined;
  /** `setup`: the board's game set to start from `fen` (docs/livechess-api.md says how). */
  setup(board: string, fen: string, actor: Actor): Promise<Result<unknown, Error>>;
  flip(board: string, flipped: boolean, actor: Actor): Result<unknown, Error>;
}

export interface LiveChessServerOptions {
  readonly host: string;
  readonly port: number;
  /** Home use: clients without credentials from this machine act as `home` (role arbiter). */
  readonly home: boolean;
  readonly origins: readonly string[];
  readonly maxMessageBytes: number;
  readonly messagesPerSecond: number;
  readonly burst: number;
  readonly users: UserDirectory | undefined;
  /**
   * The roles that may use the API; undefined: every role. With a broadcast delay the feed is
   * live and so for the arbiters and operators only, as the HTTP server's live stream.
   */
  readonly roles?: readonly Role[];
  readonly boards: LiveChessPort;
  readonly log: Logger;
  /** Wall clock (ms since the epoch) for the replies' `time`. */
  readonly now: () => number;
}

interface Feed {
  readonly board: string;
  last: BoardEvent | undefined;
}

interface Connection {
  readonly ws: WebSocket;
  readonly actor: Actor;
  readonly feeds: Map<number, Feed>;
  readonly bucket: Bucket;
}

/** The user and secret a client sent: Basic on the upgrade, or the query (browsers cannot set headers). */
export const credentialsOf = (req: IncomingMessage): { user: string; secret: string } | undefined => {
  const basic = basicCredentials(req.headers.authorization);
  if (basic !== undefined && basic.user !== '') return basic;
  const query = new URL(req.url ?? '/', 'ws://x').searchParams;
  const user = query.get('user');
  const secret = query.get('password');
  return user !== null && secret !== null && user !== '' ? { user, secret } : undefined;
};

const refuse = (socket: Duplex, status: string, why: string, extra = ''): void => {
  socket.end(
    `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\n${extra}\r\n${why}\n`,
  );
};

export class LiveChessServer {
  private http: Server | undefined;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: HARD_MAX_BYTES });
  private readonly connections = new Set<Connection>();

  constructor(private readonly opts: LiveChessServerOptions) {
    if (opts.home && !isLoopbackHost(opts.host))
      throw new TypeError(`livechess.home: only on a loopback host, not ${opts.host}`);
  }

  /** Listens; resolves with the bound address. */
  start(): Promise<{ address: string; port: number }> {
    const http = createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
      res.end(`the LiveChess API is a WebSocket at ${LIVECHESS_PATH}\n`);
    });
    http.on('upgrade', (req, socket, head) => {
      socket.on('error', () => undefined);
      this.upgrade(req, socket, head).catch((e: unknown) => {
        this.opts.log.error(`upgrade failed: ${e instanceof Error ? e.message : String(e)}`);
        socket.destroy();
      });
    });
    this.http = http;
    return new Promise((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.opts.port, this.opts.host, () => {
        http.off('error', reject);
        const a = http.address();
        const port = typeof a === 'object' && a !== null ? a.port : this.opts.port;
        resolve({ address: this.opts.host, port });
      });
    });
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const { log } = this.opts;
    const address = req.socket.remoteAddress ?? 'unknown';
    const path = new URL(req.url ?? '/', 'ws://x').pathname;
    if (path !== LIVECHESS_PATH) return refuse(socket, '404 Not Found', `no API at ${path}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !this.opts.origins.includes(origin)) {
      log.warn(`refused a page of ${origin} from ${address}: not in livechess.origins`);
      return refuse(socket, '403 Forbidden', `origin ${origin} is not in livechess.origins`);
    }
    const given = credentialsOf(req);
    let actor: Actor | undefined;
    if (given !== undefined) {
      const verdict =
        this.opts.users === undefined
          ? ({ ok: false, why: 'wrong' } as const)
          : await this.opts.users.check(given.user, given.secret, address);
      if (!verdict.ok) {
        if (verdict.why !== 'wrong') return refuse(socket, '429 Too Many Requests', 'try again later');
        return refuse(
          socket,
          '401 Unauthorized',
          'wrong credentials',
          'www-authenticate: Basic realm="chessbridge"\r\n',
        );
      }
      actor = { ...verdict.principal, transport: 'livechess', address };
    } else if (this.opts.home && isLoopbackHost(address)) {
      actor = { role: 'arbiter', user: 'home', transport: 'livechess', address };
    }
    if (actor === undefined)
      return refuse(
        socket,
        '401 Unauthorized',
        'credentials required: HTTP Basic, or ?user=NAME&password=SECRET',
        'www-authenticate: Basic realm="chessbridge"\r\n',
      );
    const { roles } = this.opts;
    if (roles !== undefined && !roles.includes(actor.role)) {
      log.warn(
        `refused LiveChess user ${actor.user} (${actor.role}) from ${address}: the feed is live and a broadcast delay holds`,
      );
      return refuse(
        socket,
        '403 Forbidden',
        `the LiveChess feed is live: with a broadcast delay it is for ${roles.join(' and ')} users only`,
      );
    }
    const who = actor;
    this.wss.handleUpgrade(req, socket, head, ws => this.accept(ws, who));
  }

  private accept(ws: WebSocket, actor: Actor): void {
    const conn: Connection = {
      ws,
      actor,
      feeds: new Map(),
      bucket: fullBucket(this.opts.burst, this.opts.now()),
    };
    this.connections.add(conn);
    this.opts.log.info(`LiveChess client ${actor.user} (${actor.role}) from ${actor.address ?? 'unknown'}`);
    ws.on('message', (data, binary) => this.onMessage(conn, data, binary));
    ws.on('close', () => this.connections.delete(conn));
    ws.on('error', () => this.connections.delete(conn));
  }

  private send(conn: Connection, text: string): void {
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    if (conn.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      conn.ws.close(1008, 'replies not read');
      return;
    }
    conn.ws.send(text);
  }

  private onMessage(conn: Connection, data: RawData, binary: boolean): void {
    const bytes = Array.isArray(data)
      ? data.reduce((n, b) => n + b.length, 0)
      : data instanceof ArrayBuffer
        ? data.byteLength
        : data.length;
    if (!takeToken(conn.bucket, this.opts.now(), this.opts.messagesPerSecond, this.opts.burst))
      return this.send(
        conn,
        makeError(null, `rate limited: at most ${this.opts.messagesPerSecond} messages a second`),
      );
    if (binary) return this.send(conn, makeError(null, 'binary message: calls are JSON text'));
    if (bytes > this.opts.maxMessageBytes)
      return this.send(
        conn,
        makeError(null, `message too long: ${bytes} bytes (at most ${this.opts.maxMessageBytes})`),
      );
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data as ArrayBuffer).toString('utf8');
    const call = parseCall(text);
    if (call.isErr) return this.send(conn, makeError(call.error.id, call.error.message));
    this.handle(conn, call.value).catch((e: unknown) => {
      this.opts.log.error(
        `LiveChess ${call.value.kind}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
      this.send(conn, makeError(call.value.id, 'internal error'));
    });
  }

  private feedOf(conn: Connection, call: { id: number; feed: number }): Feed | undefined {
    const feed = conn.feeds.get(call.feed);
    if (feed === undefined)
      this.send(conn, makeError(call.id, `param.id: no feed ${call.feed} on this connection`));
    return feed;
  }

  private async handle(conn: Connection, call: Call): Promise<void> {
    const { boards, now } = this.opts;
    switch (call.kind) {
      case 'eboards':
        return this.send(conn, makeReply(call.id, boards.eboards(), now()));
      case 'sources':
        return this.send(conn, makeReply(call.id, boards.sources(), now()));
      case 'subscribe': {
        const board = boards.boardOf(call.serialnr);
        if (board === undefined)
          return this.send(conn, makeError(call.id, `param.param.serialnr: no board ${call.serialnr} here`));
        if (conn.feeds.has(call.feed))
          return this.send(conn, makeError(call.id, `param.id: feed ${call.feed} is already subscribed`));
        if (conn.feeds.size >= MAX_FEEDS)
          return this.send(conn, makeError(call.id, `too many feeds: at most ${MAX_FEEDS} a connection`));
        const feed: Feed = { board, last: undefined };
        conn.feeds.set(call.feed, feed);
        this.send(conn, makeReply(call.id, null, now()));
        return this.push(conn, call.feed, feed);
      }
      case 'unsubscribe':
        if (!conn.feeds.delete(call.feed))
          return this.send(conn, makeError(call.id, `param.id: no feed ${call.feed} on this connection`));
        return this.send(conn, makeReply(call.id, null, now()));
      case 'setup': {
        const feed = this.feedOf(conn, call);
        if (feed === undefined) return;
        const r = await boards.setup(feed.board, call.fen, conn.actor);
        if (r.isErr) return this.send(conn, makeError(call.id, r.error.message));
        this.send(conn, makeReply(call.id, null, now()));
        return this.notify(feed.board);
      }
      case 'flip': {
        const feed = this.feedOf(conn, call);
        if (feed === undefined) return;
        const r = boards.flip(feed.board, call.flip, conn.actor);
        if (r.isErr) return this.send(conn, makeError(call.id, r.error.message));
        this.send(conn, makeReply(call.id, null, now()));
        return this.notify(feed.board);
      }
    }
  }

  /** Sends a feed what changed since its last message, if anything. */
  private push(conn: Connection, id: number, feed: Feed): void {
    const cur = this.opts.boards.event(feed.board);
    if (cur === undefined) return;
    const param = feedParamOf(feed.last, cur);
    if (param === undefined) return;
    feed.last = cur;
    this.send(conn, makeFeed(id, param, this.opts.now()));
  }

  /** A board or its game changed. */
  notify(board: string): void {
    for (const conn of this.connections)
      for (const [id, feed] of conn.feeds) if (feed.board === board) this.push(conn, id, feed);
  }

  /** Clients connected now. */
  get clients(): number {
    return this.connections.size;
  }

  async stop(): Promise<void> {
    for (const conn of this.connections) conn.ws.terminate();
    this.connections.clear();
    this.wss.close();
    const http = this.http;
    this.http = undefined;
    if (http !== undefined) await new Promise<void>(resolve => http.close(() => resolve()));
  }
}
