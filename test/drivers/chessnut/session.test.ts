/**
 * The Chessnut session over the in-process HID device (the pure emulator core behind the same
 * port interface as HidTransport), in virtual time: start, version and battery with the SDK's
 * 200 ms write gap; a whole real game (45 plies) as square observations, repeats of the 200 ms
 * reports dropped; faults (a bogus report, a report cut in two, a dropped report); the board
 * pulled out and returned (lost, restarted, fresh snapshot); LEDs as the right reports, blinked
 * by the session; a turned board; silence; and never a stored-game command.
 */
import { parseSquare, SquareSet } from 'chessops';
import { BehaviorSubject, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChessnutEmulatorOptions } from '../../../src/drivers/chessnut/emulator.js';
import { chessnutSession$, type ChessnutSessionOptions } from '../../../src/drivers/chessnut/session.js';
import { scriptFromSans, type ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import { LinkSilentError } from '../../../src/drivers/link.js';
import { ofKind } from '../../../src/drivers/sessionKit.js';
import { EMPTY, makePiece, START_SQUARES } from '../../../src/drivers/observation.js';
import type { BoardObservation, LedGroup } from '../../../src/drivers/observationExtra.js';
import { EmulatedChessnutOnHid } from '../../../src/emulators/chessnutHidHost.js';
import type { Chunk, Transport } from '../../../src/drivers/transport/transport.js';
import { createTestScheduler, rebuild, squaresOf } from '../transport/boardRig.js';
import { IMMORTAL_GAME } from '../transport/games.js';

const sq = (n: string): number => parseSquare(n)!;

interface Run {
  readonly board: EmulatedChessnutOnHid;
  readonly seen: BoardObservation[];
  readonly error: unknown;
  links(): [number, string][];
  writes(): [number, number[]][];
}

/** The emulated board and a session on one TestScheduler until `endMs`. */
const run = (
  o: {
    endMs: number;
    emulator?: ChessnutEmulatorOptions;
    session?: Omit<ChessnutSessionOptions, 'scheduler'>;
  },
  body: (board: EmulatedChessnutOnHid, at: (ms: number, f: () => void) => void) => void = () => undefined,
): Run => {
  const ts = createTestScheduler();
  let result: Run | undefined;
  ts.run(({ flush }) => {
    const board = new EmulatedChessnutOnHid({ scheduler: ts, ...(o.emulator && { emulator: o.emulator }) });
    board.start();
    const seen: BoardObservation[] = [];
    let error: unknown;
    const sub = chessnutSession$(board.port, {
      ...o.session,
      scheduler: ts,
      device: board.port.info,
    }).subscribe({
      next: x => seen.push(x),
      error: (e: unknown) => (error = e),
    });
    body(board, (ms, f) => ts.schedule(f, ms));
    ts.schedule(() => {
      sub.unsubscribe();
      void board.stop();
    }, o.endMs);
    flush();
    result = {
      board,
      seen,
      error,
      links: () => seen.flatMap(s => (s.type === 'link' ? [[s.at, s.state] as [number, string]] : [])),
      writes: () => board.port.writes.map(w => [w.at, Array.from(w.bytes)]),
    };
  });
  return result!;
};

const marbleTransport = (bytes$: Transport['bytes$']): Transport => ({
  path: 'marble',
  open: () => Promise.resolve(),
  write: () => Promise.resolve(),
  close: () => Promise.resolve(),
  bytes$,
});

describe('chessnutSession$: start and identity (§3.3, §3.7)', () => {
  it('start at 100 ms, then version and battery 200 ms apart; model from the product id, firmware, battery', () => {
    const r = run({ endMs: 2000 });
    expect(r.writes()).toEqual([
      [100, [0x21, 0x01, 0x00]],
      [300, [0x27, 0x01, 0x01]],
      [500, [0x29, 0x01, 0x00]],
    ]);
    expect(r.links()).toEqual([
      [0, 'resynchronising'],
      [100, 'connected'],
    ]);
    expect(r.seen.filter(o => o.type === 'identity')).toMatchObject([
      { vendor: 'Chessnut', model: 'Air', at: 100 },
      { vendor: 'Chessnut', firmware: 'CN_DVT9_210659', at: 300 },
    ]);
    expect(r.seen.find(o => o.type === 'battery')).toMatchObject({ percent: 80, charging: false });
    // The 200 ms reports repeat the position: one snapshot, no squares.
    expect(r.seen.filter(o => o.type === 'snapshot')).toHaveLength(1);
    expect(r.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    expect(r.seen.filter(o => o.type === 'square')).toHaveLength(0);
    expect(r.board.core.forbiddenLog).toEqual([]);
  });

  it('a board that stays silent gets the start command again every 2 s and is lost after 3 s (marbles)', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const silent = marbleTransport(ts.createColdObservable<Chunk>('-'));
      const links$ = chessnutSession$(silent, { scheduler: ts, maxAttempts: 2 }).pipe(
        ofKind('link'),
        map(l => l.state[0]),
      );
      expectObservable(links$).toBe('r 2999ms l 499ms r 2999ms (l#)', undefined, new LinkSilentError(3000));
    });
  });
});

