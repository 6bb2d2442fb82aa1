/**
 * The ACL `chessbridge broker-config` writes for mosquitto when the configuration sets a
 * broadcast delay, in a real mosquitto: the daemon's account retains a live snapshot, a board
 * state and a delayed public copy; a display user subscribed to everything under the base
 * receives the public copy and the bridge state only, while an operator receives all of them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosquittoAcl, mosquittoHash } from '../../src/bridge/security/mosquittoFiles.js';
import { startMosquitto, waitFor, type Mosquitto } from '../support/mosquitto.js';

const BASE = 'aclround';
const USERS = {
  bridge: { role: 'daemon', secret: 'Slate-Meadow-Castle-72' },
  olga: { role: 'operator', secret: 'Amber-Quarry-Rook-44' },
  wall: { role: 'display', secret: 'Quiet-Harbour-Knight-31' },
} as const;

describe('the mosquitto ACL under a broadcast delay', () => {
  let dir: string;
  let broker: Mosquitto;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-aclround-'));
    const passwd = join(dir, 'passwd');
    const acl = join(dir, 'acl');
    const entries = Object.entries(USERS);
    const lines = await Promise.all(entries.map(async ([n, u]) => `${n}:${await mosquittoHash(u.secret)}`));
    await writeFile(passwd, `${lines.join('\n')}\n`, { mode: 0o600 });
    await writeFile(
      acl,
      mosquittoAcl(
        BASE,
        entries.map(([name, u]) => ({ name, role: u.role })),
        true,
      ),
    );
    broker = await startMosquitto({
      listeners: port => [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous false',
        `password_file ${passwd}`,
        `acl_file ${acl}`,
      ],
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map(c => c.endAsync()));
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const login = async (name: keyof typeof USERS): Promise<MqttClient> => {
    const client = await connectAsync(broker.url, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `aclround-${name}`,
      username: name,
      password: USERS[name].secret,
    });
    clients.push(client);
    return client;
  };

  it('delivers the public copies to a display, and the live topics only to the operator', async () => {
    const daemon = await login('bridge');
    const retained = [
      `${BASE}/games/r1-b1`,
      `${BASE}/boards/b-1/state`,
      `${BASE}/public/games/r1-b1`,
      `${BASE}/bridge/state`,
    ];
    for (const topic of retained) await daemon.publishAsync(topic, '{}', { qos: 1, retain: true });
    const received = async (name: 'olga' | 'wall'): Promise<string[]> => {
      const client = await login(name);
      const topics: string[] = [];
      client.on('message', topic => topics.push(topic));
      await client.subscribeAsync(`${BASE}/#`, { qos: 1 });
      // A marker published last: once it arrives, whatever the broker would deliver has come.
      const marker = `${BASE}/public/games/marker-${name}`;
      await daemon.publishAsync(marker, '{}', { qos: 1 });
      await waitFor(() => topics.includes(marker), 5000, `the marker to ${name} (${broker.output()})`);
      return topics.filter(t => t !== marker).sort();
    };
    expect(await received('wall')).toEqual([`${BASE}/bridge/state`, `${BASE}/public/games/r1-b1`]);
    expect(await received('olga')).toEqual([...retained].sort());
  });
});
