/**
 * The daemon with boards other than DGT.
 *
 * Millennium and Certabo, for real: the daemon runs as a child process (`chessbridge run -c
 * FILE`, a configuration written per test) against a real mosquitto; a Millennium emulator (in
 * its factory mode, streaming every scan) and a Certabo emulator (an RFID set with noise on empty
 * squares, no calibration stored) are served on socat PTY pairs through serialport. Each plays a
 * real game with human handling (slides, captures in every order, ghosts; no clock, as these
 * boards have none); a subscriber must receive exactly the moves played, and the end. The Certabo
 * board is calibrated from the start position into its default file under the journal folder,
 * and a second daemon reloads that file instead of calibrating again. A Chessnut board configured
 * by a serial number no device has is reported lost while the others play.
 *
 * Chessnut: no real HID device can exist here, so the Chessnut part runs the daemon in-process
 * with the board opener of `chessbridge run`, whose HID backend is given the in-memory HID device
 * (src/drivers/transport/hidMemory.ts, the Chessnut emulator behind it) instead of node-hid. The
 * real HidTransport, the lookup by serial number, the Chessnut session and the daemon pipeline
 * run as in production; a game's moves must arrive over MQTT, and LED requests reach the board.
 * When node-hid cannot load, a Chessnut board reports why and how to fix it, logged once, while
 * a Millennium board on a real PTY in the same daemon plays on.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Result } from '@badrap/result';
import { Chess, SquareSet } from 'chessops';
import { parseSan } from 'chessops/san';
import { connect, type MqttClient } from 'mqtt';
import { asyncScheduler, NEVER, Subject, type Subscription } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type Config, loadConfig, parseConfig } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { DEMO_GAMES, sansOf } from '../../src/bridge/simulate/demoGames.js';
import { calibrationFileOf, findChessnut, makeBoardOpener } from '../../src/bridge/daemon/drivers.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { BoardLeds } from '../../src/bridge/daemon/leds.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import { parseCalibration } from '../../src/drivers/certabo/calibration.js';
import { CertaboEmulator } from '../../src/drivers/certabo/emulator.js';
import { certaboBoard } from '../../src/drivers/certabo/emulatorRunner.js';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { MillenniumEmulator } from '../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../src/drivers/millennium/emulatorRunner.js';
import type { Observation } from '../../src/drivers/observation.js';
import { type LedGroup, pieceLetterOf } from '../../src/drivers/observationExtra.js';
import { EmulatedChessnutOnHid } from '../../src/emulators/chessnutHidHost.js';
import type { HidPort } from '../../src/drivers/transport/hid.js';
import {
  type HidBackend,
  type HidDeviceInfo,
  type HidHandle,
  HidUnavailableError,
} from '../../src/drivers/transport/hidBackend.js';
import { SerialBoardOnPty } from '../../src/emulators/serialBoardHost.js';
import { generateHandling } from '../../src/engine/handling/index.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir } from '../support/pty.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  subscribe,
  waitFor,
  within,
  type DaemonProcess,
  type Subscriber,
  type WireEvent,
} from './support.js';

/** Players act this many times faster than real time; the daemon's settle window stays real. */
const SPEED = 6;
const SETTLE_MS = 300;

const OPERA = DEMO_GAMES[0]!; // 33 plies, queenside castling, mate
const LASKER = DEMO_GAMES[4]!; // 35 plies, kingside castling, a king walk, mate (no promotion:
// a Certabo set learns only the 32 pieces of the start position)
const LEGAL = DEMO_GAMES[5]!; // 13 plies, mate

/** The emulator steps of a game played with human handling and no clock. */
const stepsOfGame = (sans: readonly string[], seed: number, speed = SPEED): ScriptStep[] => {
  const pos = Chess.default();
  const moves = sans.map(san => {
    const m = parseSan(pos, san);
    if (m === undefined) throw new Error(`illegal ${san}`);
    pos.play(m);
    return m;
  });
  const run = generateHandling(Chess.default(), moves, {
    seed,
    clock: 'none',
    tempo: 'rapid',
    settleMs: Math.ceil(SETTLE_MS * speed * 1.3),
    tailMs: 0,
  });
  return run.events.flatMap((e): ScriptStep[] => {
    if (e.kind !== 'square') return [];
    const piece =
      typeof e.piece === 'string'
        ? 'empty'
        : pieceLetterOf({ kind: 'piece', color: e.piece.color, role: e.piece.role });
    if (piece === undefined) throw new Error(`no letter for ${JSON.stringify(e.piece)}`);
    return [{ at: 500 + e.at, kind: 'square', square: e.square, piece }];
  });
};

