/**
 * The LiveChess listener's socket layer, over a real WebSocket on loopback with a stub of the
 * daemon's boards: message size and rate bounds answered with errors (a message beyond 1 MiB
 * closes), binary messages, logins (Basic, the URL, home use) and origins. The calls themselves
 * against the daemon are in test/integration/livechess.test.ts.
 */
import { Result } from '@badrap/result';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/bridge/logger.js';
import { type LiveChessPort, LiveChessServer } from '../../../src/bridge/livechess/server.js';
import type { Role } from '../../../src/bridge/security/roles.js';
import { UserDirectory } from '../../../src/bridge/security/users.js';
import { LcClient } from '../../support/liveChessClient.js';

const boards: LiveChessPort = {
  eboards: () => [],
  sources: () => [],
  boardOf: () => undefined,
  event: () => undefined,
  setup: () => Promise.resolve(Result.ok(undefined)),
  flip: () => Result.ok(undefined),
};

const servers: LiveChessServer[] = [];
const clients: LcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map(c => c.close()));
  await Promise.all(servers.splice(0).map(s => s.stop()));
});

const start = async (
  options: { home?: boolean; perSecond?: number; burst?: number; roles?: readonly Role[] } = {},
) => {
  const server = new LiveChessServer({
    host: '127.0.0.1',
    port: 0,
    home: options.home ?? true,
    origins: ['https://lichess.org'],
    maxMessageBytes: 1000,
    messagesPerSecond: options.perSecond ?? 1000,
    burst: options.burst ?? 1000,
    users: new UserDirectory([
      { name: 'anna', role: 'arbiter', secret: 'anna secret 2026' },
      { name: 'dora', role: 'display', secret: 'dora secret 2026' },
      { name: 'olga', role: 'operator', secret: 'olga secret 2026' },
    ]),
    ...(options.roles === undefined ? {} : { roles: options.roles }),
    boards,
    log: memoryLogger('info').logger,
    now: Date.now,
  });
  servers.push(server);
  const { port } = await server.start();
  return `ws://127.0.0.1:${port}/api/v1.0`;
};

const open = async (...args: Parameters<typeof LcClient.open>) => {
  const c = await LcClient.open(...args);
  clients.push(c);
  return c;
};

describe('the LiveChess listener', () => {
  it('answers oversized, binary and too many messages with errors, and closes beyond 1 MiB', async () => {
    const url = await start({ burst: 5, perSecond: 1 });
    const c = await open(url);
    c.send(`{"id":1,"call":"eboards","pad":"${'x'.repeat(2000)}"}`);
    c.ws.send(Buffer.from('{"id":2,"call":"eboards"}'), { binary: true });
    for (let id = 3; id <= 6; id++) c.send({ id, call: 'eboards' });
    await c.next(() => c.messages.length >= 6, 'six replies');
    expect(c.messages.map(m => [m.response, (m.param as { message?: string } | null)?.message])).toEqual([
      ['error', expect.stringMatching(/^message too long: \d+ bytes \(at most 1000\)$/)],
      ['error', 'binary message: calls are JSON text'],
      ['call', undefined],
      ['call', undefined],
      ['call', undefined],
      ['error', 'rate limited: at most 1 messages a second'],
    ]);
    expect(c.closed).toBeUndefined();
    c.send('x'.repeat(1_048_577));
    await c.next(() => c.closed !== undefined, 'the close', 0);
    expect(c.closed).toBe(1009);
  });

  it('logs users in by Basic or the URL, refuses wrong ones and foreign origins; home use only without credentials', async () => {
    const url = await start();
    await expect(
      LcClient.open(url, LcClient.basic({ user: 'anna', secret: 'nope nope nope' })),
    ).rejects.toThrow('HTTP 401');
    await expect(LcClient.open(`${url}?user=anna&password=nope`)).rejects.toThrow('HTTP 401');
    await expect(LcClient.open(url, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(LcClient.open(url.replace('/api/v1.0', '/api/v2'))).rejects.toThrow('HTTP 404');
    await open(url, {
      ...LcClient.basic({ user: 'anna', secret: 'anna secret 2026' }),
      origin: 'https://lichess.org',
    });
    await open(`${url}?user=anna&password=${encodeURIComponent('anna secret 2026')}`);
    await open(url); // home use, from loopback
    expect(servers[0]?.clients).toBe(3);
    const closed = await start({ home: false });
    await expect(LcClient.open(closed)).rejects.toThrow('HTTP 401');
    expect(
      () =>
        new LiveChessServer({
          host: '0.0.0.0',
          port: 0,
          home: true,
          origins: [],
          maxMessageBytes: 1000,
          messagesPerSecond: 1,
          burst: 1,
          users: undefined,
          boards,
          log: memoryLogger('info').logger,
          now: Date.now,
        }),
    ).toThrow(/livechess\.home: only on a loopback host/);
  });

  it('with a broadcast delay (live feed for arbiters and operators only) refuses a display user with 403', async () => {
    const url = await start({ roles: ['arbiter', 'operator'] });
    await expect(
      LcClient.open(url, LcClient.basic({ user: 'dora', secret: 'dora secret 2026' })),
    ).rejects.toThrow('HTTP 403');
    await open(url, LcClient.basic({ user: 'olga', secret: 'olga secret 2026' }));
    await open(url, LcClient.basic({ user: 'anna', secret: 'anna secret 2026' }));
    await open(url); // home use is an arbiter
    expect(servers[0]?.clients).toBe(3);
    const withoutDelay = await start();
    await open(withoutDelay, LcClient.basic({ user: 'dora', secret: 'dora secret 2026' }));
  });
});