describe('chessnutSession$: a game over the in-process HID device', () => {
  it('a whole game (45 plies) arrives in order as square observations', () => {
    const game = scriptFromSans(IMMORTAL_GAME, { startAt: 1000, plyMs: 500, handMs: 200 }).unwrap();
    const r = run({ endMs: game.endsAt + 3000 }, board => void board.runner.play(game.steps));
    expect(squaresOf(r.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(r.seen)).toEqual(game.final);
    expect(r.seen.filter(o => o.type === 'protocol-error')).toEqual([]);
    // Every write keeps the 200 ms gap.
    const times = r.writes().map(([t]) => t);
    expect(times.every((t, i) => i === 0 || t - times[i - 1]! >= 200)).toBe(true);
  });

  it('a bogus report, a report cut in two and a dropped report: protocol errors, and the next report repairs the board', () => {
    const game = scriptFromSans(IMMORTAL_GAME.slice(0, 10), {
      startAt: 1000,
      plyMs: 500,
      handMs: 200,
    }).unwrap();
    const steps: ScriptStep[] = [
      ...game.steps.slice(0, 6),
      { at: game.steps[6]!.at - 1, kind: 'garbage', bytes: [0x01, 0x3d, 0xff, 0xff] },
      { at: game.steps[6]!.at - 1, kind: 'drop-updates', count: 1 },
      { at: game.steps[6]!.at - 1, kind: 'split', pieces: 20 },
      game.steps[6]!,
      { at: game.steps[6]!.at + 1, kind: 'split', pieces: 'off' },
      ...game.steps.slice(7),
    ];
    const r = run({ endMs: game.endsAt + 2000 }, board => void board.runner.play(steps));
    expect(r.board.runner.stats.droppedUpdates).toBe(1);
    expect(r.seen.some(o => o.type === 'protocol-error' && o.reason.kind === 'incomplete')).toBe(true);
    expect(squaresOf(r.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(r.seen)).toEqual(game.final);
  });

  it('pulled out and returned: lost, restarted with back-off, a fresh snapshot with the moves made meanwhile', () => {
    const r = run({ endMs: 6000 }, (board, at) => {
      at(1000, () => board.hid.unplug());
      at(1200, () => board.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }));
      at(1300, () => board.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }));
      at(1400, () => board.hid.plug());
      at(3000, () => board.runner.apply({ kind: 'square', square: 'e7', piece: 'empty' }));
      at(3200, () => board.runner.apply({ kind: 'square', square: 'e5', piece: 'p' }));
    });
    expect(r.links()).toEqual([
      [0, 'resynchronising'],
      [100, 'connected'],
      [1000, 'lost'],
      [1500, 'resynchronising'],
      [1600, 'connected'],
    ]);
    expect(r.seen.filter(o => o.type === 'link')[2]).toMatchObject({
      detail: 'disconnected: device unplugged',
    });
    const snapshots = r.seen.filter(o => o.type === 'snapshot');
    expect(snapshots.map(s => s.at)).toEqual([100, 1600]);
    expect(snapshots[1]).toMatchObject({
      squares: { [sq('e2')]: EMPTY, [sq('e4')]: makePiece('white', 'pawn') },
    });
    // The board forgot real-time mode: the start command went out again.
    expect(r.writes().filter(([t, b]) => t >= 1500 && b[0] === 0x21)).toEqual([[1600, [0x21, 0x01, 0x00]]]);
    expect(squaresOf(r.seen)).toEqual([
      [sq('e7'), EMPTY],
      [sq('e5'), makePiece('black', 'pawn')],
    ]);
  });

  it('the disconnect fault of a script unplugs the device for that long', () => {
    const r = run({ endMs: 5000 }, (board, at) => {
      at(1000, () => board.runner.apply({ kind: 'disconnect', forMs: 800 }));
    });
    expect(r.links().map(([t, s]) => `${t} ${s}`)).toEqual([
      '0 resynchronising',
      '100 connected',
      '1000 lost',
      '1500 resynchronising',
      '1500 lost',
      '2500 resynchronising',
      '2600 connected',
    ]);
  });
});

