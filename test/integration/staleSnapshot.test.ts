/**
 * A retained snapshot from an earlier run of the daemon, through a real mosquitto (which keeps
 * retained messages while daemons come and go): yesterday's game r1-b1 stays retained when the
 * daemon stops; today's daemon, with a fresh journal, pairs r1-b1 again. A page open before the
 * board connects reads yesterday's snapshot; once today's game starts, the live stream refutes it
 * and the page shows today's game, not yesterday's frozen one. The page is the pages' own
 * LiveConnection and GameStore (web/shared), run in Node and fed by an MQTT.js client with the
 * page's subscriptions and the messages' retain flags.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/bridge/config/index.js';
import { MOSQUITTO_BINARY, startMosquitto, waitFor, type Mosquitto } from '../support/mosquitto.js';
import { observationsOfGame } from '../bridge/game/support.js';
import { now, startSinkDaemon } from './sinkDaemon.js';

const GAME = 'r1-b1';

interface PageState {
  readonly seq: number;
  readonly moves: readonly (string | null)[];
  readonly white: { name: string } | null;
  readonly provisional?: boolean;
}
interface Page {
  readonly store: { get(game: string): PageState | undefined; readonly counters: Record<string, number> };
  filters(): string[];
  handle(topic: string, text: string, retained: boolean): void;
}
const { LiveConnection } = (await import(new URL('../../web/shared/live.js', import.meta.url).href)) as {
  LiveConnection: new (o: object) => Page;
};

/** One run of the daemon on its own journal, with a fake board the test drives. */
const runDaemon = async (url: string, journal: string, white: string) => {
  const config = (
    await loadConfig({
      text: [
        'laws: { gameType: rapid, timeControl: 15+10 }',
        `journal: { dir: ${journal}, checkpointSeconds: 1 }`,
        `mqtt: { url: '${url}', clientId: hall-daemon }`,
        'http: { enabled: no }',
        'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01025", clock: yes }]',
        `pairings: [{ round: 1, board: 1, serial: "01025", white: { name: "${white}" }, black: { name: "Black, B" } }]`,
      ].join('\n'),
    })
  ).unwrap();
  const run = await startSinkDaemon(config, { level: 'warn' });
  return {
    /** Connects the board and plays `sans` from the start position. */
    play: async (sans: readonly string[]) => {
      await run.connectBoard(GAME);
      for (const o of observationsOfGame(sans, { seed: 3, t0: now() + 50 })) run.send(o);
    },
    stop: () => run.stop(),
  };
};

describe.skipIf(!MOSQUITTO_BINARY)('a retained snapshot of an earlier run', () => {
  let broker: Mosquitto;
  let dir: string;
  let reader: MqttClient | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-stale-'));
    broker = await startMosquitto();
  });
  afterAll(async () => {
    reader?.end(true);
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives way on the page to the live stream of today’s game', async () => {
    // Yesterday: four plies, then the daemon stops; its snapshot stays retained at the broker.
    const yesterday = await runDaemon(broker.url, join(dir, 'journal-1'), 'Yesterday, Y');
    const watcher = await connectAsync(broker.url, { clientId: 'watcher' });
    let retainedSeq = -1;
    watcher.on('message', (_t, p) => {
      const s = JSON.parse(p.toString()) as { seq: number; moves: string[] };
      if (s.moves.length === 4) retainedSeq = s.seq;
    });
    await watcher.subscribeAsync(`chessbridge/games/${GAME}`);
    await yesterday.play(['c4', 'e5', 'Nc3', 'Nf6']);
    await waitFor(() => retainedSeq > 0, 15_000, "yesterday's four plies");
    await yesterday.stop();
    watcher.end(true);

    // Today: a fresh journal, r1-b1 paired again; a page opens before the board is connected.
    const today = await runDaemon(broker.url, join(dir, 'journal-2'), 'Today, T');
    try {
      const page = new LiveConnection({ transport: 'mqtt', url: broker.url, base: 'chessbridge' });
      reader = await connectAsync(broker.url, { clientId: 'page' });
      reader.on('message', (topic, payload, packet) => page.handle(topic, payload.toString(), packet.retain));
      await reader.subscribeAsync(page.filters(), { qos: 1 });
      await waitFor(() => page.store.get(GAME) !== undefined, 5000, 'the retained snapshot on the page');
      expect(page.store.get(GAME)).toMatchObject({
        seq: retainedSeq,
        provisional: true,
        white: { name: 'Yesterday, Y' },
      });

      await today.play(['d4', 'd5']);
      await waitFor(
        () => page.store.get(GAME)?.moves.length === 2,
        15_000,
        () => `today's two plies on the page: ${JSON.stringify(page.store.get(GAME))}`,
      );
      expect(page.store.get(GAME)).toMatchObject({
        moves: ['d4', 'd5'],
        white: { name: 'Today, T' },
        provisional: false,
      });
      expect(page.store.counters.refuted).toBe(1);
    } finally {
      await today.stop();
    }
  });
});
