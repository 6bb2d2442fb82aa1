/**
 * Host-to-board commands (reference §3.1, §6.5, §8.1, §9): the exact bytes of §10.4 and §10.5,
 * make-then-parse round trips of every command, and the chunk-fed command reader.
 */
import { describe, expect, it } from 'vitest';
import { BUS_COMMANDS, makeBusCommand, type BusCommandKind } from '../../../src/drivers/dgt/busCommands.js';
import { makeSegments, type ClockCommand } from '../../../src/drivers/dgt/clockCommands.js';
import {
  DgtCommandReader,
  makeCommand,
  parseCommand,
  SIMPLE_COMMANDS,
  type DgtCommand,
  type SimpleCommandKind,
} from '../../../src/drivers/dgt/commands.js';
import { makeHex } from '../../../src/drivers/observation.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(/\s+/).filter(Boolean), x => parseInt(x, 16));

const clock = (c: ClockCommand): DgtCommand => ({ kind: 'clock', clock: c });
const ninety = { hours: 1, minutes: 30, seconds: 0 };

/** §10.4 and §10.5, byte for byte. */
const EXAMPLES: [string, DgtCommand, string][] = [
  ['clock version request', clock({ kind: 'version' }), '2B 03 03 09 00'],
  ['back to time display', clock({ kind: 'end' }), '2B 03 03 03 00'],
  ['beep 1024 ms', clock({ kind: 'beep', units: 16 }), '2B 04 03 0B 10 00'],
  [
    'DGT3000 text "e2e4"',
    clock({ kind: 'ascii', text: 'e2e4', beep: 0 }),
    '2B 0C 03 0C 65 32 65 34 20 20 20 20 00 00',
  ],
  [
    'DGT XL text "123456"',
    clock({ kind: 'display', segments: makeSegments('123456'), icons: 0, beep: false }),
    '2B 0B 03 01 4F 5B 06 7D 6D 66 00 01 00',
  ],
  [
    'SetNRun 1:30:00 each, left running',
    clock({ kind: 'set-and-run', left: ninety, right: ninety, run: 'left', toggleOnLever: false }),
    '2B 0A 03 0A 01 1E 00 01 1E 00 01 00',
  ],
  [
    'SetNRun paused',
    clock({ kind: 'set-and-run', left: ninety, right: ninety, run: 'none', toggleOnLever: false }),
    '2B 0A 03 0A 01 1E 00 01 1E 00 04 00',
  ],
  ['enter UPDATE_NICE', { kind: 'update-nice' }, '4B'],
  ['request dump', { kind: 'send-board' }, '42'],
  ['Rev II LEDs on e2 and e4', { kind: 'leds', pattern: 1, start: 0x34, end: 0x24 }, '60 04 01 34 24 00'],
  ['Rev II LEDs all off', { kind: 'leds', pattern: 0, start: 0x40, end: 0x40 }, '60 04 00 40 40 00'],
  ['bus: board dump of board 1025', { kind: 'bus', command: 'send-board', address: 1025 }, '82 08 01 0B'],
  ['bus: broadcast ping', { kind: 'bus', command: 'ping', address: 0 }, '87 00 00 07'],
];

/** Every command: all one-byte ones, all clock commands, LEDs, all bus commands. */
const ALL: DgtCommand[] = [
  ...(Object.keys(SIMPLE_COMMANDS) as SimpleCommandKind[]).map(kind => ({ kind })),
  clock({ kind: 'display', segments: [0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d], icons: 0x12, beep: true }),
  clock({ kind: 'icons', icons: [1, 2, 4, 8], special: 0x40 }),
  clock({ kind: 'end' }),
  clock({ kind: 'button' }),
  clock({ kind: 'version' }),
  clock({
    kind: 'set-and-run',
    left: { hours: 0, minutes: 5, seconds: 0 },
    right: { hours: 0, minutes: 4, seconds: 59 },
    run: 'right',
    toggleOnLever: true,
  }),
  clock({ kind: 'beep', units: 3 }),
  clock({ kind: 'ascii', text: 'Nf3+    ', beep: 3 }),
  clock({ kind: 'rev2-ascii', text: 'illegal mov', beep: 0 }),
  { kind: 'i2c-clock-message', clock: { kind: 'version' } },
  { kind: 'leds', pattern: 2, start: 1, end: 0 },
  ...(Object.keys(BUS_COMMANDS) as BusCommandKind[]).map(command => ({
    kind: 'bus' as const,
    command,
    address: 16383,
  })),
];

