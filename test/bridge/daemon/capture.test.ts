/**
 * Recording a board's raw bytes in the daemon (`boards[].capture`): the opener wraps the real
 * serial transport, every read of a DGT board on a socat PTY pair is appended with its time to the
 * capture file, and `chessbridge replay --driver dgt FILE` replays that file into the moves the
 * board played. A capture file that cannot be written is reported once and the board plays on.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { asyncScheduler, NEVER, type Subscription } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../../src/bridge/cli/cli.js';
import { loadConfig } from '../../../src/bridge/config/index.js';
import { makeBoardOpener } from '../../../src/bridge/daemon/drivers.js';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { memoryLogger } from '../../../src/bridge/logger.js';
import { nodeCaptureIo, replayCaptures } from '../../../src/bridge/cli/replay/capture.js';
import { parseCapture } from '../../../src/drivers/capture.js';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { scriptFromSans } from '../../../src/drivers/dgt/emulatorScript.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { EmulatedBoardOnPty } from '../../../src/emulators/emulatorHost.js';
import { decodePgnBytes } from '../../../src/engine/pgnRead.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, waitFor } from '../../support/pty.js';

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-daemon-capture-'));
const running: { board: EmulatedBoardOnPty; sub: Subscription }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.sub.unsubscribe();
    await r.board.stop();
  }
  await closeAllPtyPairs();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SANS = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Bxc6', 'dxc6'];

/** A DGT emulator on a PTY pair, read by the daemon's opener with `capture` set. */
const start = async (capture: string) => {
  const links = makeLinkDir();
  const board = new EmulatedBoardOnPty({
    hostPath: join(links, 'board'),
    devicePath: join(links, 'emulator'),
    emulator: new DgtBoardEmulator({ clock: false }),
    speed: 2,
  });
  await board.start();
  adoptPtyPair(board.pair, dirname(board.hostPath));
  const config = (
    await loadConfig({
      text: JSON.stringify({
        tournament: { name: 'capture' },
        journal: { dir: join(dir, 'journal') },
        boards: [{ id: 'b-01', driver: 'dgt', port: board.hostPath, capture }],
      }),
    })
  ).unwrap();
  const { logger, lines } = memoryLogger('info');
  const open = makeBoardOpener({
    now: () => performance.timeOrigin + performance.now(),
    scheduler: asyncScheduler,
    log: logger,
    boards: config.boards,
  });
  const seen: Observation[] = [];
  const sub = open(config.boards[0]!, NEVER).subscribe(o => seen.push(o));
  running.push({ board, sub });
  await waitFor(() => seen.some(o => o.type === 'link' && o.state === 'connected'), 10_000, 'connected');
  return { board, seen, lines, sub };
};

const cli = async (argv: readonly string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    readFile: () => Promise.reject(new Error('not used')),
    out: l => out.push(l),
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: [],
    replayCaptures: (paths, request) =>
      replayCaptures(
        paths,
        request,
        nodeCaptureIo,
        engineSupervisor(),
        out.push.bind(out),
        err.push.bind(err),
      ),
  };
  return { code: await runCli(argv, io), out, err };
};

describe('boards[].capture in the daemon', () => {
  it('records every read of the line; the capture replays into the moves played', async () => {
    const file = join(dir, 'b-01.capture');
    const { board, seen, lines, sub } = await start(file);
    const game = scriptFromSans(SANS, { plyMs: 900, handMs: 150 }).unwrap();
    await board.runner.play(game.steps);
    await waitFor(
      () => seen.filter(o => o.type === 'square').length >= game.squares.length,
      10_000,
      'every square event',
    );
    sub.unsubscribe(); // closing the port flushes the capture
    await waitFor(() => readFileSync(file, 'utf8').split('\n').length > 10, 5000, 'the capture written');
    expect(lines.some(l => l.includes('recording every read'))).toBe(true);

    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# chessbridge capture of')).toBe(true);
    const reads = parseCapture(text).unwrap();
    const bytes = reads.reduce((n, r) => n + r.bytes.length, 0);
    // Every field update is a 5-byte message; the dump alone is 67 bytes.
    expect(bytes).toBeGreaterThanOrEqual(67 + 5 * game.squares.length);

    const { code, out } = await cli(['replay', '--driver', 'dgt', '--json', file]);
    expect(code).toBe(0);
    const moves = out
      .map(l => JSON.parse(l) as { type: string; san?: string })
      .filter(e => e.type === 'move')
      .map(e => e.san);
    expect(moves).toEqual(SANS);
  });

  it('a capture file that cannot be written is reported once; the board plays on', async () => {
    const file = join(dir, 'no-such-folder', 'b-01.capture');
    const { board, seen, lines } = await start(file);
    const game = scriptFromSans(SANS.slice(0, 4), { plyMs: 600, handMs: 100 }).unwrap();
    await board.runner.play(game.steps);
    await waitFor(
      () => seen.filter(o => o.type === 'square').length >= game.squares.length,
      10_000,
      'every square event',
    );
    await waitFor(() => lines.some(l => l.includes('recording stopped')), 5000, 'the capture problem');
    expect(lines.filter(l => l.includes('recording stopped'))).toHaveLength(1);
    expect(lines.find(l => l.includes('recording stopped'))).toContain('ENOENT');
  });
});
