/**
 * Certabo lines as values (reference §2.3–§2.5, errata 1 and 3): `parseLine` reads one line
 * (without its LF) into items — an `L`/`D` LED acknowledgement, junk before the frame, and the
 * frame after the last ':' with exactly 320 (RFID) or 8 (occupancy) numbers 0–255; `makeLine`
 * writes a frame as the board sends it (the emulator's side).
 *
 *   parseLine(':255 255 0 0 0 0 255 255 \r'); // [{ kind: 'occupancy', ranks: [255, 255, 0, 0, 0, 0, 255, 255] }]
 *   parseLine('L'); // [{ kind: 'ack', letter: 'L' }]
 *   makeLine({ kind: 'occupancy', ranks: [255, 255, 0, 0, 0, 0, 255, 254] }); // ":255 255 … 254\r\n"
 */
import type { ProtocolErrorReason } from '../observation.js';
import {
  FRAME_START,
  makeTag,
  OCCUPANCY_TOKENS,
  parseTag,
  RFID_TOKENS,
  TAG_BYTES,
  type RfidTag,
} from './protocol.js';

export type CertaboFrame =
  /** 64 tags in frame order (a8 … h1, board frame); null = all-zero id (empty). */
  | { readonly kind: 'rfid'; readonly tags: readonly (RfidTag | null)[] }
  /** 8 bytes, rank 8 first, bit 7 = a-file (board frame). */
  | { readonly kind: 'occupancy'; readonly ranks: readonly number[] };

export type LineItem =
  | CertaboFrame
  /** LED acknowledgement: L = ordinary LEDs, D = RGB (Spectrum) boards (§2.3, UNVERIFIED on Certabo). */
  | { readonly kind: 'ack'; readonly letter: 'L' | 'D' }
  /** Text that is neither a frame nor an acknowledgement. */
  | { readonly kind: 'junk'; readonly text: string }
  | { readonly kind: 'error'; readonly reason: ProtocolErrorReason };

const TOKEN = /^\d{1,3}$/;

const isAck = (s: string): s is 'L' | 'D' => s === 'L' || s === 'D';

/**
 * The numbers of a well-formed body (1–3 digits each, at most 255, separated by spaces) when there
 * are as many as a frame has, after trimming; undefined for anything else, which the careful
 * reading below then names. Each board sends about two lines a second: nearly every line takes
 * this path.
 */
const quickNumbers = (body: string): number[] | undefined => {
  const text = body.trim();
  const values: number[] = [];
  let value = -1;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++digits > 3) return undefined;
      value = (value < 0 ? 0 : value * 10) + (c - 0x30);
    } else if (c === 0x20) {
      if (value > 255) return undefined;
      if (value >= 0) values.push(value);
      value = -1;
      digits = 0;
    } else return undefined;
  }
  if (value > 255) return undefined;
  if (value >= 0) values.push(value);
  return values.length === RFID_TOKENS || values.length === OCCUPANCY_TOKENS ? values : undefined;
};

const frameOf = (values: readonly number[]): CertaboFrame =>
  values.length === OCCUPANCY_TOKENS
    ? { kind: 'occupancy', ranks: values }
    : { kind: 'rfid', tags: Array.from({ length: 64 }, (_, i) => makeTag(values, TAG_BYTES * i)) };

/** Reads the numbers of a frame body (the text after ':'). */
export const parseFrameBody = (body: string): CertaboFrame | { readonly error: ProtocolErrorReason } => {
  const quick = quickNumbers(body);
  if (quick !== undefined) return frameOf(quick);
  const trimmed = body.trim();
  const tokens = trimmed === '' ? [] : trimmed.split(/ +/);
  if (tokens.length !== RFID_TOKENS && tokens.length !== OCCUPANCY_TOKENS)
    return {
      error: {
        kind: 'bad-length',
        id: FRAME_START,
        declared: tokens.length,
        expected: `${RFID_TOKENS} or ${OCCUPANCY_TOKENS}`,
      },
    };
  const values: number[] = [];
  for (const [i, t] of tokens.entries()) {
    const v = TOKEN.test(t) ? Number(t) : 256;
    if (v > 255) return { error: { kind: 'bad-field', field: `token ${i} "${t.slice(0, 12)}"`, value: i } };
    values.push(v);
  }
  return frameOf(values);
};

/** Reads one line (LF removed). Blank lines give no items. */
export const parseLine = (line: string): LineItem[] => {
  const text = line.trim();
  if (text === '') return [];
  if (isAck(text)) return [{ kind: 'ack', letter: text }];
  const colon = text.lastIndexOf(':');
  if (colon < 0) return [{ kind: 'junk', text }];
  const out: LineItem[] = [];
  const prefix = text.slice(0, colon).trim();
  if (isAck(prefix)) out.push({ kind: 'ack', letter: prefix });
  else if (prefix !== '') out.push({ kind: 'junk', text: prefix });
  const frame = parseFrameBody(text.slice(colon + 1));
  out.push('error' in frame ? { kind: 'error', reason: frame.error } : frame);
  return out;
};

/**
 * Lines of a capture wrapped for display (errata 1: some test captures break lines inside a
 * frame, even between two digits). Line breaks are deleted, never read as spaces; each ':' then
 * starts a line, and stray L, D and '*' marks are removed (as picochess does). Replay only: a
 * real board never wraps.
 */
export const parseWrappedCapture = (text: string): string[] =>
  text
    .replace(/[\r\n]/g, '')
    .split(':')
    .slice(1)
    .map(s => `:${s.replace(/[LD*]/g, '').trim()}`);

export interface MakeLineOptions {
  /** End with space + CR LF (Sentio, Chesstimation) instead of CR LF (the §2.9 capture). */
  readonly trailingSpace?: boolean;
}

/** The numbers of a frame. */
export const frameNumbers = (f: CertaboFrame): number[] => {
  switch (f.kind) {
    case 'occupancy':
      return [...f.ranks];
    case 'rfid': {
      const out: number[] = [];
      for (const t of f.tags) {
        const bytes = t === null ? undefined : parseTag(t);
        if (bytes === undefined) out.push(0, 0, 0, 0, 0);
        else out.push(...bytes);
      }
      return out;
    }
  }
};

/** A frame as the board sends it: ':' + numbers separated by single spaces + CR LF. */
export const makeLine = (f: CertaboFrame, options: MakeLineOptions = {}): string =>
  `:${frameNumbers(f).join(' ')}${options.trailingSpace === true ? ' ' : ''}\r\n`;
