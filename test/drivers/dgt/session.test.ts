/**
 * The single-board session in virtual time (STYLE items 17, 18): the §5.3 handshake and its
 * timing, keepalive probes, silence and loss, reconnection with back-off and a fresh dump,
 * orientation detection, the settle dump that repairs a dropped update, identity without
 * repeats, and one clock command at a time.
 */
import { parseSquare } from 'chessops';
import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type ClockCommand } from '../../../src/drivers/dgt/clockCommands.js';
import { backoffDelay } from '../../../src/drivers/backoff.js';
import { dgtSession$, ofType } from '../../../src/drivers/dgt/session.js';
import { LinkSilentError } from '../../../src/drivers/link.js';
import { EMPTY, makePiece, START_SQUARES } from '../../../src/drivers/observation.js';
import type { Chunk, Transport } from '../../../src/drivers/transport/transport.js';
import { TransportError } from '../../../src/drivers/transport/transport.js';
import { buildRig, createTestScheduler, runRig } from './sessionRig.js';

const sq = (n: string): number => parseSquare(n)!;
const CMD = {
  mode: 0x4b,
  update: 0x43,
  version: 0x4d,
  serial: 0x45,
  dump: 0x42,
  log: 0x49,
  clock: 0x2b,
} as const;

/** A transport whose bytes$ is a marble observable, for subscription assertions. */
const marbleTransport = (bytes$: Transport['bytes$']): Transport => ({
  path: 'marble',
  open: () => Promise.resolve(),
  write: () => Promise.resolve(),
  close: () => Promise.resolve(),
  bytes$,
});

describe('dgtSession$: handshake (§5.3)', () => {
  it('link: resynchronising at once, connected with the first dump (marbles)', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const { session$ } = buildRig(ts, { endMs: 3000 });
      const links$ = session$.pipe(
        ofType('link'),
        map(l => l.state),
      );
      expectObservable(links$, '^ 2000ms !').toBe('a 599ms b', { a: 'resynchronising', b: 'connected' });
    });
  });

  it('writes UPDATE_NICE, version, serial and dump 100 ms apart after 300 ms, then asks the clock', () => {
    const rig = runRig({ endMs: 1200 });
    expect(rig.writes()).toEqual([
      [300, CMD.mode],
      [400, CMD.version],
      [500, CMD.serial],
      [600, CMD.dump],
      [600, CMD.clock],
    ]);
    expect(rig.seen.map(o => o.type)).toEqual([
      'link',
      'clock',
      'identity',
      'identity',
      'snapshot',
      'link',
      'clock-ack',
    ]);
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ at: 600, squares: START_SQUARES });
    expect(rig.seen.find(o => o.type === 'clock-ack')).toMatchObject({
      event: { kind: 'version', main: 2, sub: 0 },
    });
  });

  it('UPDATE mode when asked (0x43 instead of 0x4B)', () => {
    const rig = runRig({ endMs: 700, session: { mode: 'update' } });
    expect(rig.writes()[0]).toEqual([300, CMD.update]);
  });

  it('repeats the version and dump requests every 2 s until the board answers', () => {
    const rig = runRig({ endMs: 4500, serve: false });
    const retries = rig.writes().filter(([t]) => t > 600 && t % 1000 !== 0);
    expect(retries).toEqual([
      [2300, CMD.mode],
      [2300, CMD.version],
      [2300, CMD.dump],
      [4300, CMD.mode],
      [4300, CMD.version],
      [4300, CMD.dump],
    ]);
  });
});

describe('dgtSession$: keepalive and loss', () => {
  it('probes with a serial-number request after each second of silence; the answers are not repeated as identity', () => {
    const rig = runRig({ endMs: 5000 });
    const probes = rig.writes().filter(([t, b]) => t > 600 && b === CMD.serial);
    // The clock ack at 600 ms was the last byte; each probe's answer restarts the second.
    expect(probes.map(([t]) => t)).toEqual([1600, 2600, 3600, 4600]);
    expect(rig.seen.filter(o => o.type === 'identity')).toHaveLength(2);
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [600, 'connected'],
    ]);
  });

  it('a silent line is lost after 5 s and retried with back-off 500, 1000, 2000 ms (marbles)', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const silent = marbleTransport(ts.createColdObservable<Chunk>('-'));
      const links$ = dgtSession$(silent, { scheduler: ts }).pipe(
        ofType('link'),
        map(l => l.state[0]),
      );
      // r = resynchronising, l = lost: (lr) ... 5 s silence each, then the back-off.
      expectObservable(links$, '^ 19000ms !').toBe('r 4999ms l 499ms r 4999ms l 999ms r 4999ms l 1999ms r');
    });
  });

  it('releases the port on every failure and on unsubscribe (subscriptions)', () => {
    const ts = createTestScheduler();
    ts.run(({ cold, expectSubscriptions }) => {
      const bytes$ = cold<Chunk>(
        '--#',
        undefined,
        new TransportError({ kind: 'disconnected', detail: 'EIO' }),
      );
      const sub = dgtSession$(marbleTransport(bytes$), { scheduler: ts }).subscribe({
        error: () => undefined,
      });
      ts.schedule(() => sub.unsubscribe(), 2000);
      // Attempts at 0, 2+500, 504+1000; the fourth (at 1506+2000) never starts: unsubscribed at 2000.
      expectSubscriptions(bytes$.subscriptions).toBe(['^-!', '502ms ^-!', '1504ms ^-!']);
    });
  });

  it('gives up after maxAttempts with the last error, reporting `lost` first', () => {
    const ts = createTestScheduler();
    ts.run(({ expectObservable }) => {
      const silent = marbleTransport(ts.createColdObservable<Chunk>('-'));
      const states$ = dgtSession$(silent, { scheduler: ts, maxAttempts: 2, silenceMs: 100 }).pipe(
        map(o => (o.type === 'link' ? o.state[0] : o.type)),
      );
      expectObservable(states$).toBe('r 99ms l 499ms r 99ms (l#)', undefined, new LinkSilentError(100));
    });
  });

  it('back-off grows by the factor up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6].map(n => backoffDelay(n))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelay(3, { initialMs: 100, factor: 3, maxMs: 500 })).toBe(500);
  });
});

