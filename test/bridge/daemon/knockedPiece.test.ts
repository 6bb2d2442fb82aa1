/**
 * A piece knocked over at the press, through the daemon: the hand playing 2. Nf3 knocks the g2
 * pawn over (lying, it is not sensed), White presses, then sets it up again. Before, the daemon
 * judged the press a completed illegal move (7.5.1: 2. Nf3 taken back, two minutes to Black) over
 * MQTT. Now every ply is published with no alert, and the arbiter's console gets a `possible`
 * finding (7.4.1) on 2. Nf3 naming g2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../../src/drivers/observation.js';
import { loadConfig, type Config } from '../../../src/bridge/config/index.js';
import { fakeBoard, inProcessDaemon, now } from '../../support/inProcessDaemon.js';
import { waitFor } from '../../support/mosquitto.js';
import { observationsOfGame } from '../game/support.js';

const GAME = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'c3', 'Nf6'];
const ARBITER = { username: 'arbiter-1', password: 'knocked piece arbiter 2026' };
const G2 = 14;

describe('a piece knocked over at the press, through the daemon', () => {
  let dir: string;
  let config: Config;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-knocked-'));
    await writeFile(join(dir, 'arbiter.secret'), `${ARBITER.password}\n`);
    config = (
      await loadConfig({
        text: [
          'tournament: { name: Knocked piece, rounds: 1 }',
          'laws: { gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
          'mqtt: { clientId: knocked-piece }',
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

  it('publishes every ply, no alert, and a finding for the arbiter when a pawn lies knocked over at the press', async () => {
    const board = fakeBoard();
    const { daemon } = inProcessDaemon(config, board);
    await daemon.start();
    const client = connect(daemon.addresses?.mqtt ?? '', {
      clientId: 'knocked-piece-watch',
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
      // The clock's readings: the start, then one per press; the fourth is White's after 2. Nf3.
      const readings = observations.filter(o => o.type === 'clock');
      expect(readings).toHaveLength(GAME.length + 1);
      const press = readings[3] as Observation;
      const next = observations.find(o => o.type === 'square' && o.at > press.at) as Observation;
      // The knight set down on f3, then the pawn beside it knocked over as the hand withdraws.
      const landed = observations.filter(o => o.type === 'square' && o.at < press.at).at(-1) as Observation;
      const knocked: Observation = {
        type: 'square',
        at: landed.at + 150,
        square: G2,
        content: { kind: 'empty' },
      };
      const setUp: Observation = {
        type: 'square',
        at: Math.round((press.at + next.at) / 2),
        square: G2,
        content: { kind: 'piece', color: 'white', role: 'pawn' },
      };
      const pushed = [...observations, knocked, setUp].sort((a, b) => a.at - b.at);
      for (const o of pushed) board.push(o);
      const of = (type: string) => seen.filter(m => m.type === type);
      await waitFor(() => of('move').length >= GAME.length, 15_000, 'every ply');
      const tip = new Map(of('move').map(m => [m.ply as number, m.san as string]));
      expect([...tip.keys()].sort((a, b) => a - b).map(p => tip.get(p))).toEqual(GAME);
      const pgn = await (await fetch(`${daemon.addresses?.http ?? ''}/round-1/game-1.pgn`)).text();
      expect(pgn.replace(/\{[^}]*\}/g, '').replace(/\s+/g, ' ')).toContain(
        '1. e4 1... e5 2. Nf3 2... Nc6 3. Bc4 3... Bc5 4. c3 4... Nf6 *',
      );
      expect(of('alert')).toEqual([]);
      const findings = of('finding').filter(f => f.code === 'displaced_pieces');
      expect(findings.map(f => [f.ply, f.color, f.grade, f.article])).toEqual([
        [3, 'white', 'possible', '7.4.1'],
      ]);
      expect(String(findings[0]?.detail)).toContain('nothing on g2');
    } finally {
      sub.unsubscribe();
      await daemon.stop();
      await client.endAsync();
    }
  });
});
