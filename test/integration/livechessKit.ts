/**
 * What the LiveChess API tests share: the daemon in-process (embedded broker on free ports, HTTP
 * off, `livechess.enabled` on a free port) reading one emulated board on a socat PTY pair, DGT or
 * Millennium, with two users (an arbiter and a display) and home use on; and a WebSocket client
 * that keeps every message and waits for the one it needs.
 *
 *   const venue = await startLiveChessVenue('dgt', dir);
 *   const page = await LcClient.open(venue.url);
 *   page.send({ id: 1, call: 'eboards' });
 *   const reply = await page.next(m => m.id === 1, 'the eboards reply');
 *   await venue.play([move('e2', 'e4', 'P')]);
 *   await venue.stop();
 */
import { join } from 'node:path';
import { asyncScheduler, type Subscription } from 'rxjs';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import { DgtBoardEmulator, type PieceLetter } from '../../src/drivers/dgt/emulator.js';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { MillenniumEmulator } from '../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../src/drivers/millennium/emulatorRunner.js';
import { EmulatedBoardOnPty } from '../../src/emulators/emulatorHost.js';
import { SerialBoardOnPty } from '../../src/emulators/serialBoardHost.js';
import { adoptPtyPair, makeLinkDir } from '../support/pty.js';
import { waitFor } from '../support/mosquitto.js';

export { LcClient, type LcMessage } from '../support/liveChessClient.js';

export const ARBITER = { user: 'anna', secret: 'livechess arbiter 2026' };
export const DISPLAY = { user: 'wall', secret: 'livechess display 2026' };
process.env.LIVECHESS_TEST_ARBITER = ARBITER.secret;
process.env.LIVECHESS_TEST_DISPLAY = DISPLAY.secret;

export type Family = 'dgt' | 'millennium';

const now = (): number => performance.timeOrigin + performance.now();

const SQUARES = 'abcdefgh';
const squareOf = (name: string): number => SQUARES.indexOf(name[0] ?? '') + 8 * (Number(name[1]) - 1);

/** A piece lifted from one square and set down on another, `gap` ms apart. */
export const move = (from: string, to: string, piece: PieceLetter, gap = 150): ScriptStep[] => [
  { at: 0, kind: 'square', square: squareOf(from), piece: 'empty' },
  { at: gap, kind: 'square', square: squareOf(to), piece },
];

export interface LiveChessVenue {
  readonly daemon: Daemon;
  readonly url: string;
  readonly boardId: string;
  readonly serial: string;
  play(steps: readonly ScriptStep[]): Promise<void>;
  lines(): readonly string[];
  stop(): Promise<void>;
}

export const startLiveChessVenue = async (
  family: Family,
  dir: string,
  livechess: Record<string, unknown> = {},
  /** More of the venue's config (top-level sections), e.g. a broadcast delay. */
  more: Record<string, unknown> = {},
): Promise<LiveChessVenue> => {
  const links = makeLinkDir();
  const hostPath = join(links, family);
  const devicePath = join(links, `${family}-emu`);
  const serial = family === 'dgt' ? '24100' : 'MIL-7';
  const board =
    family === 'dgt'
      ? new EmulatedBoardOnPty({ hostPath, devicePath, emulator: new DgtBoardEmulator({ serial }), speed: 1 })
      : new SerialBoardOnPty({
          hostPath,
          devicePath,
          board: millenniumBoard(new MillenniumEmulator()),
          speed: 1,
        });
  await board.start();
  adoptPtyPair(board.pair, links);
  const boardId = `b-${family}`;
  const config = (
    await loadConfig({
      text: stringify({
        tournament: { name: `livechess-${family}` },
        journal: { dir: join(dir, family), checkpointSeconds: 1 },
        mqtt: { clientId: `livechess-${family}` },
        http: { enabled: false },
        users: [
          { name: ARBITER.user, role: 'arbiter', passwordEnv: 'LIVECHESS_TEST_ARBITER' },
          { name: DISPLAY.user, role: 'display', passwordEnv: 'LIVECHESS_TEST_DISPLAY' },
        ],
        livechess: { enabled: true, home: true, ...livechess },
        ...more,
        boards: [
          family === 'dgt'
            ? { id: boardId, driver: 'dgt', port: hostPath }
            : { id: boardId, driver: 'millennium', port: hostPath, serial },
        ],
      }),
    })
  ).unwrap();
  const { logger, lines } = memoryLogger('info');
  const daemon = new Daemon({
    config,
    log: logger,
    engine: engineSupervisor(),
    scheduler: asyncScheduler,
    now,
    version: '0.0.0-test',
    brokerPorts: { port: 0, wsPort: 0 },
    livechessPort: 0,
  });
  let sub: Subscription | undefined;
  const stop = async (): Promise<void> => {
    sub?.unsubscribe();
    await daemon.stop();
    await board.stop();
  };
  try {
    await daemon.start();
    sub = daemon.pipeline$().subscribe();
    await waitFor(
      () => {
        const s = daemon.boards?.get(boardId)?.status;
        return s?.link === 'connected' && s.squares !== undefined;
      },
      15_000,
      `board ${boardId} connected`,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    daemon,
    url: daemon.addresses?.livechess ?? '',
    boardId,
    serial,
    play: steps => board.runner.play(steps),
    lines: () => lines,
    stop,
  };
};
