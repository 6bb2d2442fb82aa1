/**
 * Records of the DGT on-board move log (EEPROM, reference §7), as carried by the 0x8F dump and
 * by the bus-mode change lists (0x85 / 0x86). Records stay in the board's own frame (field
 * numbers, piece codes); observe.ts maps them to squares. Parsing is total and defensive: a byte
 * that starts no known record, or a record cut short or holding an impossible value, becomes an
 * `unknown` record of one byte and parsing goes on with the next byte.
 *
 *   const records = parseLogRecords(Uint8Array.of(0x6a, 0x41, 0x30, 0x6b));
 *   // [{ kind: 'tag', tag: 'power-up' }, { kind: 'piece', field: 48, code: 1, quick: false }, { kind: 'tag', tag: 'eof' }]
 *   makeLogRecords(records); // the same four bytes
 */
import type { ClockSide, LogTag } from '../observation.js';

export type DgtLogRecord =
  /** Piece code `code` now on field `field` (0 = empty); `quick` = under ~250 ms since the previous record. */
  | { readonly kind: 'piece'; readonly field: number; readonly code: number; readonly quick: boolean }
  /** The halted clock's time when a lever was pressed (clock sides, not colours). */
  | {
      readonly kind: 'time';
      readonly side: ClockSide;
      readonly hours: number;
      readonly minutes: number;
      readonly seconds: number;
    }
  | { readonly kind: 'tag'; readonly tag: LogTag }
  | { readonly kind: 'unknown'; readonly byte: number };

/** One-byte tags (§7). 0x7D/0x7E come from newer constants only (UNVERIFIED). */
export const LOG_TAGS: ReadonlyMap<number, LogTag> = new Map<number, LogTag>([
  [0x6a, 'power-up'],
  [0x6b, 'eof'],
  [0x6c, 'four-rows'],
  [0x6d, 'empty-board'],
  [0x6e, 'downloaded'],
  [0x6f, 'begin-pos'],
  [0x7a, 'begin-pos-rotated'],
  [0x7b, 'start-tag'],
  [0x7c, 'watchdog'],
  [0x7d, 'clock-state'],
  [0x7e, 'bus-address'],
  [0x7f, 'nop'],
  [0x00, 'nop2'],
]);

const TAG_BYTES: ReadonlyMap<LogTag, number> = new Map([...LOG_TAGS].map(([b, t]) => [t, b]));

/** Packed decimal with the 3-bit tens field of time records. */
const bcd = (b: number): number | undefined => {
  const hi = b >> 4;
  const lo = b & 0x0f;
  return hi <= 5 && lo <= 9 ? hi * 10 + lo : undefined;
};

const toBcd = (n: number): number => ((Math.floor(n / 10) % 6) << 4) | (n % 10);

export const parseLogRecords = (bytes: Uint8Array): DgtLogRecord[] => {
  const out: DgtLogRecord[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const tag = LOG_TAGS.get(b);
    if (tag !== undefined) {
      out.push({ kind: 'tag', tag });
      i += 1;
      continue;
    }
    if ((b & 0xe0) === 0x40) {
      const f = bytes[i + 1];
      if (f !== undefined && f < 64) {
        out.push({ kind: 'piece', field: f, code: b & 0x0f, quick: (b & 0x10) !== 0 });
        i += 2;
        continue;
      }
    } else if ((b & 0xe0) === 0x60 && (b & 0x0f) <= 9) {
      const m = bytes[i + 1];
      const s = bytes[i + 2];
      const minutes = m === undefined ? undefined : bcd(m);
      const seconds = s === undefined ? undefined : bcd(s);
      if (minutes !== undefined && seconds !== undefined) {
        out.push({ kind: 'time', side: b & 0x10 ? 'left' : 'right', hours: b & 0x0f, minutes, seconds });
        i += 3;
        continue;
      }
    }
    out.push({ kind: 'unknown', byte: b });
    i += 1;
  }
  return out;
};

/** Encodes records (values are masked into their bit fields; unknown bytes are written as is). */
export const makeLogRecords = (records: readonly DgtLogRecord[]): Uint8Array => {
  const out: number[] = [];
  for (const r of records) {
    switch (r.kind) {
      case 'piece':
        out.push(0x40 | (r.quick ? 0x10 : 0) | (r.code & 0x0f), r.field & 0x3f);
        break;
      case 'time':
        out.push((r.side === 'left' ? 0x70 : 0x60) | (r.hours & 0x0f), toBcd(r.minutes), toBcd(r.seconds));
        break;
      case 'tag':
        out.push(TAG_BYTES.get(r.tag) ?? 0x7f);
        break;
      case 'unknown':
        out.push(r.byte & 0x7f);
        break;
    }
  }
  return Uint8Array.from(out);
};