const ended = (events: readonly WireEvent[]): WireEvent | undefined => events.find(e => e.type === 'end');

describe('the configuration of these boards', () => {
  it('the example venue file loads, and the calibration field is checked', async () => {
    const example = join(import.meta.dirname, '..', '..', 'config', 'other-boards.yaml');
    const r = await loadConfig({ path: example });
    if (r.isErr) throw new Error(r.error.message);
    expect(r.value.boards.map(b => b.driver)).toEqual([
      'millennium',
      'certabo',
      'certabo',
      'chessnut',
      'chessnut',
    ]);
    const [m1, c1, c2] = r.value.boards;
    expect(calibrationFileOf(c1!, 'x')).toBe('/var/lib/chessbridge/certabo/set-a.json');
    expect(calibrationFileOf(c2!, join('/var/lib/chessbridge/journal', 'calibration'))).toBe(
      '/var/lib/chessbridge/journal/calibration/c-2.json',
    );
    expect(m1?.calibration).toBeUndefined();

    const bad = parseConfig(
      [
        'boards:',
        '  - { id: m1, driver: millennium, port: /dev/a, calibration: m.json }',
        '  - { id: c1, driver: certabo, port: /dev/b, calibration: set.json }',
        '  - { id: c2, driver: certabo, port: /dev/c, calibration: set.json }',
      ].join('\n'),
    );
    expect(bad.isErr && bad.error.problems).toEqual([
      'boards[0].calibration: only certabo boards have one (driver is millennium) (line 2)',
      'boards[2].calibration: set.json is also the calibration of boards[1] (c1) (line 4)',
    ]);
  });

  it('findChessnut picks the vendor interface by path or by serial number', () => {
    const info = (o: Partial<HidDeviceInfo>): HidDeviceInfo => ({
      path: '/dev/hidraw0',
      vendorId: 0x2d80,
      productId: 0x8001,
      release: 0x100,
      interface: 0,
      usagePage: 0xff00,
      ...o,
    });
    const keyboard = info({ path: '/dev/hidraw1', usagePage: 0x0001, serialNumber: 'CN-1' });
    const air = info({ path: '/dev/hidraw2', serialNumber: 'CN-1' });
    const mouse = info({ path: '/dev/hidraw3', vendorId: 0x046d, productId: 0xc077, serialNumber: 'CN-2' });
    const devices = [keyboard, air, mouse];
    expect(findChessnut(devices, { port: undefined, serial: 'CN-1' })).toBe(air);
    expect(findChessnut(devices, { port: '/dev/hidraw2', serial: undefined })).toBe(air);
    expect(findChessnut(devices, { port: undefined, serial: 'CN-2' })).toBeUndefined();
    expect(findChessnut(devices, { port: '/dev/hidraw1', serial: undefined })).toBeUndefined();
  });
});

