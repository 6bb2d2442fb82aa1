/**
 * The daemon in-process: ordered, idempotent start and stop with the embedded broker, a board
 * (a fake driver session) whose pairing starts when its serial and the start position are seen,
 * moves published over MQTT and kept in the journal, requests answered, the web front serving
 * the MQTT.js bundle, and a second daemon on the same journal resuming the game with its seq.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type MqttClient } from 'mqtt';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/bridge/config/index.js';
import { type FakeBoard, fakeBoard, inProcessDaemon, now } from '../../support/inProcessDaemon.js';
import { waitFor } from '../../support/mosquitto.js';
import { observationsOfGame } from '../game/support.js';

const OPENING = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'];

/** The arbiter the test connects as (the embedded broker admits only users). */
const ARBITER = { username: 'arbiter-1', password: 'lifecycle arbiter 2026' };

const configFor = async (dir: string): Promise<Config> =>
  (
    await loadConfig({
      text: [
        'tournament: { name: Lifecycle }',
        'laws: { gameType: rapid, timeControl: 15+10 }',
        `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
        'mqtt: { clientId: lifecycle }',
        `users: [{ name: arbiter-1, role: arbiter, passwordFile: ${join(dir, 'arbiter.secret')} }]`,
        'http: { enabled: yes }',
        'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01025", clock: yes }]',
        'pairings: [{ round: 1, board: 1, serial: "01025", white: { name: "White, W" }, black: { name: "Black, B" } }]',
      ].join('\n'),
    })
  ).unwrap();

describe('the daemon in-process', () => {
  let dir: string;
  let config: Config;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-lifecycle-'));
    await writeFile(join(dir, 'arbiter.secret'), `${ARBITER.password}\n`);
    config = await configFor(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const makeDaemon = (board: FakeBoard) => inProcessDaemon(config, board);

  it('starts a pairing, publishes the moves, answers requests, and resumes after a restart with the same seq', async () => {
    const board = fakeBoard();
    const first = makeDaemon(board);
    const constructed = first.lines.length;
    expect(constructed).toBe(0); // constructors do nothing
    await Promise.all([first.daemon.start(), first.daemon.start()]);
    const mqttUrl = first.daemon.addresses?.mqtt ?? '';
    const client: MqttClient = connect(mqttUrl, {
      clientId: 'lifecycle-watch',
      protocolVersion: 4,
      ...ARBITER,
    });
    const seen: { topic: string; payload: string }[] = [];
    client.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString() }));
    await client.subscribeAsync('chessbridge/#', { qos: 1 });
    let sub: Subscription | undefined = first.daemon.pipeline$().subscribe();
    try {
      await waitFor(() => board.isOpen(), 5000, 'the board session');
      board.connect('01025', now());
      await waitFor(() => first.daemon.games?.get('r1-b1') !== undefined, 5000, 'the pairing r1-b1 to start');
      for (const o of observationsOfGame(OPENING, { seed: 2, t0: now() + 50 })) board.push(o);
      const moves = () =>
        seen.filter(m => m.topic === 'chessbridge/games/r1-b1/events' && m.payload.includes('"type":"move"'));
      await waitFor(() => moves().length === OPENING.length, 10_000, 'six moves');
      expect(moves().map(m => (JSON.parse(m.payload) as { san: string }).san)).toEqual(OPENING);
      await waitFor(
        () =>
          seen.some(m => m.topic === 'chessbridge/boards/b1/state' && m.payload.includes('"game":"r1-b1"')),
        5000,
        'board state',
      );

      // The web front: the MQTT.js bundle, and the HttpServer behind it.
      const http = first.daemon.addresses?.http ?? '';
      const bundle = await fetch(`${http}/ui/vendor/mqtt.esm.js`);
      expect(bundle.status).toBe(200);
      expect(bundle.headers.get('content-type')).toMatch(/javascript/);
      expect((await fetch(`${http}/healthz`)).status).toBe(200);
      const pgn = await (await fetch(`${http}/round-1/game-1.pgn`)).text();
      expect(pgn).toContain('[White "White, W"]');
      expect(pgn.replace(/\{[^}]*\}/g, '').replace(/\s+/g, ' ')).toContain(
        '1. e4 1... e5 2. Nf3 2... Nc6 3. Bc4 3... Bc5 *',
      );

      // A request that the daemon refuses, naming the field.
      await client.publishAsync(
        'chessbridge/bridge/request/adjust_clocks',
        JSON.stringify({ game_id: 'r1-b1', white_ms: -5, black_ms: 1, transaction: 7 }),
      );
      await waitFor(
        () => seen.some(m => m.topic === 'chessbridge/bridge/response/adjust_clocks'),
        5000,
        'the answer',
      );
      expect(
        JSON.parse(seen.find(m => m.topic === 'chessbridge/bridge/response/adjust_clocks')?.payload ?? '{}'),
      ).toMatchObject({
        status: 'error',
        transaction: 7,
        error: expect.stringMatching(/white_ms/) as unknown,
      });

      // What the daemon cannot do is refused as data too: a code and its parameters for the
      // pages to render in their language (wire/refusals.ts), beside the English error.
      const ask = async (action: string, body: object, transaction: number) => {
        const topic = `chessbridge/bridge/response/${action}`;
        const answer = () =>
          seen
            .filter(m => m.topic === topic)
            .map(m => JSON.parse(m.payload) as { transaction?: number })
            .find(m => m.transaction === transaction);
        await client.publishAsync(
          `chessbridge/bridge/request/${action}`,
          JSON.stringify({ ...body, transaction }),
        );
        await waitFor(() => answer() !== undefined, 5000, `the answer to ${action} ${transaction}`);
        return answer();
      };
      expect(await ask('start_game', { game_id: 'bad id!' }, 20)).toMatchObject({
        status: 'error',
        code: 'invalid_fields',
        params: { fields: 'game_id' },
      });
      expect(await ask('start_game', { game_id: 'x1', time_control: 'ninety' }, 21)).toMatchObject({
        code: 'bad_time_control',
        params: { time_control: 'ninety' },
      });
      expect(await ask('start_game', { game_id: 'x2', fen: '8/8/8/8 w - -' }, 22)).toMatchObject({
        code: 'bad_fen',
        params: { fen: '8/8/8/8 w - -' },
      });
      expect(await ask('start_game', { game_id: 'x3', board_id: 'b1' }, 23)).toMatchObject({
        code: 'board_has_game',
        params: { board: 'b1', game: 'r1-b1' },
      });
      expect(await ask('restore_position', { game_id: 'r1-b1', ply: 99 }, 24)).toMatchObject({
        code: 'ply_beyond',
        params: { game: 'r1-b1', ply: 99, plies: OPENING.length },
        error: `game r1-b1 has ${OPENING.length} plies: there is no ply 99 to restore`,
      });
      expect(first.daemon.games?.get('r1-b1')?.run.seq).toBeGreaterThan(0);
      expect(first.daemon.games?.get('x3')).toBeUndefined();
    } finally {
      sub.unsubscribe();
      sub = undefined;
      await Promise.all([first.daemon.stop(), first.daemon.stop()]);
    }
    const lastSeq = Math.max(
      ...seen
        .filter(m => m.topic.endsWith('/events'))
        .map(m => (JSON.parse(m.payload) as { seq: number }).seq),
    );
    expect(first.lines.some(l => l.includes('journal synced'))).toBe(true);
    const ledger = JSON.parse(await readFile(join(dir, 'journal', 'mqtt-acked.json'), 'utf8')) as {
      games: Record<string, number>;
    };
    expect(ledger.games['r1-b1']).toBe(lastSeq);
    await client.endAsync();

    // The second daemon on the same journal: the game comes back with its seq, nothing is re-sent.
    const board2 = fakeBoard();
    const second = makeDaemon(board2);
    await second.daemon.start();
    expect(second.daemon.restored).toMatchObject({ resumed: 1, republished: 0, failed: 0 });
    expect(second.daemon.games?.get('r1-b1')?.run.seq).toBe(lastSeq);
    const client2 = connect(second.daemon.addresses?.mqtt ?? '', {
      clientId: 'lifecycle-watch-2',
      protocolVersion: 4,
      ...ARBITER,
    });
    const seen2: { topic: string; payload: string }[] = [];
    client2.on('message', (topic, payload) => seen2.push({ topic, payload: payload.toString() }));
    await client2.subscribeAsync('chessbridge/#', { qos: 1 });
    const sub2 = second.daemon.pipeline$().subscribe();
    try {
      await client2.publishAsync(
        'chessbridge/bridge/request/set_result',
        JSON.stringify({ game_id: 'r1-b1', result: '1/2-1/2', reason: 'agreement' }),
      );
      await waitFor(
        () =>
          seen2.some(m => m.topic === 'chessbridge/games/r1-b1/events' && m.payload.includes('"type":"end"')),
        5000,
        'the end',
      );
      const end = JSON.parse(seen2.find(m => m.payload.includes('"type":"end"'))?.payload ?? '{}') as {
        seq: number;
        result: string;
      };
      expect(end).toMatchObject({ seq: lastSeq + 1, result: '1/2-1/2' });
      await waitFor(() => second.daemon.games?.get('r1-b1') === undefined, 5000, 'the game to close');
    } finally {
      sub2.unsubscribe();
      await second.daemon.stop();
      await client2.endAsync();
    }
    const journal = (await readFile(join(dir, 'journal', 'games', 'r1-b1.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(journal.at(-1) ?? '{}')).toMatchObject({ type: 'finish', result: '1/2-1/2' });
    expect(journal.some(l => l.includes('"action":"set_result"'))).toBe(true);
  });
});
