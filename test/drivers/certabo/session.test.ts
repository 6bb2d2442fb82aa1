/**
 * The Certabo session in virtual time: a stored calibration loaded and used (squares after the
 * vote, stamped with when the board first showed them; errata 2's majority vote on request), calibration learned from the start position with the setup LEDs lit and then
 * saved, recalibration on request, an invalid stored table, noise ids counted as empty, an
 * occupancy board, LED pacing (newest only, 750 ms apart, resent without acknowledgement), and
 * silence, loss and a fresh snapshot after reconnecting. The session never writes anything but
 * LED commands (the board would take any byte as LED data).
 */
import { Result } from '@badrap/result';
import { parseSquare, SquareSet } from 'chessops';
import { BehaviorSubject, map, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { scriptFromSans } from '../../../src/drivers/dgt/emulatorScript.js';
import { CertaboEmulator, type CertaboEmulatorOptions } from '../../../src/drivers/certabo/emulator.js';
import { certaboBoard } from '../../../src/drivers/certabo/emulatorRunner.js';
import { makeLedBytes } from '../../../src/drivers/certabo/commands.js';
import { certaboSession$, type CertaboSessionOptions } from '../../../src/drivers/certabo/session.js';
import {
  type CalibrationStore,
  memoryCalibrationStore,
  SETUP_LEDS,
} from '../../../src/drivers/certabo/sessionCalibration.js';
import { ofKind } from '../../../src/drivers/sessionKit.js';
import { EMPTY, makePiece, OCCUPIED, START_SQUARES } from '../../../src/drivers/observation.js';
import { ledSquares, type LedGroup } from '../../../src/drivers/observationExtra.js';
import type { EmulatedBoard } from '../../../src/drivers/emulatedBoard.js';
import type { Chunk, Transport } from '../../../src/drivers/transport/transport.js';
import { createTestScheduler, rebuild, runBoardRig, squaresOf } from '../transport/boardRig.js';

const sq = (n: string): number => parseSquare(n)!;

const rigFor = (
  o: {
    endMs: number;
    board?: CertaboEmulatorOptions;
    frameMs?: number;
    session?: Omit<CertaboSessionOptions, 'scheduler'>;
    wrap?: (b: EmulatedBoard) => EmulatedBoard;
  },
  body?: Parameters<typeof runBoardRig>[1],
) => {
  const core = new CertaboEmulator(o.board);
  const board = certaboBoard(core, { frameMs: o.frameMs ?? 100 });
  const rig = runBoardRig(
    {
      endMs: o.endMs,
      board: o.wrap?.(board) ?? board,
      session: (t, scheduler) => certaboSession$(t, { ...o.session, scheduler }),
    },
    body,
  );
  const states = () => rig.seen.flatMap(x => (x.type === 'calibration' ? [x.state] : []));
  return { ...rig, core, states };
};

const marbleTransport = (bytes$: Transport['bytes$']): Transport => ({
  path: 'marble',
  open: () => Promise.resolve(),
  write: () => Promise.resolve(),
  close: () => Promise.resolve(),
  bytes$,
});

const game = scriptFromSans(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Bxc6', 'dxc6', 'O-O'], {
  startAt: 1000,
  plyMs: 600,
  handMs: 250,
}).unwrap();