describe('dgtSession$: an unplugged cable', () => {
  it('reports lost, reconnects after the back-off, and takes a fresh dump that shows what happened meanwhile', () => {
    const rig = runRig({ endMs: 8000 }, r => {
      r.ts.schedule(() => r.link.unplug(), 3000);
      // While the cable is out, e2-e4 is played: those updates are lost.
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 3200);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 3300);
      r.ts.schedule(() => r.link.plug(), 4000);
    });
    expect(rig.links()).toEqual([
      [0, 'resynchronising'],
      [600, 'connected'],
      [3000, 'lost'],
      [3500, 'resynchronising'],
      [3500, 'lost'],
      [4500, 'resynchronising'],
      [5100, 'connected'],
    ]);
    expect(rig.seen.filter(o => o.type === 'link').map(o => o.detail)[2]).toBe('disconnected: cable pulled');
    // The fresh dump of the second connection is reported and is the authority.
    const snapshots = rig.seen.filter(o => o.type === 'snapshot');
    expect(snapshots.map(s => s.at)).toEqual([600, 5100]);
    expect(snapshots[1]).toMatchObject({
      squares: { [sq('e2')]: EMPTY, [sq('e4')]: makePiece('white', 'pawn') },
    });
    // The board had power-cycled: the session sent the update mode again.
    expect(rig.writes().filter(([t, b]) => t > 4500 && b === CMD.mode)).toEqual([[4800, CMD.mode]]);
    // Identity is reported again for the new connection.
    expect(rig.seen.filter(o => o.type === 'identity' && o.at > 4500)).toHaveLength(2);
  });

  it('after a successful reconnection the back-off starts again from its first step', () => {
    const rig = runRig({ endMs: 12_000 }, r => {
      r.ts.schedule(() => r.link.unplug(), 1000);
      r.ts.schedule(() => r.link.plug(), 1700); // attempt at 1500 fails, at 2500 succeeds
      r.ts.schedule(() => r.link.unplug(), 6000);
      r.ts.schedule(() => r.link.plug(), 6100);
    });
    const resyncs = rig
      .links()
      .filter(([, s]) => s === 'resynchronising')
      .map(([t]) => t);
    expect(resyncs).toEqual([0, 1500, 2500, 6500]);
  });
});

