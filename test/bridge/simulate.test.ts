/**
 * `chessbridge simulate`: its options are checked with clear errors; and, end to end, the
 * simulator (a child process) serves three boards on socat PTYs (a bus line of two and a board on
 * its own line) playing real games from a PGN corpus, a daemon (another child process) runs on the
 * configuration it wrote, and a subscriber at a real mosquitto receives every move of every game
 * exactly as in the PGN, and each game's end as the simulator played it (checkmate, or the
 * players' result gesture).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli, type SimulateRequest } from '../../src/bridge/cli/cli.js';
import { GameLibrary, type SimGame } from '../../src/bridge/simulate/games.js';
import { gameScript } from '../../src/bridge/simulate/script.js';
import { stepsOfEvents } from '../../src/bridge/simulate/steps.js';
import { type SimRecord, startSpreadMs } from '../../src/bridge/simulate/venue.js';
import { getProfile } from '../../src/engine/editions.js';
import { decodePgnBytes } from '../../src/engine/pgnRead.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { PROJECT_ROOT, sharedPath } from '../support/shared.js';
import {
  exited,
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startSimulator,
  subscribe,
  waitFor,
  type Subscriber,
  type WireEvent,
} from '../integration/support.js';

const cli = async (argv: string[]) => {
  const err: string[] = [];
  const asked: SimulateRequest[] = [];
  const io: CliIo = {
    readFile: () => Promise.reject(new Error('no files here')),
    out: () => undefined,
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: [],
    runSimulate: r => {
      asked.push(r);
      return Promise.resolve(0);
    },
  };
  const code = await runCli(argv, io);
  return { code, err, asked };
};

describe('chessbridge simulate options', () => {
  it('turns the options into a request, with defaults', async () => {
    const r = await cli(['simulate', '--boards', '3', '--games', 'g.pgn', '--bus', '2', '--once']);
    expect(r.code).toBe(0);
    expect(r.asked).toEqual([
      {
        boards: 3,
        games: 'g.pgn',
        speed: 1,
        bus: 2,
        faults: 0,
        seed: 1,
        rounds: undefined,
        plySeconds: undefined,
        linkMax: false,
        configOut: undefined,
        dir: undefined,
        mqtt: undefined,
        record: undefined,
        once: true,
      },
    ]);
    const all = await cli([
      'simulate',
      '--boards=500',
      '--games=venue.pgn',
      '--speed=2.5',
      '--faults=0.5',
      '--seed=9',
      '--rounds=3',
      '--ply-seconds=25',
      '--config-out=c.yaml',
      '--dir=d',
      '--mqtt=mqtt://h:1883',
      '--record=r.jsonl',
    ]);
    expect(all.asked[0]).toMatchObject({
      boards: 500,
      speed: 2.5,
      faults: 0.5,
      seed: 9,
      rounds: 3,
      plySeconds: 25,
      configOut: 'c.yaml',
      dir: 'd',
      mqtt: 'mqtt://h:1883',
      record: 'r.jsonl',
      once: false,
    });
  });

  it('refuses missing and bad options with exit code 2 and the problem named first', async () => {
    const cases: [string[], string][] = [
      [['--games', 'g.pgn'], 'give the number of boards: --boards N'],
      [['--boards', '3'], 'give the games to play: --games FILE.pgn'],
      [
        ['--boards', '0', '--games', 'g.pgn'],
        '--boards: "0" is not a valid value (a whole number from 1 to 2000)',
      ],
      [
        ['--boards', '2.5', '--games', 'g.pgn'],
        '--boards: "2.5" is not a valid value (a whole number from 1 to 2000)',
      ],
      [
        ['--boards', '3', '--games', 'g.pgn', '--bus', '1'],
        '--bus: "1" is not a valid value (a whole number from 2 to 64)',
      ],
      [
        ['--boards', '3', '--games', 'g.pgn', '--speed', '0'],
        '--speed: "0" is not a valid value (above 0, at most 100)',
      ],
      [
        ['--boards', '3', '--games', 'g.pgn', '--faults', '5'],
        '--faults: "5" is not a valid value (from 0 to 4 faults per game)',
      ],
      [
        ['--boards', '3', '--games', 'g.pgn', '--ply-seconds', 'x'],
        '--ply-seconds: "x" is not a valid value (from 1 to 3600 seconds)',
      ],
      [
        ['--boards', '3', '--games', 'g.pgn', '--link-max', '--speed', '4'],
        '--link-max sets the pace by itself: drop --speed',
      ],
      [
        ['--boards', '3', '--games', 'g.pgn', '--mqtt', 'localhost:1883'],
        '--mqtt: "localhost:1883" is not a broker URL such as mqtt://host:1883',
      ],
      [['--boards', '3', '--games', 'g.pgn', 'extra'], 'unexpected argument "extra"'],
      [['--boards', '3', '--games', 'g.pgn', '--fast'], 'unknown option --fast'],
      [['--boards'], '--boards needs a value'],
    ];
    for (const [args, problem] of cases) {
      const r = await cli(['simulate', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err[0], args.join(' ')).toBe(`chessbridge simulate: ${problem}`);
      expect(r.err[1], args.join(' ')).toMatch(/^usage: chessbridge simulate --boards N --games FILE\.pgn/);
      expect(r.asked).toEqual([]);
    }
  });
});

describe('simulated games and scripts', () => {
  it("spreads the boards' first starts evenly over one second", () => {
    const starts = Array.from({ length: 500 }, (_, i) => startSpreadMs(i, 500));
    expect(starts[0]).toBe(0);
    expect(Math.max(...starts)).toBe(998);
    expect(new Set(starts).size).toBe(500);
    expect(starts.filter(ms => ms < 500)).toHaveLength(250);
    expect(startSpreadMs(0, 1)).toBe(0);
  });

  const examples = ['repetition.pgn', 'dead-position.pgn', 'opera-game.pgn'].map(f =>
    readFileSync(join(PROJECT_ROOT, 'examples', f), 'utf8'),
  );
  const unfinished = '[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n';
  const library = new GameLibrary([...examples, unfinished].join('\n\n'), getProfile('E23', 'rapid'));
  const opera = library.playableFrom(2);

  it('plays standard-start games with a result, cut where the Laws end them', () => {
    expect(library.size).toBe(4);
    // Fivefold repetition ends the game by itself after 8...Ng8 (E23 9.6.1).
    expect(library.at(0)).toMatchObject({ index: 1, ending: { kind: 'rules', result: '1/2-1/2' } });
    expect((library.playableFrom(0) as SimGame).sans).toHaveLength(16);
    expect(library.at(1)).toEqual({ index: 2, reason: 'not from the standard start position' });
    expect(library.at(3)).toEqual({ index: 4, reason: 'no result (*) and the Laws do not end it' });
    // Round-robin skips what cannot be played: after game 4 comes game 1 again.
    expect(library.playableFrom(1)?.index).toBe(3);
    expect(library.playableFrom(3)?.index).toBe(1);
    expect(opera).toMatchObject({ white: 'Morphy, Paul', ending: { kind: 'rules', result: '1-0' } });
    expect(opera?.sans.at(-1)).toBe('Rd8#');
  });

  it('stretches thinking to the pace asked for, and marks the press that completes each ply', () => {
    const g = opera as SimGame;
    const clock = { ms: 5_400_000, incrementMs: 30_000 };
    const script = gameScript(g, {
      seed: 3,
      speed: 1,
      pace: { kind: 'human', plyMs: 25_000 },
      faults: 0,
      clock,
    });
    const presses = script.steps.filter(s => s.kind === 'clock-press');
    expect(presses).toHaveLength(33);
    expect([...script.plyEnds.values()]).toEqual(g.sans.map((_, i) => i + 1));
    expect([...script.plyEnds.keys()]).toEqual(presses);
    const mean = ((presses.at(-1)?.at ?? 0) - (script.steps[0]?.at ?? 0)) / 33;
    expect(mean).toBeGreaterThan(21_000);
    expect(mean).toBeLessThan(29_000);
    expect(script.steps[0]).toMatchObject({
      kind: 'clock-set',
      left: 5_400_000,
      run: 'left',
      incrementMs: 30_000,
    });
    // Boards read without their clock: the ply ends with its last square change.
    const bus = gameScript(g, {
      seed: 3,
      speed: 1,
      pace: { kind: 'human' },
      faults: 0,
      clock,
      board: 7,
      plyEnd: 'square',
    });
    expect([...bus.plyEnds.keys()].every(s => s.kind === 'square' && s.board === 7)).toBe(true);
    expect(bus.steps.every(s => s.board === 7)).toBe(true);
  });

  it('at the link maximum, sends no faster than 9600 baud carries the bytes', () => {
    const g = opera as SimGame;
    const script = gameScript(g, {
      seed: 1,
      speed: 1,
      pace: { kind: 'link-max' },
      faults: 0,
      clock: { ms: 900_000, incrementMs: 10_000 },
    });
    const moves = script.steps.slice(1);
    moves.slice(1).forEach((s, i) => {
      const before = moves[i];
      const bytes = before?.kind === 'clock-press' ? 10 : 5;
      expect(s.at - (before?.at ?? 0)).toBeGreaterThanOrEqual((bytes * 1000) / 960 - 1e-9);
    });
    const presses = moves.filter(s => s.kind === 'clock-press');
    expect(presses).toHaveLength(33);
    // 33 plies of lift, place and press (about 21 ms each at 960 bytes/s), castling a little more.
    expect((presses.at(-1)?.at ?? 0) - (moves[0]?.at ?? 0)).toBeLessThan(1000);
  });

  it('injects faults at the rate asked for, and plays a lost link as a pulled cable', () => {
    const g = opera as SimGame;
    const clock = { ms: 900_000, incrementMs: 10_000 };
    const counts = Array.from(
      { length: 40 },
      (_, seed) =>
        gameScript(g, { seed, speed: 1, pace: { kind: 'human' }, faults: 0.5, clock }).faults.length,
    );
    expect(Math.max(...counts)).toBe(1);
    expect(counts.filter(c => c === 1).length).toBeGreaterThan(10);
    expect(counts.filter(c => c === 1).length).toBeLessThan(30);
    const steps = stepsOfEvents(
      [
        { kind: 'square', at: 0, square: 12, piece: 'empty' },
        { kind: 'link', at: 100, state: 'lost' },
        { kind: 'square', at: 300, square: 28, piece: { color: 'white', role: 'pawn' } },
        { kind: 'link', at: 600, state: 'back' },
        { kind: 'press', at: 700, side: 'white' },
      ],
      { startAt: 1000, reconnectMs: 4000 },
    );
    expect(steps).toEqual([
      { at: 1000, kind: 'square', square: 12, piece: 'empty' },
      { at: 1100, kind: 'disconnect', forMs: 500 },
      { at: 1300, kind: 'square', square: 28, piece: 'P' },
      { at: 5700, kind: 'clock-press', side: 'left' },
    ]);
  });
});

describe('chessbridge simulate against a daemon and mosquitto', () => {
  let broker: Mosquitto | undefined;
  let sub: Subscriber | undefined;
  let simulator: ChildProcess | undefined;
  let dir: string | undefined;

  afterAll(async () => {
    simulator?.kill('SIGINT');
    if (simulator !== undefined) await exited(simulator);
    await killAllDaemons();
    await sub?.close();
    await broker?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('plays a bus line of two boards and a single board: every move arrives as in the PGN, and every end', async () => {
    const pgn = sharedPath('data/pgn/lichess-2013-01-sample.pgn');
    // The first three games: a checkmate, then two resignations the players show with the kings.
    const library = new GameLibrary(decodePgnBytes(readFileSync(pgn)), getProfile('E23', 'rapid'));
    const expected = [0, 1, 2].map(i => library.playableFrom(i));
    expect(expected.map(g => g?.index)).toEqual([1, 2, 3]);
    expect(expected.map(g => g?.ending.kind)).toEqual(['rules', 'gesture', 'gesture']);

    dir = await mkdtemp(join(tmpdir(), 'chessbridge-simulate-test-'));
    broker = await startMosquitto();
    sub = await subscribe(broker.url, ['chessbridge/games/+/events'], 'simulate-test-sub');
    const config = join(dir, 'venue.yaml');
    const record = join(dir, 'record.jsonl');
    const sim = startSimulator([
      '--boards',
      '3',
      '--bus',
      '2',
      '--games',
      pgn,
      '--rounds',
      '1',
      '--speed',
      '8',
      '--faults',
      '0',
      '--once',
      '--dir',
      join(dir, 'lines'),
      '--config-out',
      config,
      '--mqtt',
      broker.url,
      '--record',
      record,
    ]);
    simulator = sim.child;
    await waitFor(() => sim.output().includes('start a daemon'), 30_000, `the simulator (${sim.output()})`);
    expect(sim.output()).toMatch(/3 emulated DGT boards on 2 lines \(1 bus lines of up to 2 boards\)/);
    expect(existsSync(config)).toBe(true);
    const daemon = startDaemon(config);

    expect(await exited(sim.child)).toBe(0);
    const games = ['r1-b1', 'r1-b2', 'r1-b3'];
    const arrivals = (): Map<string, WireEvent[]> => sub?.firstArrivals() ?? new Map<string, WireEvent[]>();
    await waitFor(
      () => games.every(g => (arrivals().get(g) ?? []).some(e => e.type === 'end')),
      20_000,
      `every game's end (daemon: ${daemon.output().slice(-1500)})`,
    );
    expect(await daemon.stop()).toBe(0);
    const daemonLog = daemon.output();

    // The simulator's report and its record.
    expect(sim.output()).toMatch(/sim-1 +\S+bus-1 +1 +25 +0/);
    expect(sim.output()).toMatch(/sim-2 +\S+bus-1 +1 +35 +0/);
    expect(sim.output()).toMatch(/sim-3 +\S+board-3 +1 +21 +0/);
    expect(sim.output()).toMatch(/total: 3 games, 81 plies on 3 boards/);
    const records = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l) as SimRecord);
    games.forEach((game, i) => {
      const want = expected[i];
      const played = records.filter(r => r.game === game);
      const plies = played.flatMap(r => (r.type === 'ply' ? [r] : []));
      expect(
        plies.map(p => p.san),
        game,
      ).toEqual(want?.sans);
      expect(
        plies.map(p => p.ply),
        game,
      ).toEqual(want?.sans.map((_, k) => k + 1));
      expect(played.at(-1), game).toMatchObject({ type: 'game', index: i + 1, sans: want?.sans });

      // What the subscriber got: every event once by seq, in order; the moves the PGN's; then the end.
      const events = arrivals().get(game) ?? [];
      expect(
        events.map(e => e.seq),
        game,
      ).toEqual(events.map((_, k) => k + 1));
      // On a failure, the message says how the game went on the wire and what the daemon logged.
      const story = `${game}: ${events
        .filter(e => e.type !== 'move' && e.type !== 'clock')
        .map(e => JSON.stringify(e))
        .join('\n')}\ndaemon: ${daemonLog
        .split('\n')
        .filter(l => !l.includes(' INFO ') || !/ (\d+\.|\d+\.\.\.) \S+ \(seq \d+\)$/.test(l))
        .filter(l => !/sim-|r\d-b/.test(l) || l.includes(`sim-${i + 1}`) || l.includes(game))
        .join('\n')
        .slice(-6000)}`;
      expect(movesFromEvents(events), story).toEqual(want?.sans);
      expect(
        events.find(e => e.type === 'end'),
        game,
      ).toMatchObject({
        result: want?.ending.result,
        reason: want?.ending.kind === 'rules' ? 'checkmate' : 'gesture',
      });
      // Human handling may draw advice (a touched piece), a bus board a revised move; never an illegal move.
      expect(
        events.filter(e => e.code === 'illegal_move' || e.code === 'board_mismatch'),
        game,
      ).toEqual([]);
    });
  }, 180_000);
});