describe('certaboSession$: with a stored calibration', () => {
  it('loads it, connects with the first frame, and reports moves as squares', () => {
    const emulator = new CertaboEmulator();
    const store = memoryCalibrationStore(emulator.calibration);
    const rig = rigFor({ endMs: 8000, session: { calibration: store } }, r => {
      void r.runner.play(game.steps);
    });
    expect(rig.states()).toEqual(['loaded']);
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [20, 'connected'],
    ]);
    expect(rig.seen.find(o => o.type === 'identity')).toMatchObject({ vendor: 'Certabo', model: 'RFID' });
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    expect(squaresOf(rig.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(rig.seen)).toEqual(game.final);
    // Nothing but LED commands may be written; no LEDs were asked for.
    expect(rig.writes()).toEqual([]);
  });

  it('noise ids on empty squares count as empty and are reported as rfid-unknown, never as pieces', () => {
    const emulator = new CertaboEmulator();
    const rig = rigFor(
      {
        endMs: 8000,
        board: { noise: { seed: 7, squares: 8 } },
        session: { calibration: memoryCalibrationStore(emulator.calibration) },
      },
      r => void r.runner.play(game.steps),
    );
    expect(squaresOf(rig.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rig.seen.filter(o => o.type === 'rfid-unknown').length).toBeGreaterThan(5);
  });

  it('a square going empty is confirmed by the next frame but stamped with the first', () => {
    const emulator = new CertaboEmulator();
    const rig = rigFor(
      { endMs: 3000, session: { calibration: memoryCalibrationStore(emulator.calibration) } },
      r => {
        r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'g1', piece: 'empty' }), 1010);
        r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'f3', piece: 'N' }), 1050);
      },
    );
    // g1 read empty at 1010 and again in the frame at 1110; f3 is a known tag: at once.
    expect(rig.seen.filter(o => o.type === 'square')).toMatchObject([
      { square: sq('g1'), content: EMPTY, at: 1010 },
      { square: sq('f3'), content: makePiece('white', 'knight'), at: 1050 },
    ]);
  });

  it("vote: 'majority' (errata 2 to the letter) misses a piece that stands for one frame only", () => {
    const emulator = new CertaboEmulator();
    const play = (vote: 'majority' | 'confirm-empty') =>
      rigFor(
        { endMs: 3000, session: { vote, calibration: memoryCalibrationStore(emulator.calibration) } },
        r => {
          // A knight put on f3 and taken away again 40 ms later, inside one frame period.
          r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'g1', piece: 'empty' }), 1010);
          r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'f3', piece: 'N' }), 1020);
          r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'f3', piece: 'empty' }), 1060);
        },
      );
    expect(squaresOf(play('majority').seen)).toEqual([[sq('g1'), EMPTY]]);
    expect(squaresOf(play('confirm-empty').seen)).toEqual([
      [sq('g1'), EMPTY],
      [sq('f3'), makePiece('white', 'knight')],
      [sq('f3'), EMPTY],
    ]);
  });

  it('an invalid stored table is reported with its reason and the session learns a new one', () => {
    const broken: CalibrationStore = {
      location: 'broken',
      load: () => Result.err(new Error('the calibration file x.json is not valid: version 2')),
      save: () => Result.ok(true),
    };
    const rig = rigFor({ endMs: 3000, session: { calibration: broken, calibrationSamples: 7 } });
    expect(rig.seen.find(o => o.type === 'calibration')).toMatchObject({
      state: 'invalid',
      detail: 'the calibration file x.json is not valid: version 2',
    });
    expect(rig.states()).toEqual(['invalid', 'learning', 'learned', 'saved']);
  });
});

