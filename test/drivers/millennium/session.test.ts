/**
 * The Millennium session in virtual time: the handshake (version, report mode read and written
 * only when it differs, status) and its timing, keepalive status requests, silence and loss,
 * reconnection with back-off and a fresh snapshot, orientation B detected, LED commands as the
 * right bytes (newest only, re-sent after a reconnection), and 7-bit commands for a 7O1 port.
 */
import { parseSquare, SquareSet } from 'chessops';
import { BehaviorSubject, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { LinkSilentError } from '../../../src/drivers/link.js';
import { scriptFromSans } from '../../../src/drivers/dgt/emulatorScript.js';
import { makeCommand, makeLedCommand } from '../../../src/drivers/millennium/commands.js';
import {
  MillenniumEmulator,
  type MillenniumEmulatorOptions,
} from '../../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../../src/drivers/millennium/emulatorRunner.js';
import { parseWire } from '../../../src/drivers/millennium/protocol.js';
import {
  millenniumSession$,
  type MillenniumSessionOptions,
} from '../../../src/drivers/millennium/session.js';
import { ofKind } from '../../../src/drivers/sessionKit.js';
import { EMPTY, makePiece, START_SQUARES } from '../../../src/drivers/observation.js';
import type { LedGroup } from '../../../src/drivers/observationExtra.js';
import { BoardEmulatorRunner } from '../../../src/emulators/boardEmulatorHost.js';
import { createMemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Chunk, Transport } from '../../../src/drivers/transport/transport.js';
import { createTestScheduler, runBoardRig, squaresOf } from '../transport/boardRig.js';

const sq = (n: string): number => parseSquare(n)!;

const rigFor = (
  o: {
    endMs: number;
    board?: MillenniumEmulatorOptions;
    session?: Omit<MillenniumSessionOptions, 'scheduler'>;
    serve?: boolean;
  },
  body?: Parameters<typeof runBoardRig>[1],
) => {
  const core = new MillenniumEmulator(o.board);
  const rig = runBoardRig(
    {
      endMs: o.endMs,
      board: millenniumBoard(core),
      serve: o.serve ?? true,
      session: (t, scheduler) => millenniumSession$(t, { ...o.session, scheduler }),
    },
    body,
  );
  const texts = () => rig.writes().map(([t, b]) => [t, parseWire(Uint8Array.from(b))] as const);
  return { ...rig, core, texts };
};

const marbleTransport = (bytes$: Transport['bytes$']): Transport => ({
  path: 'marble',
  open: () => Promise.resolve(),
  write: () => Promise.resolve(),
  close: () => Promise.resolve(),
  bytes$,
});

describe('millenniumSession$: handshake (§1.4, §1.5, §1.8)', () => {
  it('a factory board (reports every scan): V, R02, then W0203 since the mode differs, and the flood stops', () => {
    const rig = rigFor({ endMs: 3000 });
    expect(rig.texts().slice(0, 2)).toEqual([
      [300, 'V56'],
      [350, 'R0250'],
    ]);
    // §1.4's byte table: "W020356" = auto report on change.
    expect(rig.texts()[2]).toEqual([400, 'W020356']);
    expect(rig.core.register(2)).toBe(3);
    expect(rig.seen.find(o => o.type === 'identity')).toMatchObject({
      vendor: 'Millennium',
      model: 'Exclusive',
      firmware: '01.03',
    });
    expect(rig.seen.filter(o => o.type === 'register')).toMatchObject([
      { address: 2, value: 0, written: false },
      { address: 2, value: 3, written: true },
    ]);
    // Every-scan reports arrived before the handshake: the first is the snapshot, repeats give nothing.
    expect(rig.seen.filter(o => o.type === 'snapshot')).toHaveLength(1);
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [300, 'connected'],
    ]);
  });

  it('a board already reporting on change: V, R02, S 50 ms apart and no register write (marbles)', () => {
    const rig = rigFor({ endMs: 1200, board: { registers: { 2: 3 } } });
    expect(rig.texts()).toEqual([
      [300, 'V56'],
      [350, 'R0250'],
      [400, 'S53'],
    ]);
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [400, 'connected'],
    ]);
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const link = createMemoryLink({ scheduler: ts });
      const core = new MillenniumEmulator({ registers: { 2: 3 } });
      const runner = new BoardEmulatorRunner({
        transport: link.device,
        board: millenniumBoard(core),
        scheduler: ts,
      });
      runner.start();
      ts.schedule(() => void runner.stop(), 2000);
      const links$ = millenniumSession$(link.host, { scheduler: ts }).pipe(
        ofKind('link'),
        map(l => l.state),
      );
      expectObservable(links$, '^ 1500ms !').toBe('a 399ms b', { a: 'resynchronising', b: 'connected' });
    });
  });

  it("reportMode 'keep' leaves register 02 alone: V and S only", () => {
    const rig = rigFor({ endMs: 1000, board: { registers: { 2: 3 } }, session: { reportMode: 'keep' } });
    expect(rig.texts()).toEqual([
      [300, 'V56'],
      [350, 'S53'],
    ]);
  });

  it('repeats the version and status requests every 2 s until the board answers', () => {
    const rig = rigFor({ endMs: 4500, serve: false });
    // The keepalive status request (every second of silence) runs alongside.
    expect(rig.texts()).toEqual([
      [300, 'V56'],
      [350, 'R0250'],
      [400, 'S53'],
      [1000, 'S53'],
      [2000, 'S53'],
      [2300, 'V56'],
      [2350, 'R0250'],
      [2400, 'S53'],
      [3000, 'S53'],
      [4000, 'S53'],
      [4300, 'V56'],
      [4350, 'R0250'],
      [4400, 'S53'],
    ]);
  });

  it('7O1 port: with commandParity false every command byte has bit 7 clear, and the board still answers', () => {
    const rig = rigFor({ endMs: 1000, board: { parity: false }, session: { commandParity: false } });
    const bytes = rig.writes().flatMap(([, b]) => b);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.every(b => b < 0x80)).toBe(true);
    expect(rig.links().map(([, s]) => s)).toEqual(['resynchronising', 'connected']);
  });
});

