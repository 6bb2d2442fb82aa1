// Integration tests of the MQTT layer against a real mosquitto, started per suite on a free
// loopback port and SIGKILLed at will (test/support/mosquitto.ts).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Result } from '@badrap/result';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AckLedger } from '../../../src/bridge/mqtt/ackLedger.js';
import { MqttConnection, MqttConnectError } from '../../../src/bridge/mqtt/client.js';
import type { LogFn } from '../../../src/bridge/mqtt/log.js';
import { EventPublisher } from '../../../src/bridge/mqtt/publisher.js';
import {
  REQUEST_ACTIONS,
  type RequestHandlers,
  type RequestAction,
} from '../../../src/bridge/mqtt/requestSchemas.js';
import { serveRequests$ } from '../../../src/bridge/mqtt/requests.js';
import { RequestGate } from '../../../src/bridge/requestGate.js';
import type { EventMessage, JsonObject, ResponseEnvelope } from '../../../src/bridge/mqtt/topics.js';
import { freePort, startMosquitto, waitFor, type Mosquitto } from '../../support/mosquitto.js';
import { PROJECT_ROOT } from '../../support/shared.js';
import { clockEvent } from '../../support/wire.js';

/** A logger that keeps lines, so tests can wait for "subscribed …". */
const makeLog = () => {
  const lines: string[] = [];
  const log: LogFn = (level, message, ns) =>
    lines.push(`${ns} ${level} ${typeof message === 'string' ? message : message()}`);
  return { lines, log };
};

/** Handlers that echo their request; stop_game fails as a handler would for an unknown game; clock_text throws. */
const makeHandlers = (): RequestHandlers => {
  const entries = REQUEST_ACTIONS.map((action: RequestAction): [string, unknown] => [
    action,
    (request: JsonObject) => {
      if (action === 'clock_text') return Promise.reject(new Error('display cable unplugged'));
      if (action === 'stop_game')
        return Promise.resolve(Result.err(new Error(`no game ${String(request.game_id as string)}`)));
      return Promise.resolve(Result.ok({ action, request }));
    },
  ]);
  const handlers: Record<string, unknown> = Object.fromEntries(entries);
  return handlers as RequestHandlers;
};

const event = (game: string, seq: number): EventMessage => clockEvent(game, seq, 1_700_000_000_000 + seq);

/** Subscribes a test client and records every message as parsed JSON (or text). */
const collect = (client: MqttClient) => {
  const messages: { topic: string; body: unknown; correlation?: string }[] = [];
  client.on('message', (topic, payload, packet) => {
    const text = payload.toString();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // PGN and empty payloads stay text
    }
    const correlation = packet.properties?.correlationData?.toString();
    messages.push({ topic, body, ...(correlation === undefined ? {} : { correlation }) });
  });
  return messages;
};

const clients: MqttClient[] = [];
const testClient = async (url: string, options: Parameters<typeof connectAsync>[1] = {}) => {
  const client = await connectAsync(url, { reconnectPeriod: 100, ...options });
  clients.push(client);
  return client;
};

afterEach(async () => {
  await Promise.all(clients.splice(0).map(c => c.endAsync(true)));
});

