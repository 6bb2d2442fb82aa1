/**
 * Raw byte captures: every read from a board with its receipt time, one read per line, so a
 * session can be replayed exactly (docs/capture-format.md). A line is the receipt time in
 * milliseconds, a space, then the bytes as hex pairs (spaces between pairs optional); `#` starts
 * a comment; blank lines are ignored. Times never decrease.
 *
 *   const text = makeCapture([{ at: 0, bytes: Uint8Array.of(0x8e, 0x00, 0x05, 0x34, 0x00) }]);
 *   // "0 8E 00 05 34 00\n"
 *   const reads = parseCapture(text); // Result<CaptureRead[], CaptureError>
 */
import { Result } from '@badrap/result';
import { makeHex } from './observation.js';

export interface CaptureRead {
  /** Receipt time in milliseconds (monotonic; fractions allowed). */
  readonly at: number;
  readonly bytes: Uint8Array;
}

export type CaptureProblem =
  | { readonly kind: 'bad-time'; readonly line: number; readonly text: string }
  | { readonly kind: 'time-goes-back'; readonly line: number; readonly at: number; readonly previous: number }
  | { readonly kind: 'bad-hex'; readonly line: number; readonly text: string }
  | { readonly kind: 'no-bytes'; readonly line: number };

const describe = (p: CaptureProblem): string => {
  switch (p.kind) {
    case 'bad-time':
      return `line ${p.line}: not a time in milliseconds: "${p.text}"`;
    case 'time-goes-back':
      return `line ${p.line}: time ${p.at} is before the previous read's ${p.previous}`;
    case 'bad-hex':
      return `line ${p.line}: not hex byte pairs: "${p.text}"`;
    case 'no-bytes':
      return `line ${p.line}: a read needs at least one byte`;
  }
};

export class CaptureError extends Error {
  constructor(readonly problem: CaptureProblem) {
    super(describe(problem));
    this.name = 'CaptureError';
  }
}

const TIME = /^\d+(\.\d+)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Parses a whole capture; the error names the first bad line (1-based). */
export const parseCapture = (text: string): Result<CaptureRead[], CaptureError> => {
  const reads: CaptureRead[] = [];
  const lines = text.split(/\r?\n/);
  let previous = -Infinity;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const hash = (lines[i] ?? '').indexOf('#');
    const content = (hash < 0 ? (lines[i] ?? '') : (lines[i] ?? '').slice(0, hash)).trim();
    if (content === '') continue;
    const [timeText = '', ...hexParts] = content.split(/\s+/);
    if (!TIME.test(timeText)) return Result.err(new CaptureError({ kind: 'bad-time', line, text: timeText }));
    const at = Number(timeText);
    if (at < previous) return Result.err(new CaptureError({ kind: 'time-goes-back', line, at, previous }));
    const hex = hexParts.join('');
    if (hex === '') return Result.err(new CaptureError({ kind: 'no-bytes', line }));
    if (!HEX.test(hex))
      return Result.err(new CaptureError({ kind: 'bad-hex', line, text: hexParts.join(' ') }));
    const bytes = new Uint8Array(hex.length / 2);
    for (let j = 0; j < bytes.length; j++) bytes[j] = parseInt(hex.slice(2 * j, 2 * j + 2), 16);
    reads.push({ at, bytes });
    previous = at;
  }
  return Result.ok(reads);
};

/** One capture line (with its newline), for recording as reads arrive. */
export const makeCaptureLine = (read: CaptureRead): string => `${read.at} ${makeHex(read.bytes)}\n`;

/** A whole capture, optionally opened by comment lines. */
export const makeCapture = (reads: readonly CaptureRead[], comments: readonly string[] = []): string =>
  comments.map(c => `# ${c}\n`).join('') + reads.map(makeCaptureLine).join('');