describe('millenniumSession$: keepalive and loss', () => {
  it('sends a status request after each second of silence; unchanged answers give no observation', () => {
    const rig = rigFor({ endMs: 4000, board: { registers: { 2: 3 } } });
    const probes = rig.texts().filter(([t, s]) => t > 400 && s === 'S53');
    expect(probes.map(([t]) => t)).toEqual([1400, 2400, 3400]);
    expect(rig.seen.filter(o => o.type === 'snapshot')).toHaveLength(1);
    expect(rig.seen.filter(o => o.type === 'square')).toHaveLength(0);
  });

  it('a silent line is lost after 5 s and retried with back-off 500, 1000 ms (marbles)', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const silent = marbleTransport(ts.createColdObservable<Chunk>('-'));
      const links$ = millenniumSession$(silent, { scheduler: ts }).pipe(
        ofKind('link'),
        map(l => l.state[0]),
      );
      expectObservable(links$, '^ 12000ms !').toBe('r 4999ms l 499ms r 4999ms l 999ms r');
    });
  });

  it('gives up after maxAttempts with the last error', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const silent = marbleTransport(ts.createColdObservable<Chunk>('-'));
      const states$ = millenniumSession$(silent, { scheduler: ts, maxAttempts: 2, silenceMs: 100 }).pipe(
        map(o => (o.type === 'link' ? o.state[0] : o.type)),
      );
      expectObservable(states$).toBe('r 99ms l 499ms r 99ms (l#)', undefined, new LinkSilentError(100));
    });
  });

  it('an unplugged cable: lost, reconnect after the back-off, a fresh snapshot with the moves made meanwhile', () => {
    const rig = rigFor({ endMs: 8000, board: { registers: { 2: 3 } } }, r => {
      r.ts.schedule(() => r.link.unplug(), 3000);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 3200);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 3300);
      r.ts.schedule(() => r.link.plug(), 4000);
    });
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [400, 'connected'],
      [3000, 'lost'],
      [3500, 'resynchronising'],
      [3500, 'lost'],
      [4500, 'resynchronising'],
      [4900, 'connected'],
    ]);
    const snapshots = rig.seen.filter(o => o.type === 'snapshot');
    expect(snapshots.map(s => s.at)).toEqual([400, 4900]);
    expect(snapshots[1]).toMatchObject({
      squares: { [sq('e2')]: EMPTY, [sq('e4')]: makePiece('white', 'pawn') },
    });
    expect(rig.seen.filter(o => o.type === 'square')).toHaveLength(0);
    expect(rig.seen.filter(o => o.type === 'identity')).toHaveLength(2);
  });
});

