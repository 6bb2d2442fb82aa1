/**
 * The bus-mode session in virtual time (reference §8): the polling cycle, one stream per board,
 * REPEAT_CHANGES after a checksum error, a board that stops answering and comes back, and a
 * line that is unplugged and returns without losing any change, or stays open but silent.
 */
import { parseSquare } from 'chessops';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { makeCommand, parseCommand } from '../../../src/drivers/dgt/commands.js';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { scriptFromSans } from '../../../src/drivers/dgt/emulatorScript.js';
import {
  boardStreams,
  dgtBusSession$,
  type DgtBusSessionOptions,
} from '../../../src/drivers/dgt/sessionBus.js';
import { makeHex, type Observation } from '../../../src/drivers/observation.js';
import { createMemoryLink, type MemoryLink } from '../../../src/drivers/transport/memory.js';
import { stallingScheduler } from '../../support/stalled.js';

const sq = (n: string): number => parseSquare(n)!;
const ADDRESSES = [11, 12, 13];

interface BusRig {
  readonly ts: TestScheduler;
  readonly link: MemoryLink;
  readonly line: DgtBusLine;
  readonly seen: Map<number | undefined, Observation[]>;
  /** Boards whose replies are swallowed. */
  readonly mute: Set<number>;
  /** Host commands as `command@address` with their times. */
  readonly requests: [number, string][];
  links(address: number): [number, string][];
}

/**
 * A bus line served by hand (not by the runner) so replies can be muted or corrupted: the
 * device answers every request at once, and `corrupt(address, command)` may spoil a checksum.
 */
const runBus = (
  endMs: number,
  options: Partial<DgtBusSessionOptions>,
  body: (r: BusRig) => void,
  corrupt: (address: number, command: string, reply: Uint8Array) => boolean = () => false,
  timing: {
    readonly delayMs?: (address: number, command: string, now: number) => number;
    /**
     * The daemon stalls this long as the device serves a request (a busy machine): its clock jumps
     * ahead of its timers, which fire late by that much.
     */
    readonly stallMs?: (address: number, command: string, now: number) => number;
  } = {},
): BusRig => {
  const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
  let rig: BusRig | undefined;
  const daemonTime = stallingScheduler(ts);
  ts.run(({ flush }) => {
    const link = createMemoryLink({ scheduler: ts });
    const line = new DgtBusLine(
      ADDRESSES.map(a => new DgtBoardEmulator({ serial: String(a).padStart(5, '0') })),
    );
    const mute = new Set<number>();
    const requests: [number, string][] = [];
    const serve = (): void => {
      link.device.bytes$.subscribe({
        next: c => {
          const parsed = parseCommand(c.bytes);
          const command = parsed.isOk ? parsed.value.command : undefined;
          if (command?.kind === 'bus') requests.push([ts.now(), `${command.command}@${command.address}`]);
          else if (command !== undefined) requests.push([ts.now(), command.kind]);
          const reply = line.receive(c.bytes, ts.now());
          if (command?.kind !== 'bus' || reply.length === 0 || mute.has(command.address)) return;
          if (corrupt(command.address, command.command, reply))
            reply[reply.length - 1] = (reply.at(-1) ?? 0) ^ 0x01;
          daemonTime.stall(timing.stallMs?.(command.address, command.command, ts.now()) ?? 0);
          const delay = timing.delayMs?.(command.address, command.command, ts.now()) ?? 0;
          if (delay === 0) void link.device.write(reply);
          else ts.schedule(() => void link.device.write(reply), delay);
        },
        error: () => ts.schedule(serve, 10),
      });
    };
    serve();
    const seen = new Map<number | undefined, Observation[]>([...ADDRESSES, undefined].map(a => [a, []]));
    const split = boardStreams(
      dgtBusSession$(link.host, {
        addresses: ADDRESSES,
        scheduler: timing.stallMs === undefined ? ts : daemonTime,
        ...options,
      }),
      ADDRESSES,
    );
    for (const [a, obs$] of split.boards) obs$.subscribe(o => seen.get(a)!.push(o));
    split.line$.subscribe(o => seen.get(undefined)!.push(o));
    const running = split.connect();
    rig = {
      ts,
      link,
      line,
      seen,
      mute,
      requests,
      links: a => seen.get(a)!.flatMap(o => (o.type === 'link' ? [[o.at, o.state] as [number, string]] : [])),
    };
    body(rig);
    ts.schedule(() => running.unsubscribe(), endMs);
    flush();
  });
  return rig!;
};