describe('MqttConnection against mosquitto', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker.stop();
  });

  it('start() fails with a clear error when no broker answers, and when aborted', async () => {
    const port = await freePort();
    const { log } = makeLog();
    const conn = new MqttConnection({
      url: `mqtt://127.0.0.1:${port}`,
      clientId: 'nobody',
      log,
      startTimeoutMs: 400,
    });
    await expect(conn.start()).rejects.toThrow(/no connection to mqtt:\/\/127\.0\.0\.1:\d+ within 400 ms/);
    expect(conn.health().connected).toBe(false);

    const aborted = new MqttConnection({ url: `mqtt://127.0.0.1:${port}`, clientId: 'nobody2', log });
    const controller = new AbortController();
    const starting = aborted.start(controller.signal);
    controller.abort();
    await expect(starting).rejects.toBeInstanceOf(MqttConnectError);
    await aborted.stop();

    // stop() during a start that would wait 30 s ends it at once.
    const stopped = new MqttConnection({ url: `mqtt://127.0.0.1:${port}`, clientId: 'nobody3', log });
    const pending = stopped.start();
    const t0 = Date.now();
    await stopped.stop();
    await expect(pending).rejects.toThrow(/aborted/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('publishes online (retained) on every connect, again after the broker restarts with nothing stored', async () => {
    const { log } = makeLog();
    const conn = new MqttConnection({
      url: broker.url,
      clientId: 'online-test',
      log,
      reconnectPeriodMs: 100,
    });
    const publisher = new EventPublisher({ connection: conn, log });
    await Promise.all([conn.start(), conn.start()]); // idempotent
    await publisher.start();
    publisher.retain(conn.topics.game('g1'), {
      game: 'g1',
      seq: 3,
      at: 1,
      board: 'b1',
      fen: 'startpos',
      moves: ['e4', 'e5', 'Nf3'],
      result: '*',
    });
    await publisher.drained();

    await broker.restart(); // no persistence: retained messages are gone
    await waitFor(() => conn.health().reconnects === 1, 5000, 'the reconnect');
    await publisher.drained();
    const fresh = await testClient(broker.url);
    const seen = collect(fresh);
    await fresh.subscribeAsync(['chessbridge/bridge/state', 'chessbridge/games/g1'], { qos: 1 });
    await waitFor(() => seen.length >= 2, 3000, 'retained state and snapshot');
    expect(seen.find(m => m.topic === 'chessbridge/bridge/state')?.body).toEqual({ state: 'online' });
    expect(seen.find(m => m.topic === 'chessbridge/games/g1')?.body).toMatchObject({ game: 'g1', seq: 3 });

    await publisher.stop();
    await Promise.all([conn.stop(), conn.stop()]);
    await waitFor(
      () => seen.some(m => (m.body as { state?: string }).state === 'offline'),
      3000,
      'offline on stop',
    );
  });

  it('a daemon killed with SIGKILL: the last will says offline; after restart the ledger and journal fill every gap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chessbridge-ledger-'));
    const ledgerPath = join(dir, 'acked.json');
    const total = 200;
    const watcher = await testClient(broker.url, { clientId: 'watcher', clean: true });
    const seen = collect(watcher);
    await watcher.subscribeAsync(['chessbridge/bridge/state', 'chessbridge/games/+/events'], { qos: 1 });

    const mod = (name: string) => pathToFileURL(join(PROJECT_ROOT, 'src/bridge/mqtt', name)).href;
    const code = `
      const [url, ledgerPath, total] = process.argv.slice(1);
      const { MqttConnection } = await import(${JSON.stringify(mod('client.ts'))});
      const { EventPublisher } = await import(${JSON.stringify(mod('publisher.ts'))});
      const { AckLedger } = await import(${JSON.stringify(mod('ackLedger.ts'))});
      const log = () => {};
      const ledger = new AckLedger({ path: ledgerPath, log, flushDelayMs: 20 });
      await ledger.load();
      const connection = new MqttConnection({ url, clientId: 'daemon-a', log, keepaliveS: 60 });
      await connection.start();
      const publisher = new EventPublisher({ connection, log, ledger });
      await publisher.start();
      process.stdout.write('ready\\n');
      let seq = 0;
      setInterval(() => {
        if (seq >= Number(total)) return;
        seq += 1;
        const at = 1700000000000 + seq;
        publisher.publishEvent({ game: 'g1', seq, at, type: 'clock', clocks: { white_ms: 1, black_ms: 1, running: null, at } });
      }, 4);
    `;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code, broker.url, ledgerPath, String(total)],
      {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let childOut = '';
    child.stdout.on('data', (chunk: Buffer) => (childOut += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (childOut += chunk.toString()));
    const events = () =>
      seen.filter(m => m.topic === 'chessbridge/games/g1/events').map(m => (m.body as EventMessage).seq);
    try {
      await waitFor(() => events().length >= 60, 15_000, `60 events from the child (output: ${childOut})`);
      child.kill('SIGKILL');
      await waitFor(
        () =>
          seen.some(
            m => m.topic === 'chessbridge/bridge/state' && (m.body as { state: string }).state === 'offline',
          ),
        5000,
        'the last will',
      );
      const beforeRestart = new Set(events());
      expect(beforeRestart.size).toBeLessThan(total);

      // The restarted daemon: same client id, the ledger the child left, the game's journal.
      const { log } = makeLog();
      const ledger = new AckLedger({ path: ledgerPath, log });
      expect((await ledger.load()).isOk).toBe(true);
      const acked = ledger.acked('g1') ?? 0;
      expect(acked).toBeGreaterThan(0);
      expect(acked).toBeLessThanOrEqual(Math.max(...beforeRestart));
      const conn = new MqttConnection({ url: broker.url, clientId: 'daemon-a', log });
      await conn.start();
      const publisher = new EventPublisher({ connection: conn, log, ledger });
      await publisher.start();
      const journal = Array.from({ length: total }, (_, i) => event('g1', i + 1));
      expect(publisher.publishFrom('g1', journal)).toBe(total - acked);
      await publisher.drained();
      await waitFor(() => new Set(events()).size === total, 5000, 'every event after the restart');

      const firstArrivals = [...new Set(events())];
      expect(firstArrivals).toEqual(journal.map(e => e.seq)); // none missing, first arrivals in order
      const states = seen
        .filter(m => m.topic === 'chessbridge/bridge/state')
        .map(m => (m.body as { state: string }).state);
      expect(states.slice(-2)).toEqual(['offline', 'online']);
      await publisher.stop();
      await ledger.stop();
      expect(ledger.acked('g1')).toBe(total);
      await conn.stop();
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('confirms every QoS 1 publish when more than 65,535 wait for their PUBACK at once', async () => {
    // MQTT.js' default packet ids go round without checking which are in use: the 65,536th
    // waiting publish took the id of the first, whose callback was then never called (a flood of
    // request responses left the publisher's window stuck until a reconnect).
    const { log } = makeLog();
    const conn = new MqttConnection({ url: broker.url, clientId: 'many-ids', log });
    await conn.start();
    try {
      const count = 70_000;
      let confirmed = 0;
      const all = Array.from({ length: count }, () =>
        conn.publish('flood/ids', 'x', { qos: 1, retain: false }).then(() => {
          confirmed += 1;
        }),
      );
      await waitFor(() => confirmed === count, 10_000, `${count} PUBACKs`).catch(() => undefined);
      expect(confirmed).toBe(count);
      await Promise.all(all);
      expect(conn.health().queued).toBe(0);
    } finally {
      await conn.stop();
    }
  });

  it('answers requests with the transaction echoed, and MQTT 5 requests on their response topic with correlation data', async () => {
    const { log, lines } = makeLog();
    const conn = new MqttConnection({ url: broker.url, clientId: 'requests-test', log });
    await conn.start();
    const outcomes: string[] = [];
    const service = serveRequests$({ connection: conn, handlers: makeHandlers(), log }).subscribe(o =>
      outcomes.push(`${o.action}:${o.status}`),
    );
    try {
      await waitFor(
        () => lines.some(l => l.includes('subscribed chessbridge/bridge/request/#')),
        3000,
        'the request subscription',
      );
      const caller = await testClient(broker.url, { protocolVersion: 5 });
      const seen = collect(caller);
      await caller.subscribeAsync(['chessbridge/bridge/response/+', 'replies/caller-1'], { qos: 1 });

      await caller.publishAsync(
        'chessbridge/bridge/request/restore_position',
        JSON.stringify({ game_id: 'g1', ply: 4, transaction: 't-1' }),
        {
          qos: 1,
        },
      );
      await caller.publishAsync(
        'chessbridge/bridge/request/set_result',
        JSON.stringify({ game_id: 'g2', result: '1-0' }),
        {
          qos: 1,
          properties: { responseTopic: 'replies/caller-1', correlationData: Buffer.from('corr-42') },
        },
      );
      await waitFor(() => seen.length >= 2, 3000, 'two responses');
      const plain = seen.find(m => m.topic === 'chessbridge/bridge/response/restore_position');
      expect(plain?.body).toEqual({
        status: 'ok',
        data: { action: 'restore_position', request: { game_id: 'g1', ply: 4, transaction: 't-1' } },
        transaction: 't-1',
      });
      const v5 = seen.find(m => m.topic === 'replies/caller-1');
      expect(v5?.correlation).toBe('corr-42');
      expect((v5?.body as ResponseEnvelope).status).toBe('ok');
      expect(seen.some(m => m.topic === 'chessbridge/bridge/response/set_result')).toBe(false);
      await waitFor(() => outcomes.length === 2, 3000, 'both outcomes');
    } finally {
      service.unsubscribe();
      await conn.stop();
    }
    expect(outcomes.sort()).toEqual(['restore_position:ok', 'set_result:ok']);
  });

  it('answers bad requests with errors naming the problem and keeps serving', async () => {
    const { log, lines } = makeLog();
    const conn = new MqttConnection({ url: broker.url, clientId: 'bad-requests', log });
    await conn.start();
    const service = serveRequests$({ connection: conn, handlers: makeHandlers(), log }).subscribe();
    try {
      await waitFor(
        () => lines.some(l => l.includes('subscribed chessbridge/bridge/request/#')),
        3000,
        'the request subscription',
      );
      const caller = await testClient(broker.url);
      const seen = collect(caller);
      await caller.subscribeAsync('chessbridge/bridge/response/+', { qos: 1 });
      const send = (action: string, payload: string) =>
        caller.publishAsync(`chessbridge/bridge/request/${action}`, payload, { qos: 1 });
      const answerTo = async (action: string, count: number) => {
        await waitFor(
          () => seen.filter(m => m.topic.endsWith(`/${action}`)).length >= count,
          3000,
          `response to ${action}`,
        );
        return seen.filter(m => m.topic.endsWith(`/${action}`))[count - 1]?.body as ResponseEnvelope;
      };

      await send('restore_position', '{"game_id": "g1", "ply": ');
      expect(await answerTo('restore_position', 1)).toMatchObject({
        status: 'error',
        error: expect.stringMatching(/^malformed JSON: /) as unknown,
      });

      await send('fly_to_the_moon', JSON.stringify({ transaction: 7 }));
      expect(await answerTo('fly_to_the_moon', 1)).toMatchObject({
        status: 'error',
        error: expect.stringContaining('unknown action "fly_to_the_moon"') as unknown,
        transaction: 7,
      });

      await send('restore_position', JSON.stringify({ game_id: 42, ply: 'four', transaction: 't3' }));
      expect(await answerTo('restore_position', 2)).toEqual({
        status: 'error',
        data: {},
        error: 'game_id: expected string; ply: expected integer',
        // The refusal as data too, for the pages to say in the reader's language.
        code: 'invalid_fields',
        params: { fields: 'game_id, ply' },
        transaction: 't3',
      });

      await send('set_result', JSON.stringify({ game_id: 'g1', result: 'white wins' }));
      expect((await answerTo('set_result', 1)).error).toBe('result: expected one of "1-0", "0-1", "1/2-1/2"');

      await send('stop_game', JSON.stringify({ game_id: 'g9' }));
      expect(await answerTo('stop_game', 1)).toEqual({ status: 'error', data: {}, error: 'no game g9' });

      await send('clock_text', JSON.stringify({ board_id: 'b1', text: 'hello' }));
      expect(await answerTo('clock_text', 1)).toMatchObject({
        error: 'internal error in clock_text',
        code: 'internal',
        params: { action: 'clock_text' },
      });

      await send('restore_position', JSON.stringify({ game_id: 'g1', ply: 2 }));
      expect((await answerTo('restore_position', 3)).status).toBe('ok');
      expect(conn.isConnected).toBe(true);
    } finally {
      service.unsubscribe();
      await conn.stop();
    }
  });
});

describe('requests behind a gate, against mosquitto', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker.stop();
  });

  it('answers a client past its burst "rate limited" on its response topic; another client is still served', async () => {
    const { log, lines } = makeLog();
    const conn = new MqttConnection({ url: broker.url, clientId: 'gated-requests', log });
    await conn.start();
    const gate = new RequestGate({
      limits: {
        perSecond: 0.1,
        burst: 2,
        totalPerSecond: 1000,
        queue: 100,
        refusalsPerSecond: 2,
        readPerSecond: 1000,
      },
      now: Date.now,
    });
    const handled: string[] = [];
    const handlers = makeHandlers();
    const counting = new Proxy(handlers, {
      get: (target, action: RequestAction) => (req: JsonObject, meta: unknown) => {
        handled.push(JSON.stringify(req.transaction));
        return (target[action] as (r: JsonObject, m: unknown) => unknown)(req, meta);
      },
    });
    const service = serveRequests$({ connection: conn, handlers: counting, log, gate }).subscribe();
    try {
      await waitFor(
        () => lines.some(l => l.includes('subscribed chessbridge/bridge/request/#')),
        3000,
        'the request subscription',
      );
      const flooder = await testClient(broker.url, { protocolVersion: 5 });
      const flooderSeen = collect(flooder);
      await flooder.subscribeAsync('replies/flooder', { qos: 1 });
      const other = await testClient(broker.url, { protocolVersion: 5 });
      const otherSeen = collect(other);
      await other.subscribeAsync('replies/other', { qos: 1 });
      const request = (client: MqttClient, reply: string, transaction: string) =>
        client.publishAsync(
          'chessbridge/bridge/request/restore_position',
          JSON.stringify({ game_id: 'g1', ply: 2, transaction }),
          { qos: 1, properties: { responseTopic: reply } },
        );
      for (let i = 1; i <= 6; i++) await request(flooder, 'replies/flooder', `f${i}`);
      await request(other, 'replies/other', 'o1');
      await waitFor(() => otherSeen.length === 1 && flooderSeen.length >= 4, 3000, 'the answers');
      expect(otherSeen[0]?.body).toMatchObject({ status: 'ok', transaction: 'o1' });
      // Refusals are answered at once (QoS 0), so they may come before the answers: by transaction.
      const bodies = flooderSeen
        .map(m => m.body as ResponseEnvelope)
        .sort((a, b) => String(a.transaction).localeCompare(String(b.transaction)));
      const limited = 'rate limited: more than 0.1 requests a second from this client';
      // Two refusals are answered (refusalsPerSecond), the other two only counted.
      expect(bodies.map(b => [b.transaction, b.status, b.error])).toEqual([
        ['f1', 'ok', undefined],
        ['f2', 'ok', undefined],
        ['f3', 'error', limited],
        ['f4', 'error', limited],
      ]);
      expect(handled.sort()).toEqual(['"f1"', '"f2"', '"o1"']);
      expect(gate.summary()).toMatch(
        /^refused 4 requests in \d+ s \(rate limited 4, busy 0; 2 not answered\); most from mqtt:reply:replies\/flooder \(4\)$/,
      );
    } finally {
      service.unsubscribe();
      await conn.stop();
    }
  });
});

