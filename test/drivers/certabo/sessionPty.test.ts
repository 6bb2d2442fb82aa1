/**
 * End to end on real pseudo-terminals: the Certabo emulator streaming frame lines on one end of
 * a socat PTY pair (through SerialTransport and serialport, 38400 8N1), the real SerialTransport
 * and the session on the other. The session calibrates from the start position and stores the
 * table in a JSON file; a whole real game (45 plies) then arrives in order through the vote, on a
 * noisy set. A second session reloads the file; LED commands reach the board as
 * the right bytes; split lines, garbage and a dropped frame change nothing; an unplugged cable
 * is reported, the session reconnects with a fresh snapshot and lights the LEDs again.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSquare, SquareSet } from 'chessops';
import { BehaviorSubject, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCalibration } from '../../../src/drivers/certabo/calibration.js';
import { CertaboEmulator, type CertaboEmulatorOptions } from '../../../src/drivers/certabo/emulator.js';
import { certaboBoard } from '../../../src/drivers/certabo/emulatorRunner.js';
import { SERIAL_SETTINGS } from '../../../src/drivers/certabo/protocol.js';
import {
  certaboSession$,
  type CertaboObservation,
  type CertaboSessionOptions,
} from '../../../src/drivers/certabo/session.js';
import { scriptFromSans, type ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import { START_SQUARES } from '../../../src/drivers/observation.js';
import type { LedGroup } from '../../../src/drivers/observationExtra.js';
import { fileCalibrationStore } from '../../../src/drivers/certabo/calibrationFile.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import { SerialBoardOnPty } from '../../../src/emulators/serialBoardHost.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, trackPid, waitFor } from '../../support/pty.js';
import { rebuild, squaresOf } from '../transport/boardRig.js';

/**
 * Each square's changes in order. A Certabo board sends whole frames, so two changes made within
 * one frame (a hand quicker than the frame, or a loaded machine reading late) arrive in one diff,
 * in square order: across squares the order is the frame's, on one square it is the hand's.
 */
const bySquare = (changes: readonly (readonly [number, unknown])[]): Map<number, unknown[]> => {
  const out = new Map<number, unknown[]>();
  for (const [square, content] of changes) out.set(square, [...(out.get(square) ?? []), content]);
  return new Map([...out].sort((a, b) => a[0] - b[0]));
};
import { IMMORTAL_GAME } from '../transport/games.js';

const sq = (n: string): number => parseSquare(n)!;
const FAST = {
  backoff: { initialMs: 100, maxMs: 400 },
  silenceMs: 2000,
  ledGapMs: 100,
  calibrationSamples: 7,
};

const running: { board: SerialBoardOnPty; subs: Subscription[] }[] = [];

const serve = async (o: { board?: CertaboEmulatorOptions; frameMs?: number } = {}) => {
  const dir = makeLinkDir();
  const core = new CertaboEmulator(o.board);
  const board = new SerialBoardOnPty({
    hostPath: `${dir}/board`,
    devicePath: `${dir}/emulator`,
    board: certaboBoard(core, { frameMs: o.frameMs ?? 20 }),
    serial: { baudRate: SERIAL_SETTINGS.baudRate },
  });
  await board.start();
  adoptPtyPair(board.pair, dirname(board.hostPath));
  const entry = { board, subs: [] as Subscription[] };
  running.push(entry);
  const connect = (options: Omit<CertaboSessionOptions, 'scheduler'>) => {
    const seen: CertaboObservation[] = [];
    const transport = new SerialTransport({ path: board.hostPath, baudRate: SERIAL_SETTINGS.baudRate });
    entry.subs.push(certaboSession$(transport, { ...FAST, ...options }).subscribe(x => seen.push(x)));
    const count = (type: string, state?: string) =>
      seen.filter(x => x.type === type && (state === undefined || ('state' in x && x.state === state)))
        .length;
    return { seen, count };
  };
  return { dir, board, core, connect };
};

afterEach(async () => {
  for (const r of running.splice(0)) {
    for (const s of r.subs) s.unsubscribe();
    await r.board.stop();
  }
  await closeAllPtyPairs();
});

