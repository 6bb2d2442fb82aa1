/**
 * Pairings from a TRF file, through `chessbridge run -c FILE` (a child process), two emulated DGT
 * boards on PTYs and a real mosquitto. The config names the file and gives each board its board
 * number; no pairing is written in the config. The round still to play starts on the boards with
 * the players' titles, ratings and federations; a file saved with a mistake is reported with its
 * line and changes nothing; the next export of the pairing program, renamed over the file, starts
 * the new game on the board that was idle.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { trfPlayerLine } from '../support/trf.js';
import {
  killAllDaemons,
  startDaemon,
  startVenue,
  subscribe,
  waitFor,
  type DaemonProcess,
  type Subscriber,
  type Venue,
} from './support.js';

const BASE = 'pairingsfile';

const alpha = (round2: string) =>
  trfPlayerLine({
    rank: 1,
    title: 'g',
    name: 'Alpha, Anna',
    rating: '2500',
    fed: 'ESP',
    id: '2200001',
    rounds: [
      ['2', 'w', '1'],
      [round2, 'b', ' '],
    ],
  });
const bravo = (round1: string) =>
  trfPlayerLine({
    rank: 2,
    title: 'm',
    name: 'Bravo, Ben',
    rating: '2400',
    fed: 'ARG',
    rounds: [
      [round1, 'b', '0'],
      ['1', 'w', ' '],
    ],
  });

/** Two players: round 1 played, round 2 (Bravo–Alpha) to play. */
const TWO = ['012 Open de Primavera', alpha('2'), bravo('1'), ''].join('\n');
/** Four players: round 2 adds Charlie–Delta on board 2. */
const FOUR = [
  '012 Open de Primavera',
  alpha('2'),
  bravo('1'),
  trfPlayerLine({
    rank: 3,
    name: 'Charlie, Cid',
    rating: '2300',
    rounds: [
      ['4', 'b', '='],
      ['4', 'w', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 4,
    name: 'Delta, Dan',
    rounds: [
      ['3', 'w', '='],
      ['3', 'b', ' '],
    ],
  }),
  '',
].join('\n');

describe('tournament.pairingsFile: a TRF file drives the boards', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let dir: string;
  let sub: Subscriber;
  let daemon: DaemonProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-pairingsfile-'));
    broker = await startMosquitto({ persistence: false });
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 41000, speed: 8, maxPlies: 4 });
    sub = await subscribe(broker.url, [`${BASE}/games/+`, `${BASE}/boards/+/state`], 'pairingsfile-sub');
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const gameOn = (board: string): unknown =>
    (JSON.parse(sub.latest(`${BASE}/boards/${board}/state`) ?? '{}') as { game?: unknown }).game;
  const snapshot = (game: string) =>
    JSON.parse(sub.latest(`${BASE}/games/${game}`) ?? '{}') as {
      white?: unknown;
      black?: unknown;
      round?: unknown;
    };
  const logged = (text: string): boolean => daemon?.logs().some(l => l.msg.includes(text)) === true;
  const output = () => daemon?.output().slice(-3000) ?? '';

  it('starts the games still to play, re-reads the file when the pairing program writes it again', async () => {
    const trf = join(dir, 'open.trf');
    await writeFile(trf, TWO);
    const config = join(dir, 'venue.yaml');
    await writeFile(
      config,
      stringify({
        version: 1,
        tournament: { name: 'Open de Primavera', rounds: 2, pairingsFile: 'open.trf' },
        laws: { edition: 'E23', gameType: 'rapid', timeControl: '15+10' },
        journal: { dir: join(dir, 'journal'), checkpointSeconds: 2 },
        mqtt: { url: broker.url, baseTopic: BASE, clientId: 'pairingsfile' },
        http: { enabled: false },
        boards: venue.boards.map(b => ({
          id: b.id,
          driver: 'dgt',
          port: b.pty.hostPath,
          number: b.number,
          clock: true,
        })),
        logging: { level: 'info', format: 'json' },
      }),
    );
    daemon = startDaemon(config);

    await waitFor(
      () => gameOn('b-1') === 'r2-b1',
      30_000,
      () => `r2-b1 on board 1 (${output()})`,
    );
    await waitFor(() => sub.latest(`${BASE}/games/r2-b1`) !== undefined, 10_000, 'the snapshot of r2-b1');
    expect(snapshot('r2-b1')).toMatchObject({
      white: { name: 'Bravo, Ben', title: 'IM', rating: 2400, federation: 'ARG' },
      black: { name: 'Alpha, Anna', title: 'GM', rating: 2500, federation: 'ESP' },
    });
    expect(logged(`pairings file ${trf}: 1 games to play`)).toBe(true);
    // Round 1 was played (its results are in the file): no board was given it.
    expect(sub.latest(`${BASE}/games/r1-b1`)).toBeUndefined();
    expect(gameOn('b-2') ?? null).toBeNull();

    // Saved with a mistake: reported with its line, nothing changes.
    await writeFile(trf, FOUR.replace('2300', '23x0'));
    await waitFor(
      () => logged('pairings file not applied'),
      15_000,
      () => `the bad file reported (${output()})`,
    );
    const report = daemon.logs().find(l => l.msg.includes('pairings file not applied'));
    expect(report?.level).toBe('error');
    expect(report?.msg).toContain(`${trf}: line 4, field 'rating (columns 49-52)'`);
    expect(gameOn('b-2') ?? null).toBeNull();

    // The next export, written beside and renamed over the file: board 2 starts its game.
    await writeFile(join(dir, 'open.tmp'), FOUR);
    await rename(join(dir, 'open.tmp'), trf);
    await waitFor(
      () => gameOn('b-2') === 'r2-b2',
      30_000,
      () => `r2-b2 on board 2 (${output()})`,
    );
    await waitFor(() => sub.latest(`${BASE}/games/r2-b2`) !== undefined, 10_000, 'the snapshot of r2-b2');
    expect(snapshot('r2-b2')).toMatchObject({
      white: { name: 'Charlie, Cid', title: null, rating: 2300 },
      black: { name: 'Delta, Dan', title: null, rating: null },
    });
    expect(logged(`pairings file ${trf} read again: 2 games to play (1 before)`)).toBe(true);
    // The game already started keeps its pairing.
    expect(gameOn('b-1')).toBe('r2-b1');
    expect(await daemon.stop()).toBe(0);
  }, 240_000);
});
