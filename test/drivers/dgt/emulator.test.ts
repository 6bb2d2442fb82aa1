/**
 * The DGT board emulator's pure core: byte-exact replies for the reference's worked examples
 * (§10), the modes of §5.1, the clock of §6, bus mode of §8, and commands split at every byte.
 * Replies are also checked by decoding them with the project's own decoders.
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import { DgtBusDecoder } from '../../../src/drivers/dgt/bus.js';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import { type DgtCommand, makeCommand } from '../../../src/drivers/dgt/commands.js';
import { DgtBoardEmulator } from '../../../src/drivers/dgt/emulator.js';
import { DgtBusLine } from '../../../src/drivers/dgt/emulatorBus.js';
import { makeHex, makePiece, type Observation, START_SQUARES } from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));
const cmd = (...cs: DgtCommand[]): Uint8Array => Uint8Array.from(cs.flatMap(c => Array.from(makeCommand(c))));
const decode = (bytes: Uint8Array): Observation[] => new DgtDecoder().push(bytes, 0);
const sq = (n: string): number => parseSquare(n)!;

// §10.1 capture A and capture B.
const DUMP_NORMAL = `86 00 43 08 09 0A 0C 0B 0A 09 08 ${'07 '.repeat(8)}${'00 '.repeat(32)}${'01 '.repeat(8)}02 03 04 06 05 04 03 02`;
const DUMP_ROTATED = `86 00 43 02 03 04 05 06 04 03 02 ${'01 '.repeat(8)}${'00 '.repeat(32)}${'07 '.repeat(8)}08 09 0A 0B 0C 0A 09 08`;

describe('DgtBoardEmulator, single-board mode', () => {
  it('powers up in bus mode; the first single-board command leaves it and is executed (§5.1)', () => {
    const board = new DgtBoardEmulator();
    expect(board.mode).toBe('bus');
    expect(board.receive(cmd({ kind: 'update-nice' }), 0)).toHaveLength(0);
    expect(board.mode).toBe('update-nice');
  });

  it('answers the dump request with the §10.1 bytes, normal and rotated', () => {
    expect(makeHex(new DgtBoardEmulator().receive(cmd({ kind: 'send-board' }), 0))).toBe(
      makeHex(hex(DUMP_NORMAL)),
    );
    const rotated = new DgtBoardEmulator({ orientation: 'rotated' });
    expect(makeHex(rotated.receive(cmd({ kind: 'send-board' }), 0))).toBe(makeHex(hex(DUMP_ROTATED)));
  });

  it('identifies itself: version, serial number, long serial, bus address, trademark', () => {
    const board = new DgtBoardEmulator({
      serial: '01025',
      version: { major: 1, minor: 80 },
      longSerial: '3.25A00001',
    });
    const bytes = board.receive(
      cmd(
        { kind: 'version' },
        { kind: 'serial' },
        { kind: 'long-serial' },
        { kind: 'bus-address' },
        { kind: 'trademark' },
      ),
      0,
    );
    expect(decode(bytes)).toMatchObject([
      { type: 'identity', firmware: '1.80' },
      { type: 'identity', serial: '01025' },
      { type: 'identity', longSerial: '3.25A00001' },
      { type: 'identity', busAddress: 1025 },
      { type: 'identity', trademark: 'Emulated DGT board' },
    ]);
    // §1.3: the bus address reply for serial 01025 is 08 01.
    expect(makeHex(board.receive(cmd({ kind: 'bus-address' }), 0))).toBe('90 00 05 08 01');
  });

  it('sends field updates in the update modes only (§10.2 bytes), and none in IDLE', () => {
    const board = new DgtBoardEmulator({ mode: 'idle' });
    expect(board.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 0)).toHaveLength(0);
    expect(board.codeAt('e2')).toBe(0);
    board.receive(cmd({ kind: 'update-board' }), 0);
    expect(makeHex(board.apply({ kind: 'square', square: 'e4', piece: 'P' }, 10))).toBe('8E 00 05 24 01');
    expect(board.apply({ kind: 'square', square: 'e4', piece: 'empty' }, 20, { silent: true })).toHaveLength(
      0,
    );
  });

  it('on a rotated board e2-e4 arrives as fields 0x0B and 0x1B (§10.2)', () => {
    const board = new DgtBoardEmulator({ orientation: 'rotated', mode: 'update' });
    const bytes = [
      board.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 0),
      board.apply({ kind: 'square', square: 'e4', piece: 'P' }, 10),
    ];
    expect(bytes.map(makeHex)).toEqual(['8E 00 05 0B 00', '8E 00 05 1B 01']);
  });

  it('answers commands fed one byte at a time exactly as when fed whole', () => {
    const all = cmd(
      { kind: 'update-nice' },
      { kind: 'version' },
      { kind: 'clock', clock: { kind: 'version' } },
      { kind: 'send-board' },
    );
    const whole = new DgtBoardEmulator().receive(all, 0);
    const byByte = new DgtBoardEmulator();
    const parts = Array.from(all, b => byByte.receive(Uint8Array.of(b), 0));
    expect(makeHex(Uint8Array.from(parts.flatMap(p => Array.from(p))))).toBe(makeHex(whole));
    expect(whole.length).toBe(5 + 10 + 67);
  });

  it('logs moves in the EEPROM and returns them for 0x49 (§7)', () => {
    const board = new DgtBoardEmulator({ mode: 'idle' });
    board.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 0);
    board.apply({ kind: 'square', square: 'e4', piece: 'P' }, 100);
    const [log] = decode(board.receive(cmd({ kind: 'log-moves' }), 500));
    if (log?.type !== 'eeprom-log') throw new Error('no log');
    // As at power-on (§7): the power-up tag, one record per piece, the begin-position tag.
    expect(log.records[0]).toEqual({ kind: 'tag', tag: 'power-up' });
    expect(log.records.slice(1, 33).every(r => r.kind === 'piece' && r.content.kind === 'piece')).toBe(true);
    expect(log.records.slice(33)).toMatchObject([
      { kind: 'tag', tag: 'begin-pos' },
      { kind: 'piece', square: sq('e2'), content: { kind: 'empty' }, quick: false },
      { kind: 'piece', square: sq('e4'), content: makePiece('white', 'pawn'), quick: true },
      { kind: 'tag', tag: 'eof' },
    ]);
  });

  it('tags the start position in its log again once more than two pieces had left it (§7 hysteresis)', () => {
    const board = new DgtBoardEmulator({ mode: 'idle' });
    const tags = (): number => {
      const [log] = decode(board.receive(cmd({ kind: 'log-moves' }), 0));
      return log?.type === 'eeprom-log'
        ? log.records.filter(r => r.kind === 'tag' && r.tag === 'begin-pos').length
        : -1;
    };
    board.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 0);
    board.apply({ kind: 'square', square: 'e2', piece: 'P' }, 100);
    expect(tags()).toBe(1);
    for (const s of ['e2', 'd2', 'c2'] as const)
      board.apply({ kind: 'square', square: s, piece: 'empty' }, 200);
    for (const s of ['e2', 'd2', 'c2'] as const) board.apply({ kind: 'square', square: s, piece: 'P' }, 300);
    expect(tags()).toBe(2);
  });

  it('starts from a given position', () => {
    const squares = START_SQUARES.map((c, i) => (i === sq('e2') ? ({ kind: 'empty' } as const) : c));
    const board = new DgtBoardEmulator({ squares });
    expect(board.codeAt('e2')).toBe(0);
    expect(board.codeAt('d2')).toBe(1);
  });
});

describe('DgtBoardEmulator, clock', () => {
  it('acks the clock version only in UPDATE / UPDATE_NICE, with the §10.4 bytes of a DGT3000 2.0', () => {
    const board = new DgtBoardEmulator({ mode: 'idle' });
    const versionCmd = cmd({ kind: 'clock', clock: { kind: 'version' } });
    expect(board.receive(versionCmd, 0)).toHaveLength(0);
    board.receive(cmd({ kind: 'update-nice' }), 0);
    expect(makeHex(board.receive(versionCmd, 0))).toBe('8D 00 0A 0A 10 09 0A 20 00 00');
  });

  it('no clock plugged in: no ack, and clock readings say so (D5)', () => {
    const board = new DgtBoardEmulator({ mode: 'update', clock: false });
    expect(board.receive(cmd({ kind: 'clock', clock: { kind: 'version' } }), 0)).toHaveLength(0);
    expect(decode(board.receive(cmd({ kind: 'send-clock' }), 0))).toMatchObject([
      { type: 'clock', connected: false },
    ]);
  });

  it('SetNRun starts the clock; UPDATE_NICE reports each new second, UPDATE every second', () => {
    const nice = new DgtBoardEmulator({ mode: 'update-nice' });
    const setNRun = cmd({
      kind: 'clock',
      clock: {
        kind: 'set-and-run',
        left: { hours: 0, minutes: 5, seconds: 0 },
        right: { hours: 0, minutes: 5, seconds: 0 },
        run: 'left',
        toggleOnLever: true,
      },
    });
    expect(decode(nice.receive(setNRun, 0))).toMatchObject([
      { type: 'clock-ack', ok: true, event: { kind: 'reply', command: 0x0a } },
    ]);
    const sent = [0, 100, 500, 999, 1000, 1001, 1999, 2000].filter(t => nice.tick(t).length > 0);
    expect(sent).toEqual([0, 1000, 2000]);
    const [reading] = decode(nice.tick(2500 + 500));
    expect(reading).toMatchObject({
      type: 'clock',
      running: 'left',
      left: { ms: 297_000 },
      right: { ms: 300_000 },
    });

    const update = new DgtBoardEmulator({ mode: 'update' });
    update.apply({ kind: 'clock-set', left: 60_000, right: 60_000, run: 'none' }, 0);
    expect([1000, 1500, 2000, 2999, 3000].filter(t => update.tick(t).length > 0)).toEqual([1000, 2000, 3000]);
  });

  it('a lever press stops the mover, adds the increment, starts the other side and logs the halted time', () => {
    const board = new DgtBoardEmulator({ mode: 'update-nice' });
    board.apply({ kind: 'clock-set', left: 180_000, right: 180_000, run: 'left', incrementMs: 2000 }, 0);
    const [press] = decode(board.apply({ kind: 'clock-press', side: 'left' }, 10_000));
    expect(press).toMatchObject({
      type: 'clock',
      running: 'right',
      lever: 'right',
      left: { ms: 172_000, timePerMove: true },
    });
    const [log] = decode(board.receive(cmd({ kind: 'log-moves' }), 10_001));
    expect(log?.type === 'eeprom-log' && log.records.slice(-2)).toMatchObject([
      { kind: 'time', side: 'left', ms: 172_000 },
      { kind: 'tag', tag: 'eof' },
    ]);
  });

  it('the flag falls at zero: the side shows 0:00:00 with the flag bit and the clock stops', () => {
    const board = new DgtBoardEmulator({ mode: 'update-nice' });
    board.apply({ kind: 'clock-set', left: 2000, right: 60_000, run: 'left' }, 0);
    const [flag] = decode(board.receive(cmd({ kind: 'send-clock' }), 2500));
    expect(flag).toMatchObject({
      type: 'clock',
      running: undefined,
      left: { ms: 0, flagFallen: true },
      right: { ms: 60_000 },
    });
  });

  it('puts text on a DGT3000; a DGT XL refuses ASCII with an error ack', () => {
    const text = cmd({ kind: 'clock', clock: { kind: 'ascii', text: 'e2e4', beep: 0 } });
    const dgt3000 = new DgtBoardEmulator({ mode: 'update-nice' });
    expect(decode(dgt3000.receive(text, 0))).toMatchObject([{ type: 'clock-ack', ok: true }]);
    expect(dgt3000.clock?.displayText).toBe('e2e4    ');
    dgt3000.receive(cmd({ kind: 'clock', clock: { kind: 'end' } }), 0);
    expect(dgt3000.clock?.displayText).toBeUndefined();
    const xl = new DgtBoardEmulator({ mode: 'update-nice', clock: { model: 'xl' } });
    expect(decode(xl.receive(text, 0))).toMatchObject([{ type: 'clock-ack', ok: false }]);
  });

  it('a button press on the clock is an auto ack naming the button', () => {
    const board = new DgtBoardEmulator({ mode: 'update' });
    expect(decode(board.apply({ kind: 'clock-button', button: 'back' }, 0))).toMatchObject([
      { type: 'clock-ack', event: { kind: 'button', button: 'back' } },
    ]);
  });
});

describe('DgtBoardEmulator, bus mode (§8)', () => {
  const bus = (c: DgtCommand): Uint8Array => makeCommand(c);

  it('answers only its own address: the §10.5 dump request of board 1025 gives a 70-byte dump', () => {
    const board = new DgtBoardEmulator({ serial: '01025' });
    expect(board.receive(bus({ kind: 'bus', command: 'send-board', address: 1026 }), 0)).toHaveLength(0);
    const reply = board.receive(hex('82 08 01 0B'), 0);
    expect(reply).toHaveLength(70);
    const [got] = new DgtBusDecoder().push(reply, 0);
    expect(got).toMatchObject({ address: 1025, observation: { type: 'snapshot', squares: START_SQUARES } });
  });

  it('answers a broadcast ping with the §10.5 reply, and skips it once after IGNORE_NEXT_PING', () => {
    const board = new DgtBoardEmulator({ serial: '01025' });
    expect(makeHex(board.receive(hex('87 00 00 07'), 0))).toBe('87 00 06 08 01 16');
    board.receive(bus({ kind: 'bus', command: 'ignore-next-ping', address: 1025 }), 0);
    expect(board.receive(hex('87 00 00 07'), 0)).toHaveLength(0);
    expect(board.receive(hex('87 00 00 07'), 0)).toHaveLength(6);
  });

  it('keeps changes until SEND_CHANGES; REPEAT_CHANGES resends the same list', () => {
    const board = new DgtBoardEmulator({ serial: '00007' });
    board.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 0);
    board.apply({ kind: 'square', square: 'e4', piece: 'P' }, 1000);
    const changes = board.receive(bus({ kind: 'bus', command: 'send-changes', address: 7 }), 1100);
    const decoded = new DgtBusDecoder().push(changes, 0).map(b => b.observation);
    expect(decoded).toMatchObject([
      { type: 'square', square: sq('e2') },
      { type: 'square', square: sq('e4'), content: makePiece('white', 'pawn') },
    ]);
    expect(makeHex(board.receive(bus({ kind: 'bus', command: 'repeat-changes', address: 7 }), 1200))).toBe(
      makeHex(changes),
    );
    const empty = board.receive(bus({ kind: 'bus', command: 'send-changes', address: 7 }), 1300);
    expect(empty).toHaveLength(6);
  });

  it('a board in single-board mode returns to bus mode on a bus command without executing it', () => {
    const board = new DgtBoardEmulator({ serial: '00007', mode: 'update-nice' });
    expect(board.receive(bus({ kind: 'bus', command: 'send-board', address: 7 }), 0)).toHaveLength(0);
    expect(board.mode).toBe('bus');
    expect(board.receive(bus({ kind: 'bus', command: 'send-board', address: 7 }), 0)).toHaveLength(70);
  });

  it('a bus line routes each request to the addressed board and rejects duplicate addresses', () => {
    const line = new DgtBusLine([
      new DgtBoardEmulator({ serial: '00001' }),
      new DgtBoardEmulator({ serial: '00002' }),
    ]);
    line.apply({ kind: 'square', square: 'a2', piece: 'empty' }, 0, 2);
    const decoder = new DgtBusDecoder();
    const one = decoder.push(line.receive(bus({ kind: 'bus', command: 'send-changes', address: 1 }), 10), 10);
    const two = decoder.push(line.receive(bus({ kind: 'bus', command: 'send-changes', address: 2 }), 20), 20);
    expect(one).toEqual([]);
    expect(two).toMatchObject([{ address: 2, observation: { type: 'square', square: sq('a2') } }]);
    expect(
      () =>
        new DgtBusLine([
          new DgtBoardEmulator({ serial: '00001' }),
          new DgtBoardEmulator({ serial: '00001' }),
        ]),
    ).toThrow(TypeError);
    expect(() => line.apply({ kind: 'square', square: 'a2', piece: 'P' }, 0, 3)).toThrow(TypeError);
  });
});
