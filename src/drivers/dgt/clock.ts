/**
 * The 7-byte payload of a DGT BWTIME message (0x8D single-board, 0x84 bus): either the clock's
 * times (reference §6.1) or a clock ack (§6.4), told apart by the hours nibble 0x0A. Pure and
 * total: every payload decodes to times, an ack, the all-zero "empty" message (§5.4 Q4) or an
 * invalid field. Encoders are provided for the emulator and round-trip tests.
 *
 *   const r = parseClockPayload(Uint8Array.of(0x20, 0x03, 0x02, 0x20, 0x03, 0x01, 0x09));
 *   if (r.kind === 'times') r.times.left.seconds; // 1
 *   makeClockAckPayload([0x10, 0x09, 0x20, 0x00]); // 0A 10 09 0A 20 00 00
 */
import type { ClockAckEvent, ClockButton, ClockFace } from '../observation.js';

/** Bytes in a BWTIME payload. */
export const CLOCK_PAYLOAD_LENGTH = 7;

/** Hours-byte bits (§6.1). */
export const HOURS_FLAG_FALLEN = 0x10;
export const HOURS_TIME_PER_MOVE = 0x20;
export const HOURS_FLAG_SHOWN = 0x40;
/** Hours nibble value marking an ack (§6.4). */
export const ACK_MARK = 0x0a;

/** Status-byte bits (§6.1). D3/D4 are the disputed turn flags (§6.3). */
export const STATUS = {
  RUNNING: 0x01,
  RIGHT_HIGH: 0x02,
  BATTERY_LOW: 0x04,
  TURN_D3: 0x08,
  TURN_D4: 0x10,
  NO_CLOCK: 0x20,
  RESERVED: 0x40,
} as const;

/** ack0 of a normal ack (§6.4). */
export const ACK_OK = 0x10;

/** One side of the clock as the message carries it. */
export interface DgtClockFace {
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  readonly flagFallen: boolean;
  readonly timePerMove: boolean;
  readonly flagShown: boolean;
}

/** Both sides and the status byte. Bytes 3–5 are the right side per the 2012 header (§6.3). */
export interface DgtClockTimes {
  readonly right: DgtClockFace;
  readonly left: DgtClockFace;
  readonly status: number;
}

export type ClockPayload =
  | { readonly kind: 'times'; readonly times: DgtClockTimes }
  | { readonly kind: 'ack'; readonly ack: readonly [number, number, number, number] }
  | { readonly kind: 'empty' }
  | { readonly kind: 'invalid'; readonly field: string; readonly value: number };

const bcd = (b: number): number | undefined => {
  const hi = b >> 4;
  const lo = b & 0x0f;
  return hi <= 5 && lo <= 9 ? hi * 10 + lo : undefined;
};

const toBcd = (n: number): number => ((Math.floor(n / 10) % 10) << 4) | (n % 10);

type FaceResult = { readonly face: DgtClockFace } | { readonly field: string; readonly value: number };

const parseFace = (side: string, h: number, m: number, s: number): FaceResult => {
  const hours = h & 0x0f;
  if (hours > 9) return { field: `${side}-hours`, value: h };
  const minutes = bcd(m);
  if (minutes === undefined) return { field: `${side}-minutes`, value: m };
  const seconds = bcd(s);
  if (seconds === undefined) return { field: `${side}-seconds`, value: s };
  return {
    face: {
      hours,
      minutes,
      seconds,
      flagFallen: (h & HOURS_FLAG_FALLEN) !== 0,
      timePerMove: (h & HOURS_TIME_PER_MOVE) !== 0,
      flagShown: (h & HOURS_FLAG_SHOWN) !== 0,
    },
  };
};