describe('dgtSession$: the board and its orientation', () => {
  it('auto: a rotated start position is recognised; squares come out in the game frame', () => {
    const rig = runRig({ endMs: 2000, board: { orientation: 'rotated' } }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 1000);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 1050);
    });
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({ squares: START_SQUARES });
    expect(rig.seen.filter(o => o.type === 'square')).toMatchObject([
      { square: sq('e2'), content: EMPTY },
      { square: sq('e4'), content: makePiece('white', 'pawn') },
    ]);
  });

  it('configured: a rotated board read as normal is not turned around', () => {
    const rig = runRig({
      endMs: 1000,
      board: { orientation: 'rotated' },
      session: { orientation: 'normal' },
    });
    const snap = rig.seen.find(o => o.type === 'snapshot');
    expect(snap).toMatchObject({ squares: { [sq('e1')]: makePiece('black', 'queen') } });
  });

  it('auto: pieces set up on an empty rotated board; once the start position stands, it is re-reported turned', () => {
    const empty = Array.from({ length: 64 }, () => EMPTY);
    const rig = runRig(
      { endMs: 4000, board: { orientation: 'rotated', squares: empty }, session: { settleMs: 0 } },
      r => {
        // Place the start position square by square (the board frame is rotated).
        START_SQUARES.forEach((c, s) => {
          if (c.kind !== 'piece') return;
          const letter = c.role === 'knight' ? 'n' : c.role[0]!;
          const piece = (c.color === 'white' ? letter.toUpperCase() : letter) as 'P';
          r.ts.schedule(() => r.runner.apply({ kind: 'square', square: s, piece }), 1000 + s * 10);
        });
      },
    );
    const snapshots = rig.seen.filter(o => o.type === 'snapshot');
    expect(snapshots).toHaveLength(2);
    expect(snapshots[1]).toMatchObject({ squares: START_SQUARES });
    // Before detection the squares were read as normal: the first white pawn lands on the 7th rank.
    expect(rig.seen.find(o => o.type === 'square')).toMatchObject({ square: sq('h8') });
  });

  it('a dropped update is repaired by the settle dump 250 ms after the board went quiet', () => {
    const rig = runRig({ endMs: 2000 }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'drop-updates', count: 1 }), 999);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 1000);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 1050);
    });
    expect(rig.seen.filter(o => o.type === 'square')).toMatchObject([{ at: 1050, square: sq('e4') }]);
    expect(rig.writes().filter(([t]) => t > 1000)).toContainEqual([1300, CMD.dump]);
    const repair = rig.seen.filter(o => o.type === 'snapshot')[1];
    expect(repair).toMatchObject({
      at: 1300,
      squares: { [sq('e2')]: EMPTY, [sq('e4')]: makePiece('white', 'pawn') },
    });
  });

  it('no settle dump during the handshake: the board’s log comes before its first dump', () => {
    // A piece set down while the session reconnects (a player does not wait for the daemon): the
    // settle dump would reach the board before the log request, the log would follow the dump,
    // and what it holds could no longer be replayed up to the board as dumped.
    const rig = runRig({ endMs: 2000, session: { readLog: true } }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 320);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 340);
    });
    const writes = rig.writes();
    const log = writes.findIndex(([, b]) => b === CMD.log);
    expect(log).toBeGreaterThanOrEqual(0);
    expect(writes.findIndex(([, b]) => b === CMD.dump)).toBeGreaterThan(log);
    const types = rig.seen.map(o => o.type);
    expect(types.indexOf('eeprom-log')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('eeprom-log')).toBeLessThan(types.indexOf('snapshot'));
    expect(rig.seen.find(o => o.type === 'snapshot')).toMatchObject({
      squares: { [sq('e2')]: EMPTY, [sq('e4')]: makePiece('white', 'pawn') },
    });
  });

  it('a settle dump that agrees with the updates is not reported again', () => {
    const rig = runRig({ endMs: 2000 }, r => {
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e2', piece: 'empty' }), 1000);
      r.ts.schedule(() => r.runner.apply({ kind: 'square', square: 'e4', piece: 'P' }), 1050);
    });
    expect(rig.writes()).toContainEqual([1300, CMD.dump]);
    expect(rig.seen.filter(o => o.type === 'snapshot')).toHaveLength(1);
  });
});

describe('dgtSession$: clock commands', () => {
  const setText = (text: string): ClockCommand => ({ kind: 'ascii', text, beep: 0 });

  it('sends one command at a time: the next waits for the clock’s answer', () => {
    const ts = createTestScheduler();
    let written: [number, number][] = [];
    ts.run(({ hot, flush }) => {
      const commands$ = hot<ClockCommand>('1000ms a b', { a: setText('e4'), b: setText('Nf3') });
      const rig = buildRig(ts, { endMs: 3000, latencyMs: 50, session: { clockCommands$: commands$ } });
      const sub = rig.session$.subscribe();
      ts.schedule(() => sub.unsubscribe(), 3000);
      flush();
      written = rig.link.host.writes.filter(w => w.bytes[0] === CMD.clock).map(w => [w.at, w.bytes[3] ?? 0]);
    });
    // Handshake at 300, 400, 500, 600 (+50 ms each way): connected at 700; the clock version
    // goes out at once, its ack comes back at 800; 'e4' at 1000 (ack 1100), then 'Nf3' at 1100.
    expect(written).toEqual([
      [700, 0x09],
      [1000, 0x0c],
      [1100, 0x0c],
    ]);
  });

  it('resends an unanswered command after 2 s, twice, then moves on', () => {
    const ts = createTestScheduler();
    let times: number[] = [];
    ts.run(({ hot, flush }) => {
      const commands$ = hot<ClockCommand>('1000ms a 4999ms b', { a: setText('one'), b: setText('two') });
      const rig = buildRig(ts, {
        endMs: 16_000,
        board: { clock: false },
        session: { clock: false, clockCommands$: commands$ },
      });
      const sub = rig.session$.subscribe();
      ts.schedule(() => sub.unsubscribe(), 16_000);
      flush();
      times = rig.link.host.writes.filter(w => w.bytes[0] === CMD.clock).map(w => w.at);
    });
    // 'two' is issued at 6000 ms while 'one' still waits; it goes out when 'one' is given up at 7000.
    expect(times).toEqual([1000, 3000, 5000, 7000, 9000, 11_000]);
  });
});