describe('certaboSession$: calibration (§2.6)', () => {
  it('without a stored table: setup LEDs, learning from 7 scans, saved, LEDs off, then the position', () => {
    const store = memoryCalibrationStore();
    const rig = rigFor({ endMs: 3000, session: { calibration: store, calibrationSamples: 7 } });
    expect(rig.states()).toEqual(['missing', 'learning', 'learned', 'saved']);
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [20, 'connected'],
    ]);
    expect(rig.seen.find(o => o.type === 'link' && o.state === 'connected')).toMatchObject({
      detail: 'attempt 1, not calibrated',
    });
    // Frames at 20, 120, … 620: the seventh scan teaches the table.
    expect(rig.seen.find(o => o.type === 'calibration' && o.state === 'learned')).toMatchObject({
      at: 620,
      tags: 32,
      spares: [],
    });
    const learned = store.saved[0]!;
    for (const [tag, letter] of Object.entries(learned.pieces))
      expect(rig.core.calibration.pieces[tag]).toBe(letter);
    // The setup pattern (§2.6: FF FF 08 00 00 08 FF FF) at once, then off after learning.
    const writes = rig.writes();
    expect(writes[0]).toEqual([20, [0xff, 0xff, 0x08, 0x00, 0x00, 0x08, 0xff, 0xff]]);
    expect(writes[1]).toEqual([770, [0, 0, 0, 0, 0, 0, 0, 0]]);
    expect([...rig.core.litSquares]).toEqual([]);
    // The first position after learning is reported whole.
    expect(rig.seen.filter(o => o.type === 'snapshot')).toHaveLength(1);
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
  });

  it('learns the spare queens on d6 and d3 when they stand there', () => {
    const squares = [...START_SQUARES];
    squares[sq('d6')] = makePiece('black', 'queen');
    squares[sq('d3')] = makePiece('white', 'queen');
    const store = memoryCalibrationStore();
    const rig = rigFor({
      endMs: 2000,
      board: { squares },
      session: { calibration: store, calibrationSamples: 5 },
    });
    expect(rig.seen.find(o => o.type === 'calibration' && o.state === 'learned')).toMatchObject({
      tags: 34,
      spares: ['d6', 'd3'],
    });
    expect(Object.values(store.saved[0]!.pieces).filter(l => l === 'q')).toHaveLength(2);
  });

  it('a calibrate$ request learns again; the old table is used until the new one is ready', () => {
    const emulator = new CertaboEmulator();
    const calibrate$ = new Subject<void>();
    const store = memoryCalibrationStore(emulator.calibration);
    const rig = rigFor(
      { endMs: 4000, session: { calibration: store, calibrate$, calibrationSamples: 5 } },
      r => {
        r.ts.schedule(() => calibrate$.next(), 1000);
      },
    );
    expect(rig.states()).toEqual(['loaded', 'learning', 'learned', 'saved']);
    const learning = rig.seen.find(o => o.type === 'calibration' && o.state === 'learning');
    expect(learning?.at).toBe(1000);
    // Recalibrating re-reports the position whole once the new table is in use.
    expect(rig.seen.filter(o => o.type === 'snapshot').map(o => o.at)).toEqual([20, 1420]);
    expect(rig.seen.filter(o => o.type === 'square')).toEqual([]);
  });

  it('an occupancy board (Sentio) needs no calibration: occupied squares and their changes', () => {
    const rig = rigFor({ endMs: 3000, board: { sensing: 'occupancy' } }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 1000);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 1500);
    });
    expect(rig.states()).toEqual(['missing', 'learning', 'not-needed']);
    expect(rig.seen.find(o => o.type === 'identity')).toMatchObject({ model: 'occupancy' });
    const first = rig.seen.find(o => o.type === 'snapshot');
    expect(
      first?.type === 'snapshot' && first.squares.filter(c => c === OCCUPIED || c.kind === 'occupied'),
    ).toHaveLength(32);
    expect(squaresOf(rig.seen)).toEqual([
      [sq('e2'), EMPTY],
      [sq('e4'), OCCUPIED],
    ]);
  });
});

