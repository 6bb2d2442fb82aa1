/**
 * The end of a game the board cannot see (a resignation), through the daemon: the players set the
 * pieces up again, the record stays as played (the first pieces taken home are no moves), the
 * arbiter is asked for the result over MQTT, enters it, and the board's next pairing starts on the
 * pieces already set up. Before, the set-up board was read as a takeback of the whole game (the
 * live game emptied) once it had stood the quiet time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/bridge/config/index.js';
import type { SquareContent } from '../../../src/drivers/observation.js';
import { fakeBoard, inProcessDaemon, now } from '../../support/inProcessDaemon.js';
import { waitFor } from '../../support/mosquitto.js';
import { observationsOfGame } from '../game/support.js';
const OPENING = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'];
const ARBITER = { username: 'arbiter-1', password: 'game end arbiter 2026' };

/** White resigns; the pieces go home, White's bishop first (Bf1 is a legal move), then Black's (...Bf8 too). */
const HOME: readonly [string, string][] = [
  ['c4', '-'],
  ['f1', 'B'],
  ['c5', '-'],
  ['f8', 'b'],
  ['c6', '-'],
  ['b8', 'n'],
  ['f3', '-'],
  ['g1', 'N'],
  ['e5', '-'],
  ['e7', 'p'],
  ['e4', '-'],
  ['e2', 'P'],
];

const squareOf = (name: string): number => name.charCodeAt(0) - 97 + 8 * (Number(name[1]) - 1);
const contentOf = (letter: string): SquareContent => {
  if (letter === '-') return { kind: 'empty' };
  const roles = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' } as const;
  const role = roles[letter.toLowerCase() as keyof typeof roles];
  return { kind: 'piece', color: letter === letter.toUpperCase() ? 'white' : 'black', role };
};

describe('a game the players end themselves, through the daemon', () => {
  let dir: string;
  let config: Config;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-game-end-'));
    await writeFile(join(dir, 'arbiter.secret'), `${ARBITER.password}\n`);
    config = (
      await loadConfig({
        text: [
          'tournament: { name: Game end, rounds: 2 }',
          'laws: { gameType: rapid, timeControl: 15+10 }',
          `journal: { dir: ${join(dir, 'journal')}, checkpointSeconds: 1 }`,
          'mqtt: { clientId: game-end }',
          `users: [{ name: arbiter-1, role: arbiter, passwordFile: ${join(dir, 'arbiter.secret')} }]`,
          'http: { enabled: yes }',
          'boards: [{ id: b1, driver: dgt, port: /dev/fake, serial: "01025", clock: yes }]',
          'pairings:',
          '  - { round: 1, board: 1, serial: "01025", white: { name: "White, W" }, black: { name: "Black, B" } }',
          '  - { round: 2, board: 1, serial: "01025", white: { name: "Black, B" }, black: { name: "White, W" } }',
        ].join('\n'),
      })
    ).unwrap();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the record, asks for the result, and starts the next pairing once it is entered', async () => {
    const board = fakeBoard();
    const { daemon } = inProcessDaemon(config, board);
    await daemon.start();
    const client = connect(daemon.addresses?.mqtt ?? '', {
      clientId: 'game-end-watch',
      protocolVersion: 4,
      ...ARBITER,
    });
    const seen: { topic: string; body: Record<string, unknown> }[] = [];
    client.on('message', (topic, payload) => {
      if (topic.startsWith('chessbridge/games/r1-b1/events'))
        seen.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown> });
    });
    await client.subscribeAsync('chessbridge/games/r1-b1/events', { qos: 1 });
    const sub = daemon.pipeline$().subscribe();
    try {
      await waitFor(() => board.isOpen(), 5000, 'the board session');
      board.connect('01025', now());
      await waitFor(() => daemon.games?.get('r1-b1') !== undefined, 5000, 'the pairing r1-b1 to start');
      for (const o of observationsOfGame(OPENING, { seed: 2, t0: now() + 50 })) board.push(o);
      const of = (type: string) => seen.filter(m => m.body.type === type).map(m => m.body);
      await waitFor(() => of('move').length === OPENING.length, 10_000, 'six moves');

      const t0 = now() + 50;
      HOME.forEach(([square, letter], i) =>
        board.push({
          type: 'square',
          at: t0 + 400 * i,
          square: squareOf(square),
          content: contentOf(letter),
        }),
      );
      const asked = () => of('alert').some(a => (a.text as { key: string }[])[0]?.key === 'board.reset');
      await waitFor(asked, 15_000, 'the request for the result');
      const pgn = await (await fetch(`${daemon.addresses?.http ?? ''}/round-1/game-1.pgn`)).text();
      expect(pgn.replace(/\{[^}]*\}/g, '').replace(/\s+/g, ' ')).toContain(
        '1. e4 1... e5 2. Nf3 2... Nc6 3. Bc4 3... Bc5 *',
      );
      expect(of('correction').some(c => c.reason === 'takeback')).toBe(false);
      expect(of('alert').map(a => a.code)).toEqual(['arbiter_decision_needed']);

      await client.publishAsync(
        'chessbridge/bridge/request/set_result',
        JSON.stringify({ game_id: 'r1-b1', result: '0-1', reason: 'resignation' }),
      );
      await waitFor(() => of('end').length === 1, 5000, 'the end');
      expect(of('end')[0]).toMatchObject({ result: '0-1' });
      await waitFor(() => daemon.games?.get('r2-b1') !== undefined, 5000, 'the next pairing r2-b1 to start');
    } finally {
      sub.unsubscribe();
      await daemon.stop();
      await client.endAsync();
    }
  });
});