/** Decodes a BWTIME payload (7 bytes; shorter input reads missing bytes as 0). */
export const parseClockPayload = (p: Uint8Array): ClockPayload => {
  const b = (i: number): number => p[i] ?? 0;
  if (p.subarray(0, CLOCK_PAYLOAD_LENGTH).every(x => x === 0)) return { kind: 'empty' };
  if ((b(0) & 0x0f) === ACK_MARK || (b(3) & 0x0f) === ACK_MARK) {
    const ack0 = b(1) | (b(3) & 0x10 ? 0x80 : 0);
    const ack1 = b(2) | (b(3) & 0x20 ? 0x80 : 0);
    const ack2 = b(4) | (b(0) & 0x10 ? 0x80 : 0);
    const ack3 = b(5) | (b(0) & 0x20 ? 0x80 : 0);
    return { kind: 'ack', ack: [ack0, ack1, ack2, ack3] };
  }
  const right = parseFace('right', b(0), b(1), b(2));
  if (!('face' in right)) return { kind: 'invalid', ...right };
  const left = parseFace('left', b(3), b(4), b(5));
  if (!('face' in left)) return { kind: 'invalid', ...left };
  return { kind: 'times', times: { right: right.face, left: left.face, status: b(6) } };
};

const faceBytes = (f: DgtClockFace): number[] => [
  (f.hours & 0x0f) |
    (f.flagFallen ? HOURS_FLAG_FALLEN : 0) |
    (f.timePerMove ? HOURS_TIME_PER_MOVE : 0) |
    (f.flagShown ? HOURS_FLAG_SHOWN : 0),
  toBcd(f.minutes),
  toBcd(f.seconds),
];

export const makeClockTimesPayload = (t: DgtClockTimes): Uint8Array =>
  Uint8Array.from([...faceBytes(t.right), ...faceBytes(t.left), t.status & 0x7f]);

/** Spreads four ack bytes over the 7-bit payload as in §6.4 (status byte left 0). */
export const makeClockAckPayload = (
  ack: readonly [number, number, number, number],
  status = 0,
): Uint8Array => {
  const [a0, a1, a2, a3] = ack;
  return Uint8Array.of(
    ACK_MARK | (a2 & 0x80 ? 0x10 : 0) | (a3 & 0x80 ? 0x20 : 0),
    a0 & 0x7f,
    a1 & 0x7f,
    ACK_MARK | (a0 & 0x80 ? 0x10 : 0) | (a1 & 0x80 ? 0x20 : 0),
    a2 & 0x7f,
    a3 & 0x7f,
    status & 0x7f,
  );
};

/** A face from milliseconds (rounded down to whole seconds; hours capped at 9). */
export const makeDgtClockFace = (
  ms: number,
  flags: Partial<Omit<DgtClockFace, 'hours' | 'minutes' | 'seconds'>> = {},
): DgtClockFace => {
  const total = Math.min(Math.max(0, Math.floor(ms / 1000)), 9 * 3600 + 59 * 60 + 59);
  return {
    hours: Math.floor(total / 3600),
    minutes: Math.floor(total / 60) % 60,
    seconds: total % 60,
    flagFallen: flags.flagFallen ?? false,
    timePerMove: flags.timePerMove ?? false,
    flagShown: flags.flagShown ?? false,
  };
};

export const clockFaceFromDgt = (f: DgtClockFace): ClockFace => ({
  ms: ((f.hours * 60 + f.minutes) * 60 + f.seconds) * 1000,
  flagFallen: f.flagFallen,
  flagShown: f.flagShown,
  timePerMove: f.timePerMove,
});

const BUTTONS: ReadonlyMap<number, ClockButton> = new Map([
  [0x31, 'back'],
  [0x32, 'plus'],
  [0x33, 'run'],
  [0x34, 'minus'],
  [0x35, 'ok'],
]);

/** Clock command id of the version request, whose ack carries the version in ack2. */
const VERSION_COMMAND = 0x09;

/** What an ack means (§6.4). */
export const describeClockAck = (ack: readonly [number, number, number, number]): ClockAckEvent => {
  const [, a1, a2, a3] = ack;
  if (a1 < 0x80) {
    return a1 === VERSION_COMMAND
      ? { kind: 'version', main: a2 >> 4, sub: a2 & 0x0f }
      : { kind: 'reply', command: a1 };
  }
  switch (a1) {
    case 0x81:
      return { kind: 'ready' };
    case 0x88:
      return { kind: 'button', button: BUTTONS.get(a3), held: a2 };
    case 0x8a:
      return { kind: 'mode-23' };
    case 0x90:
      return { kind: 'not-mode-23' };
    default:
      return { kind: 'auto', code: a1 };
  }
};
