/**
 * Host-to-clock commands (DGT XL / DGT3000 through the board), reference §6.5: the body of the
 * 0x2B wrapper `2B <len> 03 <cmd> <data…> 00`. `makeClockBody` writes `03 … 00`; commands.ts adds
 * the wrapper. `parseClockBody` reads it back for the emulator. Also the 7-segment font of the
 * DGT XL display.
 *
 *   makeClockBody({ kind: 'ascii', text: 'e2e4    ', beep: 0 }); // 03 0C 65 32 65 34 20 20 20 20 00 00
 *   makeClockBody({ kind: 'display', segments: makeSegments('123456'), icons: 0, beep: false });
 *   parseClockBody(bytes); // Result<ClockCommand, CommandError>
 */
import { Result } from '@badrap/result';
import { CommandError } from './commandError.js';

export const CLOCK_START = 0x03;
export const CLOCK_END = 0x00;

/** Clock command ids (§6.5). */
export const CLOCK_CMD = {
  DISPLAY: 0x01,
  ICONS: 0x02,
  END: 0x03,
  BUTTON: 0x08,
  VERSION: 0x09,
  SETNRUN: 0x0a,
  BEEP: 0x0b,
  ASCII: 0x0c,
  REV2_ASCII: 0x0d,
} as const;

/** SetNRun mode bits (§6.5). */
export const SETNRUN_MODE = { LEFT: 0x01, RIGHT: 0x02, PAUSE: 0x04, TOGGLE: 0x08 } as const;

/** DGT XL beep byte: 0x03 beeps, 0x01 is silent (header); 0x00 is also read as silent. */
export const XL_BEEP = 0x03;
export const XL_SILENT = 0x01;

