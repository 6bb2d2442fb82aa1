/**
 * The embedded broker (aedes, in-process) used when no broker URL is configured: MQTT over TCP
 * and MQTT over WebSocket (path `/mqtt`) for browsers. Every client logs in as a user of the venue
 * on both listeners, loopback included (docs/security.md): the login is checked by the shared
 * UserDirectory (guesses slowed per address and user, failures logged in aggregate), the daemon's
 * client id belongs to the daemon's user alone and a connected client id cannot be taken by another
 * user, each role publishes and reads only what brokerAccess.ts allows, and a browser's WebSocket
 * is accepted only from the daemon's own pages or an allowed origin. With `anonymousRead` (a
 * single-machine demo), a client without credentials may connect as a reader. aedes speaks MQTT
 * 3.1.1 (no MQTT 5), its state lives in memory: a broker for one daemon and its displays (docs/mqtt.md).
 * With `tls` (a certificate and key) both listeners speak TLS only: `mqtts://` and `wss://`.
 *
 *   const broker = new EmbeddedBroker({ log, port: 1883, wsPort: 9001, access: { users, base, daemon, … } });
 *   await broker.start();                 // mqtt://127.0.0.1:1883 and ws://127.0.0.1:9001/mqtt
 *   await broker.stop();
 */
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTlsServer } from 'node:tls';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { Result } from '@badrap/result';
import { Aedes, type AedesOptions, type AuthErrorCode, type AuthenticateError, type Client } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { dataError } from '../../engine/types.js';
import type { Role } from '../security/roles.js';
import type { UserDirectory } from '../security/users.js';
import { maySubscribe, originAllowed, publishVerdict } from './brokerAccess.js';
import { MQTT_NAMESPACE, type LogFn } from './log.js';
import { RefusalLog } from './refusalLog.js';

/** Who may connect and what each may do (see the module comment). */
export interface BrokerAccess {
  /** Every user, the daemon's own included. */
  readonly users: UserDirectory;
  /** The daemon's user and client id: nobody else may use that client id. */
  readonly daemon: { readonly user: string; readonly clientId: string };
  /** The topic base (`chessbridge`). */
  readonly base: string;
  /** Let clients without credentials connect as readers (a single-machine demo only). */
  readonly anonymousRead?: boolean;
  /** A broadcast delay is set: display and broadcast readers read the public topics only (brokerAccess.ts). */
  readonly delayed?: boolean;
  /** Origins whose pages may open a WebSocket, besides the daemon's own HTTP port on the same host. */
  readonly origins?: readonly string[];
  /** The daemon's HTTP port: pages it serves may connect (asked at each connection). */
  readonly httpPort?: () => number | undefined;
  /** Milliseconds between two aggregate lines of failed logins (default 60 s). */
  readonly reportEveryMs?: number;
}

export interface EmbeddedBrokerContext {
  readonly log: LogFn;
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** TCP port for MQTT (default 1883; 0 picks a free port). */
  readonly port?: number;
  /** Port for MQTT over WebSocket (default 9001; 0 picks a free port; null disables it). */
  readonly wsPort?: number | null;
  /** HTTP path of the WebSocket endpoint (default `/mqtt`). */
  readonly wsPath?: string;
  /** Who may connect; absent, the broker is open to anyone on loopback (unit tests only). */
  readonly access?: BrokerAccess;
  /** Both listeners over TLS with this certificate (chain) and key, PEM; absent = plain. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
}

/** The checked options. */
export interface BrokerOptions {
  readonly host: string;
  readonly port: number;
  readonly wsPort: number | null;
  readonly wsPath: string;
  readonly access: BrokerAccess | undefined;
}

export type BrokerConfigError = Error & {
  readonly kind: 'credentialsRequired' | 'badPort' | 'badPath';
};

/** Where a started broker listens. */
export interface BrokerAddresses {
  /** `mqtt://host:port` (`mqtts://` over TLS). */
  readonly url: string;
  readonly port: number;
  /** `ws://host:port/mqtt` (`wss://` over TLS), when the WebSocket listener is enabled. */
  readonly wsUrl: string | undefined;
  readonly wsPort: number | undefined;
}

/** True for loopback interfaces (127.0.0.0/8, ::1, localhost). */
export const isLoopbackHost = (host: string): boolean => {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' ||
    h === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    /^::ffff:127\.\d+\.\d+\.\d+$/.test(h)
  );
};

