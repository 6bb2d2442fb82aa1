// The embedded aedes broker: option checks, TCP and WebSocket listeners, credentials, and the
// MQTT layer (last will, online on reconnect, requests, never-lose publishing) running over it.
import { Result } from '@badrap/result';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { MqttConnection, MqttConnectError } from '../../../src/bridge/mqtt/client.js';
import {
  checkBrokerOptions,
  EmbeddedBroker,
  isLoopbackHost,
} from '../../../src/bridge/mqtt/embeddedBroker.js';
import type { LogFn } from '../../../src/bridge/mqtt/log.js';
import { EventPublisher } from '../../../src/bridge/mqtt/publisher.js';
import { REQUEST_ACTIONS, type RequestHandlers } from '../../../src/bridge/mqtt/requestSchemas.js';
import { serveRequests$ } from '../../../src/bridge/mqtt/requests.js';
import { UserDirectory } from '../../../src/bridge/security/users.js';
import type { EventMessage, JsonObject, ResponseEnvelope } from '../../../src/bridge/mqtt/topics.js';
import { startTcpProxy, waitFor, type TcpProxy } from '../../support/mosquitto.js';
import { clockEvent } from '../../support/wire.js';

const makeLog = () => {
  const lines: string[] = [];
  const log: LogFn = (level, message, ns) =>
    lines.push(`${ns} ${level} ${typeof message === 'string' ? message : message()}`);
  return { lines, log };
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startBroker = async (ctx: Omit<ConstructorParameters<typeof EmbeddedBroker>[0], 'log'> = {}) => {
  const broker = new EmbeddedBroker({ log: makeLog().log, port: 0, wsPort: 0, ...ctx });
  const addresses = await broker.start();
  cleanups.push(() => broker.stop());
  return { broker, addresses };
};

const testClient = async (
  url: string,
  options: Parameters<typeof connectAsync>[1] = {},
): Promise<MqttClient> => {
  const client = await connectAsync(url, { reconnectPeriod: 0, ...options });
  cleanups.push(() => client.endAsync(true));
  return client;
};

const collect = (client: MqttClient) => {
  const messages: { topic: string; body: unknown }[] = [];
  client.on('message', (topic, payload) =>
    messages.push({ topic, body: payload.length === 0 ? '' : JSON.parse(payload.toString()) }),
  );
  return messages;
};

const connection = (
  url: string,
  clientId: string,
  extra: Partial<ConstructorParameters<typeof MqttConnection>[0]> = {},
) => {
  const { log, lines } = makeLog();
  const conn = new MqttConnection({
    url,
    clientId,
    log,
    protocolVersion: 4,
    reconnectPeriodMs: 100,
    ...extra,
  });
  cleanups.push(() => conn.stop());
  return { conn, log, lines };
};

describe('broker options', () => {
  // Loopback forms a config may use; anything else is reachable from the network.
  it.each([
    ['127.0.0.1', true],
    ['127.3.2.1', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('refuses to listen beyond loopback without users, or with anonymous readers', async () => {
    const refused = checkBrokerOptions({ log: makeLog().log, host: '0.0.0.0' });
    expect(refused.isErr && refused.error.kind).toBe('credentialsRequired');
    await expect(
      new EmbeddedBroker({ log: makeLog().log, host: '0.0.0.0', port: 0 }).start(),
    ).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without credentials/);
    const badPort = checkBrokerOptions({ log: makeLog().log, port: 70000 });
    expect(badPort.isErr && badPort.error.kind).toBe('badPort');
    const access = { users: new UserDirectory([]), daemon: { user: 'daemon', clientId: 'd' }, base: 'cb' };
    const allowed = checkBrokerOptions({ log: makeLog().log, host: '0.0.0.0', access });
    expect(allowed.isOk).toBe(true);
    const demo = checkBrokerOptions({
      log: makeLog().log,
      host: '0.0.0.0',
      access: { ...access, anonymousRead: true },
    });
    expect(demo.isErr && demo.error.kind).toBe('credentialsRequired');
  });
});

describe('EmbeddedBroker', () => {
  it('a port in use is a clear refusal naming the listener and the port, not a crash', async () => {
    const { addresses } = await startBroker();
    const onTcp = new EmbeddedBroker({ log: makeLog().log, port: addresses.port, wsPort: 0 });
    await expect(onTcp.start()).rejects.toThrow(
      `embedded broker: cannot listen for MQTT on 127.0.0.1:${addresses.port}: the port is in use`,
    );
    const onWs = new EmbeddedBroker({ log: makeLog().log, port: 0, wsPort: addresses.wsPort ?? -1 });
    await expect(onWs.start()).rejects.toThrow(
      `embedded broker: cannot listen for MQTT over WebSocket on 127.0.0.1:${addresses.wsPort}: the port is in use`,
    );
    // The refused brokers hold nothing: the TCP listener the second one opened is closed again.
    expect(onWs.addresses).toBeUndefined();
    await onTcp.stop();
    await onWs.stop();
    // The first broker still serves.
    const client = await testClient(addresses.url);
    expect(client.connected).toBe(true);
  });

  it('serves MQTT over TCP and over WebSocket at /mqtt; start and stop are idempotent', async () => {
    const { broker, addresses } = await startBroker();
    expect(await broker.start()).toBe(addresses);
    expect(addresses.url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(addresses.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mqtt$/);

    const browser = await testClient(addresses.wsUrl ?? '');
    const seen = collect(browser);
    await browser.subscribeAsync('chessbridge/games/+/events', { qos: 1 });
    const { conn } = connection(addresses.url, 'daemon-ws');
    await conn.start();
    const publisher = new EventPublisher({ connection: conn, log: makeLog().log });
    await publisher.start();
    publisher.publishEvent(clockEvent('g1', 1, 5));
    await waitFor(() => seen.length === 1, 3000, 'the event over WebSocket');
    expect(seen[0]).toEqual({
      topic: 'chessbridge/games/g1/events',
      body: clockEvent('g1', 1, 5),
    });
    await publisher.stop();
    await conn.stop();

    await Promise.all([broker.stop(), broker.stop()]);
    expect(broker.addresses).toBeUndefined();
    await expect(connectAsync(addresses.url, { reconnectPeriod: 0, connectTimeout: 500 })).rejects.toThrow();
  });

  it('enforces credentials on both listeners', async () => {
    const users = new UserDirectory([
      { name: 'anna', role: 'arbiter', secret: 's3cret-of-anna' },
      { name: 'daemon', role: 'daemon', secret: 'the-daemons-own' },
    ]);
    const { addresses } = await startBroker({
      access: { users, daemon: { user: 'daemon', clientId: 'daemon' }, base: 'chessbridge' },
    });
    const wrong = connection(addresses.url, 'intruder', {
      username: 'anna',
      password: 'guess',
      startTimeoutMs: 3000,
    });
    const failure = await wrong.conn.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MqttConnectError);
    expect((failure as MqttConnectError).code).toBe(4);
    expect(wrong.conn.health().connected).toBe(false);

    await expect(connectAsync(addresses.wsUrl ?? '', { reconnectPeriod: 0 })).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );

    const right = connection(addresses.url, 'daemon', { username: 'daemon', password: 'the-daemons-own' });
    await right.conn.start();
    expect(right.conn.isConnected).toBe(true);
    const browser = await testClient(addresses.wsUrl ?? '', { username: 'anna', password: 's3cret-of-anna' });
    expect(browser.connected).toBe(true);
  });

  it('the last will says offline when the connection is cut, and online is published again on reconnect', async () => {
    const { addresses } = await startBroker();
    const proxy: TcpProxy = await startTcpProxy(addresses.port);
    cleanups.push(() => proxy.close());
    const watcher = await testClient(addresses.url);
    const seen = collect(watcher);
    await watcher.subscribeAsync('chessbridge/bridge/state', { qos: 1 });

    const { conn } = connection(`mqtt://127.0.0.1:${proxy.port}`, 'daemon-cut');
    await conn.start();
    const states = () => seen.map(m => (m.body as { state: string }).state);
    await waitFor(() => states().includes('online'), 3000, 'online');
    proxy.cutAll();
    await waitFor(() => states().includes('offline'), 3000, 'the last will');
    await waitFor(
      () => states().filter(s => s === 'online').length === 2,
      3000,
      'online after the reconnect',
    );
    expect(states()).toEqual(['online', 'offline', 'online']);
    expect(conn.health()).toMatchObject({ connected: true, reconnects: 1 });
  });

  it('keeps events queued while the connection is cut and delivers them in order after it', async () => {
    const { addresses } = await startBroker();
    const proxy = await startTcpProxy(addresses.port);
    cleanups.push(() => proxy.close());
    const watcher = await testClient(addresses.url);
    const seen = collect(watcher);
    await watcher.subscribeAsync('chessbridge/games/+/events', { qos: 1 });
    const { conn } = connection(`mqtt://127.0.0.1:${proxy.port}`, 'daemon-queue');
    await conn.start();
    const publisher = new EventPublisher({ connection: conn, log: makeLog().log });
    await publisher.start();
    const publish = (from: number, to: number) => {
      for (let seq = from; seq <= to; seq++) publisher.publishEvent(clockEvent('g7', seq));
    };
    publish(1, 50);
    proxy.cutAll();
    publish(51, 100);
    await publisher.drained();
    const seqs = () => seen.map(m => (m.body as EventMessage).seq);
    await waitFor(() => new Set(seqs()).size === 100, 5000, 'all 100 events');
    expect([...new Set(seqs())]).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(publisher.health()).toMatchObject({ queued: 0, dropped: 0 });
    await publisher.stop();
  });

  it('answers requests over MQTT 3.1.1 with the transaction echoed, and refuses bad ones', async () => {
    const { addresses } = await startBroker();
    const { conn, lines } = connection(addresses.url, 'daemon-requests');
    await conn.start();
    const handlers = Object.fromEntries(
      REQUEST_ACTIONS.map(action => [
        action,
        (request: JsonObject) => Promise.resolve(Result.ok({ action, game: request.game_id ?? null })),
      ]),
    ) as unknown as RequestHandlers;
    const service = serveRequests$({ connection: conn, handlers, log: makeLog().log }).subscribe();
    cleanups.push(() => Promise.resolve(service.unsubscribe()));
    await waitFor(
      () => lines.some(l => l.includes('subscribed chessbridge/bridge/request/#')),
      3000,
      'the request subscription',
    );

    const caller = await testClient(addresses.url);
    const seen = collect(caller);
    await caller.subscribeAsync('chessbridge/bridge/response/+', { qos: 1 });
    await caller.publishAsync(
      'chessbridge/bridge/request/adjust_clocks',
      JSON.stringify({ game_id: 'g1', white_ms: -1, black_ms: 60000, transaction: 1 }),
    );
    await caller.publishAsync(
      'chessbridge/bridge/request/adjust_clocks',
      JSON.stringify({ game_id: 'g1', white_ms: 1000, black_ms: 60000, transaction: 2 }),
    );
    await waitFor(() => seen.length === 2, 3000, 'two responses');
    const [first, second] = seen.map(m => m.body as ResponseEnvelope);
    expect(first).toEqual({
      status: 'error',
      data: {},
      error: 'white_ms: expected integer to be greater or equal to 0',
      code: 'invalid_fields',
      params: { fields: 'white_ms' },
      transaction: 1,
    });
    expect(second).toEqual({ status: 'ok', data: { action: 'adjust_clocks', game: 'g1' }, transaction: 2 });
  });

  it('after an embedded broker restart (retained messages gone) online and snapshots are published again', async () => {
    const first = await startBroker();
    const port = first.addresses.port;
    const { conn } = connection(first.addresses.url, 'daemon-restart');
    await conn.start();
    const publisher = new EventPublisher({ connection: conn, log: makeLog().log });
    await publisher.start();
    publisher.retain(conn.topics.boardState('b1'), {
      board: 'b1',
      number: null,
      link: 'connected',
      status: 'connected',
      problems: [],
      game: 'g1',
      vendor: null,
      model: null,
      firmware: null,
      battery: null,
      clock: null,
      last_seen: null,
      at: 1,
    });
    await publisher.drained();

    await first.broker.stop();
    await waitFor(() => !conn.isConnected, 3000, 'the disconnect');
    const second = await startBroker({ port, wsPort: null });
    await waitFor(() => conn.isConnected, 5000, 'the reconnect');
    await publisher.drained();
    const fresh = await testClient(second.addresses.url);
    const seen = collect(fresh);
    await fresh.subscribeAsync(['chessbridge/bridge/state', 'chessbridge/boards/+/state'], { qos: 1 });
    await waitFor(() => seen.length === 2, 3000, 'two retained messages');
    expect(seen.map(m => m.body)).toEqual(
      expect.arrayContaining([
        { state: 'online' },
        expect.objectContaining({ board: 'b1', link: 'connected', game: 'g1', at: 1 }),
      ]),
    );
    await publisher.stop();
  });
});