export interface ClockTime {
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

export type ClockCommand =
  /** DGT XL 7-segment text: six segment bitmaps in display order (left A B C, right D E F). */
  | {
      readonly kind: 'display';
      readonly segments: readonly number[];
      readonly icons: number;
      readonly beep: boolean;
    }
  | {
      readonly kind: 'icons';
      readonly icons: readonly [number, number, number, number];
      readonly special: number;
    }
  | { readonly kind: 'end' }
  | { readonly kind: 'button' }
  | { readonly kind: 'version' }
  /** Set both times and start (or pause); `toggleOnLever` swaps the running side on each press. */
  | {
      readonly kind: 'set-and-run';
      readonly left: ClockTime;
      readonly right: ClockTime;
      readonly run: 'left' | 'right' | 'none';
      readonly toggleOnLever: boolean;
    }
  /** Beep for `units` × 64 ms. */
  | { readonly kind: 'beep'; readonly units: number }
  /** DGT3000 text: 8 characters; `beep` is the raw beep byte (0 = silent). */
  | { readonly kind: 'ascii'; readonly text: string; readonly beep: number }
  /** Revelation II text (firmware ≥ 3.24H in Pi mode): 11 characters. */
  | { readonly kind: 'rev2-ascii'; readonly text: string; readonly beep: number };

export interface ClockCommandOptions {
  /** SetNRun times in packed BCD instead of plain binary (UNVERIFIED; every driver uses binary). */
  readonly bcdTimes?: boolean;
}

// ---------------------------------------------------------------------------------------------
// 7-segment font (bit 0x01 top, 0x02 upper right, 0x04 lower right, 0x08 bottom, 0x10 lower left,
// 0x20 upper left, 0x40 middle; §6.5).

// prettier-ignore
const FONT: ReadonlyMap<string, number> = new Map([
  ['0', 0x3f], ['1', 0x06], ['2', 0x5b], ['3', 0x4f], ['4', 0x66],
  ['5', 0x6d], ['6', 0x7d], ['7', 0x07], ['8', 0x7f], ['9', 0x6f],
  [' ', 0x00], ['-', 0x40], ['_', 0x08], ['=', 0x48],
  ['a', 0x77], ['b', 0x7c], ['c', 0x58], ['d', 0x5e], ['e', 0x79], ['f', 0x71], ['g', 0x3d],
  ['h', 0x74], ['i', 0x04], ['j', 0x1e], ['l', 0x38], ['n', 0x54], ['o', 0x5c], ['p', 0x73],
  ['q', 0x67], ['r', 0x50], ['s', 0x6d], ['t', 0x78], ['u', 0x1c], ['y', 0x6e],
]);

/** Six segment bitmaps for `text` (padded with blanks; unknown characters show as blank). */
export const makeSegments = (text: string): number[] =>
  Array.from(text.padEnd(6).slice(0, 6), c => FONT.get(c.toLowerCase()) ?? 0);

/** The DGT XL wire order of the six characters: C, B, A, F, E, D (§6.5). */
const XL_WIRE_ORDER = [2, 1, 0, 5, 4, 3] as const;

const fitText = (text: string, n: number): number[] =>
  Array.from(text.padEnd(n).slice(0, n), c => {
    const code = c.charCodeAt(0);
    return code >= 0x20 && code < 0x7f ? code : 0x3f;
  });

const toBcd = (n: number): number => ((Math.floor(n / 10) % 10) << 4) | (n % 10);
const fromBcd = (b: number): number => (b >> 4) * 10 + (b & 0x0f);

const runBits = (run: 'left' | 'right' | 'none'): number => {
  switch (run) {
    case 'left':
      return SETNRUN_MODE.LEFT;
    case 'right':
      return SETNRUN_MODE.RIGHT;
    case 'none':
      return SETNRUN_MODE.PAUSE;
  }
};

/** Command id and data bytes of a clock command (without START/END markers). */
const commandData = (c: ClockCommand, options: ClockCommandOptions): [number, number[]] => {
  const t = (v: number): number => (options.bcdTimes === true ? toBcd(v) : v) & 0x7f;
  switch (c.kind) {
    case 'display':
      return [
        CLOCK_CMD.DISPLAY,
        [
          ...XL_WIRE_ORDER.map(i => (c.segments[i] ?? 0) & 0x7f),
          c.icons & 0x7f,
          c.beep ? XL_BEEP : XL_SILENT,
        ],
      ];
    case 'icons':
      return [CLOCK_CMD.ICONS, [...c.icons.map(b => b & 0x7f), c.special & 0x7f, 0, 0, 0]];
    case 'end':
      return [CLOCK_CMD.END, []];
    case 'button':
      return [CLOCK_CMD.BUTTON, []];
    case 'version':
      return [CLOCK_CMD.VERSION, []];
    case 'set-and-run': {
      const mode = runBits(c.run) | (c.toggleOnLever ? SETNRUN_MODE.TOGGLE : 0);
      const { left: l, right: r } = c;
      return [
        CLOCK_CMD.SETNRUN,
        [l.hours, t(l.minutes), t(l.seconds), r.hours, t(r.minutes), t(r.seconds), mode].map(b => b & 0x7f),
      ];
    }
    case 'beep':
      return [CLOCK_CMD.BEEP, [c.units & 0x7f]];
    case 'ascii':
      return [CLOCK_CMD.ASCII, [...fitText(c.text, 8), c.beep & 0x7f]];
    case 'rev2-ascii':
      return [CLOCK_CMD.REV2_ASCII, [...fitText(c.text, 11), c.beep & 0x7f]];
  }
};

/** `03 <cmd> <data…> 00`: what follows the length byte of the 0x2B wrapper. */
export const makeClockBody = (c: ClockCommand, options: ClockCommandOptions = {}): Uint8Array => {
  const [cmd, data] = commandData(c, options);
  return Uint8Array.from([CLOCK_START, cmd, ...data, CLOCK_END]);
};

/** Data length (between the command id and END) of each clock command. */
export const CLOCK_DATA_LENGTH: ReadonlyMap<number, number> = new Map<number, number>([
  [CLOCK_CMD.DISPLAY, 8],
  [CLOCK_CMD.ICONS, 8],
  [CLOCK_CMD.END, 0],
  [CLOCK_CMD.BUTTON, 0],
  [CLOCK_CMD.VERSION, 0],
  [CLOCK_CMD.SETNRUN, 7],
  [CLOCK_CMD.BEEP, 1],
  [CLOCK_CMD.ASCII, 9],
  [CLOCK_CMD.REV2_ASCII, 12],
]);

const parseRun = (mode: number): 'left' | 'right' | 'none' | undefined => {
  switch (mode & 0x07) {
    case SETNRUN_MODE.LEFT:
      return 'left';
    case SETNRUN_MODE.RIGHT:
      return 'right';
    case SETNRUN_MODE.PAUSE:
      return 'none';
    default:
      return undefined;
  }
};

/** Reads `03 <cmd> <data…> 00` back into a clock command. */
export const parseClockBody = (
  body: Uint8Array,
  options: ClockCommandOptions = {},
): Result<ClockCommand, CommandError> => {
  const fail = (field: string, value: number): Result<ClockCommand, CommandError> =>
    Result.err(new CommandError({ kind: 'bad-field', field, value }));
  if (body[0] !== CLOCK_START) return fail('start-marker', body[0] ?? -1);
  const cmd = body[1] ?? -1;
  const expected = CLOCK_DATA_LENGTH.get(cmd);
  if (expected === undefined) return fail('clock-command', cmd);
  if (body.length !== expected + 3)
    return Result.err(
      new CommandError({ kind: 'bad-length', declared: body.length, expected: expected + 3 }),
    );
  if (body[body.length - 1] !== CLOCK_END) return fail('end-marker', body[body.length - 1] ?? -1);
  const d = Array.from(body.subarray(2, body.length - 1));
  const at = (i: number): number => d[i] ?? 0;
  const t = (v: number): number => (options.bcdTimes === true ? fromBcd(v) : v);
  switch (cmd) {
    case CLOCK_CMD.DISPLAY: {
      const segments = XL_WIRE_ORDER.map(at);
      return Result.ok({ kind: 'display', segments, icons: at(6), beep: at(7) === XL_BEEP });
    }
    case CLOCK_CMD.ICONS:
      return Result.ok({ kind: 'icons', icons: [at(0), at(1), at(2), at(3)], special: at(4) });
    case CLOCK_CMD.END:
      return Result.ok({ kind: 'end' });
    case CLOCK_CMD.BUTTON:
      return Result.ok({ kind: 'button' });
    case CLOCK_CMD.VERSION:
      return Result.ok({ kind: 'version' });
    case CLOCK_CMD.SETNRUN: {
      const run = parseRun(at(6));
      if (run === undefined) return fail('setnrun-mode', at(6));
      return Result.ok({
        kind: 'set-and-run',
        left: { hours: at(0), minutes: t(at(1)), seconds: t(at(2)) },
        right: { hours: at(3), minutes: t(at(4)), seconds: t(at(5)) },
        run,
        toggleOnLever: (at(6) & SETNRUN_MODE.TOGGLE) !== 0,
      });
    }
    case CLOCK_CMD.BEEP:
      return Result.ok({ kind: 'beep', units: at(0) });
    case CLOCK_CMD.ASCII:
      return Result.ok({ kind: 'ascii', text: String.fromCharCode(...d.slice(0, 8)), beep: at(8) });
    case CLOCK_CMD.REV2_ASCII:
      return Result.ok({ kind: 'rev2-ascii', text: String.fromCharCode(...d.slice(0, 11)), beep: at(11) });
  }
  return fail('clock-command', cmd);
};
