/**
 * TLS in a hall with no PKI (docs/security.md): `chessbridge cert` makes a self-signed pair, the
 * daemon (in-process, embedded broker) serves HTTPS, MQTT over TLS and secure WebSocket with it,
 * and clients that trust exactly that certificate connect: node's https, MQTT.js over mqtts:// and
 * wss://, and a display page in headless Chromium over https that reads a move over wss. A plain
 * client gets nothing, and a client that does not trust the certificate is refused. A key that is
 * not the certificate's, or a missing file, stops the start with a message naming each field.
 */
import { get } from 'node:https';
import { connect as plainConnect } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { asyncScheduler, Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/bridge/cli/cli.js';
import { loadConfig } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import { writeCertFiles } from '../../src/bridge/security/certFiles.js';
import type { Observation } from '../../src/drivers/observation.js';
import { decodePgnBytes } from '../../src/engine/pgnRead.js';
import { CHROMIUM_PATH, launchChromium, type Chromium } from '../support/browser.js';
import { waitFor } from '../support/mosquitto.js';
import { observationsOfGame } from '../bridge/game/support.js';
import { now, type SinkDaemon, startSinkDaemon } from './sinkDaemon.js';

const ANNA = { username: 'anna', password: 'tarrasch-1908-opens-e4' };
const GAME = 'r1-b1';
const OPENING = ['e4', 'e5', 'Nf3'];

/** `chessbridge cert` through the command line; its printed lines. */
const certCommand = async (
  args: readonly string[],
): Promise<{ code: number; out: string[]; err: string[] }> => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    readFile: path => readFile(path),
    out: l => out.push(l),
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: [],
    cert: request => writeCertFiles({ ...request, now: Date.now() }),
  };
  return { code: await runCli(['cert', ...args], io), out, err };
};

