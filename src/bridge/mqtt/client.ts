/**
 * The daemon's MQTT connection, on MQTT.js: a Last Will that sets `<base>/bridge/state` to
 * `offline` (retained, QoS 1), `online` published (retained) on every connect and reconnect,
 * reconnection left to MQTT.js (`reconnectPeriod`), credentials and TLS passed through, health
 * counters, and an idempotent async start()/stop(). start() rejects when the client ends, is
 * refused or times out before its first CONNACK (MQTT.js' `connectAsync` would resolve then).
 *
 *   const mqtt = new MqttConnection({ url: 'mqtt://127.0.0.1:1883', clientId: 'hall-a', log });
 *   await mqtt.start();
 *   await mqtt.publish('chessbridge/alerts', '{"code":"test"}', { qos: 1, retain: false });
 */
import { connect, type IClientPublishOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { BehaviorSubject, Observable, distinctUntilChanged } from 'rxjs';
import {
  isRefusal,
  makeClientOptions,
  MqttConnectError,
  OFFLINE,
  ONLINE,
  reasonCode,
  type ConnectionListener,
  type IncomingMessage,
  type MqttClientHealth,
  type MqttConnectionContext,
  type PublishOptions,
} from './connectionOptions.js';
import { MQTT_NAMESPACE, renderLogMessage, type LogMessage } from './log.js';
import {
  DEFAULT_BASE,
  makePayload,
  makeTopics,
  matchesFilter,
  TOPIC_OPTIONS,
  type Qos,
  type Topic,
  type TopicMap,
  type TopicPattern,
  type Topics,
} from './topics.js';

export * from './connectionOptions.js';

type Phase = 'idle' | 'starting' | 'started' | 'stopping';

/** The daemon's MQTT connection (see the module comment). */
export class MqttConnection {
  readonly topics: Topics;
  private client: MqttClient | undefined;
  private phase: Phase = 'idle';
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private startAbort: AbortController | undefined;
  private readonly listeners = new Set<ConnectionListener>();
  private readonly connected = new BehaviorSubject<boolean>(false);
  private counters = { connects: 0, published: 0, queued: 0, acked: 0, failed: 0, dropped: 0 };

  constructor(private readonly ctx: MqttConnectionContext) {
    this.topics = makeTopics(ctx.base ?? DEFAULT_BASE);
  }

  /** Connection status as an Observable (hot: replays the current value to new subscribers). */
  get connected$(): Observable<boolean> {
    return this.connected.asObservable().pipe(distinctUntilChanged());
  }

  /** Whether a connection to the broker is up now. */
  get isConnected(): boolean {
    return this.connected.value;
  }

  health(): MqttClientHealth {
    const { connects, published, queued, acked, failed, dropped } = this.counters;
    return {
      connected: this.connected.value,
      reconnects: Math.max(0, connects - 1),
      published,
      queued,
      acked,
      failed,
      dropped,
    };
  }

  /** Registers a listener for connect (`online`) and disconnect (`offline`); returns its removal. */
  onStatus(listener: ConnectionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Connects; resolves at the first CONNACK. Rejects with MqttConnectError when the broker refuses
   * (bad credentials), when no connection succeeds within `startTimeoutMs`, when the client ends
   * first, or when `signal` aborts. After a rejection nothing keeps running.
   */
  start(signal?: AbortSignal): Promise<void> {
    if (this.phase === 'started') return Promise.resolve();
    if (this.phase === 'starting' && this.starting) return this.starting;
    if (this.phase === 'stopping' && this.stopping) return this.stopping.then(() => this.start(signal));
    this.phase = 'starting';
    const abort = new AbortController();
    this.startAbort = abort;
    // The caller's signal and stop() both abort the attempt (AbortSignal.any needs Node 20.3).
    if (signal?.aborted === true) abort.abort();
    else signal?.addEventListener('abort', () => abort.abort(), { once: true });
    this.starting = this.connectFirst(abort.signal).then(
      () => {
        if (this.phase === 'starting') this.phase = 'started';
      },
      async (error: unknown) => {
        await this.closeClient(true);
        this.phase = 'idle';
        throw error;
      },
    );
    return this.starting;
  }

  /**
   * Publishes `offline` (retained) and disconnects cleanly, so the Last Will is not sent; if no
   * connection is up, just ends the client. Idempotent.
   */
  stop(): Promise<void> {
    if (this.phase === 'idle') return Promise.resolve();
    if (this.phase === 'stopping' && this.stopping) return this.stopping;
    const wasStarting = this.phase === 'starting' ? this.starting : undefined;
    this.startAbort?.abort();
    this.phase = 'stopping';
    this.stopping = (async () => {
      if (wasStarting) await wasStarting.catch(() => undefined);
      const client = this.client;
      if (client?.connected && this.ctx.announce !== false) {
        await this.withTimeout(
          client.publishAsync(this.topics.bridgeState().name, OFFLINE, { qos: 1, retain: true }),
          2000,
        ).catch((error: unknown) => this.log('warning', () => `could not publish offline: ${String(error)}`));
      }
      await this.closeClient(false);
      this.phase = 'idle';
      this.stopping = undefined;
    })();
    return this.stopping;
  }

  /**
   * Publishes raw bytes. For QoS 1/2 resolves on the broker's acknowledgement; rejects when the
   * connection closes first or the broker refuses. Topic names are validated by MQTT.js too.
   */
  publish(topic: string, payload: string | Buffer, options: PublishOptions): Promise<void> {
    const client = this.client;
    if (!client || this.phase === 'idle')
      return Promise.reject(new Error(`publish to ${topic}: not started`));
    const opts: IClientPublishOptions = {
      qos: options.qos,
      retain: options.retain,
      ...(options.correlationData === undefined
        ? {}
        : { properties: { correlationData: options.correlationData } }),
    };
    this.counters.published += 1;
    const confirmed = options.qos > 0;
    if (confirmed) this.counters.queued += 1;
    return new Promise<void>((resolve, reject) => {
      client.publish(topic, payload, opts, error => {
        if (confirmed) this.counters.queued -= 1;
        if (error) {
          if (isRefusal(error)) this.counters.dropped += 1;
          else this.counters.failed += 1;
          reject(error);
          return;
        }
        if (confirmed) this.counters.acked += 1;
        resolve();
      });
    });
  }

  /** Publishes a typed payload with its topic's QoS and retain flag. */
  publishTyped<P extends TopicPattern>(topic: Topic<P>, payload: TopicMap[P]): Promise<void> {
    return this.publish(topic.name, makePayload(topic, payload), TOPIC_OPTIONS[topic.pattern]);
  }

  /**
   * Messages matching a filter. Cold: subscribing sends SUBSCRIBE, unsubscribing sends
   * UNSUBSCRIBE; MQTT.js renews the subscription after a reconnect. Errors the Observable when
   * the broker refuses the subscription.
   */
  messages$(filter: string, qos: Qos = 1): Observable<IncomingMessage> {
    return new Observable<IncomingMessage>(subscriber => {
      const client = this.client;
      if (!client) {
        subscriber.error(new Error(`subscribe ${filter}: not started`));
        return undefined;
      }
      const onMessage = (topic: string, payload: Buffer, packet: IPublishPacket) => {
        if (!matchesFilter(filter, topic)) return;
        const props = packet.properties;
        subscriber.next({
          topic,
          payload,
          retain: packet.retain,
          ...(props?.responseTopic === undefined ? {} : { responseTopic: props.responseTopic }),
          ...(props?.correlationData === undefined ? {} : { correlationData: props.correlationData }),
        });
      };
      client.on('message', onMessage);
      client.subscribe(filter, { qos }, (error, granted) => {
        const refused = granted?.some(g => g.qos === 128) ?? false;
        if (error ?? refused) subscriber.error(error ?? new Error(`broker refused subscription ${filter}`));
        else this.log('debug', `subscribed ${filter}`);
      });
      return () => {
        client.removeListener('message', onMessage);
        if (this.phase === 'started' && client.connected) client.unsubscribe(filter);
      };
    });
  }

  private connectFirst(signal: AbortSignal): Promise<void> {
    const ctx = this.ctx;
    const client = connect(ctx.url, makeClientOptions(ctx));
    this.client = client;
    const pace = ctx.pace;
    if (pace !== undefined) {
      // MQTT.js handles the next incoming packet once this calls back: a delay here is read
      // backpressure (the socket is not read meanwhile).
      client.handleMessage = (_packet, callback) => {
        const wait = pace();
        if (wait > 0) setTimeout(callback, wait);
        else callback();
      };
    }
    client.on('connect', () => this.onConnect(client));
    client.on('close', () => this.onClose());
    client.on('offline', () =>
      this.log('warning', `connection to ${ctx.url} as ${ctx.clientId} lost; MQTT.js reconnects`),
    );
    client.on('reconnect', () => this.log('debug', `reconnecting to ${ctx.url}`));
    client.on('error', error => this.log('warning', `${ctx.url}: ${error.message}`));
    return new Promise<void>((resolve, reject) => {
      const timeoutMs = ctx.startTimeoutMs ?? 30_000;
      const cleanup = () => {
        clearTimeout(timer);
        client.removeListener('connect', onConnect);
        client.removeListener('error', onError);
        client.removeListener('end', onEnd);
        signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: MqttConnectError) => {
        cleanup();
        reject(error);
      };
      const onConnect = () => {
        cleanup();
        resolve();
      };
      const onError = (error: Error) => {
        if (isRefusal(error))
          fail(
            new MqttConnectError(`${ctx.url} refused the connection: ${error.message}`, reasonCode(error)),
          );
      };
      const onEnd = () =>
        fail(new MqttConnectError(`connection to ${ctx.url} ended before it was established`, undefined));
      const onAbort = () => fail(new MqttConnectError(`connecting to ${ctx.url} was aborted`, undefined));
      const timer = setTimeout(
        () => fail(new MqttConnectError(`no connection to ${ctx.url} within ${timeoutMs} ms`, undefined)),
        timeoutMs,
      );
      client.on('connect', onConnect);
      client.on('error', onError);
      client.on('end', onEnd);
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort);
      client.connect();
    });
  }

  private onConnect(client: MqttClient): void {
    this.counters.connects += 1;
    this.log(
      'info',
      `connected to ${this.ctx.url} as ${this.ctx.clientId}${this.counters.connects > 1 ? ' (reconnect)' : ''}`,
    );
    this.connected.next(true);
    if (this.ctx.announce !== false)
      client.publish(this.topics.bridgeState().name, ONLINE, { qos: 1, retain: true }, error => {
        if (error) this.log('warning', `could not publish online: ${error.message}`);
      });
    this.listeners.forEach(listener => listener('online'));
  }

  private onClose(): void {
    if (!this.connected.value) return;
    this.connected.next(false);
    this.listeners.forEach(listener => listener('offline'));
  }

  private async closeClient(force: boolean): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    // No reconnect after this: a client ended while it was still connecting (a broker that
    // accepted the socket and never answered) would otherwise keep reconnecting, and keep the
    // process alive after a stop.
    client.options.reconnectPeriod = 0;
    await this.withTimeout(client.endAsync(force), 3000).catch(() => client.end(true));
    this.onClose();
  }

  private withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      promise.then(
        value => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private log(level: 'error' | 'warning' | 'info' | 'debug', message: LogMessage): void {
    this.ctx.log(level, () => renderLogMessage(message), `${MQTT_NAMESPACE}:client`);
  }
}
