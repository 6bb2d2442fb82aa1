/**
 * A hall full of phones (docs/security.md): the daemon in-process with its embedded broker, real
 * mqtt.js clients over TCP trying what a hostile phone would. An anonymous client is refused; a
 * display can neither send requests nor publish a retained fake snapshot or a fake "bridge
 * offline"; an operator may not write on a clock; nobody takes the daemon's client id; 10,000
 * wrong passwords over MQTT and 10,000 over HTTP (test/support/guessing.ts) get nowhere, are
 * logged in aggregate, and the right ones work throughout. The
 * journal holds only what the arbiter did, with role, user, client id and address.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/bridge/config/index.js';
import type { Daemon } from '../../src/bridge/daemon/daemon.js';
import { hashPassword } from '../../src/bridge/security/passwords.js';
import { waitFor } from '../support/mosquitto.js';
import { guessHttp, guessMqtt, tallyText } from '../support/guessing.js';
import { type SinkDaemon, startSinkDaemon } from './sinkDaemon.js';

const ANNA = { username: 'anna', password: 'tarrasch-1908-opens-e4' };
const OLGA = { username: 'olga', password: 'rounds-and-boards-77' };
const WALL = { username: 'wall', password: 'corridor-screen-4411' };
const GAME = 'r1-b1';
/** Wrong passwords tried against each of MQTT and HTTP (issue 15, acceptance 2). */
const GUESSES = 10_000;

