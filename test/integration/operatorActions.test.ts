/**
 * The operator runs the round through the real doors (docs/mqtt.md, operator actions): the daemon
 * in-process with its embedded broker and HTTP server, the operator's requests as an mqtt.js
 * client under her own name and as HTTP POSTs with her Basic credentials. A TRF file that does not
 * read is refused with its line and field and changes nothing; a good one is taken over HTTP; the
 * first round is started over MQTT and its first game begins, the second round waits; a spare
 * board takes table 2 and plays its game; the round is finished. An arbiter's action is refused
 * to the operator on both doors, and the operations journal names her for each thing she did.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { asyncScheduler, Observable, type Subscriber, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import { hashPassword } from '../../src/bridge/security/passwords.js';
import { START_SQUARES, type Observation } from '../../src/drivers/observation.js';
import { waitFor } from '../support/mosquitto.js';
import { trfPlayerLine } from '../support/trf.js';

const now = (): number => performance.timeOrigin + performance.now();
const OLGA = { username: 'olga', password: 'rounds-and-boards-77' };
const ANNA = { username: 'anna', password: 'tarrasch-1908-opens-e4' };

const player = (rank: number, name: string, rounds: [string, string, string][]) =>
  trfPlayerLine({ rank, name, rating: '2300', fed: 'ESP', rounds });
/** Four players, two rounds to play: round 1 Alpha–Bravo (board 1), Charlie–Delta (board 2). */
const TRF = [
  '012 Open de Primavera',
  player(1, 'Alpha, Anna', [
    ['2', 'w', ' '],
    ['3', 'b', ' '],
  ]),
  player(2, 'Bravo, Ben', [
    ['1', 'b', ' '],
    ['4', 'w', ' '],
  ]),
  player(3, 'Charlie, Cid', [
    ['4', 'w', ' '],
    ['1', 'w', ' '],
  ]),
  player(4, 'Delta, Dan', [
    ['3', 'b', ' '],
    ['2', 'b', ' '],
  ]),
  '',
].join('\n');

interface Envelope {
  readonly status: string;
  readonly data?: Record<string, unknown>;
  readonly error?: string;
}