describe('Certabo session over a socat PTY pair with the emulator', () => {
  it('calibrates into a JSON file, then a whole game (45 plies) arrives in order on a noisy set', async () => {
    const { dir, board, core, connect } = await serve({ board: { noise: { seed: 3, squares: 6 } } });
    const file = join(dir, 'calibration', 'board-1.json');
    const { seen, count } = connect({ calibration: fileCalibrationStore(file) });
    await waitFor(() => count('calibration', 'saved') === 1, 8000, 'the calibration saved');
    const stored = parseCalibration(readFileSync(file, 'utf8')).unwrap();
    expect(Object.keys(stored.pieces)).toHaveLength(32);
    for (const [tag, letter] of Object.entries(stored.pieces))
      expect(core.calibration.pieces[tag]).toBe(letter);
    await waitFor(() => count('snapshot') === 1, 3000, 'the first position');
    expect(seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    // The setup LEDs were lit while learning and turned off after.
    expect([...core.litSquares]).toEqual([]);

    const game = scriptFromSans(IMMORTAL_GAME, { plyMs: 180, handMs: 80 }).unwrap();
    await board.runner.play(game.steps);
    await waitFor(() => squaresOf(seen).length >= game.squares.length, 8000, 'every square event');
    expect(bySquare(squaresOf(seen))).toEqual(bySquare(game.squares.map(s => [s.square, s.content])));
    expect(rebuild(seen)).toEqual(game.final);
    expect(seen.filter(o => o.type === 'rfid-unknown').length).toBeGreaterThan(0);
    expect(seen.filter(o => o.type === 'protocol-error')).toEqual([]);
  }, 28_000);

  it('reloads the stored table; LEDs arrive as bytes; faults change nothing; an unplugged cable re-syncs', async () => {
    const { dir, board, core, connect } = await serve({ frameMs: 30 });
    const file = join(dir, 'board.json');
    // A first session learns and stores the table, then goes away.
    const first = connect({ calibration: fileCalibrationStore(file) });
    await waitFor(() => first.count('calibration', 'saved') === 1, 8000, 'the calibration saved');
    running[0]!.subs.pop()!.unsubscribe();

    const want: LedGroup[] = [{ squares: SquareSet.fromSquare(sq('e2')).with(sq('e4')), style: 'steady' }];
    const leds$ = new BehaviorSubject<readonly LedGroup[]>(want);
    const { seen, count } = connect({ calibration: fileCalibrationStore(file), leds$ });
    await waitFor(() => count('link', 'connected') === 1, 5000, 'the connection');
    expect(seen.filter(o => o.type === 'calibration').map(o => 'state' in o && o.state)).toEqual(['loaded']);
    await waitFor(
      () => core.litSquares.equals(SquareSet.fromSquare(sq('e2')).with(sq('e4'))),
      3000,
      'the LEDs',
    );

    const game = scriptFromSans(IMMORTAL_GAME.slice(0, 24), { plyMs: 180, handMs: 80 }).unwrap();
    const steps: ScriptStep[] = [
      // Lines cut into 200-byte writes (3 ms apart: a frame still takes less time than the next one).
      { at: 0, kind: 'split', pieces: 200 },
      ...game.steps.slice(0, 12),
      { at: game.steps[12]!.at - 1, kind: 'garbage', count: 40 },
      { at: game.steps[12]!.at - 1, kind: 'drop-updates', count: 1 },
      ...game.steps.slice(12, 30),
      { at: game.steps[29]!.at, kind: 'split', pieces: 'off' },
    ];
    await board.runner.play(steps);
    await waitFor(() => squaresOf(seen).length >= 30, 5000, 'the first 30 square events');
    expect(bySquare(squaresOf(seen))).toEqual(
      bySquare(game.squares.slice(0, 30).map(s => [s.square, s.content])),
    );
    expect(seen.some(o => o.type === 'protocol-error')).toBe(true);

    // Pull the cable; the rest of the moves are made while it is out.
    await board.pair.stop();
    await waitFor(() => count('link', 'lost') >= 1, 5000, 'the session noticing the loss');
    for (const s of game.steps.slice(30)) board.runner.apply(s);
    leds$.next([{ squares: SquareSet.fromSquare(sq('h8')), style: 'blink' }]);
    await board.pair.start();
    trackPid(board.pair);
    await waitFor(() => count('link', 'connected') === 2, 8000, 'the reconnection');
    const reconnectedAt = seen.findLastIndex(o => o.type === 'link' && o.state === 'connected');
    expect(seen.slice(0, reconnectedAt).findLast(o => o.type === 'snapshot')).toMatchObject({
      squares: game.final,
    });
    await waitFor(() => core.litSquares.equals(SquareSet.fromSquare(sq('h8'))), 3000, 'the new LEDs');
    expect(rebuild(seen)).toEqual(game.final);
  }, 28_000);
});