describe('millenniumSession$: squares, orientation and LEDs', () => {
  it('10 plies as lift/place events arrive in order as square observations', () => {
    const game = scriptFromSans(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Bxc6', 'dxc6', 'O-O', 'f6'], {
      startAt: 1000,
      plyMs: 300,
      handMs: 80,
    }).unwrap();
    const rig = rigFor({ endMs: 5000 }, r => {
      void r.runner.play(game.steps);
    });
    expect(squaresOf(rig.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
  });

  it('auto orientation: a board in orientation B gives the start position and squares in the game frame', () => {
    const rig = rigFor({ endMs: 2000, board: { orientation: 'rotated', registers: { 2: 3 } } }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 1000);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 1100);
    });
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    expect(squaresOf(rig.seen)).toEqual([
      [sq('e2'), EMPTY],
      [sq('e4'), makePiece('white', 'pawn')],
    ]);
  });

  it('LED requests become L commands for the board’s orientation, the newest only; [] turns them off with X', () => {
    const e2e4: LedGroup[] = [{ squares: SquareSet.fromSquare(sq('e2')).with(sq('e4')), style: 'steady' }];
    const d5: LedGroup[] = [{ squares: SquareSet.fromSquare(sq('d5')), style: 'blink' }];
    const c3: LedGroup[] = [{ squares: SquareSet.fromSquare(sq('c3')), style: 'blink-inverse' }];
    const leds$ = new BehaviorSubject<readonly LedGroup[]>(e2e4);
    const lit: number[][] = [];
    const core = new MillenniumEmulator({ orientation: 'rotated', registers: { 2: 3 } });
    const rig = runBoardRig(
      {
        endMs: 3000,
        board: millenniumBoard(core),
        session: (t, scheduler) => millenniumSession$(t, { scheduler, leds$ }),
      },
      r => {
        r.ts.schedule(() => lit.push([...core.litSquares]), 455);
        // Two requests inside the 50 ms gap after the first L: only the newer one is sent.
        r.ts.schedule(() => leds$.next(d5), 460);
        r.ts.schedule(() => leds$.next(c3), 470);
        r.ts.schedule(() => lit.push([...core.litSquares]), 900);
        r.ts.schedule(() => leds$.next([]), 2000);
        r.ts.schedule(() => lit.push([...core.litSquares]), 2500);
      },
    );
    const ledWrites = rig.writes().filter(([, b]) => [0x4c, 0x58].includes(b[0]! & 0x7f));
    expect(ledWrites.map(([t]) => t)).toEqual([450, 500, 2000]);
    // §1.7's worked example (e2 + e4 steady), turned for orientation B.
    expect(ledWrites[0]![1]).toEqual(Array.from(makeCommand(makeLedCommand(e2e4, 'rotated'))));
    expect(ledWrites[1]![1]).toEqual(Array.from(makeCommand(makeLedCommand(c3, 'rotated'))));
    expect(parseWire(Uint8Array.from(ledWrites[2]![1]))).toBe('X58');
    // Corners are shared (§1.7): lighting e2 and e4 also closes all four corners of e3.
    expect(lit).toEqual([[sq('e2'), sq('e3'), sq('e4')], [sq('c3')], []]);
    expect(rig.seen.flatMap(o => (o.type === 'command-ack' ? [o.command] : []))).toEqual([
      'leds',
      'leds',
      'leds-off',
    ]);
  });

  it('LEDs off at connect and LEDs lit, blinked and cleared mid-game: the moves are still reported', () => {
    const game = scriptFromSans(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Bxc6', 'dxc6', 'O-O', 'f6'], {
      startAt: 1000,
      plyMs: 300,
      handMs: 80,
    }).unwrap();
    const leds$ = new BehaviorSubject<readonly LedGroup[]>([]);
    const rig = rigFor({ endMs: 6000, session: { leds$ } }, r => {
      void r.runner.play(game.steps);
      r.ts.schedule(() => leds$.next([{ squares: SquareSet.fromSquare(sq('g5')), style: 'blink' }]), 1500);
      r.ts.schedule(() => leds$.next([{ squares: SquareSet.fromSquare(sq('e4')), style: 'steady' }]), 2200);
      r.ts.schedule(() => leds$.next([]), 3000);
    });
    expect(rig.seen.flatMap(o => (o.type === 'command-ack' ? [o.command] : []))).toEqual([
      'leds-off',
      'leds',
      'leds',
      'leds-off',
    ]);
    expect(squaresOf(rig.seen)).toEqual(game.squares.map(s => [s.square, s.content]));
    expect(rig.links().map(([, s]) => s)).toEqual(['resynchronising', 'connected']);
    expect([...rig.core.litSquares]).toEqual([]);
  });

  it('the newest LED state is sent again after a reconnection (the board restarted with its LEDs off)', () => {
    const want: LedGroup[] = [{ squares: SquareSet.fromSquare(sq('c3')), style: 'steady' }];
    const core = new MillenniumEmulator({ registers: { 2: 3 } });
    const rig = runBoardRig(
      {
        endMs: 8000,
        board: millenniumBoard(core),
        session: (t, scheduler) =>
          millenniumSession$(t, { scheduler, leds$: new BehaviorSubject<readonly LedGroup[]>(want) }),
      },
      r => {
        r.ts.schedule(() => r.link.unplug(), 2000);
        r.ts.schedule(() => r.link.plug(), 2100);
      },
    );
    const ls = rig.writes().filter(([, b]) => (b[0]! & 0x7f) === 0x4c);
    expect(ls.map(([t]) => t)).toEqual([450, 2950]);
    expect([...core.litSquares]).toEqual([sq('c3')]);
  });
});
