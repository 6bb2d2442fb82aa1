/**
 * The connection's vocabulary: its context (URL, client id, credentials, TLS, timings), health
 * counters, incoming messages, the connect error, and the mapping of the context to MQTT.js
 * options with the Last Will on `<base>/bridge/state`. client.ts re-exports all of it.
 *
 *   const options = makeClientOptions({ url: 'mqtts://broker:8883', clientId: 'hall-a', log, username, password });
 *   options.will;   // { topic: 'chessbridge/bridge/state', payload: '{"state":"offline"}', qos: 1, retain: true }
 */
import { UniqueMessageIdProvider, type IClientOptions } from 'mqtt';
import type { LogFn } from './log.js';
import { DEFAULT_BASE, makeTopics, type Qos } from './topics.js';

/** TLS material passed to Node's `tls.connect` (for `mqtts://` and `wss://`). */
export interface MqttTlsOptions {
  /** Certificate authorities to trust (PEM). */
  readonly ca?: string | Buffer;
  /** Client certificate (PEM) for mutual TLS. */
  readonly cert?: string | Buffer;
  /** Client private key (PEM) for mutual TLS. */
  readonly key?: string | Buffer;
  /** Refuse brokers whose certificate does not verify (default true). */
  readonly rejectUnauthorized?: boolean;
  /** Server name for SNI and certificate checks, when it differs from the URL's host. */
  readonly servername?: string;
  /**
   * Trust exactly the certificates in `ca`, a leaf without its issuer included, and skip the host
   * name check: the daemon's own connection to its embedded broker, which serves that very
   * certificate (whatever names it holds, and whoever issued it).
   */
  readonly pinned?: boolean;
}

/** Everything the connection needs, in one object. */
export interface MqttConnectionContext {
  /** Broker URL: `mqtt://`, `mqtts://`, `ws://` or `wss://`. */
  readonly url: string;
  /** This daemon's client id; unique per daemon sharing a broker. */
  readonly clientId: string;
  readonly log: LogFn;
  /** First topic levels (default `chessbridge`). */
  readonly base?: string;
  readonly username?: string;
  readonly password?: string;
  readonly tls?: MqttTlsOptions;
  /** 5 (default) or 4 (MQTT 3.1.1, e.g. for the embedded aedes broker, which has no MQTT 5). */
  readonly protocolVersion?: 4 | 5;
  /** Start each connection with a clean session (default true: stale requests are not replayed). */
  readonly clean?: boolean;
  /** Milliseconds between reconnect attempts (default 1000). */
  readonly reconnectPeriodMs?: number;
  /** Milliseconds one connection attempt may wait for its CONNACK (default 10000). */
  readonly connectTimeoutMs?: number;
  /** Milliseconds start() waits for the first connection before it fails (default 30000). */
  readonly startTimeoutMs?: number;
  /** Keepalive in seconds (default 30): the broker sends the Last Will after 1.5 times this of silence. */
  readonly keepaliveS?: number;
  /**
   * Whether this connection speaks for the bridge: its Last Will and its `online`/`offline` on
   * `<base>/bridge/state` (default true). The daemon's second connection, for requests, does not.
   */
  readonly announce?: boolean;
  /**
   * Called after each incoming message; the next one is read only that many ms later (0: at once).
   * While it waits, the socket is not read, and the broker holds (or drops) what comes next.
   */
  readonly pace?: () => number;
}

/** Counters of this connection. */
export interface MqttClientHealth {
  readonly connected: boolean;
  /** Successful connections after the first one. */
  readonly reconnects: number;
  /** Publish calls handed to MQTT.js. */
  readonly published: number;
  /** QoS 1/2 publishes waiting for their acknowledgement. */
  readonly queued: number;
  /** QoS 1/2 publishes acknowledged by the broker. */
  readonly acked: number;
  /** Publishes that failed locally (connection closed, client stopping); callers may retry. */
  readonly failed: number;
  /** QoS 1/2 publishes the broker refused with a reason code (0 expected). */
  readonly dropped: number;
}

/** A message received on a subscription. */
export interface IncomingMessage {
  readonly topic: string;
  readonly payload: Buffer;
  readonly retain: boolean;
  /** MQTT 5 request/response properties, when present. */
  readonly responseTopic?: string;
  readonly correlationData?: Buffer;
}

export interface PublishOptions {
  readonly qos: Qos;
  readonly retain: boolean;
  /** MQTT 5 correlation data (responses). */
  readonly correlationData?: Buffer;
}

/** Connection status changes, for components that react to reconnects (the publisher). */
export type ConnectionListener = (status: 'online' | 'offline') => void;

/** Error for a connection that could not be established; `code` is the broker's reason code when it refused. */
export class MqttConnectError extends Error {
  readonly kind = 'mqttConnect';
  constructor(
    message: string,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}

export const ONLINE = JSON.stringify({ state: 'online' });
export const OFFLINE = JSON.stringify({ state: 'offline' });

/** Maps our context to MQTT.js options (exported for tests: credentials, TLS and will pass through). */
export const makeClientOptions = (ctx: MqttConnectionContext): IClientOptions => {
  const topics = makeTopics(ctx.base ?? DEFAULT_BASE);
  return {
    clientId: ctx.clientId,
    protocolVersion: ctx.protocolVersion ?? 5,
    clean: ctx.clean ?? true,
    reconnectPeriod: ctx.reconnectPeriodMs ?? 1000,
    connectTimeout: ctx.connectTimeoutMs ?? 10_000,
    keepalive: ctx.keepaliveS ?? 30,
    // After a successful start a refused CONNACK (e.g. broker still starting) is retried too.
    reconnectOnConnackError: true,
    resubscribe: true,
    queueQoSZero: false,
    manualConnect: true,
    // MQTT.js' default provider hands out packet ids in a circle without looking at which are
    // still waiting for their PUBACK: past 65,535 unacknowledged publishes (a flood of request
    // responses) a new publish takes the id of an old one, whose callback is then never called,
    // and the publisher's in-flight window never frees that place. This one never gives out an id
    // in use; a publish waits for a free id instead.
    messageIdProvider: new UniqueMessageIdProvider(),
    ...(ctx.announce === false
      ? {}
      : { will: { topic: topics.bridgeState().name, payload: Buffer.from(OFFLINE), qos: 1, retain: true } }),
    ...(ctx.username === undefined ? {} : { username: ctx.username }),
    ...(ctx.password === undefined ? {} : { password: ctx.password }),
    ...(ctx.tls?.ca === undefined ? {} : { ca: ctx.tls.ca }),
    ...(ctx.tls?.cert === undefined ? {} : { cert: ctx.tls.cert }),
    ...(ctx.tls?.key === undefined ? {} : { key: ctx.tls.key }),
    ...(ctx.tls?.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: ctx.tls.rejectUnauthorized }),
    ...(ctx.tls?.servername === undefined ? {} : { servername: ctx.tls.servername }),
    ...(ctx.tls?.pinned === true
      ? { allowPartialTrustChain: true, checkServerIdentity: () => undefined }
      : {}),
  };
};

/** Reads the numeric reason code MQTT.js attaches to refusals, if any. */
export const reasonCode = (error: Error): number | undefined => {
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
};

/** Whether a connect error is permanent for start(): the broker answered and refused us. */
export const isRefusal = (error: Error): boolean => reasonCode(error) !== undefined;
