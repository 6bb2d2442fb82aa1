/**
 * A hall behind an external mosquitto (docs/security.md): `chessbridge broker-config` writes the
 * password and ACL files for the configuration's users, a real mosquitto runs with them and the
 * mosquitto.conf it prints (a listener for the daemon, one for the hall where a client's id is its
 * user name), and the daemon (in-process) connects with its own account. Nobody takes the daemon's
 * client id. The arbiter console, in headless Chromium over mosquitto's WebSocket listener, logs in
 * as its user and gets its request answered. The arbiter's request, on the topic the
 * console uses (web/shared/live.js), is answered and journaled with the user; an anonymous client
 * is refused; a display can publish neither a request nor a retained fake under the base; an
 * operator cannot publish a request under the arbiter's name. The journal holds only the arbiter's
 * action.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/bridge/config/index.js';
import type { Daemon } from '../../src/bridge/daemon/daemon.js';
import { launchChromium } from '../support/browser.js';
import { main } from '../../src/main.js';
import { mosquittoConfSample } from '../../src/bridge/security/mosquittoFiles.js';
import { freePort, startMosquitto, waitFor, waitForPort, type Mosquitto } from '../support/mosquitto.js';
import { type SinkDaemon, startSinkDaemon } from './sinkDaemon.js';

/** The console's own rule for its request topics (web/shared/live.js). */
const { requestTopic } = (await import(new URL('../../web/shared/live.js', import.meta.url).href)) as {
  requestTopic: (base: string, username: string | undefined, action: string) => string;
};

const DAEMON = { username: 'bridge', password: 'umpire-account-5Rt8q' };
const ANNA = { username: 'anna', password: 'tarrasch-1908-opens-e4' };
const OLGA = { username: 'olga', password: 'rounds-and-boards-77' };
const WALL = { username: 'wall', password: 'corridor-screen-4411' };
const GAME = 'r1-b1';
const ENV = { MOSQ_TEST_ANNA: ANNA.password, MOSQ_TEST_OLGA: OLGA.password, MOSQ_TEST_WALL: WALL.password };

