/**
 * A Chess960 round through the doors an organiser uses: `chessbridge run -c FILE` (a child
 * process) with a CSV pairings file whose `chess960` column says `board`, one emulated DGT board
 * on a socat PTY set up in Chess960 position 97, a real mosquitto, the folder export and a local
 * Lichess push server. The daemon reads the start position off the board, recognises both
 * castlings (the rook alone moving over the king, the king taken off and put back or not), and
 * every output carries the variant and the start position before the first move.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DgtBoardEmulator } from '../../src/drivers/dgt/emulator.js';
import type { SquareContent } from '../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../src/emulators/emulatorHost.js';
import { chess960Fen } from '../../src/engine/chess960.js';
import { Game } from '../../src/engine/game.js';
import { generateForGame } from '../../src/engine/handling/generator.js';
import { stepsOfEvents } from '../../src/bridge/simulate/steps.js';
import { type LichessServer, startLichessServer } from '../support/lichessServer.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { extractGames } from '../support/pgnExtract.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir } from '../support/pty.js';
import {
  killAllDaemons,
  startDaemon,
  subscribe,
  waitFor,
  type DaemonProcess,
  type Subscriber,
} from './support.js';

const BASE = 'c960';
const SPEED = 8;
const TOKEN = 'lip_c960';
const ROUND_ID = 'c960c960';
/** BQNBRNKR: after Ne3 Ne6 the rook on h1 castles alone, over the king on g1, to f1. */
const START = chess960Fen(97) ?? '';
const SANS = ['Ne3', 'Ne6', 'O-O', 'O-O'];

/** How many castlings a PGN text holds. */
const castlings = (pgn: string): number => pgn.match(/\bO-O\b/g)?.length ?? 0;

const squaresOf = (fen: string): SquareContent[] => {
  const board = Chess.fromSetup(parseFen(fen).unwrap()).unwrap().board;
  return Array.from({ length: 64 }, (_, sq): SquareContent => {
    const p = board.get(sq);
    return p ? { kind: 'piece', color: p.color, role: p.role } : { kind: 'empty' };
  });
};

describe('a Chess960 round: the start read off a DGT board, castling, Variant and FEN out', () => {
  let broker: Mosquitto;
  let lichess: LichessServer;
  let pty: EmulatedBoardOnPty;
  let sub: Subscriber;
  let dir: string;
  let daemon: DaemonProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-c960-'));
    broker = await startMosquitto({ persistence: false });
    lichess = await startLichessServer({ token: TOKEN, rounds: [ROUND_ID] });
    const link = makeLinkDir();
    pty = new EmulatedBoardOnPty({
      hostPath: join(link, 'board'),
      devicePath: join(link, 'emulator'),
      emulator: new DgtBoardEmulator({ serial: '09601', squares: squaresOf(START) }),
      speed: SPEED,
    });
    await pty.start();
    adoptPtyPair(pty.pair, link);
    sub = await subscribe(broker.url, [`${BASE}/games/+`, `${BASE}/games/+/pgn`], 'c960-sub');
    await writeFile(join(dir, 'lichess-token'), `${TOKEN}\n`);
    await writeFile(
      join(dir, 'round.csv'),
      'round,board,white,black,board_serial,chess960\n1,1,"Alpha, Anna","Bravo, Ben",09601,board\n',
    );
    const config = join(dir, 'venue.yaml');
    await writeFile(
      config,
      stringify({
        version: 1,
        tournament: { name: 'Fischer Random Open', rounds: 1, pairingsFile: 'round.csv' },
        laws: { edition: 'E23', gameType: 'rapid', timeControl: '15+10' },
        journal: { dir: join(dir, 'journal'), checkpointSeconds: 2 },
        mqtt: { url: broker.url, baseTopic: BASE, clientId: 'c960' },
        http: { enabled: false },
        broadcast: {
          folder: join(dir, 'live'),
          lichess: {
            url: lichess.url,
            rounds: [{ round: 1, id: ROUND_ID }],
            tokenFile: join(dir, 'lichess-token'),
          },
        },
        boards: [{ id: 'b-1', driver: 'dgt', port: pty.hostPath, serial: '09601', clock: true }],
        logging: { level: 'info', format: 'json' },
      }),
    );
    daemon = startDaemon(config);
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await pty.runner.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await lichess.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('plays Ne3 Ne6 O-O O-O and publishes Variant and FEN everywhere', async () => {
    const snapshot = () =>
      JSON.parse(sub.latest(`${BASE}/games/r1-b1`) ?? '{}') as {
        variant?: string;
        start_fen?: string;
        moves?: string[];
      };
    await waitFor(
      () => snapshot().variant === 'chess960',
      30_000,
      () => `the Chess960 game on the board (${daemon.output().slice(-2000)})`,
    );
    expect(snapshot().start_fen).toBe(START);

    let game = Game.fromFen(START, { chess960: true }).unwrap();
    for (const san of SANS) game = game.playSan(san).unwrap();
    const run = generateForGame(game, {
      seed: 960,
      clock: 'press',
      tempo: 'blitz',
      settleMs: Math.ceil(300 * SPEED * 1.3),
      tailMs: 0,
    });
    await pty.runner.play([
      { at: 0, kind: 'clock-set', left: 900_000, right: 900_000, run: 'left', incrementMs: 10_000 },
      ...stepsOfEvents(run.events, { startAt: 1000 }),
    ]);
    await waitFor(
      () => snapshot().moves?.length === SANS.length,
      30_000,
      () => `four plies (${JSON.stringify(snapshot())})`,
    );
    expect(snapshot().moves).toEqual(SANS);

    // The live PGN: Variant, SetUp and FEN before the first move.
    const pgn = sub.latest(`${BASE}/games/r1-b1/pgn`) ?? '';
    const first = pgn.indexOf('1. Ne3');
    expect(first).toBeGreaterThan(0);
    for (const tag of ['[Variant "Chess960"]', '[SetUp "1"]', `[FEN "${START}"]`]) {
      expect(pgn.indexOf(tag), tag).toBeGreaterThanOrEqual(0);
      expect(pgn.indexOf(tag), tag).toBeLessThan(first);
    }

    // The folder export: pgn-extract reads it without a warning, from the Chess960 start.
    const file = join(dir, 'live', 'round-1', 'game-1.pgn');
    await waitFor(
      () => existsSync(file) && castlings(readFileSync(file, 'utf8')) === 2,
      15_000,
      'the exported game with both castlings',
    );
    const extracted = extractGames(file);
    expect(extracted.errors).toEqual([]);
    expect(extracted.games.map(g => [g.plies, g.tags['Variant'], g.tags['FEN']])).toEqual([
      [4, 'Chess960', START],
    ]);

    // The push bodies replay with chessops from their FEN.
    await waitFor(
      () => lichess.pushes.some(p => castlings(p.body) === 2),
      15_000,
      'a push with both castlings',
    );
    for (const push of lichess.pushes) {
      expect(push.status, push.body).toBe(200);
      expect(push.games.map(g => g.error).filter(e => e !== undefined)).toEqual([]);
      expect(push.body).toContain('[Variant "Chess960"]');
    }
    expect(Math.max(...lichess.pushes.flatMap(p => p.games.map(g => g.plies)))).toBe(4);
    expect(await daemon.stop()).toBe(0);
  }, 90_000);
});
