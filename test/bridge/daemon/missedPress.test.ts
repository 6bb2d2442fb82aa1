/**
 * A press forgotten, through the daemon: White does not press after 2. Nf3, so the clock reports
 * nothing for that ply nor for Black's reply (his side of the lever is already down); the next
 * press is White's after 3. Bc4. Before, the daemon judged that press a completed illegal move
 * (7.5.1, two minutes to the opponent) and the reply's press another, over MQTT to the arbiter's
 * console. Now the record is the game, with no alert.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/bridge/config/index.js';
import { fakeBoard, inProcessDaemon, now } from '../../support/inProcessDaemon.js';
import { waitFor } from '../../support/mosquitto.js';
import { observationsOfGame } from '../game/support.js';

const GAME = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'c3', 'Nf6'];
const ARBITER = { username: 'arbiter-1', password: 'missed press arbiter 2026' };

describe('a press forgotten, through the daemon', () => {
  let dir: string;
  let config: Config;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-missed-press-'));
    await writeFile(join(dir, 'arbiter.secret'), `${ARBITER.password}\n`);
    config = (
      await loadConfig({
        text: [
          'tournament: { name: Missed press, rounds: 1 }',
          'laws: { gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
          'mqtt: { clientId: missed-press }',
          `users: [{ name: arbiter-1, role: arbiter, passwordFile: ${join(dir, 'arbiter.secret')} }]`,
          'http: { enabled: yes }',
          'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01026", clock: yes }]',
          'pairings:',
          '  - { round: 1, board: 1, serial: "01026", white: { name: "White, W" }, black: { name: "Black, B" } }',
        ].join('\n'),
      })
    ).unwrap();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes every ply and no alert when the clock reports nothing for a ply and its reply', async () => {
    const board = fakeBoard();
    const { daemon } = inProcessDaemon(config, board);
    await daemon.start();
    const client = connect(daemon.addresses?.mqtt ?? '', {
      clientId: 'missed-press-watch',
      protocolVersion: 4,
      ...ARBITER,
    });
    const seen: Record<string, unknown>[] = [];
    client.on('message', (_topic, payload) =>
      seen.push(JSON.parse(payload.toString()) as Record<string, unknown>),
    );
    await client.subscribeAsync('chessbridge/games/r1-b1/events', { qos: 1 });
    const sub = daemon.pipeline$().subscribe();
    try {
      await waitFor(() => board.isOpen(), 5000, 'the board session');
      board.connect('01026', now());
      await waitFor(() => daemon.games?.get('r1-b1') !== undefined, 5000, 'the pairing r1-b1 to start');
      const observations = observationsOfGame(GAME, { seed: 3, t0: now() + 50 });
      // The clock's readings after the first (the start): one per press, the third (after 2. Nf3)
      // and the fourth (after 2... Nc6) dropped: White forgot, Black's lever was already down.
      const readings = observations.filter(o => o.type === 'clock');
      expect(readings).toHaveLength(GAME.length + 1);
      const dropped = new Set<unknown>([readings[3], readings[4]]);
      for (const o of observations) if (!dropped.has(o)) board.push(o);
      const of = (type: string) => seen.filter(m => m.type === type);
      await waitFor(() => of('move').length >= GAME.length, 15_000, 'every ply');
      const tip = new Map(of('move').map(m => [m.ply as number, m.san as string]));
      expect([...tip.keys()].sort((a, b) => a - b).map(p => tip.get(p))).toEqual(GAME);
      const pgn = await (await fetch(`${daemon.addresses?.http ?? ''}/round-1/game-1.pgn`)).text();
      expect(pgn.replace(/\{[^}]*\}/g, '').replace(/\s+/g, ' ')).toContain(
        '1. e4 1... e5 2. Nf3 2... Nc6 3. Bc4 3... Bc5 4. c3 4... Nf6 *',
      );
      expect(of('alert')).toEqual([]);
    } finally {
      sub.unsubscribe();
      await daemon.stop();
      await client.endAsync();
    }
  });
});