describe('command bytes', () => {
  it.each(EXAMPLES)('%s', (_name, command, bytes) => {
    expect(makeHex(makeCommand(command))).toBe(bytes);
  });

  it('writes SetNRun times as BCD when asked (UNVERIFIED reading)', () => {
    const c = clock({ kind: 'set-and-run', left: ninety, right: ninety, run: 'left', toggleOnLever: false });
    expect(makeHex(makeCommand(c, { bcdTimes: true }))).toBe('2B 0A 03 0A 01 30 00 01 30 00 01 00');
    const r = parseCommand(hex('2B 0A 03 0A 01 30 00 01 30 00 01 00'), { bcdTimes: true });
    expect(r.isOk && r.value.command).toEqual(c);
  });

  it('pads or cuts DGT3000 text to 8 characters and replaces non-ASCII', () => {
    expect(makeHex(makeCommand(clock({ kind: 'ascii', text: 'Ké4 long text', beep: 0 })))).toBe(
      '2B 0C 03 0C 4B 3F 34 20 6C 6F 6E 67 00 00',
    );
  });

  it('refuses a bus address beyond 14 bits', () => {
    expect(() => makeBusCommand({ kind: 'bus', command: 'ping', address: 16384 })).toThrow(TypeError);
  });
});

describe('command round trips', () => {
  it.each(ALL.map(c => [makeHex(makeCommand(c)), c] as const))('parses %s back', (_bytes, c) => {
    const bytes = makeCommand(c);
    const r = parseCommand(bytes);
    expect(r.isOk && r.value).toEqual({ command: c, length: bytes.length });
  });
});

describe('parseCommand errors', () => {
  it.each([
    ['an unknown byte', '30', 'unknown-command', 1],
    ['a clock message that is cut short', '2B 0C 03 0C 65', 'incomplete', 0],
    ['a clock message with an impossible length byte', '2B 40', 'bad-length', 1],
    ['a clock message with an unknown clock command', '2B 03 03 07 00', 'bad-field', 5],
    ['a clock message without END', '2B 03 03 09 01', 'bad-field', 5],
    ['a clock message whose length disagrees with its command', '2B 04 03 09 00 00', 'bad-length', 6],
    ['SetNRun with two running sides', '2B 0A 03 0A 00 01 00 00 01 00 03 00', 'bad-field', 12],
    ['LEDs with a wrong length byte', '60 05', 'bad-length', 1],
    ['a bus command with a bad checksum', '87 00 00 08', 'checksum', 4],
    ['a bus command interrupted by another', '87 00 87 00 00 07', 'interrupted', 2],
    ['an unknown bus command', 'FF 00 00 7F', 'unknown-command', 4],
  ])('reports %s', (_name, bytes, kind, consumed) => {
    const r = parseCommand(hex(bytes));
    expect(r.isErr && r.error.problem.kind).toBe(kind);
    expect(r.isErr && r.error.consumed).toBe(consumed);
  });

  it('recognises but never makes the dangerous commands (§3.1)', () => {
    const r = parseCommand(hex('4E'));
    expect(r.isOk && r.value.command).toEqual({ kind: 'forbidden', name: 'start-bootloader', byte: 0x4e });
  });
});

describe('DgtCommandReader', () => {
  const stream = Uint8Array.from(ALL.flatMap(c => Array.from(makeCommand(c))));

  it('reads every command from one chunk', () => {
    const out = new DgtCommandReader().push(stream);
    expect(out.map(e => e.kind === 'command' && e.command)).toEqual(ALL);
  });

  it('reads every command fed one byte at a time, holding at most one partial command', () => {
    const reader = new DgtCommandReader();
    const out = Array.from(stream).flatMap(b => {
      const events = reader.push(Uint8Array.of(b));
      expect(reader.buffered).toBeLessThanOrEqual(17);
      return events;
    });
    expect(out.map(e => e.kind === 'command' && e.command)).toEqual(ALL);
  });

  it('skips junk with an error and goes on', () => {
    const out = new DgtCommandReader().push(hex('30 31 42 87 00 00 08 4B'));
    expect(out.map(e => (e.kind === 'command' ? e.command.kind : e.error.problem.kind))).toEqual([
      'unknown-command',
      'unknown-command',
      'send-board',
      'checksum',
      'update-nice',
    ]);
  });
});
