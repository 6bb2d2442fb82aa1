/**
 * Start-up failures through the door an operator uses (`chessbridge run -c FILE`, a child
 * process): each prints one line naming what and where and exits 1, and a signal during the
 * start stops the daemon within a bounded time. A port in use once hung the daemon (its start
 * waited for its own failure) or exited 13 with nothing said.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/mosquitto.js';
import { exited, killAllDaemons, startDaemon, waitFor, type DaemonProcess } from './support.js';

/** A TCP listener on a free loopback port that accepts and says nothing (a port in use, a broker that hangs). */
const holdPort = async (): Promise<{ port: number; server: Server; close: () => Promise<void> }> => {
  const sockets = new Set<Socket>();
  const server = createServer(s => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    server,
    close: () =>
      new Promise<void>(resolve => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};

const config = (o: {
  readonly journal: string;
  readonly mqtt: string;
  readonly http: string;
}): string => `version: 1
tournament: { name: Start-up test, rounds: 1 }
laws: { edition: E23, gameType: standard, timeControl: '90+30' }
journal: { dir: ${JSON.stringify(o.journal)} }
${o.mqtt}
${o.http}
boards:
  - { id: board-1, driver: dgt, port: /nonexistent/chessbridge-test-board, serial: '00137' }
logging: { level: info }
`;

/** Waits for the daemon's exit; expects code 1 and one ERROR line, and returns the ERROR lines. */
const failedWith = async (d: DaemonProcess): Promise<string[]> => {
  expect(await exited(d.child)).toBe(1);
  const errors = d
    .output()
    .split('\n')
    .filter(l => l.includes(' ERROR '));
  expect(errors).toHaveLength(1);
  return errors;
};

describe('start-up failures: one clear line, exit 1, a bounded stop', () => {
  let dir: string;
  const held: { close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-start-'));
  });
  afterEach(async () => {
    await killAllDaemons();
    for (const h of held.splice(0)) await h.close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (name: string, text: string) => {
    const path = join(dir, `${name}.yaml`);
    await writeFile(path, text);
    return startDaemon(path);
  };

  it('the embedded broker’s port in use: the line names the listener and the port', async () => {
    const taken = await holdPort();
    held.push(taken);
    const d = await run(
      'mqtt-port',
      config({
        journal: join(dir, 'j1'),
        mqtt: `mqtt: { broker: { port: ${taken.port}, wsPort: 0 } }`,
        http: 'http: { enabled: false }',
      }),
    );
    const errors = await failedWith(d);
    expect(errors[0]).toContain(
      `cannot start: embedded broker: cannot listen for MQTT on 127.0.0.1:${taken.port}: the port is in use`,
    );
  });

  it('the HTTP port in use: the line names HTTP and the port, and what to change', async () => {
    const taken = await holdPort();
    held.push(taken);
    const d = await run(
      'http-port',
      config({
        journal: join(dir, 'j2'),
        mqtt: `mqtt: { broker: { port: ${await freePort()}, wsPort: 0 } }`,
        http: `http: { port: ${taken.port} }`,
      }),
    );
    const errors = await failedWith(d);
    expect(errors[0]).toContain(
      `cannot start: HTTP: cannot listen on 127.0.0.1:${taken.port}: the port is in use (another daemon or web server?); set http.port`,
    );
  });

  it('a journal folder that cannot be made: the line names the folder', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a folder\n');
    const d = await run(
      'journal',
      config({
        journal: join(file, 'journal'),
        mqtt: `mqtt: { broker: { port: ${await freePort()}, wsPort: 0 } }`,
        http: 'http: { enabled: false }',
      }),
    );
    const errors = await failedWith(d);
    expect(errors[0]).toContain('cannot start:');
    expect(errors[0]).toContain(join(file, 'journal'));
  });

  it('a config file that is missing or not YAML: the lines name the file and the problem, exit 1', async () => {
    const missing = startDaemon(join(dir, 'nowhere', 'venue.yaml'));
    expect(await exited(missing.child)).toBe(1);
    expect(missing.output()).toContain(`${join(dir, 'nowhere', 'venue.yaml')}: cannot read the file (ENOENT`);
    const broken = await run('broken', 'boards: [\n');
    expect(await exited(broken.child)).toBe(1);
    expect(broken.output()).toMatch(/broken\.yaml[\s\S]*line 2, column 1/);
  });

  it('an external broker unreachable: after mqtt.startTimeoutSeconds one line names the broker, exit 1', async () => {
    const port = await freePort(); // nothing listens: every attempt is refused
    const d = await run(
      'unreachable',
      config({
        journal: join(dir, 'j5'),
        mqtt: `mqtt: { url: 'mqtt://127.0.0.1:${port}', startTimeoutSeconds: 2 }`,
        http: 'http: { enabled: false }',
      }),
    );
    const errors = await failedWith(d);
    expect(errors[0]).toContain(`cannot start: no connection to mqtt://127.0.0.1:${port} within 2000 ms`);
  });

  it('SIGTERM while an external broker is unreachable: the daemon stops at once', async () => {
    const port = await freePort();
    await mkdir(join(dir, 'j6'), { recursive: true });
    const d = await run(
      'unreachable-sigterm',
      config({
        journal: join(dir, 'j6'),
        mqtt: `mqtt: { url: 'mqtt://127.0.0.1:${port}', startTimeoutSeconds: 120 }`,
        http: 'http: { enabled: false }',
      }),
    );
    // The start is waiting for the broker once an attempt was refused.
    await waitFor(
      () => d.output().includes(`mqtt://127.0.0.1:${port}`) && d.output().includes('ECONNREFUSED'),
      30_000,
      `a refused attempt (${d.output()})`,
    );
    const asked = Date.now();
    d.child.kill('SIGTERM');
    const code = await exited(d.child);
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(code).toBe(0);
    expect(d.output()).toContain('stopping (SIGTERM) while starting');
    expect(d.output()).not.toContain(' ERROR ');
  });

  it('SIGTERM while the broker does not answer: the daemon stops at once, not after its connect timeout', async () => {
    // A "broker" that accepts the connection and never answers it: the start waits for a CONNACK.
    const silent = await holdPort();
    held.push(silent);
    await mkdir(join(dir, 'j4'), { recursive: true });
    const d = await run(
      'sigterm',
      config({
        journal: join(dir, 'j4'),
        mqtt: `mqtt: { url: 'mqtt://127.0.0.1:${silent.port}' }`,
        http: 'http: { enabled: false }',
      }),
    );
    await waitFor(
      () => d.output().includes('unfinished games'),
      30_000,
      `the journal opened (${d.output()})`,
    );
    const asked = Date.now();
    d.child.kill('SIGTERM');
    const code = await exited(d.child);
    // The connect timeout is 30 s; the stop comes well before it.
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(code).toBe(0);
    expect(d.output()).toContain('stopping (SIGTERM) while starting');
    expect(d.output()).not.toContain(' ERROR ');
  });
});