describe('chessnutSession$: LEDs and orientation (§3.5, §3.6)', () => {
  it('steady LEDs as `0A 08` + 8 bytes (e2 + e4 → 00 00 00 00 08 00 08 00); [] turns them off', () => {
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([
      { squares: SquareSet.fromSquare(sq('e2')).with(sq('e4')), style: 'steady' },
    ]);
    const lit: number[][] = [];
    const r = run({ endMs: 3000, session: { leds$, version: false, battery: false } }, (board, at) => {
      at(1000, () => lit.push([...board.core.litSquares]));
      at(1500, () => leds$.next([]));
      at(2000, () => lit.push([...board.core.litSquares]));
    });
    const ledWrites = r.writes().filter(([, b]) => b[0] === 0x0a);
    expect(ledWrites).toEqual([
      [300, [0x0a, 0x08, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x08, 0x00]],
      [1500, [0x0a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0]],
    ]);
    expect(lit).toEqual([[sq('e2'), sq('e4')], []]);
    expect(r.seen.filter(o => o.type === 'command-ack').length).toBeGreaterThanOrEqual(2);
  });

  it('blinking groups are blinked by the session: the two phases alternate every 600 ms', () => {
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([
      { squares: SquareSet.fromSquare(sq('a1')), style: 'steady' },
      { squares: SquareSet.fromSquare(sq('c3')), style: 'blink' },
      { squares: SquareSet.fromSquare(sq('c4')), style: 'blink-inverse' },
    ]);
    const lit: number[][] = [];
    run({ endMs: 2200, session: { leds$, version: false, battery: false } }, (board, at) => {
      for (const t of [400, 1000, 1600]) at(t, () => lit.push([...board.core.litSquares]));
    });
    expect(lit).toEqual([
      [sq('a1'), sq('c3')],
      [sq('a1'), sq('c4')],
      [sq('a1'), sq('c3')],
    ]);
  });

  it('LEDs off at connect (the daemon starts every board with []): acknowledged, and later moves are still reported', () => {
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([]);
    const r = run({ endMs: 6000, session: { leds$ } }, (board, at) => {
      at(1000, () => board.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }));
      at(1300, () => board.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }));
      // Then a knight where no knight can go: the board reports it like any other change.
      at(3000, () => board.runner.apply({ kind: 'square', square: 'g8', piece: 'empty' }));
      at(3200, () => board.runner.apply({ kind: 'square', square: 'g5', piece: 'n' }));
    });
    // The LED command queues behind the version and battery queries; no keepalive is needed
    // since the 200 ms reports keep coming after it.
    expect(r.writes()).toEqual([
      [100, [0x21, 0x01, 0x00]],
      [300, [0x27, 0x01, 0x01]],
      [500, [0x29, 0x01, 0x00]],
      [700, [0x0a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0]],
    ]);
    // Its `23 01 00` is an acknowledgement, not the version reply the decoder waited for.
    expect(r.seen.filter(o => o.type === 'identity' && o.firmware !== undefined)).toMatchObject([
      { firmware: 'CN_DVT9_210659', at: 300 },
    ]);
    expect(r.seen.filter(o => o.type === 'command-ack').map(o => o.at)).toEqual([100, 700]);
    expect(squaresOf(r.seen)).toEqual([
      [sq('e2'), EMPTY],
      [sq('e4'), makePiece('white', 'pawn')],
      [sq('g8'), EMPTY],
      [sq('g5'), makePiece('black', 'knight')],
    ]);
    expect(r.links()).toEqual([
      [0, 'resynchronising'],
      [100, 'connected'],
    ]);
    expect(r.seen.filter(o => o.type === 'protocol-error')).toEqual([]);
  });

  it('lighting, blinking and clearing LEDs in the middle of a game does not stop the reports', () => {
    const game = scriptFromSans(IMMORTAL_GAME.slice(0, 12), {
      startAt: 1000,
      plyMs: 500,
      handMs: 200,
    }).unwrap();
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([]);
    const lit: number[][] = [];
    const r = run({ endMs: game.endsAt + 3000, session: { leds$ } }, (board, at) => {
      void board.runner.play(game.steps);
      at(1500, () => leds$.next([{ squares: SquareSet.fromSquare(sq('e4')), style: 'steady' }]));
      at(2500, () =>
        leds$.next([
          { squares: SquareSet.fromSquare(sq('g5')), style: 'blink' },
          { squares: SquareSet.fromSquare(sq('g8')), style: 'blink-inverse' },
        ]),
      );
      at(5000, () => leds$.next([]));
      at(game.endsAt + 2000, () => lit.push([...board.core.litSquares]));
    });
    expect(squaresOf(r.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rebuild(r.seen)).toEqual(game.final);
    expect(r.links()).toEqual([
      [0, 'resynchronising'],
      [100, 'connected'],
    ]);
    // The blinking phases went out every 600 ms meanwhile, and the LEDs ended off.
    const ledTimes = r.writes().flatMap(([t, b]) => (b[0] === 0x0a ? [t] : []));
    expect(ledTimes.filter(t => t >= 2500 && t < 5000).length).toBeGreaterThanOrEqual(4);
    expect(lit).toEqual([[]]);
    const times = r.writes().map(([t]) => t);
    expect(times.every((t, i) => i === 0 || t - times[i - 1]! >= 200)).toBe(true);
  });

  it('a turned board: the start position is recognised, squares and LEDs in the game frame', () => {
    const want = [{ squares: SquareSet.fromSquare(sq('c3')), style: 'steady' as const }];
    const r = run(
      {
        endMs: 3000,
        emulator: { orientation: 'rotated' },
        session: { leds$: new BehaviorSubject<readonly LedGroup[]>(want), version: false, battery: false },
      },
      (board, at) => {
        at(1000, () => board.runner.apply({ kind: 'square', square: 'g1', piece: 'empty' }));
        at(1300, () => board.runner.apply({ kind: 'square', square: 'f3', piece: 'N' }));
      },
    );
    expect(r.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    expect(squaresOf(r.seen)).toEqual([
      [sq('g1'), EMPTY],
      [sq('f3'), makePiece('white', 'knight')],
    ]);
    // §3.6 example c3 → 0A 08 00 00 00 00 00 20 00 00, turned: f6 → byte R6 bit 2.
    expect(r.writes().find(([, b]) => b[0] === 0x0a)![1]).toEqual([0x0a, 0x08, 0, 0, 0x04, 0, 0, 0, 0, 0]);
    expect([...r.board.core.litSquares]).toEqual([sq('c3')]);
  });
});