const isPort = (port: number): boolean => Number.isInteger(port) && port >= 0 && port <= 65535;

/** Checks the broker's options; refuses non-loopback listening without credentials. */
export const checkBrokerOptions = (ctx: EmbeddedBrokerContext): Result<BrokerOptions, BrokerConfigError> => {
  const err = (kind: BrokerConfigError['kind'], message: string) =>
    Result.err<BrokerConfigError>(dataError({ kind }, message));
  const host = ctx.host ?? '127.0.0.1';
  const port = ctx.port ?? 1883;
  const wsPort = ctx.wsPort === undefined ? 9001 : ctx.wsPort;
  const wsPath = ctx.wsPath ?? '/mqtt';
  if (!isPort(port)) return err('badPort', `embedded broker: port ${port} is not a TCP port`);
  if (wsPort !== null && !isPort(wsPort))
    return err('badPort', `embedded broker: ws_port ${wsPort} is not a TCP port`);
  if (!wsPath.startsWith('/'))
    return err('badPath', `embedded broker: ws_path "${wsPath}" must start with "/"`);
  const access = ctx.access;
  if (!isLoopbackHost(host) && (access === undefined || access.anonymousRead === true)) {
    return err(
      'credentialsRequired',
      `embedded broker: refusing to listen on ${host} without credentials; anyone on the network could ` +
        'send arbiter commands. Give users (docs/security.md), without anonymousRead, or listen on 127.0.0.1',
    );
  }
  return Result.ok({ host, port, wsPort, wsPath, access });
};

