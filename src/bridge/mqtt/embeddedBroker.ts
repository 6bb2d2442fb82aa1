/**
 * The embedded broker (aedes, in-process) used when no broker URL is configured: MQTT over TCP
 * and MQTT over WebSocket (path `/mqtt`) for browsers. It listens on loopback by default; on any
 * other interface it refuses to start without a username and password, and credentials, when set,
 * are enforced on both listeners. aedes speaks MQTT 3.1.1 (no MQTT 5), its state lives in memory:
 * it is a broker for one daemon and its displays, not a durable one (docs/mqtt.md).
 *
 *   const broker = new EmbeddedBroker({ log, port: 1883, wsPort: 9001 });
 *   await broker.start();                 // mqtt://127.0.0.1:1883 and ws://127.0.0.1:9001/mqtt
 *   await broker.stop();
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { Result } from '@badrap/result';
import { Aedes } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { dataError } from '../../engine/types.js';
import { MQTT_NAMESPACE, type LogFn } from './log.js';

export interface EmbeddedBrokerContext {
  readonly log: LogFn;
  /** Interface to listen on (default 127.0.0.1). Anything but loopback needs credentials. */
  readonly host?: string;
  /** TCP port for MQTT (default 1883; 0 picks a free port). */
  readonly port?: number;
  /** Port for MQTT over WebSocket (default 9001; 0 picks a free port; null disables it). */
  readonly wsPort?: number | null;
  /** HTTP path of the WebSocket endpoint (default `/mqtt`). */
  readonly wsPath?: string;
  /** Credentials every client must present; both or neither. */
  readonly username?: string;
  readonly password?: string;
}

/** The checked options. */
export interface BrokerOptions {
  readonly host: string;
  readonly port: number;
  readonly wsPort: number | null;
  readonly wsPath: string;
  readonly credentials: { readonly username: string; readonly password: string } | undefined;
}

export type BrokerConfigError = Error & {
  readonly kind: 'credentialsRequired' | 'incompleteCredentials' | 'badPort' | 'badPath';
};

/** Where a started broker listens. */
export interface BrokerAddresses {
  /** `mqtt://host:port`. */
  readonly url: string;
  readonly port: number;
  /** `ws://host:port/mqtt`, when the WebSocket listener is enabled. */
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
  const hasUser = ctx.username !== undefined && ctx.username !== '';
  const hasPassword = ctx.password !== undefined && ctx.password !== '';
  if (hasUser !== hasPassword) {
    return err('incompleteCredentials', 'embedded broker: set both username and password, or neither');
  }
  if (!isLoopbackHost(host) && !hasUser) {
    return err(
      'credentialsRequired',
      `embedded broker: refusing to listen on ${host} without credentials; anyone on the network could ` +
        'send arbiter commands. Set a username and password, or listen on 127.0.0.1',
    );
  }
  const credentials = hasUser ? { username: ctx.username ?? '', password: ctx.password ?? '' } : undefined;
  return Result.ok({ host, port, wsPort, wsPath, credentials });
};

/** Compares secrets in constant time (hashes first so lengths do not leak). */
const sameSecret = (a: string | Buffer, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

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
    const { credentials } = options;
    const aedes = await Aedes.createBroker({
      ...(credentials === undefined
        ? {}
        : {
            authenticate: (_client, username, password, done) => {
              const ok =
                sameSecret(username ?? '', credentials.username) &&
                sameSecret(password ?? '', credentials.password);
              if (ok) done(null, true);
              else
                done(
                  Object.assign(new Error('bad username or password'), {
                    returnCode: 4,
                  }),
                  false,
                );
            },
          }),
    });
    this.aedes = aedes;
    aedes.on('clientError', (client, error) => this.log('debug', `client ${client.id}: ${error.message}`));
    aedes.on('connectionError', (_client, error) => this.log('debug', `connection error: ${error.message}`));
    aedes.on('client', client => this.log('debug', `client ${client.id} connected`));
    aedes.on('clientDisconnect', client => this.log('debug', `client ${client.id} disconnected`));

    const tcp = createNetServer(socket => aedes.handle(socket));
    this.tcp = tcp;
    const port = await listen(tcp, options.port, options.host, 'MQTT');
    const host = hostForUrl(options.host);
    let wsPort: number | undefined;
    if (options.wsPort !== null) {
      const http = createHttpServer((_req, res) => {
        res
          .writeHead(426, { 'content-type': 'text/plain' })
          .end(`MQTT over WebSocket at ${options.wsPath}\n`);
      });
      this.http = http;
      const wss = new WebSocketServer({ server: http, path: options.wsPath });
      this.wss = wss;
      // The server's errors are re-emitted here; a listen refusal is reported by listen() below.
      wss.on('error', error => this.log('debug', `websocket server: ${error.message}`));
      wss.on('connection', (socket, request) => {
        const stream = createWebSocketStream(socket);
        stream.on('error', error => this.log('debug', `websocket stream: ${error.message}`));
        aedes.handle(stream, request);
      });
      wsPort = await listen(http, options.wsPort, options.host, 'MQTT over WebSocket');
    }
    const addresses: BrokerAddresses = {
      url: `mqtt://${host}:${port}`,
      port,
      wsUrl: wsPort === undefined ? undefined : `ws://${host}:${wsPort}${options.wsPath}`,
      wsPort,
    };
    this.addressInfo = addresses;
    this.log(
      'info',
      `embedded broker on ${addresses.url}${addresses.wsUrl === undefined ? '' : ` and ${addresses.wsUrl}`}` +
        `${credentials === undefined ? '' : ' (credentials required)'}`,
    );
    return addresses;
  }

  private async closeAll(): Promise<void> {
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
