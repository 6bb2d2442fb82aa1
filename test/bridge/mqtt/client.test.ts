// How the connection's context maps to MQTT.js options: the last will, credentials and TLS pass
// through unchanged (the broker-facing behaviour is tested against real brokers elsewhere).
import { describe, expect, it } from 'vitest';
import { makeClientOptions, MqttConnection } from '../../../src/bridge/mqtt/client.js';
import { silentLog } from '../../../src/bridge/mqtt/log.js';

describe('makeClientOptions', () => {
  it('sets a retained QoS 1 last will "offline" on <base>/bridge/state and leaves reconnecting to MQTT.js', () => {
    const options = makeClientOptions({
      url: 'mqtt://127.0.0.1:1883',
      clientId: 'hall-a',
      log: silentLog,
      base: 'venue/x',
    });
    expect(options.will).toEqual({
      topic: 'venue/x/bridge/state',
      payload: Buffer.from('{"state":"offline"}'),
      qos: 1,
      retain: true,
    });
    expect(options).toMatchObject({
      clientId: 'hall-a',
      protocolVersion: 5,
      clean: true,
      reconnectPeriod: 1000,
      manualConnect: true,
    });
    expect(options.username).toBeUndefined();
    expect(options.ca).toBeUndefined();
  });

  it('passes credentials and TLS material through', () => {
    const options = makeClientOptions({
      url: 'mqtts://broker.example:8883',
      clientId: 'hall-b',
      log: silentLog,
      username: 'daemon',
      password: 'pw',
      protocolVersion: 4,
      reconnectPeriodMs: 250,
      tls: {
        ca: 'CA-PEM',
        cert: 'CERT-PEM',
        key: 'KEY-PEM',
        rejectUnauthorized: false,
        servername: 'broker.local',
      },
    });
    expect(options).toMatchObject({
      username: 'daemon',
      password: 'pw',
      protocolVersion: 4,
      reconnectPeriod: 250,
      ca: 'CA-PEM',
      cert: 'CERT-PEM',
      key: 'KEY-PEM',
      rejectUnauthorized: false,
      servername: 'broker.local',
    });
  });

  it('refuses a base that is not a valid topic prefix at construction', () => {
    expect(
      () => new MqttConnection({ url: 'mqtt://127.0.0.1', clientId: 'x', log: silentLog, base: 'chess/#' }),
    ).toThrow(TypeError);
  });

  it('does nothing before start: stop is a no-op and publishing is refused', async () => {
    const conn = new MqttConnection({ url: 'mqtt://127.0.0.1:1', clientId: 'x', log: silentLog });
    await conn.stop();
    await expect(conn.publish('chessbridge/alerts', '{}', { qos: 1, retain: false })).rejects.toThrow(
      'not started',
    );
    expect(conn.health()).toEqual({
      connected: false,
      reconnects: 0,
      published: 0,
      queued: 0,
      acked: 0,
      failed: 0,
      dropped: 0,
    });
  });
});