/** The address a client connects from (TCP socket, or the WebSocket's HTTP request). */
const addressOf = (client: Client): string => {
  const c = client as unknown as {
    conn?: { remoteAddress?: string };
    req?: { socket?: { remoteAddress?: string } };
  };
  return c.conn?.remoteAddress ?? c.req?.socket?.remoteAddress ?? 'unknown';
};

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/** Listens; a refusal (port in use, no permission) names the listener, the address and the cause. */
const listen = (server: NetServer | HttpServer, port: number, host: string, what: string): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use (another daemon or broker?); set another port or stop the other one'
          : error.code === 'EACCES'
            ? 'no permission for that port'
            : error.message;
      reject(
        Object.assign(
          new Error(`embedded broker: cannot listen for ${what} on ${hostForUrl(host)}:${port}: ${why}`),
          { code: error.code, cause: error },
        ),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.removeListener('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });

const closeServer = (server: NetServer | HttpServer | undefined): Promise<void> =>
  new Promise<void>(resolve => {
    if (!server?.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });

/** The embedded aedes broker (see the module comment). */
export class EmbeddedBroker {
  private aedes: Aedes | undefined;
  private tcp: NetServer | undefined;
  private http: HttpServer | undefined;
  private wss: WebSocketServer | undefined;
  private addressInfo: BrokerAddresses | undefined;
  private starting: Promise<BrokerAddresses> | undefined;
  private stopping: Promise<void> | undefined;
  private reportTimer: NodeJS.Timeout | undefined;
  /** Refused publishes and subscriptions: a few lines per user and period, then a count. */
  private readonly refusals = new RefusalLog({ now: Date.now });
  /** Client ids connected now. */
  private readonly connected = new Map<string, Client>();

  constructor(private readonly ctx: EmbeddedBrokerContext) {}

  /** Where it listens, once started. */
  get addresses(): BrokerAddresses | undefined {
    return this.addressInfo;
  }

  /** Starts both listeners; rejects with a BrokerConfigError or the listen error. Idempotent. */
  start(): Promise<BrokerAddresses> {
    if (this.starting) return this.starting;
    this.starting = (async () => {
      await this.stopping;
      const checked = checkBrokerOptions(this.ctx);
      if (checked.isErr) throw checked.error;
      try {
        return await this.listenAll(checked.value);
      } catch (error) {
        await this.closeAll();
        throw error;
      }
    })();
    this.starting.catch(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Closes every client connection and both listeners. Idempotent. */
  stop(): Promise<void> {
    const starting = this.starting;
    if (!starting) return this.stopping ?? Promise.resolve();
    this.starting = undefined;
    this.stopping = starting
      .catch(() => undefined)
      .then(() => this.closeAll())
      .then(() => this.log('info', 'embedded broker stopped'));
    return this.stopping;
  }

  private async listenAll(options: BrokerOptions): Promise<BrokerAddresses> {
    const { access } = options;
    const aedes = await Aedes.createBroker(access === undefined ? {} : this.guard(access));
    this.aedes = aedes;
    aedes.on('clientError', (client, error) => this.log('debug', `client ${client.id}: ${error.message}`));
    aedes.on('connectionError', (_client, error) => this.log('debug', `connection error: ${error.message}`));
    aedes.on('client', client => {
      this.connected.set(client.id, client);
      this.log('debug', `client ${client.id} connected`);
    });
    aedes.on('clientDisconnect', client => {
      if (this.connected.get(client.id) === client) this.connected.delete(client.id);
      this.log('debug', `client ${client.id} disconnected`);
    });

    if (access !== undefined) {
      const every = access.reportEveryMs ?? 60_000;
      this.reportTimer = setInterval(() => {
        for (const line of access.users.failureReport())
          this.log('warning', `logins (MQTT and HTTP): ${line}`);
        for (const line of this.refusals.report())
          this.log('warning', `publishes and subscriptions refused: ${line}`);
      }, every);
      this.reportTimer.unref();
    }
    const tls = this.ctx.tls;
    const tcp: NetServer =
      tls === undefined
        ? createNetServer(socket => aedes.handle(socket))
        : createTlsServer({ cert: tls.cert, key: tls.key }, socket => aedes.handle(socket));
    // A client that fails the handshake (a plain client, one that does not trust the certificate).
    tcp.on('tlsClientError', (error: Error) => this.log('debug', `TLS handshake: ${error.message}`));
    this.tcp = tcp;
    const port = await listen(tcp, options.port, options.host, tls === undefined ? 'MQTT' : 'MQTT over TLS');
    const host = hostForUrl(options.host);
    let wsPort: number | undefined;
    if (options.wsPort !== null) {
      const upgradeOnly = (_req: unknown, res: ServerResponse): void => {
        res
          .writeHead(426, { 'content-type': 'text/plain' })
          .end(`MQTT over WebSocket at ${options.wsPath}\n`);
      };
      const http: HttpServer =
        tls === undefined
          ? createHttpServer(upgradeOnly)
          : createHttpsServer({ cert: tls.cert, key: tls.key }, upgradeOnly);
      http.on('tlsClientError', (error: Error) => this.log('debug', `TLS handshake: ${error.message}`));
      this.http = http;
      const wss = new WebSocketServer({
        server: http,
        path: options.wsPath,
        verifyClient: ({ origin, req }: { origin?: string; req: { headers: { host?: string } } }) => {
          if (access === undefined) return true;
          const ok = originAllowed(origin, req.headers.host, access.origins ?? [], access.httpPort?.());
          if (!ok)
            this.log('warning', `WebSocket from the page of ${origin ?? '?'} refused: not an allowed origin`);
          return ok;
        },
      });
      this.wss = wss;
      // The server's errors are re-emitted here; a listen refusal is reported by listen() below.
      wss.on('error', error => this.log('debug', `websocket server: ${error.message}`));
      wss.on('connection', (socket, request) => {
        const stream = createWebSocketStream(socket);
        stream.on('error', error => this.log('debug', `websocket stream: ${error.message}`));
        aedes.handle(stream, request);
      });
      wsPort = await listen(
        http,
        options.wsPort,
        options.host,
        tls === undefined ? 'MQTT over WebSocket' : 'MQTT over secure WebSocket',
      );
    }
    const addresses: BrokerAddresses = {
      url: `${tls === undefined ? 'mqtt' : 'mqtts'}://${host}:${port}`,
      port,
      wsUrl:
        wsPort === undefined
          ? undefined
          : `${tls === undefined ? 'ws' : 'wss'}://${host}:${wsPort}${options.wsPath}`,
      wsPort,
    };
    this.addressInfo = addresses;
    this.log(
      'info',
      `embedded broker on ${addresses.url}${addresses.wsUrl === undefined ? '' : ` and ${addresses.wsUrl}`}` +
        `${access === undefined ? ' (open: no users)' : access.anonymousRead === true ? ' (users required; anonymous clients may read)' : ' (users required)'}`,
    );
    return addresses;
  }

  /** The aedes handlers that enforce `access` (see the module comment). */
  private guard(
    access: BrokerAccess,
  ): Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe'> {
    const who = new WeakMap<Client, { readonly user: string; readonly role: Role }>();
    const holders = new Map<string, string>();
    // The daemon's two connections: events and state, and the requests it reads (docs/mqtt.md).
    const daemonIds = new Set([access.daemon.clientId, `${access.daemon.clientId}-requests`]);
    const refuse = (
      done: (e: AuthenticateError | null, ok: boolean) => void,
      returnCode: AuthErrorCode,
      why: string,
    ) => done(Object.assign(new Error(why), { returnCode }), false);
    const describe = (client: Client): string => {
      const w = who.get(client);
      return `${w === undefined ? 'client' : `${w.role} ${w.user}`} (client ${JSON.stringify(client.id)}, ${addressOf(client)})`;
    };
    return {
      authenticate: (client, username, password, done) => {
        const address = addressOf(client);
        const user = username ?? '';
        const accept = (role: Role) => {
          const holder = holders.get(client.id);
          if (holder !== undefined && holder !== user && this.connected.has(client.id)) {
            this.log(
              'warning',
              `login refused: ${user || 'anonymous'} from ${address} tried the client id ${JSON.stringify(client.id)} of ${holder}`,
            );
            refuse(done, 2, 'client id in use by another user');
            return;
          }
          holders.set(client.id, user);
          who.set(client, { user, role });
          done(null, true);
        };
        if (daemonIds.has(client.id) && user !== access.daemon.user) {
          this.log(
            'warning',
            `login refused: ${user || 'anonymous'} from ${address} tried the daemon's client id`,
          );
          refuse(done, 2, "the daemon's client id");
          return;
        }
        if (user === '' && (password === undefined || password.length === 0)) {
          if (access.anonymousRead === true) accept('display');
          else refuse(done, 5, 'credentials required');
          return;
        }
        void access.users.check(user, password?.toString('utf8') ?? '', address).then(verdict => {
          if (!verdict.ok) {
            refuse(
              done,
              verdict.why === 'wrong' ? 4 : 3,
              verdict.why === 'wrong' ? 'bad username or password' : 'try again later',
            );
            return;
          }
          if (verdict.principal.role === 'daemon' && !daemonIds.has(client.id)) {
            refuse(done, 2, "the daemon's user logs in with the daemon's client id only");
            return;
          }
          accept(verdict.principal.role);
        });
      },
      authorizePublish: (client, packet, done) => {
        const w = client === null ? undefined : who.get(client);
        if (client === null || w === undefined) {
          done(new Error(`publish on ${packet.topic} by an unknown client refused`));
          return;
        }
        const verdict = publishVerdict({
          role: w.role,
          user: w.user,
          base: access.base,
          topic: packet.topic,
          retain: packet.retain,
          sender: `${client.id}@${addressOf(client)}`,
        });
        if (!verdict.ok) {
          if (this.refusals.note(w.user))
            this.log('warning', `publish refused: ${describe(client)}: ${verdict.why}`);
          done(new Error(verdict.why));
          return;
        }
        packet.topic = verdict.topic;
        done(null);
      },
      authorizeSubscribe: (client, sub, done) => {
        const w = who.get(client);
        if (w === undefined || !maySubscribe(w.role, access.base, sub.topic, access.delayed === true)) {
          if (this.refusals.note(w?.user ?? ''))
            this.log('warning', `subscription refused: ${describe(client)} to ${sub.topic}`);
          done(null, null);
          return;
        }
        done(null, sub);
      },
    };
  }

  private async closeAll(): Promise<void> {
    if (this.reportTimer !== undefined) clearInterval(this.reportTimer);
    this.reportTimer = undefined;
    const { aedes, tcp, http, wss } = this;
    this.aedes = undefined;
    this.tcp = undefined;
    this.http = undefined;
    this.wss = undefined;
    this.addressInfo = undefined;
    wss?.clients.forEach(socket => socket.terminate());
    if (aedes) await new Promise<void>(resolve => aedes.close(() => resolve()));
    await new Promise<void>(resolve => (wss ? wss.close(() => resolve()) : resolve()));
    await Promise.all([closeServer(tcp), closeServer(http)]);
  }

  private log(level: 'error' | 'warning' | 'info' | 'debug', message: string): void {
    this.ctx.log(level, message, `${MQTT_NAMESPACE}:broker`);
  }
}