/** GET over https trusting `ca` only: the status, or the TLS error's code. */
const httpsGet = (url: string, ca: Buffer | undefined): Promise<number | string> =>
  new Promise(resolve => {
    const req = get(url, ca === undefined ? {} : { ca }, res => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });

describe('TLS with a certificate of chessbridge cert', () => {
  let dir: string;
  let ca: Buffer;
  let spki: string;
  let daemon: Daemon;
  let lines: readonly string[];
  let run: SinkDaemon;
  let chrome: Chromium | undefined;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-tls-'));
    const made = await certCommand(['--out', join(dir, 'tls'), '--host', 'hall-pc', '--host', '192.0.2.10']);
    expect(made.err).toEqual([]);
    expect(made.code).toBe(0);
    expect(made.out.join('\n')).toContain('valid for   localhost, 127.0.0.1, ::1, hall-pc, 192.0.2.10');
    ca = await readFile(join(dir, 'tls', 'chessbridge.crt'));
    const { X509Certificate, createHash } = await import('node:crypto');
    spki = createHash('sha256')
      .update(new X509Certificate(ca).publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64');
    const cert = join(dir, 'tls', 'chessbridge.crt');
    const key = join(dir, 'tls', 'chessbridge.key');
    const config = (
      await loadConfig({
        text: [
          'laws: { gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
          `mqtt: { clientId: tls-daemon, broker: { anonymousRead: yes, tls: { cert: ${cert}, key: ${key} } } }`,
          `http: { enabled: yes, tls: { cert: ${cert}, key: ${key} } }`,
          'users:',
          `  - { name: anna, role: arbiter, passwordEnv: TLS_TEST_ANNA }`,
          'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01025", clock: yes }]',
          'pairings: [{ round: 1, board: 1, serial: "01025", white: { name: "White, W" }, black: { name: "Black, B" } }]',
        ].join('\n'),
      })
    ).unwrap();
    process.env.TLS_TEST_ANNA = ANNA.password;
    run = await startSinkDaemon(config, { brokerPorts: { port: 0, wsPort: 0 }, httpPort: 0 });
    ({ daemon, lines } = run);
    await run.connectBoard(GAME);
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    await chrome?.close();
    await run.stop();
    delete process.env.TLS_TEST_ANNA;
    await rm(dir, { recursive: true, force: true });
  });

  it('serves HTTPS, MQTT over TLS and secure WebSocket to clients that trust the certificate', async () => {
    const a = daemon.addresses;
    expect(a?.http).toMatch(/^https:\/\//);
    expect(a?.mqtt).toMatch(/^mqtts:\/\//);
    expect(a?.ws).toMatch(/^wss:\/\//);
    expect(
      lines.some(l => /HTTP on https:.*certificate chessbridge hall-pc \(localhost, 127\.0\.0\.1/.test(l)),
    ).toBe(true);
    expect(await httpsGet(`${a?.http ?? ''}/healthz`, ca)).toBe(200);
    // Without the certificate trusted, the handshake fails; a plain request gets no HTTP answer.
    expect(await httpsGet(`${a?.http ?? ''}/healthz`, undefined)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    const plain = await fetch((a?.http ?? '').replace('https:', 'http:') + '/healthz').catch(() => 'refused');
    expect(plain).toBe('refused');

    const options = { protocolVersion: 4 as const, reconnectPeriod: 0, connectTimeout: 5000, ca, ...ANNA };
    const overTls = await connectAsync(a?.mqtt ?? '', { ...options, clientId: 'anna-tls' });
    const overWss = await connectAsync(a?.ws ?? '', { ...options, clientId: 'anna-wss' });
    clients.push(overTls, overWss);
    const sans = (c: MqttClient) => {
      const seen: string[] = [];
      c.on('message', (_t, p) => {
        const san = (JSON.parse(p.toString()) as { san?: string }).san;
        if (san !== undefined) seen.push(san);
      });
      return seen;
    };
    const [tlsSeen, wssSeen] = [sans(overTls), sans(overWss)];
    await overTls.subscribeAsync(`chessbridge/games/${GAME}/events`, { qos: 1 });
    await overWss.subscribeAsync(`chessbridge/games/${GAME}/events`, { qos: 1 });

    // The display page over https, reading over wss (Chromium trusts this certificate's key only).
    if (CHROMIUM_PATH !== undefined) {
      chrome = await launchChromium({ args: [`--ignore-certificate-errors-spki-list=${spki}`] });
      const page = await chrome.newPage({ width: 1200, height: 800 });
      await page.goto(
        `${a?.http ?? ''}/ui/display/board.html?game=${GAME}&mqtt=${encodeURIComponent(a?.ws ?? '')}`,
      );
      expect(page.url()).toMatch(/^https:/);
      await page.locator('[data-name="white"]', { hasText: 'White, W' }).waitFor({ timeout: 40_000 });
      for (const o of observationsOfGame(OPENING, { seed: 2, t0: now() + 50 })) run.send(o);
      await page.locator('.move-list [data-ply="3"]').waitFor({ timeout: 40_000 });
      expect(chrome.errors).toEqual([]);
    } else for (const o of observationsOfGame(OPENING, { seed: 2, t0: now() + 50 })) run.send(o);
    await waitFor(() => tlsSeen.length >= 3 && wssSeen.length >= 3, 15_000, 'three moves over mqtts and wss');
    expect(tlsSeen.slice(0, 3)).toEqual(OPENING);
    expect(wssSeen.slice(0, 3)).toEqual(OPENING);

    // A plain MQTT client on the TLS port gets no CONNACK: the socket closes.
    const port = Number(new URL(a?.mqtt ?? '').port);
    const closed = await new Promise<string>(resolve => {
      const s = plainConnect(port, '127.0.0.1', () =>
        s.write(Buffer.from([0x10, 0x0c, 0, 4, 77, 81, 84, 84, 4, 2, 0, 30, 0, 0])),
      );
      s.on('data', d => resolve(`answered ${d.toString('hex')}`));
      s.on('close', () => resolve('closed'));
      s.on('error', () => resolve('closed'));
    });
    expect(closed).toBe('closed');
  });

  it('refuses a key that is not the certificate’s at start, in one line naming the field', async () => {
    const other = await certCommand(['--out', join(dir, 'other')]);
    expect(other.code).toBe(0);
    // The command keeps an existing pair unless --force.
    const again = await certCommand(['--out', join(dir, 'other')]);
    expect(again.code).toBe(1);
    expect(again.err.join('\n')).toMatch(/already there.*--force/);
    const cert = join(dir, 'tls', 'chessbridge.crt');
    const key = join(dir, 'other', 'chessbridge.key');
    const config = (
      await loadConfig({
        text: [
          `journal: { dir: ${join(dir, 'journal-2')} }`,
          `mqtt: { broker: { tls: { cert: ${cert}, key: ${key} } } }`,
          `http: { enabled: yes, tls: { cert: ${cert}, key: ${join(dir, 'missing.key')} } }`,
          'users: [{ name: anna, role: arbiter, passwordEnv: TLS_TEST_ANNA }]',
        ].join('\n'),
      })
    ).unwrap();
    const memory = memoryLogger('info');
    const refused = new Daemon({
      config,
      log: memory.logger,
      engine: engineSupervisor(),
      scheduler: asyncScheduler,
      now,
      version: '0.0.0-test',
      openBoard: () => new Observable<Observation>(),
      brokerPorts: { port: 0, wsPort: 0 },
      httpPort: 0,
    });
    const error = await refused.start().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await refused.stop();
    // Both problems in one message (what `chessbridge run` prints after "cannot start:"), nothing listening.
    expect(error?.message).toBe(
      `http.tls.key: cannot read ${join(dir, 'missing.key')}: ENOENT; ` +
        `mqtt.broker.tls.key: the key in ${key} is not the key of the certificate in ${cert}`,
    );
    expect(refused.addresses).toBeUndefined();
  });
});