describe('dgtBusSession$', () => {
  it('switches the line to bus mode, then drains and dumps each board in turn; one stream per board', () => {
    const rig = runBus(400, {}, () => undefined);
    expect(rig.requests).toEqual([
      [300, 'to-bus-mode'],
      [300, 'send-changes@11'],
      [300, 'send-board@11'],
      [300, 'send-changes@12'],
      [300, 'send-board@12'],
      [300, 'send-changes@13'],
      [300, 'send-board@13'],
    ]);
    for (const a of ADDRESSES) {
      expect(rig.seen.get(a)!.map(o => (o.type === 'link' ? o.state : o.type))).toEqual([
        'resynchronising',
        'snapshot',
        'connected',
      ]);
    }
  });

  it('polls changes every cycle and delivers each board’s moves on its own stream, in order', () => {
    const games = {
      11: scriptFromSans(['e4', 'e5', 'Nf3'], { plyMs: 120, board: 11 }).unwrap(),
      13: scriptFromSans(['d4', 'Nf6', 'c4', 'e6'], { plyMs: 90, board: 13 }).unwrap(),
    };
    const rig = runBus(3000, { cycleMs: 200, clock: true }, r => {
      for (const g of Object.values(games))
        for (const s of g.steps)
          r.ts.schedule(() => void r.line.apply(s as never, r.ts.now(), s.board!), 400 + s.at);
    });
    for (const [a, g] of Object.entries(games)) {
      const squares = rig.seen.get(Number(a))!.filter(o => o.type === 'square');
      expect(squares.map(o => [o.square, o.content])).toEqual(g.squares.map(s => [s.square, s.content]));
    }
    expect(rig.seen.get(12)!.filter(o => o.type === 'square')).toEqual([]);
    expect(rig.seen.get(12)!.some(o => o.type === 'clock')).toBe(true);
    expect(
      rig.requests
        .filter(([, r]) => r === 'send-changes@12')
        .map(([t]) => t)
        .slice(0, 4),
    ).toEqual([300, 500, 700, 900]);
  });

  it('after a checksum error on a change list it asks REPEAT_CHANGES, and loses nothing', () => {
    let spoiled = false;
    const rig = runBus(
      1200,
      { cycleMs: 200 },
      r =>
        r.ts.schedule(
          () => void r.line.apply({ kind: 'square', square: 'e2', piece: 'empty' }, r.ts.now(), 12),
          450,
        ),
      // Spoil the first change list of board 12 that carries a change (longer than 6 bytes).
      (address, command, reply) => {
        if (spoiled || address !== 12 || command !== 'send-changes' || reply.length <= 6) return false;
        return (spoiled = true);
      },
    );
    const after = rig.requests.filter(([t, r]) => t >= 500 && r.endsWith('@12')).map(([, r]) => r);
    expect(after.slice(0, 2)).toEqual(['send-changes@12', 'repeat-changes@12']);
    expect(
      rig.seen.get(undefined)!.map(o => (o.type === 'protocol-error' ? o.reason.kind : o.type)),
    ).toContain('checksum');
    expect(rig.seen.get(12)!.filter(o => o.type === 'square')).toMatchObject([{ square: sq('e2') }]);
  });

  it('a board that stops answering is lost after 3 misses and reconnected with a dump when it answers again', () => {
    const rig = runBus(3000, { cycleMs: 200 }, r => {
      r.ts.schedule(() => r.mute.add(13), 400);
      r.ts.schedule(() => r.mute.delete(13), 1500);
    });
    expect(rig.links(13).map(([, s]) => s)).toEqual(['resynchronising', 'connected', 'lost', 'connected']);
    const [, , lost, back] = rig.links(13);
    // Polls at 500, 700, 900 go unanswered (80 ms each): lost at 980. The poll at 1500 answers.
    expect(lost![0]).toBe(980);
    expect(back![0]).toBe(1500);
    expect(rig.links(11).map(([, s]) => s)).toEqual(['resynchronising', 'connected']);
  });

  it('replies late only because the daemon was stalled count no miss; a board as slow with the daemon awake is lost', () => {
    // From 400 ms to 1500 ms board 13 answers 150 ms late (the timeout is 80 ms).
    const slow = (address: number, command: string, now: number): number =>
      address === 13 && command === 'send-changes' && now >= 400 && now < 1500 ? 150 : 0;
    // The daemon stalls 150 ms at each of those requests: the replies wait in its input, unread.
    const stalled = runBus(3000, { cycleMs: 200 }, () => undefined, undefined, {
      delayMs: slow,
      stallMs: slow,
    });
    expect(stalled.links(13).map(([, s]) => s)).toEqual(['resynchronising', 'connected']);
    expect(stalled.requests.filter(([, q]) => q === 'repeat-changes@13')).toEqual([]);
    const awake = runBus(3000, { cycleMs: 200 }, () => undefined, undefined, { delayMs: slow });
    expect(awake.links(13).map(([, s]) => s)).toEqual(['resynchronising', 'connected', 'lost', 'connected']);
  });

  it('a change list whose reply was lost is asked for again with REPEAT_CHANGES: nothing lost, nothing twice', () => {
    const rig = runBus(3000, { cycleMs: 200 }, r => {
      r.ts.schedule(() => r.mute.add(13), 400);
      r.ts.schedule(
        () => void r.line.apply({ kind: 'square', square: 'd7', piece: 'empty' }, r.ts.now(), 13),
        450,
      );
      r.ts.schedule(
        () => void r.line.apply({ kind: 'square', square: 'd5', piece: 'p' }, r.ts.now(), 13),
        460,
      );
      r.ts.schedule(() => r.mute.delete(13), 1500);
    });
    const polls = rig.requests.filter(([t, req]) => t >= 500 && req.endsWith('@13')).map(([, req]) => req);
    // 500: the list (d7, d5) is sent but swallowed; then only repeats until one is answered at 1500,
    // and the board, lost meanwhile, gets a dump.
    const dump = polls.indexOf('send-board@13');
    expect(polls[0]).toBe('send-changes@13');
    expect(dump).toBeGreaterThan(3);
    expect(polls.slice(1, dump).every(p => p === 'repeat-changes@13')).toBe(true);
    expect(rig.seen.get(13)!.filter(o => o.type === 'square')).toMatchObject([
      { square: sq('d7') },
      { square: sq('d5') },
    ]);
  });

  it('a repeat of a list already delivered (its reply came late) is dropped', () => {
    const rig = runBus(
      2000,
      { cycleMs: 200, replyTimeoutMs: 30 },
      r => {
        r.ts.schedule(
          () => void r.line.apply({ kind: 'square', square: 'c2', piece: 'empty' }, r.ts.now(), 12),
          450,
        );
      },
      undefined,
      // Only the poll at 500 ms is answered late.
      {
        delayMs: (address, command, now) =>
          address === 12 && command === 'send-changes' && now === 500 ? 250 : 0,
      },
    );
    const polls = rig.requests.filter(([t, req]) => t >= 500 && req.endsWith('@12')).map(([, req]) => req);
    // The reply to the poll at 500 comes at 750: by then the repeat asked at 700 has delivered the same list.
    expect(polls.slice(0, 2)).toEqual(['send-changes@12', 'repeat-changes@12']);
    expect(rig.seen.get(12)!.filter(o => o.type === 'square')).toMatchObject([{ square: sq('c2') }]);
  });

  it('an unplugged line: every board lost, then back with fresh dumps and the changes made meanwhile', () => {
    const rig = runBus(6000, { cycleMs: 200 }, r => {
      r.ts.schedule(() => r.link.unplug(), 1000);
      r.ts.schedule(
        () => void r.line.apply({ kind: 'square', square: 'g1', piece: 'empty' }, r.ts.now(), 11),
        1100,
      );
      r.ts.schedule(
        () => void r.line.apply({ kind: 'square', square: 'f3', piece: 'N' }, r.ts.now(), 11),
        1200,
      );
      r.ts.schedule(() => r.link.plug(), 1300);
    });
    for (const a of ADDRESSES) {
      expect(rig.links(a).map(([t, s]) => `${t} ${s}`)).toEqual([
        '0 resynchronising',
        '300 connected',
        '1000 lost',
        '1500 resynchronising',
        '1800 connected',
      ]);
    }
    const eleven = rig.seen.get(11)!.filter(o => o.at >= 1000);
    expect(eleven.map(o => (o.type === 'link' ? o.state : o.type))).toEqual([
      'lost',
      'resynchronising',
      'square',
      'square',
      'snapshot',
      'connected',
    ]);
    expect(eleven[2]).toMatchObject({ square: sq('g1') });
    expect(eleven[3]).toMatchObject({ square: sq('f3') });
  });

  it('a line that stays open but silent (no board answers) is closed after 5 s and reopened with back-off', () => {
    // A port can stay open without error after its device went (a killed PTY showed it): only
    // the silence tells. Every board is muted at 1 s and answers again at 7 s.
    const rig = runBus(12000, { cycleMs: 200 }, r => {
      r.ts.schedule(() => ADDRESSES.forEach(a => r.mute.add(a)), 1000);
      r.ts.schedule(() => r.mute.clear(), 7000);
    });
    for (const a of ADDRESSES) {
      const links = rig.seen.get(a)!.flatMap(o => (o.type === 'link' ? [o] : []));
      // Each board is lost on its own first (three unanswered requests), then the whole line by
      // its silence, 5 s after the last byte; reopened 0.5 s later, and connected once answered.
      expect(links.map(o => o.state)).toEqual([
        'resynchronising',
        'connected',
        'lost',
        'lost',
        'resynchronising',
        'connected',
      ]);
      expect(links[2]?.detail).toBe('3 requests unanswered');
      expect(links[3]).toMatchObject({ detail: 'no bytes from the board for 5000 ms' });
      expect(links[3]!.at).toBeGreaterThanOrEqual(5900);
      expect(links[3]!.at).toBeLessThan(6000);
      expect(links[4]).toMatchObject({ at: links[3]!.at + 500, detail: 'attempt 2' });
      expect(links[5]!.at).toBeGreaterThanOrEqual(7000);
    }
  });

  it('the commands are well-formed bus commands (§10.5 example)', () => {
    expect(makeHex(makeCommand({ kind: 'bus', command: 'send-board', address: 1025 }))).toBe('82 08 01 0B');
  });
});