describe('EventPublisher against mosquitto killed twice', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto({ persistence: true });
  });
  afterAll(async () => {
    await broker.stop();
  });

  it('delivers all 500 events to a persistent QoS 1 subscriber across two SIGKILLs of the broker', async () => {
    const subscriber = await testClient(broker.url, {
      clientId: 'venue-display',
      clean: false,
      protocolVersion: 4,
    });
    const seen = collect(subscriber);
    await subscriber.subscribeAsync('chessbridge/games/+/events', { qos: 1 });
    await waitFor(() => broker.savedToDisk(), 3000, 'the subscription saved to disk');

    const { log } = makeLog();
    const conn = new MqttConnection({
      url: broker.url,
      clientId: 'daemon-kill',
      log,
      reconnectPeriodMs: 100,
    });
    await conn.start();
    const publisher = new EventPublisher({ connection: conn, log, maxInflight: 50 });
    await publisher.start();

    const total = 500;
    let produced = 0;
    const producer = setInterval(() => {
      for (let i = 0; i < 2 && produced < total; i++) {
        produced += 1;
        const game = produced % 2 === 0 ? 'g2' : 'g1';
        publisher.publishEvent(event(game, Math.ceil(produced / 2)));
      }
    }, 4);
    try {
      for (const threshold of [120, 320]) {
        await waitFor(
          () => publisher.health().acked >= threshold,
          10_000,
          `${threshold} acknowledged events`,
        );
        await broker.kill();
        await waitFor(() => publisher.health().queued >= 20, 5000, 'events queued while the broker is down');
        await broker.restart();
      }
      await waitFor(() => produced === total, 10_000, 'the producer');
      await publisher.drained();
      const seqs = (game: string) =>
        seen
          .filter(m => m.topic === `chessbridge/games/${game}/events`)
          .map(m => (m.body as EventMessage).seq);
      await waitFor(
        () => new Set(seqs('g1')).size === total / 2 && new Set(seqs('g2')).size === total / 2,
        10_000,
        'every event at the subscriber',
      );
      const expected = Array.from({ length: total / 2 }, (_, i) => i + 1);
      // Nothing missing. A broker killed between acknowledging an event and handing it on loses it;
      // the publisher sends it again after the reconnect, so it may first arrive after later ones:
      // consumers order by seq (the web store holds events across a gap).
      const sorted = (game: string) => [...new Set(seqs(game))].sort((a, b) => a - b);
      expect(sorted('g1')).toEqual(expected);
      expect(sorted('g2')).toEqual(expected);
      expect(conn.health().reconnects).toBeGreaterThanOrEqual(2);
      expect(publisher.health()).toMatchObject({ queued: 0, dropped: 0 });
    } finally {
      clearInterval(producer);
      await publisher.stop();
      await conn.stop();
    }
  });
});