describe('a hall full of phones: the embedded broker and the daemon', () => {
  let dir: string;
  let daemon: Daemon;
  let lines: readonly string[];
  let run: SinkDaemon;
  let url: string;
  const clients: MqttClient[] = [];
  /** An arbiter action over HTTP with a user's Basic credentials: the status and the body. */
  const post = async (login: { username: string; password: string }, action: string, body: object) => {
    const r = await fetch(`${daemon.addresses?.http ?? ''}/api/arbiter/${action}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
      },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { status: string; error?: string } };
  };
  const journal = () => readFile(join(dir, 'journal', 'games', `${GAME}.jsonl`), 'utf8');

  const client = async (options: IClientOptions): Promise<MqttClient> => {
    const c = await connectAsync(url, {
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
      const c = connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...options });
      c.once('connect', () => {
        c.end(true);
        resolve(0);
      });
      c.once('error', (e: Error & { code?: number }) => {
        c.end(true);
        resolve(typeof e.code === 'number' ? e.code : -1);
      });
    });
  /** A request as a client of `login` sends it, and the response it gets (undefined if cut off). */
  const request = async (login: IClientOptions, action: string, body: object): Promise<unknown> => {
    const c = await client(login);
    const response = new Promise<unknown>(resolve => {
      c.on('message', (_t, payload) => resolve(JSON.parse(payload.toString())));
      c.once('close', () => setTimeout(() => resolve(undefined), 200));
    });
    await c.subscribeAsync(`chessbridge/bridge/response/${action}`, { qos: 1 });
    c.publish(`chessbridge/bridge/request/${action}`, JSON.stringify(body), { qos: 1 });
    return response;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-security-'));
    await writeFile(join(dir, 'wall.secret'), `${WALL.password}\n`);
    process.env.SECURITY_TEST_OLGA = OLGA.password;
    const config = (
      await loadConfig({
        text: [
          'laws: { gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
          'mqtt: { clientId: hall-daemon }',
          'http: { enabled: yes }',
          'users:',
          `  - { name: anna, role: arbiter, passwordHash: '${await hashPassword(ANNA.password)}' }`,
          '  - { name: olga, role: operator, passwordEnv: SECURITY_TEST_OLGA }',
          `  - { name: wall, role: display, passwordFile: ${join(dir, 'wall.secret')} }`,
          'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01025", clock: yes }]',
          'pairings: [{ round: 1, board: 1, serial: "01025", white: { name: "White, W" }, black: { name: "Black, B" } }]',
        ].join('\n'),
      })
    ).unwrap();
    run = await startSinkDaemon(config, {
      brokerPorts: { port: 0, wsPort: 0 },
      httpPort: 0,
      loginReportMs: 500,
    });
    ({ daemon, lines } = run);
    url = daemon.addresses?.mqtt ?? '';
    await run.connectBoard(GAME);
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    await run.stop();
    delete process.env.SECURITY_TEST_OLGA;
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an anonymous client and a wrong password, on loopback too', async () => {
    expect(await loginCode({})).toBe(5);
    expect(await loginCode({ username: 'anna', password: 'change-me' })).toBe(4);
    expect(await loginCode({ username: 'nobody', password: ANNA.password })).toBe(4);
    expect(await loginCode(ANNA)).toBe(0);
  });

  it('a display sends no request, no retained fake snapshot, no fake bridge offline', async () => {
    const before = await journal();
    expect(await request(WALL, 'set_result', { game_id: GAME, result: '0-1', reason: 'resignation' })).toBe(
      undefined,
    );
    for (const [topic, payload] of [
      [
        `chessbridge/games/${GAME}`,
        JSON.stringify({ game_id: GAME, seq: 99999, fen: '8/8/8/8/8/8/8/K6k w - - 0 1' }),
      ],
      ['chessbridge/bridge/state', JSON.stringify({ state: 'offline' })],
    ] as const) {
      const c = await client({ ...WALL, clientId: `wall-${topic.length}` });
      const closed = new Promise<void>(resolve => c.once('close', () => resolve()));
      c.publish(topic, payload, { qos: 1, retain: true });
      await closed;
    }
    // A reader connecting now gets the daemon's retained state, not the fakes.
    const reader = await client(WALL);
    const seen = new Map<string, string>();
    reader.on('message', (topic, payload) => seen.set(topic, payload.toString()));
    await reader.subscribeAsync(['chessbridge/bridge/state', `chessbridge/games/${GAME}`], { qos: 1 });
    await waitFor(() => seen.size === 2, 5000, 'the retained state');
    expect(seen.get('chessbridge/bridge/state')).toContain('"online"');
    expect(seen.get(`chessbridge/games/${GAME}`)).not.toContain('99999');
    expect(await journal()).toBe(before);
    await waitFor(
      () => lines.filter(l => l.includes('publish refused: display wall')).length >= 3,
      5000,
      'the refusals logged',
    );
    expect(lines.some(l => l.includes('may publish') || l.includes('may not publish'))).toBe(true);

    // A display that keeps trying, reconnecting each time, is not one log line per attempt.
    for (let i = 0; i < 20; i++) {
      const c = await client({ ...WALL, clientId: `wall-again-${i}` });
      const closed = new Promise<void>(resolve => c.once('close', () => resolve()));
      c.publish(`chessbridge/games/${GAME}`, '{}', { qos: 1, retain: true });
      await closed;
    }
    await waitFor(
      () => lines.some(l => /refused: wall: \d+ more refusals not logged one by one/.test(l)),
      5000,
      'the refusals summed up',
    );
    // Three lines one by one in a minute, the rest summed up.
    expect(lines.filter(l => l.includes('publish refused: display wall')).length).toBe(3);
  });

  it('an operator may not write on a clock nor set a result; the daemon says why', async () => {
    const before = await journal();
    expect(await request(OLGA, 'clock_text', { board_id: 'b1', text: 'HACKED' })).toMatchObject({
      status: 'error',
      error: expect.stringMatching(
        /^not allowed: olga \(role operator\) may not request clock_text/,
      ) as unknown,
      // The same as data, for the pages to say in the reader's language (docs/i18n.md).
      code: 'not_allowed',
      params: { user: 'olga', role: 'operator', action: 'clock_text' },
    });
    expect(
      await request(OLGA, 'set_result', { game_id: GAME, result: '0-1', reason: 'resignation' }),
    ).toMatchObject({
      status: 'error',
    });
    expect(await journal()).toBe(before);
  });

  it("nobody takes the daemon's client id; the daemon stays online", async () => {
    const flips: string[] = [];
    const watch = await client(WALL);
    watch.on('message', (_t, p) => flips.push(p.toString()));
    await watch.subscribeAsync('chessbridge/bridge/state', { qos: 1 });
    await waitFor(() => flips.length === 1, 5000, 'the retained state');
    const attempts: [IClientOptions, number][] = [
      [{}, 2],
      [WALL, 2],
      [ANNA, 2],
    ];
    for (let i = 0; i < 10; i++) {
      for (const [login, code] of attempts)
        expect(await loginCode({ ...login, clientId: 'hall-daemon' })).toBe(code);
      // Guessing the daemon's own secret: refused (4), then slowed (3) like any guess.
      expect([3, 4]).toContain(
        await loginCode({ username: 'daemon', password: `guess-the-daemon-${i}`, clientId: 'hall-daemon' }),
      );
    }
    expect(flips.every(f => f.includes('"online"'))).toBe(true);
    expect(lines.some(l => l.includes("tried the daemon's client id"))).toBe(true);
  });

  it('the arbiter decides; the journal says who, with which client and from where', async () => {
    const answer = await request({ ...ANNA, clientId: 'anna-phone' }, 'set_result', {
      game_id: GAME,
      result: '1/2-1/2',
      reason: 'agreement',
    });
    expect(answer).toMatchObject({ status: 'ok' });
    expect(await journal()).toMatch(
      /"action":"set_result".*"source":"mqtt role=arbiter user=anna client=anna-phone address=(::ffff:)?127\.0\.0\.1"/,
    );
  });

  /**
   * Runs `flood` while the right credentials are tried every 300 ms; the outcomes of those tries.
   * The right login must work throughout a guessing flood, not only after it.
   */
  const throughout = async <T>(flood: Promise<T>, right: () => Promise<boolean>) => {
    const outcomes: boolean[] = [];
    const flooding = { on: true };
    const tries = (async () => {
      while (flooding.on) {
        outcomes.push(await right());
        await new Promise(resolve => setTimeout(resolve, 300));
      }
    })();
    const result = await flood.finally(() => (flooding.on = false));
    await tries;
    return { result, outcomes };
  };

  it('10,000 wrong MQTT passwords: none gets in, they are logged in aggregate, the right ones work throughout', async () => {
    const started = Date.now();
    const { port, hostname } = new URL(url);
    const { result: codes, outcomes } = await throughout(
      guessMqtt({
        host: hostname,
        port: Number(port),
        count: GUESSES,
        concurrency: 64,
        username: 'anna',
        password: i => `guess-${i}`,
      }),
      async () => (await loginCode(ANNA)) === 0,
    );
    const seconds = (Date.now() - started) / 1000;
    // A first login of a user under no attack, from another address, is not slowed by the guesser.
    expect(await loginCode({ ...OLGA, localAddress: '127.0.0.2' } as IClientOptions)).toBe(0);
    expect([...codes.values()].reduce((a, b) => a + b, 0)).toBe(GUESSES);
    expect(codes.get(0), tallyText(codes)).toBeUndefined();
    // Refused as wrong (4) while the budgets last, then unchecked: try again later (3). Under a
    // heavy load a few connections end before their CONNACK is read (-1): no way in either.
    expect(
      [...codes.keys()].filter(c => c !== 3 && c !== 4 && c !== -1),
      tallyText(codes),
    ).toEqual([]);
    expect(codes.get(-1) ?? 0, tallyText(codes)).toBeLessThan(GUESSES / 20);
    expect(outcomes.length).toBeGreaterThanOrEqual(2);
    expect(outcomes.filter(ok => !ok)).toEqual([]);
    await waitFor(
      () => lines.some(l => /logins \(MQTT and HTTP\): \d+ failed logins from \S+ \(users anna\)/.test(l)),
      5000,
      'the aggregate',
    );
    const aggregate = lines.filter(l => l.includes('logins (MQTT and HTTP):'));
    expect(aggregate.length).toBeLessThan(200);
    console.log(
      `${GUESSES} wrong MQTT passwords in ${seconds.toFixed(1)} s (${tallyText(codes)}); the right login ${outcomes.length} times meanwhile; ${aggregate.length} log lines`,
    );
    expect(seconds).toBeLessThan(120);
  });

  it('over HTTP too: an operator may not set a result (403), 10,000 guesses are slowed, the right login works throughout', async () => {
    const before = await journal();
    const refused = await post(OLGA, 'set-result', { game_id: GAME, result: '0-1', reason: 'resignation' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/^not allowed: olga \(role operator\) may not request set_result/);
    expect(await journal()).toBe(before);
    const started = Date.now();
    const { result: statuses, outcomes } = await throughout(
      guessHttp({
        url: `${daemon.addresses?.http ?? ''}/api/arbiter/resync-board`,
        count: GUESSES,
        concurrency: 32,
        username: 'anna',
        password: i => `http-guess-${i}`,
        body: JSON.stringify({ board_id: 'b1' }),
      }),
      async () => (await post(ANNA, 'resync-board', { board_id: 'b1' })).status === 200,
    );
    const seconds = (Date.now() - started) / 1000;
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(GUESSES);
    expect(statuses.get(200), tallyText(statuses)).toBeUndefined();
    // A few are checked and refused (401); the rest are slowed unchecked (429).
    expect(
      [...statuses.keys()].filter(s => s !== 401 && s !== 429),
      tallyText(statuses),
    ).toEqual([]);
    expect(statuses.get(401) ?? 0).toBeLessThan(200);
    expect(outcomes.length).toBeGreaterThanOrEqual(2);
    expect(outcomes.filter(ok => !ok)).toEqual([]);
    console.log(
      `${GUESSES} wrong HTTP passwords in ${seconds.toFixed(1)} s (${tallyText(statuses)}); the right login ${outcomes.length} times meanwhile`,
    );
    expect(seconds).toBeLessThan(120);
    await waitFor(
      () => lines.some(l => /logins \(MQTT and HTTP\): \d+ failed logins from \S+ \(users anna\)/.test(l)),
      5000,
      'the aggregate',
    );
    // The game is over (the arbiter's result above): the resync is logged with who asked.
    expect(
      lines.some(l => /resync_board over HTTP \(anna, arbiter, from (::ffff:)?127\.0\.0\.1\): ok/.test(l)),
    ).toBe(true);
    expect(
      lines.some(l => l.includes('set_result over HTTP (olga, operator') && l.includes('not allowed')),
    ).toBe(true);
  });

  it("a page of another site gets no WebSocket; the daemon's own pages do", async () => {
    const ws = daemon.addresses?.ws ?? '';
    const httpPort = new URL(daemon.addresses?.http ?? '').port;
    const viaWs = (origin: string | undefined): Promise<string> =>
      new Promise(resolve => {
        const c = connect(ws, {
          ...WALL,
          protocolVersion: 4,
          reconnectPeriod: 0,
          connectTimeout: 5000,
          ...(origin === undefined ? {} : { wsOptions: { headers: { Origin: origin } } }),
        });
        // A refused upgrade closes the socket (no CONNACK): 'close' before 'connect'.
        c.once('connect', () => (c.end(true), resolve('connected')));
        c.once('error', e => (c.end(true), resolve(`refused: ${e.message}`)));
        c.once('close', () => (c.end(true), resolve('refused: closed')));
      });
    expect(await viaWs('http://evil.example')).toMatch(/^refused/);
    expect(await viaWs(`http://127.0.0.1:${Number(httpPort) + 1}`)).toMatch(/^refused/);
    expect(await viaWs(`http://127.0.0.1:${httpPort}`)).toBe('connected');
    expect(await viaWs(undefined)).toBe('connected');
    expect(lines.some(l => l.includes('WebSocket from the page of http://evil.example refused'))).toBe(true);
  });
});