describe('certaboSession$: LEDs (§2.7)', () => {
  const calibrated = () => ({ calibration: memoryCalibrationStore(new CertaboEmulator().calibration) });

  it('the newest state only, at most one command per 750 ms, as the 8-byte bitmap', () => {
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([
      { squares: SquareSet.fromSquare(sq('e2')).with(sq('e4')), style: 'steady' },
    ]);
    const rig = rigFor({ endMs: 4000, session: { ...calibrated(), leds$ } }, r => {
      r.ts.schedule(() => leds$.next([{ squares: SquareSet.fromSquare(sq('a8')), style: 'blink' }]), 100);
      r.ts.schedule(
        () => leds$.next([{ squares: SquareSet.fromSquare(sq('d2')).with(sq('d4')), style: 'steady' }]),
        200,
      );
      r.ts.schedule(() => leds$.next([]), 2000);
    });
    expect(rig.writes()).toEqual([
      // §2.7's examples: e2 + e4, then (a8 skipped as stale) d2 + d4, then all off.
      [20, [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x10, 0x00]],
      [770, [0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x08, 0x00]],
      [2000, [0, 0, 0, 0, 0, 0, 0, 0]],
    ]);
    expect(rig.seen.filter(o => o.type === 'command-ack')).toHaveLength(3);
  });

  it('LEDs off at connect and LEDs lit and cleared mid-game: the moves are still reported', () => {
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([]);
    const rig = rigFor({ endMs: 8000, session: { ...calibrated(), leds$ } }, r => {
      void r.runner.play(game.steps);
      r.ts.schedule(() => leds$.next([{ squares: SquareSet.fromSquare(sq('g5')), style: 'blink' }]), 1500);
      r.ts.schedule(() => leds$.next([{ squares: SquareSet.fromSquare(sq('e4')), style: 'steady' }]), 3000);
      r.ts.schedule(() => leds$.next([]), 4500);
    });
    expect(rig.writes().map(([t]) => t)).toEqual([20, 1500, 3000, 4500]);
    expect(rig.seen.filter(o => o.type === 'command-ack')).toHaveLength(4);
    expect(squaresOf(rig.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(rig.seen)).toEqual(game.final);
    expect(rig.links().map(([, s]) => s)).toEqual(['resynchronising', 'connected']);
    expect(rig.core.litSquares.isEmpty()).toBe(true);
  });

  it('a rotated board gets the bitmap turned (picochess: d2 + d4 → 00 10 00 10 00 00 00 00)', () => {
    const want = [{ squares: SquareSet.fromSquare(sq('d2')).with(sq('d4')), style: 'steady' as const }];
    const emulator = new CertaboEmulator({ orientation: 'rotated' });
    const rig = rigFor({
      endMs: 1000,
      board: { orientation: 'rotated' },
      session: {
        orientation: 'rotated',
        calibration: memoryCalibrationStore(emulator.calibration),
        leds$: new BehaviorSubject<readonly LedGroup[]>(want),
      },
    });
    expect(rig.writes()[0]![1]).toEqual([0x00, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00]);
    expect(rig.core.litSquares.equals(ledSquares(want))).toBe(true);
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
  });

  it('without an L acknowledgement the newest state is sent again twice, 1500 ms apart', () => {
    const silentLeds = (b: EmulatedBoard): EmulatedBoard => ({
      ...b,
      receive: (bytes, t) => (b.receive(bytes, t), []),
    });
    const want = [{ squares: SquareSet.fromSquare(sq('h1')), style: 'steady' as const }];
    const rig = rigFor({
      endMs: 6000,
      wrap: silentLeds,
      session: { ...calibrated(), leds$: new BehaviorSubject<readonly LedGroup[]>(want) },
    });
    const bytes = Array.from(makeLedBytes(SquareSet.fromSquare(sq('h1')), 'normal'));
    expect(rig.writes()).toEqual([
      [20, bytes],
      [1520, bytes],
      [3020, bytes],
    ]);
  });

  it('the setup squares are ranks 1, 2, 7, 8 and d3, d6', () => {
    const names = [...ledSquares(SETUP_LEDS)].length;
    expect(names).toBe(34);
    expect(ledSquares(SETUP_LEDS).has(sq('d6')) && ledSquares(SETUP_LEDS).has(sq('d3'))).toBe(true);
  });
});

describe('certaboSession$: loss and reconnection', () => {
  it('silence for 5 s is a lost link, retried with back-off (marbles)', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const silent = marbleTransport(ts.createColdObservable<Chunk>('-'));
      const links$ = certaboSession$(silent, { scheduler: ts }).pipe(
        ofKind('link', 'calibration'),
        map(l => (l.type === 'link' ? l.state[0] : l.state === 'missing' ? 'M' : 'L')),
      );
      // M = calibration missing, L = learning; r = resynchronising, l = lost.
      expectObservable(links$, '^ 11000ms !').toBe('(MLr) 4995ms l 499ms r 4999ms l');
    });
  });

  it('an unplugged cable: lost, reconnected, and a fresh snapshot with the moves made meanwhile', () => {
    const emulator = new CertaboEmulator();
    const rig = rigFor(
      { endMs: 8000, session: { calibration: memoryCalibrationStore(emulator.calibration) } },
      r => {
        r.ts.schedule(() => r.link.unplug(), 2000);
        r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 2200);
        r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 2300);
        r.ts.schedule(() => r.link.plug(), 2400);
      },
    );
    expect(rig.links().map(([, s]) => s)).toEqual([
      'resynchronising',
      'connected',
      'lost',
      'resynchronising',
      'connected',
    ]);
    const snapshots = rig.seen.filter(o => o.type === 'snapshot');
    expect(snapshots).toHaveLength(2);
    expect(snapshots[1]).toMatchObject({
      squares: { [sq('e2')]: EMPTY, [sq('e4')]: makePiece('white', 'pawn') },
    });
    expect(rig.seen.filter(o => o.type === 'square')).toEqual([]);
  });
});
