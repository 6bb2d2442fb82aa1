// The publisher's queue discipline, driven step by step through a scripted connection: the
// broker's answers (PUBACK, refusal, connection lost) are chosen by each test. The real-broker
// behaviour is covered in mosquitto.test.ts and embeddedBroker.test.ts.
import { describe, expect, it } from 'vitest';
import type { ConnectionListener, PublishOptions } from '../../../src/bridge/mqtt/client.js';
import { silentLog } from '../../../src/bridge/mqtt/log.js';
import { EventPublisher, type PublishPort } from '../../../src/bridge/mqtt/publisher.js';
import { makeTopics, type EventMessage } from '../../../src/bridge/mqtt/topics.js';
import { clockEvent } from '../../support/wire.js';
import { waitFor } from '../../support/mosquitto.js';

interface Sent {
  readonly topic: string;
  readonly payload: string;
  readonly options: PublishOptions;
  readonly ack: () => void;
  readonly fail: (error: Error) => void;
}

/** A connection whose publishes wait until the test acknowledges or fails them. */
const scriptedPort = () => {
  const sent: Sent[] = [];
  const listeners = new Set<ConnectionListener>();
  let connected = true;
  const port: PublishPort = {
    topics: makeTopics(),
    get isConnected() {
      return connected;
    },
    publish: (topic, payload, options) =>
      new Promise<void>((resolve, reject) => {
        sent.push({ topic, payload: payload.toString(), options, ack: resolve, fail: reject });
      }),
    onStatus: listener => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const setStatus = (status: 'online' | 'offline') => {
    connected = status === 'online';
    listeners.forEach(l => l(status));
  };
  return { port, sent, setStatus };
};

const seqsOf = (sent: readonly Sent[]) =>
  sent.filter(s => s.topic.endsWith('/events')).map(s => (JSON.parse(s.payload) as EventMessage).seq);
const event = (seq: number, game = 'g1'): EventMessage => clockEvent(game, seq);
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('EventPublisher', () => {
  it('keeps at most maxInflight events unacknowledged on the wire, in order', async () => {
    const { port, sent } = scriptedPort();
    const publisher = new EventPublisher({ connection: port, log: silentLog, maxInflight: 2 });
    await publisher.start();
    [1, 2, 3, 4].forEach(seq => publisher.publishEvent(event(seq)));
    expect(seqsOf(sent)).toEqual([1, 2]);
    expect(sent[0]?.options).toEqual({ qos: 1, retain: false });
    sent[0]?.ack();
    await settle();
    expect(seqsOf(sent)).toEqual([1, 2, 3]);
    expect(publisher.health()).toMatchObject({ queued: 3, inflight: 2, acked: 1 });
  });

  it('sends again an event whose PUBACK never came, on a live connection, and frees its place in the window', async () => {
    // The flood of issue 16: PUBACK callbacks that never came left the window full until a
    // reconnect. Here event 1's PUBACK is lost; the window (2) must not stay one place short.
    const { port, sent } = scriptedPort();
    let now = 1_000;
    const publisher = new EventPublisher({
      connection: port,
      log: silentLog,
      maxInflight: 2,
      ackTimeoutMs: 30,
      now: () => now,
    });
    await publisher.start();
    [1, 2, 3].forEach(seq => publisher.publishEvent(event(seq)));
    sent[1]?.ack();
    await settle();
    sent[2]?.ack();
    await settle();
    expect(seqsOf(sent)).toEqual([1, 2, 3]);
    expect(publisher.health()).toMatchObject({ queued: 1, inflight: 1, stalled: 0, oldestMs: 0 });
    now += 31;
    expect(publisher.health().oldestMs).toBe(31);
    await waitFor(() => sent.length === 4, 2000, 'event 1 sent again');
    expect(seqsOf(sent)).toEqual([1, 2, 3, 1]);
    expect(publisher.health()).toMatchObject({ queued: 1, inflight: 1, stalled: 1 });
    // The first send's PUBACK arrives late after all: it counts, and the second one's is ignored.
    sent[0]?.ack();
    await settle();
    sent[3]?.ack();
    await settle();
    expect(publisher.health()).toMatchObject({ queued: 0, inflight: 0, acked: 3, oldestMs: 0 });
    publisher.publishEvent(event(4));
    expect(seqsOf(sent)).toEqual([1, 2, 3, 1, 4]);
    sent[4]?.ack();
    await publisher.stop();
    expect(publisher.health().queued).toBe(0);
  });

  it('sends unacknowledged events again, in order, after a reconnect; late answers of the old connection are ignored', async () => {
    const { port, sent, setStatus } = scriptedPort();
    const ledger = new Map<string, number>();
    const publisher = new EventPublisher({
      connection: port,
      log: silentLog,
      resendAckedMs: 0,
      ledger: { acked: game => ledger.get(game), record: (game, seq) => ledger.set(game, seq) },
    });
    await publisher.start();
    [1, 2, 3].forEach(seq => publisher.publishEvent(event(seq)));
    sent[0]?.ack();
    await settle();
    expect(ledger.get('g1')).toBe(1);
    setStatus('offline');
    publisher.publishEvent(event(4));
    sent[1]?.ack(); // an answer from the dead connection: not trusted
    await settle();
    expect(seqsOf(sent)).toEqual([1, 2, 3]);
    setStatus('online');
    expect(seqsOf(sent)).toEqual([1, 2, 3, 2, 3, 4]);
    sent.slice(3).forEach(s => s.ack());
    await publisher.drained();
    expect(ledger.get('g1')).toBe(4);
    expect(publisher.health()).toMatchObject({ queued: 0, acked: 4, dropped: 0 });
  });

  it('re-sends events acknowledged just before the connection dropped (the broker may have lost them)', async () => {
    let now = 10_000;
    const { port, sent, setStatus } = scriptedPort();
    const publisher = new EventPublisher({
      connection: port,
      log: silentLog,
      resendAckedMs: 1000,
      now: () => now,
    });
    await publisher.start();
    publisher.publishEvent(event(1));
    sent[0]?.ack();
    await settle();
    now += 5000; // long before the drop: not re-sent
    publisher.publishEvent(event(2));
    sent[1]?.ack();
    await settle();
    now += 500;
    setStatus('offline');
    publisher.publishEvent(event(3));
    setStatus('online');
    expect(seqsOf(sent)).toEqual([1, 2, 2, 3]);
    expect(publisher.health().resent).toBe(1);
  });

  it('counts an event the broker refuses with a reason code as dropped and goes on', async () => {
    const { port, sent } = scriptedPort();
    const publisher = new EventPublisher({ connection: port, log: silentLog });
    await publisher.start();
    publisher.publishEvent(event(1));
    publisher.publishEvent(event(2));
    sent[0]?.fail(Object.assign(new Error('Publish error: Not authorized'), { code: 0x87 }));
    sent[1]?.ack();
    await publisher.drained();
    expect(publisher.health()).toMatchObject({ queued: 0, dropped: 1, acked: 1 });
  });

  it('queues before start and while offline, and re-publishes retained snapshots on every connect', async () => {
    const { port, sent, setStatus } = scriptedPort();
    setStatus('offline');
    const publisher = new EventPublisher({ connection: port, log: silentLog });
    publisher.publishEvent(event(1));
    publisher.retain(port.topics.gamePgn('g1'), '1. e4 *');
    await publisher.start();
    expect(sent).toHaveLength(0);
    setStatus('online');
    expect(sent.map(s => [s.topic, s.payload, s.options.retain])).toEqual([
      ['chessbridge/games/g1/pgn', '1. e4 *', true],
      ['chessbridge/games/g1/events', JSON.stringify(event(1)), false],
    ]);
    setStatus('offline');
    setStatus('online');
    expect(sent.filter(s => s.topic === 'chessbridge/games/g1/pgn')).toHaveLength(2);
  });

  it('does not send a retained payload again while it is unchanged (a reconnect still sends it)', async () => {
    const { port, sent, setStatus } = scriptedPort();
    const publisher = new EventPublisher({ connection: port, log: silentLog });
    await publisher.start();
    const pgn = port.topics.gamePgn('g1');
    publisher.retain(pgn, '1. e4 *');
    publisher.retain(pgn, '1. e4 *');
    publisher.retain(pgn, '1. e4 e5 *');
    publisher.retain(pgn, '1. e4 e5 *');
    publisher.retain(port.topics.gamePgn('g2'), '1. e4 *');
    expect(sent.map(s => [s.topic, s.payload])).toEqual([
      ['chessbridge/games/g1/pgn', '1. e4 *'],
      ['chessbridge/games/g1/pgn', '1. e4 e5 *'],
      ['chessbridge/games/g2/pgn', '1. e4 *'],
    ]);
    setStatus('offline');
    setStatus('online');
    publisher.retain(pgn, '1. e4 e5 *');
    expect(sent.slice(3).map(s => [s.topic, s.payload])).toEqual([
      ['chessbridge/games/g1/pgn', '1. e4 e5 *'],
      ['chessbridge/games/g2/pgn', '1. e4 *'],
    ]);
    // Cleared, then set to the same payload: sent again (the broker no longer has it).
    publisher.clearRetained(pgn);
    publisher.retain(pgn, '1. e4 e5 *');
    expect(sent.slice(5).map(s => [s.topic, s.payload])).toEqual([
      ['chessbridge/games/g1/pgn', ''],
      ['chessbridge/games/g1/pgn', '1. e4 e5 *'],
    ]);
  });

  it('publishFrom queues only the journal events above the acknowledged seq', async () => {
    const { port, sent } = scriptedPort();
    const publisher = new EventPublisher({
      connection: port,
      log: silentLog,
      ledger: { acked: game => (game === 'g1' ? 3 : undefined), record: () => undefined },
    });
    await publisher.start();
    const journal = [1, 2, 3, 4, 5].map(seq => event(seq));
    expect(publisher.publishFrom('g1', journal)).toBe(2);
    expect(
      publisher.publishFrom(
        'g2',
        [1, 2].map(seq => event(seq, 'g2')),
      ),
    ).toBe(2);
    expect(seqsOf(sent)).toEqual([4, 5, 1, 2]);
  });

  it('stop() waits for the queue to drain, bounded by drainTimeoutMs', async () => {
    const { port, sent } = scriptedPort();
    const publisher = new EventPublisher({ connection: port, log: silentLog, drainTimeoutMs: 50 });
    await publisher.start();
    publisher.publishEvent(event(1));
    const started = Date.now();
    await publisher.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(publisher.health().queued).toBe(1);
    await publisher.stop(); // idempotent
    sent[0]?.ack();
  });
});