const configText = (dir: string, url: string): string =>
  [
    'laws: { gameType: rapid, timeControl: 15+10 }',
    `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
    `mqtt: { url: "${url}", clientId: hall-daemon, username: ${DAEMON.username}, password: ${DAEMON.password} }`,
    'http: { enabled: yes }',
    'users:',
    '  - { name: anna, role: arbiter, passwordEnv: MOSQ_TEST_ANNA }',
    '  - { name: olga, role: operator, passwordEnv: MOSQ_TEST_OLGA }',
    '  - { name: wall, role: display, passwordEnv: MOSQ_TEST_WALL }',
    'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01025", clock: yes }]',
    'pairings: [{ round: 1, board: 1, serial: "01025", white: { name: "White, W" }, black: { name: "Black, B" } }]',
  ].join('\n');

describe('a hall behind mosquitto with the files of chessbridge broker-config', () => {
  let dir: string;
  let broker: Mosquitto;
  let daemon: Daemon;
  let lines: readonly string[];
  let run: SinkDaemon;
  let counter = 0;
  /** The hall's listener, where every client but the daemon connects. */
  let hallUrl: string;
  let wsUrl: string;
  const clients: MqttClient[] = [];
  const journal = () => readFile(join(dir, 'journal', 'games', `${GAME}.jsonl`), 'utf8');
  /** Every command in the journal is the daemon's own or the arbiter's marker (resync_board). */
  const expectOnlyMarkers = async () => {
    const commands = (await journal()).split('\n').filter(l => l.includes('"type":"command"'));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands)
      expect(line).toMatch(
        /"source":"daemon"|"action":"resync_board".*"source":"mqtt role=arbiter user=anna"/,
      );
  };

  const client = async (options: IClientOptions): Promise<MqttClient> => {
    const c = await connectAsync(hallUrl, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    });
    clients.push(c);
    return c;
  };
  /** The CONNACK refusal code of a login (0 when accepted). */
  const loginCode = (options: IClientOptions): Promise<number> =>
    new Promise(resolve => {
      const c = connect(hallUrl, {
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 5000,
        ...options,
      });
      c.once('connect', () => {
        c.end(true);
        resolve(0);
      });
      c.once('error', (e: Error & { code?: number }) => {
        c.end(true);
        resolve(typeof e.code === 'number' ? e.code : -1);
      });
    });
  /**
   * Publishes a request as `login` on `topic` (acknowledged by the broker, which drops what its ACL
   * refuses), then the arbiter's harmless request after it: once that one is answered, an answer to
   * the first would have come. The first's response (undefined when none came).
   */
  const attempt = async (login: IClientOptions, topic: string, body: object): Promise<unknown> => {
    const c = await client(login);
    const reader = await client(ANNA);
    const answers = new Map<string, unknown>();
    reader.on('message', (_t, payload) => {
      const r = JSON.parse(payload.toString()) as { transaction?: string };
      if (r.transaction !== undefined) answers.set(r.transaction, r);
    });
    await reader.subscribeAsync('chessbridge/bridge/response/#', { qos: 1 });
    const hostile = `t-${++counter}`;
    const marker = `t-${++counter}`;
    await c.publishAsync(topic, JSON.stringify({ ...body, transaction: hostile }), { qos: 1 });
    await reader.publishAsync(
      requestTopic('chessbridge', ANNA.username, 'resync_board'),
      JSON.stringify({ board_id: 'b1', transaction: marker }),
      { qos: 1 },
    );
    await waitFor(() => answers.has(marker), 5000, "the arbiter's request after it");
    return answers.get(hostile);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-mosquitto-acl-'));
    Object.assign(process.env, ENV);
    // The command itself, as an organiser runs it (the broker's address plays no part in the files).
    const file = join(dir, 'hall.yaml');
    await writeFile(file, configText(dir, 'mqtt://127.0.0.1:1883'));
    expect(await main(['broker-config', '-c', file, '--out', join(dir, 'mosquitto')])).toBe(0);
    // The mosquitto.conf the command prints, on free loopback ports: the daemon's listener, the
    // hall's (client id = user name) and the browsers' (WebSocket).
    const [hallPort, wsPort] = [await freePort(), await freePort()];
    const sample = mosquittoConfSample(
      join(dir, 'mosquitto', 'chessbridge.passwd'),
      join(dir, 'mosquitto', 'chessbridge.acl'),
    );
    broker = await startMosquitto({
      listeners: port =>
        sample
          .replace('listener 1884 127.0.0.1', `listener ${port} 127.0.0.1`)
          .replace(/^listener 1883$/m, `listener ${hallPort} 127.0.0.1`)
          .replace(/^listener 9001$/m, `listener ${wsPort} 127.0.0.1`)
          .split('\n'),
    });
    hallUrl = `mqtt://127.0.0.1:${hallPort}`;
    wsUrl = `ws://127.0.0.1:${wsPort}`;
    await waitForPort(hallPort, 5000);
    const config = (await loadConfig({ text: configText(dir, broker.url) })).unwrap();
    run = await startSinkDaemon(config, { httpPort: 0 });
    ({ daemon, lines } = run);
    await run.connectBoard(GAME);
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    await run.stop();
    await broker.stop();
    for (const k of Object.keys(ENV)) delete process.env[k];
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an anonymous client and a wrong password', async () => {
    expect(await loginCode({})).not.toBe(0);
    expect(await loginCode({ username: 'anna', password: 'change-me' })).not.toBe(0);
    expect(await loginCode({ username: 'nobody', password: ANNA.password })).not.toBe(0);
    expect(await loginCode(ANNA)).toBe(0);
  });

  it('a display sends no request, under its own name or none', async () => {
    const body = { game_id: GAME, result: '0-1', reason: 'resignation' };
    expect(await attempt(WALL, requestTopic('chessbridge', 'wall', 'set_result'), body)).toBe(undefined);
    expect(await attempt(WALL, requestTopic('chessbridge', undefined, 'set_result'), body)).toBe(undefined);
    await expectOnlyMarkers();
  });

  it('an operator cannot request under the arbiter’s name, nor write on a clock under its own', async () => {
    const result = { game_id: GAME, result: '0-1', reason: 'resignation' };
    expect(await attempt(OLGA, requestTopic('chessbridge', 'anna', 'set_result'), result)).toBe(undefined);
    const text = { board_id: 'b1', text: 'HACKED' };
    expect(await attempt(OLGA, requestTopic('chessbridge', 'olga', 'clock_text'), text)).toBe(undefined);
    await expectOnlyMarkers();
  });

  it('a display publishes no retained fake snapshot nor a fake bridge offline', async () => {
    const wall = await client(WALL);
    await wall.publishAsync(
      `chessbridge/games/${GAME}`,
      JSON.stringify({ game_id: GAME, seq: 99999, fen: '8/8/8/8/8/8/8/K6k w - - 0 1' }),
      { qos: 1, retain: true },
    );
    await wall.publishAsync('chessbridge/bridge/state', JSON.stringify({ state: 'offline' }), {
      qos: 1,
      retain: true,
    });
    const reader = await client({ ...WALL, clientId: 'wall-reader' });
    const seen = new Map<string, string>();
    reader.on('message', (topic, payload) => seen.set(topic, payload.toString()));
    await reader.subscribeAsync(['chessbridge/bridge/state', `chessbridge/games/${GAME}`], { qos: 1 });
    await waitFor(() => seen.size === 2, 5000, 'the retained state');
    expect(seen.get('chessbridge/bridge/state')).toContain('"online"');
    expect(seen.get(`chessbridge/games/${GAME}`)).toContain(`"${GAME}"`);
    expect(seen.get(`chessbridge/games/${GAME}`)).not.toContain('99999');
  });

  it("nobody takes the daemon's client id; the daemon stays online", async () => {
    const states: string[] = [];
    const watch = await client(WALL);
    watch.on('message', (_t, p) => states.push(p.toString()));
    await watch.subscribeAsync('chessbridge/bridge/state', { qos: 1 });
    await waitFor(() => states.length === 1, 5000, 'the retained state');
    for (let i = 0; i < 10; i++)
      for (const login of [OLGA, ANNA]) {
        const c = await client({ ...login, clientId: 'hall-daemon' });
        c.end(true);
      }
    // The daemon still answers on its connections, and never went offline.
    const body = { game_id: GAME, result: '0-1', reason: 'resignation' };
    expect(await attempt(OLGA, requestTopic('chessbridge', 'olga', 'set_result'), body)).toBe(undefined);
    expect(states.every(s => s.includes('"online"'))).toBe(true);
    expect(lines.filter(l => l.includes('lost; MQTT.js reconnects'))).toEqual([]);
  });

  it('the arbiter decides on the console’s topic; the journal says who', async () => {
    const c = await client({ ...ANNA, clientId: 'anna-phone' });
    const answers: unknown[] = [];
    c.on('message', (_t, payload) => answers.push(JSON.parse(payload.toString())));
    await c.subscribeAsync('chessbridge/bridge/response/set_result', { qos: 1 });
    await c.publishAsync(
      requestTopic('chessbridge', ANNA.username, 'set_result'),
      JSON.stringify({ game_id: GAME, result: '1/2-1/2', reason: 'agreement', transaction: 'anna-1' }),
      { qos: 1 },
    );
    await waitFor(() => answers.length > 0, 5000, 'the answer');
    expect(answers[0]).toMatchObject({ status: 'ok', transaction: 'anna-1' });
    const text = await journal();
    expect(text).toMatch(/"action":"set_result".*"source":"mqtt role=arbiter user=anna"/);
    // Nothing of the refused attempts reached the journal: one result, the arbiter's.
    expect(text.match(/"action":"set_result"/g)).toHaveLength(1);
    expect(text).not.toContain('HACKED');
    expect(lines.filter(l => l.includes('not allowed'))).toEqual([]);
  });

  it('the arbiter console logs in through mosquitto as its user and its request is answered', async () => {
    const chrome = await launchChromium();
    try {
      const page = await chrome.newPage();
      const query = new URLSearchParams({ mqtt: wsUrl, user: ANNA.username });
      await page.goto(`${daemon.addresses?.http ?? ''}/ui/console/index.html?${query.toString()}`);
      await page.locator('#secret').fill(ANNA.password);
      if (await page.locator('#secret-kind').isVisible())
        await page.locator('input[name="kind"][value="password"]').check();
      await page.locator('#login-button').click();
      await page.locator('#workspace').waitFor({ state: 'visible', timeout: 40_000 });
      const resync = page.locator('form[data-action="resync_board"]');
      await resync.locator('input[name="board_id"]').fill('b1');
      await resync.locator('button[type="submit"]').click();
      const answer = page.locator('#response-log li[data-action="resync_board"]');
      await answer.waitFor({ timeout: 40_000 });
      expect(await answer.getAttribute('data-status')).toBe('ok');
      expect(chrome.errors).toEqual([]);
    } finally {
      await chrome.close();
    }
  });
});