describe('operator actions over MQTT and HTTP', () => {
  let dir: string;
  let daemon: Daemon;
  let pipeline: Subscription;
  let olga: MqttClient;
  let config: Config;
  let memory: ReturnType<typeof memoryLogger>;
  const sinks = new Map<string, Subscriber<Observation>>();
  const responses = new Map<string, Envelope>();

  const post = async (login: typeof OLGA, action: string, body: object) => {
    const r = await fetch(`${daemon.addresses?.http ?? ''}/api/arbiter/${action}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
      },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Envelope };
  };
  let counter = 0;
  /** A request under olga's own name over MQTT; the response with its transaction. */
  const request = async (action: string, body: object): Promise<Envelope> => {
    counter += 1;
    const transaction = `t-${counter}`;
    olga.publish(`chessbridge/bridge/request/olga/${action}`, JSON.stringify({ ...body, transaction }), {
      qos: 1,
    });
    await waitFor(() => responses.has(transaction), 10_000, `the answer to ${action}`);
    return responses.get(transaction)!;
  };
  const setUp = (board: string) => {
    const sink = sinks.get(board);
    sink?.next({ type: 'identity', at: now(), vendor: 'DGT', serial: `S-${board}` });
    sink?.next({ type: 'snapshot', at: now(), squares: START_SQUARES });
    sink?.next({ type: 'link', at: now(), state: 'connected' });
  };
  const operations = async () =>
    (await readFile(join(dir, 'journal', 'operations.jsonl'), 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map(l => JSON.parse(l) as { action: string; source: string; result: Record<string, unknown> });

  const makeDaemon = (config: Config): Daemon => {
    memory = memoryLogger('info');
    return new Daemon({
      config,
      log: memory.logger,
      engine: engineSupervisor(),
      scheduler: asyncScheduler,
      now,
      version: '0.0.0-test',
      openBoard: board =>
        new Observable<Observation>(s => {
          sinks.set(board.id, s);
          return () => sinks.delete(board.id);
        }),
      brokerPorts: { port: 0, wsPort: 0 },
      httpPort: 0,
    });
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-operator-'));
    config = (
      await loadConfig({
        text: [
          'tournament: { name: Open de Primavera, rounds: 2 }',
          'laws: { gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
          'mqtt: { clientId: hall-daemon }',
          'http: { enabled: yes }',
          'users:',
          `  - { name: anna, role: arbiter, passwordHash: '${await hashPassword(ANNA.password)}' }`,
          `  - { name: olga, role: operator, passwordHash: '${await hashPassword(OLGA.password)}' }`,
          'boards:',
          '  - { id: b1, driver: dgt, port: /dev/fake1, number: 1 }',
          '  - { id: spare, driver: dgt, port: /dev/fake9, number: 9 }',
        ].join('\n'),
      })
    ).unwrap();
    daemon = makeDaemon(config);
    await daemon.start();
    pipeline = daemon.pipeline$().subscribe();
    await waitFor(() => sinks.size === 2, 5000, 'the board sessions');
    olga = await connectAsync(daemon.addresses?.mqtt ?? '', {
      protocolVersion: 4,
      reconnectPeriod: 0,
      ...OLGA,
    });
    olga.on('message', (_topic, payload) => {
      const e = JSON.parse(payload.toString()) as Envelope & { transaction?: string };
      if (e.transaction !== undefined) responses.set(e.transaction, e);
    });
    await olga.subscribeAsync('chessbridge/bridge/response/+', { qos: 1 });
  });

  afterAll(async () => {
    olga.end(true);
    pipeline.unsubscribe();
    await daemon.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads pairings, starts a round, rebinds a board and finishes the round, named in the journal', async () => {
    // A TRF with a bad rating: refused with its line and field, nothing changed.
    const bad = await request('upload_pairings', { format: 'trf', text: TRF.replace('2300', '23x0') });
    expect(bad.status).toBe('error');
    expect(bad.error).toMatch(/line 2, field 'rating \(columns 49-52\)'/);
    // As data too, for a page to say it in its language.
    expect(bad).toMatchObject({
      code: 'pairings_invalid',
      params: { count: 1, line: 2, field: 'rating (columns 49-52)', value: '23x0', problem: 'badField' },
    });
    expect(daemon.games?.currentPairings()).toEqual([]);
    // A round the tournament does not have, over HTTP; nothing changed either.
    const beyond = await post(OLGA, 'round-control', { round: 3, action: 'start' });
    expect(beyond.status).toBe(422);
    expect(beyond.body).toMatchObject({ code: 'round_beyond', params: { round: 3, rounds: 2 } });
    expect(daemon.games?.rounds().get(3)).toBeUndefined();

    // The good file, over HTTP.
    const uploaded = await post(OLGA, 'upload-pairings', { format: 'trf', text: TRF });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data).toMatchObject({ format: 'trf', pairings: 4, rounds: [1, 2] });

    // Round 1 started over MQTT: b1 set up plays Alpha–Bravo; round 2 waits.
    expect((await request('round_control', { round: 1, action: 'start' })).data).toMatchObject({
      round: 1,
      state: 'started',
    });
    setUp('b1');
    await waitFor(() => daemon.games?.get('r1-b1') !== undefined, 10_000, 'r1-b1 on b1');
    expect(daemon.games?.get('r1-b1')?.board).toBe('b1');

    // The spare board takes table 2 and plays Charlie–Delta.
    // A board with a game keeps its table: the refusal names the board and the game.
    expect(await request('rebind_board', { board_id: 'b1', number: 2 })).toMatchObject({
      status: 'error',
      code: 'board_has_game',
      params: { board: 'b1', game: 'r1-b1' },
    });
    const rebound = await request('rebind_board', { board_id: 'spare', number: 2 });
    expect(rebound).toMatchObject({ status: 'ok', data: { board_id: 'spare', number: 2, previous: null } });
    // Paused, the round starts no game on the board just set up (a request's round trip later,
    // the game the spare would have started is not there); started again, it does.
    expect((await request('round_control', { round: 1, action: 'pause' })).status).toBe('ok');
    setUp('spare');
    await waitFor(() => daemon.boards?.get('spare')?.status.link === 'connected', 5000, 'the spare');
    expect((await request('resync_board', { board_id: 'b1' })).status).toBe('ok');
    expect(daemon.games?.get('r1-b2')).toBeUndefined();
    expect((await post(OLGA, 'round-control', { round: 1, action: 'start' })).status).toBe(200);
    await waitFor(
      () => daemon.games?.get('r1-b2')?.board === 'spare',
      10_000,
      () => `r1-b2 on the spare (${memory.lines.join('\n')})`,
    );
    expect(daemon.games?.get('r2-b1')).toBeUndefined();
    expect(daemon.games?.get('r2-b2')).toBeUndefined();

    // An arbiter's action stays refused to the operator, on both doors.
    const mqttResult = await request('set_result', { game_id: 'r1-b1', result: '1-0' });
    expect(mqttResult.error).toMatch(/^not allowed: olga \(role operator\) may not request set_result/);
    const httpResult = await post(OLGA, 'set-result', { game_id: 'r1-b1', result: '1-0' });
    expect(httpResult.status).toBe(403);
    expect(daemon.games?.get('r1-b1')?.run.ended).toBe(false);

    const finished = await post(OLGA, 'round-control', { round: 1, action: 'finish' });
    expect(finished.body.data).toMatchObject({ round: 1, state: 'finished' });
    expect([...((finished.body.data?.games_in_play as string[] | undefined) ?? [])].sort()).toEqual([
      'r1-b1',
      'r1-b2',
    ]);

    const done = await operations();
    expect(done.map(o => `${o.action} ${o.source.split(' ').slice(0, 3).join(' ')}`)).toEqual([
      'upload_pairings http role=operator user=olga',
      'round_control mqtt role=operator user=olga',
      'rebind_board mqtt role=operator user=olga',
      'round_control mqtt role=operator user=olga',
      'round_control http role=operator user=olga',
      'round_control http role=operator user=olga',
    ]);
    expect(done.map(o => o.result.state ?? null)).toEqual([
      null,
      'started',
      null,
      'paused',
      'started',
      'finished',
    ]);

    // A restarted daemon does the operations again from their journal: the pairings, the spare's
    // table, the finished round.
    pipeline.unsubscribe();
    await daemon.stop();
    daemon = makeDaemon(config);
    await daemon.start();
    pipeline = daemon.pipeline$().subscribe();
    expect(daemon.games?.currentPairings()).toHaveLength(4);
    expect(daemon.games?.numberOf('spare')).toBe(2);
    expect(daemon.games?.rounds().get(1)).toBe('finished');
    expect(memory.lines.join('\n')).toContain('operations journal: 6 operator actions done again');
  }, 60_000);
});