describe('Millennium and Certabo on PTYs, the daemon as a child process', () => {
  const BASE = 'otherboards';
  let broker: Mosquitto;
  let dir: string;
  let sub: Subscriber;
  let millennium: SerialBoardOnPty;
  let certabo: SerialBoardOnPty;
  let certaboCore: CertaboEmulator;
  let configPath: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-otherboards-'));
    broker = await startMosquitto({ persistence: false });
    const links = makeLinkDir();
    millennium = new SerialBoardOnPty({
      hostPath: join(links, 'millennium'),
      devicePath: join(links, 'millennium-emu'),
      board: millenniumBoard(new MillenniumEmulator()),
      speed: SPEED,
    });
    certaboCore = new CertaboEmulator({ noise: { seed: 5, squares: 6 } });
    certabo = new SerialBoardOnPty({
      hostPath: join(links, 'certabo'),
      devicePath: join(links, 'certabo-emu'),
      board: certaboBoard(certaboCore, { frameMs: 250 }),
      serial: { baudRate: 38400 },
      speed: SPEED,
    });
    for (const b of [millennium, certabo]) {
      await b.start();
      adoptPtyPair(b.pair, links);
    }
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/boards/+/state`],
      'otherboards-sub',
    );
    configPath = join(dir, 'venue.yaml');
    await writeFile(
      configPath,
      stringify({
        version: 1,
        tournament: { name: 'other boards', rounds: 1 },
        laws: { edition: 'E23', gameType: 'rapid', timeControl: '15+10' },
        journal: { dir: join(dir, 'journal'), checkpointSeconds: 2 },
        mqtt: { url: broker.url, baseTopic: BASE, clientId: 'otherboards' },
        http: { enabled: false },
        boards: [
          { id: 'b-mil', driver: 'millennium', port: millennium.hostPath, serial: 'MIL-1' },
          { id: 'b-cer', driver: 'certabo', port: certabo.hostPath, serial: 'CER-1' },
          { id: 'b-cn', driver: 'chessnut', serial: 'CN-ABSENT' },
        ],
        pairings: [
          { round: 1, board: 1, serial: 'MIL-1', white: { name: OPERA.white }, black: { name: OPERA.black } },
          {
            round: 1,
            board: 2,
            serial: 'CER-1',
            white: { name: LASKER.white },
            black: { name: LASKER.black },
          },
        ],
        logging: { level: 'info', format: 'json' },
      }),
    );
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await millennium.stop();
    await certabo.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const logged = (daemon: DaemonProcess, text: string): boolean =>
    daemon.logs().some(l => l.msg.includes(text));

  it('each board plays a real game with human handling; the moves arrive exactly; the calibration is stored and reloaded', async () => {
    const daemon = startDaemon(configPath);
    const events = (game: string) => sub.firstArrivals().get(game) ?? [];
    await waitFor(
      () =>
        events('r1-b1').length > 0 ||
        sub.latest(`${BASE}/boards/b-mil/state`)?.includes('"game":"r1-b1"') === true,
      60_000,
      () => `the Millennium game to start (daemon output: ${daemon.output().slice(-4000)})`,
    );
    await waitFor(
      () => sub.latest(`${BASE}/boards/b-cer/state`)?.includes('"game":"r1-b2"') === true,
      60_000,
      () =>
        `the Certabo board calibrated and its game started (daemon output: ${daemon.output().slice(-4000)})`,
    );
    expect(logged(daemon, 'b-cer: calibrating: set up the start position')).toBe(true);
    expect(logged(daemon, 'b-cer: calibration learned (32 tags')).toBe(true);

    const opera = sansOf(OPERA);
    const lasker = sansOf(LASKER);
    await within(
      90_000,
      Promise.all([
        millennium.runner.play(stepsOfGame(opera, 11)),
        certabo.runner.play(stepsOfGame(lasker, 12)),
      ]),
      () =>
        `both emulators to play their games (Millennium so far: ${movesFromEvents(events('r1-b1')).join(' ')}; daemon output: ${daemon.output().slice(-4000)})`,
    );
    await waitFor(
      () => ended(events('r1-b1')) !== undefined && ended(events('r1-b2')) !== undefined,
      20_000,
      () =>
        `both games over (Millennium: ${movesFromEvents(events('r1-b1')).join(' ')}; Certabo: ${movesFromEvents(events('r1-b2')).join(' ')}; daemon output: ${daemon.output().slice(-4000)})`,
    );
    for (const [game, sans] of [
      ['r1-b1', opera],
      ['r1-b2', lasker],
    ] as const) {
      const got = events(game);
      expect(movesFromEvents(got), game).toEqual(sans);
      expect(
        got.map(e => e.seq),
        game,
      ).toEqual(got.map((_, i) => i + 1));
      expect(ended(got)?.result, game).toBe('1-0');
      expect(
        got.filter(e => ['illegal_move', 'illegal_position', 'board_mismatch'].includes(e.code ?? '')),
        game,
      ).toEqual([]);
    }
    // The Chessnut board with no device: reported lost with the reason, the other boards played on.
    expect(JSON.parse(sub.latest(`${BASE}/boards/b-cn/state`) ?? '{}')).toMatchObject({ link: 'lost' });
    expect(logged(daemon, 'no Chessnut board with serial number CN-ABSENT')).toBe(true);
    expect(await daemon.stop()).toBe(0);

    // The calibration was saved under the journal folder: the 32 tags of the set, each the right piece.
    const file = join(dir, 'journal', 'calibration', 'b-cer.json');
    const stored = parseCalibration(await readFile(file, 'utf8')).unwrap();
    expect(Object.keys(stored.pieces)).toHaveLength(32);
    for (const [tag, letter] of Object.entries(stored.pieces))
      expect(certaboCore.calibration.pieces[tag]).toBe(letter);

    // A second daemon loads it and connects without calibrating again.
    const again = startDaemon(configPath);
    await waitFor(
      () => logged(again, 'board b-cer: connected'),
      20_000,
      () => `the Certabo board connected again (daemon output: ${again.output().slice(-1500)})`,
    );
    expect(logged(again, `b-cer: calibration loaded from ${file} (32 tags)`)).toBe(true);
    expect(logged(again, 'b-cer: calibrating')).toBe(false);
    expect(await again.stop()).toBe(0);
  }, 330_000);
});

/** A node-hid handle over an in-process HID device (what `HIDAsync.open` gives for a real one). */
const handleOver = (port: HidPort): HidHandle => {
  const data: ((d: Uint8Array) => void)[] = [];
  const errors: ((e: unknown) => void)[] = [];
  const reading: Subscription = port.bytes$.subscribe({
    next: chunk => data.forEach(l => l(chunk.bytes)),
    error: (e: unknown) => errors.forEach(l => l(e)),
  });
  return {
    on(event: 'data' | 'error', listener: (value: never) => void): unknown {
      // node-hid's overloads: 'data' listeners take a report, 'error' listeners anything.
      if (event === 'data') data.push(listener as (d: Uint8Array) => void);
      else errors.push(listener as (e: unknown) => void);
      return this;
    },
    write: async values => {
      await port.write(Uint8Array.from(values));
      return values.length;
    },
    close: async () => {
      reading.unsubscribe();
      await port.close();
    },
  };
};

/** A HID backend listing the in-process Chessnut devices (and a mouse), opening them by path. */
const backendOver = (boards: readonly EmulatedChessnutOnHid[]): HidBackend => {
  const mouse: HidDeviceInfo = {
    path: 'hid-memory:mouse',
    vendorId: 0x046d,
    productId: 0xc077,
    release: 1,
    interface: 0,
  };
  return {
    name: 'in-process HID devices',
    devices: () => Promise.resolve([mouse, ...boards.map(b => b.port.info).filter(i => i !== undefined)]),
    open: path => {
      const board = boards.find(b => b.port.path === path);
      return board === undefined
        ? Promise.reject(new Error(`cannot open ${path}`))
        : Promise.resolve(handleOver(board.port));
    },
  };
};

const now = (): number => performance.timeOrigin + performance.now();

describe('Chessnut through the daemon in-process (in-memory HID device behind the real HidTransport)', () => {
  let dir: string;
  const stops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-chessnut-'));
  });
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
    await closeAllPtyPairs();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // The subscriber logs in as a reader (the embedded broker admits only users).
  const WATCH_SECRET = 'other boards watch 2026';
  process.env.OTHER_BOARDS_WATCH_SECRET = WATCH_SECRET;
  const configOf = async (
    name: string,
    boards: readonly object[],
    pairings: readonly object[],
  ): Promise<Config> =>
    (
      await loadConfig({
        text: stringify({
          tournament: { name },
          laws: { gameType: 'rapid', timeControl: '15+10' },
          journal: { dir: join(dir, name), checkpointSeconds: 1 },
          mqtt: { clientId: name },
          users: [{ name: 'watch', role: 'display', passwordEnv: 'OTHER_BOARDS_WATCH_SECRET' }],
          http: { enabled: false },
          boards,
          pairings,
        }),
      })
    ).unwrap();

  /** The daemon in-process with an embedded broker on a free port, and a subscriber on it. */
  const run = async (
    config: Config,
    opener: Parameters<typeof makeBoardOpener>[0]['hid'],
    leds$?: Subject<readonly LedGroup[]> | BoardLeds,
  ) => {
    const { logger, lines } = memoryLogger('info');
    const daemon = new Daemon({
      config,
      log: logger,
      engine: engineSupervisor(),
      scheduler: asyncScheduler,
      now,
      version: '0.0.0-test',
      openBoard: makeBoardOpener({
        now,
        scheduler: asyncScheduler,
        log: logger.child('bridge:drivers'),
        boards: config.boards,
        calibrationDir: join(config.journal.dir, 'calibration'),
        ...(opener === undefined ? {} : { hid: opener }),
        ...(leds$ === undefined
          ? {}
          : { leds: leds$ instanceof BoardLeds ? board => leds$.of(board.id) : () => leds$ }),
      }),
      ...(leds$ instanceof BoardLeds ? { leds: leds$ } : {}),
      brokerPorts: { port: 0, wsPort: 0 },
    });
    await daemon.start();
    const subscription = daemon.pipeline$().subscribe();
    stops.push(async () => {
      subscription.unsubscribe();
      await daemon.stop();
    });
    const client: MqttClient = connect(daemon.addresses?.mqtt ?? '', {
      clientId: `${config.mqtt.clientId}-watch`,
      username: 'watch',
      password: WATCH_SECRET,
    });
    stops.push(() => client.endAsync());
    const seen: { topic: string; payload: string }[] = [];
    client.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString() }));
    await client.subscribeAsync('chessbridge/#', { qos: 1 });
    const events = (game: string): WireEvent[] =>
      seen
        .filter(m => m.topic === `chessbridge/games/${game}/events`)
        .map(m => JSON.parse(m.payload) as WireEvent);
    const boardState = (board: string) =>
      JSON.parse(
        seen.filter(m => m.topic === `chessbridge/boards/${board}/state`).at(-1)?.payload ?? '{}',
      ) as {
        link?: string;
        game?: string | null;
      };
    return { daemon, lines, events, boardState };
  };

  it('a Chessnut board found by its serial number plays a game; the moves arrive over MQTT; LED requests reach it', async () => {
    const chessnut = new EmulatedChessnutOnHid({ info: { serialNumber: 'CN-AIR-7781' }, speed: SPEED });
    chessnut.start();
    stops.push(() => chessnut.stop());
    const config = await configOf(
      'chessnut',
      [{ id: 'b-cn', driver: 'chessnut', serial: 'CN-AIR-7781' }],
      [
        {
          round: 1,
          board: 1,
          serial: 'CN-AIR-7781',
          white: { name: LEGAL.white },
          black: { name: LEGAL.black },
        },
      ],
    );
    const leds$ = new Subject<readonly LedGroup[]>();
    const backend = backendOver([chessnut]);
    const { events, boardState } = await run(config, () => Promise.resolve(Result.ok(backend)), leds$);
    await waitFor(() => boardState('b-cn').game === 'r1-b1', 15_000, 'the Chessnut game to start');
    expect(boardState('b-cn').link).toBe('connected');
    expect(chessnut.core.started).toBe(true);

    const sans = sansOf(LEGAL);
    await chessnut.runner.play(stepsOfGame(sans, 21));
    await waitFor(
      () => ended(events('r1-b1')) !== undefined,
      15_000,
      `the end (${movesFromEvents(events('r1-b1')).join(' ')})`,
    );
    expect(movesFromEvents(events('r1-b1'))).toEqual(sans);
    expect(ended(events('r1-b1'))?.result).toBe('1-0');

    // LED requests for the board (the squares to fix, say) are lit on it; an empty list clears them.
    const squares = SquareSet.fromSquare(12).with(28);
    leds$.next([{ squares, style: 'steady' }]);
    await waitFor(() => chessnut.core.litSquares.equals(squares), 5000, 'the LEDs lit');
    leds$.next([]);
    await waitFor(() => chessnut.core.litSquares.isEmpty(), 5000, 'the LEDs off');
    // Nothing that would read (and delete) the games stored on the board was ever sent.
    expect(chessnut.core.forbiddenLog).toEqual([]);
  }, 60_000);

  it('after an illegal move the daemon lights the square to fix on the board; the next move clears it', async () => {
    const chessnut = new EmulatedChessnutOnHid({ info: { serialNumber: 'CN-AIR-7782' }, speed: SPEED });
    chessnut.start();
    stops.push(() => chessnut.stop());
    const config = await configOf(
      'chessnut-leds',
      [{ id: 'b-cn', driver: 'chessnut', serial: 'CN-AIR-7782' }],
      [{ round: 1, board: 1, serial: 'CN-AIR-7782', white: { name: 'W' }, black: { name: 'B' } }],
    );
    const leds = new BoardLeds();
    const backend = backendOver([chessnut]);
    const { events, boardState, lines } = await run(config, () => Promise.resolve(Result.ok(backend)), leds);
    await waitFor(() => boardState('b-cn').game === 'r1-b1', 15_000, 'the Chessnut game to start');
    await chessnut.runner.play(stepsOfGame(['e4'], 41));
    await waitFor(() => movesFromEvents(events('r1-b1')).length === 1, 10_000, '1. e4');
    expect(chessnut.core.litSquares.isEmpty()).toBe(true);

    // Black puts the g8 knight on g5, which no knight can reach: the square blinks on the board. (The
    // supervisor's illegal-position or board-mismatch alert; both carry the squares. These are the
    // MQTT events, so their codes are the wire codes of wireAlertCode: illegal_position, board_mismatch.)
    const TO_FIX = ['illegal_position', 'board_mismatch'];
    const g8 = 62;
    const g5 = 38;
    const wrong: ScriptStep[] = [
      { at: 0, kind: 'square', square: g8, piece: 'empty' },
      { at: 600, kind: 'square', square: g5, piece: 'n' },
    ];
    await chessnut.runner.play(wrong);
    await waitFor(
      () => events('r1-b1').some(e => e.type === 'alert' && TO_FIX.includes(String(e['code']))),
      10_000,
      `an alert with the squares to fix (${lines.join('\n')})`,
    );
    await waitFor(() => chessnut.core.litSquares.has(g5), 5000, 'g5 lit on the board');
    expect(leds.current('b-cn').length).toBe(1);

    // The knight goes back and Black plays 1...e5: the LEDs go out.
    await chessnut.runner.play([
      { at: 0, kind: 'square', square: g5, piece: 'empty' },
      { at: 600, kind: 'square', square: g8, piece: 'n' },
    ]);
    await chessnut.runner.play([
      { at: 1500, kind: 'square', square: 52, piece: 'empty' },
      { at: 2100, kind: 'square', square: 36, piece: 'p' },
    ]);
    await waitFor(() => movesFromEvents(events('r1-b1')).length === 2, 10_000, '1...e5');
    expect(movesFromEvents(events('r1-b1'))).toEqual(['e4', 'e5']);
    await waitFor(() => chessnut.core.litSquares.isEmpty(), 5000, 'the LEDs off');
  }, 60_000);

  it('when node-hid cannot load, the Chessnut board says why and how to fix it, once; a Millennium board plays on', async () => {
    const links = makeLinkDir();
    const millennium = new SerialBoardOnPty({
      hostPath: join(links, 'millennium'),
      devicePath: join(links, 'millennium-emu'),
      board: millenniumBoard(new MillenniumEmulator()),
      speed: SPEED,
    });
    await millennium.start();
    adoptPtyPair(millennium.pair, links);
    stops.push(() => millennium.stop());
    const config = await configOf(
      'nohid',
      [
        { id: 'b-cn', driver: 'chessnut', serial: 'CN-AIR-7781' },
        { id: 'b-mil', driver: 'millennium', port: millennium.hostPath, serial: 'MIL-2' },
      ],
      [{ round: 1, board: 1, serial: 'MIL-2', white: { name: LEGAL.white }, black: { name: LEGAL.black } }],
    );
    let loads = 0;
    const failing = () => {
      loads++;
      return Promise.resolve(
        Result.err(
          new HidUnavailableError(
            { kind: 'load-failed', detail: 'libusb-1.0.so.0: cannot open shared object file' },
            'linux',
          ),
        ),
      );
    };
    const { lines, events, boardState } = await run(config, failing);
    await waitFor(() => boardState('b-mil').game === 'r1-b1', 15_000, 'the Millennium game to start');
    const sans = sansOf(LEGAL);
    await millennium.runner.play(stepsOfGame(sans, 31));
    await waitFor(
      () => ended(events('r1-b1')) !== undefined,
      15_000,
      `the end (${movesFromEvents(events('r1-b1')).join(' ')})`,
    );
    expect(movesFromEvents(events('r1-b1'))).toEqual(sans);

    expect(boardState('b-cn').link).toBe('lost');
    const errors = lines.filter(l => l.includes('b-cn: cannot open the Chessnut board'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('cannot load node-hid: libusb-1.0.so.0: cannot open shared object file');
    expect(errors[0]).toContain('Fix: node-hid needs libusb-1.0 or the hidraw backend on Linux');
    expect(lines.some(l => l.includes('board b-cn: lost (cannot load node-hid'))).toBe(true);
    // Loaded once, not retried in a loop: the board stays lost until the daemon is restarted.
    expect(loads).toBe(1);
  }, 60_000);

  it('the opener alone: a Chessnut board without port or serial is refused with a message', async () => {
    const { logger } = memoryLogger('info');
    const open = makeBoardOpener({ now, scheduler: asyncScheduler, log: logger, boards: [] });
    const config = await configOf('noboard', [{ id: 'x', driver: 'chessnut', port: '/dev/nothing' }], []);
    const board = { ...config.boards[0]!, port: undefined };
    const seen: (Observation | Error)[] = [];
    open(board, NEVER).subscribe({ next: o => seen.push(o), error: (e: Error) => seen.push(e) });
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe('x: a Chessnut board needs a port or a serial number');
  });
});
