/**
 * Line access to journal files: forwards in chunks (for reading a game of any size), and
 * backwards from the end (to find the last good record and any torn tail without reading the
 * whole file, as a restart does for every game).
 *
 *   for await (const line of readLines(io, fd)) if (!line.terminated) tornAt(line.offset);
 *   const tail = await scanTail(io, fd, isGood); // { last, validEnd, tornBytes }
 */
import type { JournalFs } from './fsio.js';

export interface Line {
  /** 1-based line number. */
  readonly number: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Byte offset just after the line (after its `\n` when terminated). */
  readonly end: number;
  readonly text: string;
  /** False only for a last line without `\n`: a write cut short. */
  readonly terminated: boolean;
}

const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;

/** Every line of the file from `start`, in order. */
export async function* readLines(io: JournalFs, fd: number, start = 0, chunk = CHUNK): AsyncGenerator<Line> {
  const buffer = Buffer.allocUnsafe(chunk);
  let carry: Buffer = Buffer.alloc(0);
  let carryOffset = start;
  let position = start;
  let number = 0;
  for (;;) {
    const n = await io.read(fd, buffer, position);
    if (n === 0) break;
    position += n;
    const data = carry.length === 0 ? buffer.subarray(0, n) : Buffer.concat([carry, buffer.subarray(0, n)]);
    let from = 0;
    for (let i = data.indexOf(NEWLINE); i >= 0; i = data.indexOf(NEWLINE, from)) {
      number += 1;
      const offset = carryOffset + from;
      yield {
        number,
        offset,
        end: offset + i - from + 1,
        text: data.toString('utf8', from, i),
        terminated: true,
      };
      from = i + 1;
    }
    carry = Buffer.from(data.subarray(from));
    carryOffset += from;
  }
  if (carry.length > 0) {
    yield {
      number: number + 1,
      offset: carryOffset,
      end: carryOffset + carry.length,
      text: carry.toString('utf8'),
      terminated: false,
    };
  }
}

export interface TailScan<T> {
  /** The last line `accept` took, with its value; undefined when none was found in reach. */
  readonly last: { readonly line: Omit<Line, 'number'>; readonly value: T } | undefined;
  /** Where the good part of the file ends: the end of `last`, or 0. */
  readonly validEnd: number;
  /** Bytes after `validEnd` (a torn or damaged tail), 0 for a clean file. */
  readonly tornBytes: number;
  /** The first bytes of the tail, for reports. */
  readonly tornPreview: string;
  readonly size: number;
}

/**
 * Scans back from the end of the file for the last line that `accept` takes (returns a value
 * for). Lines after it, terminated or not, are the tail. Stops after `reach` bytes.
 */
export const scanTail = async <T>(
  io: JournalFs,
  fd: number,
  accept: (text: string) => T | undefined,
  reach = 1024 * 1024,
): Promise<TailScan<T>> => {
  const size = await io.size(fd);
  let window = Math.min(size, 8 * 1024);
  for (;;) {
    const from = size - window;
    const data = Buffer.allocUnsafe(window);
    let got = 0;
    while (got < window) {
      const n = await io.read(fd, data.subarray(got), from + got);
      if (n === 0) break;
      got += n;
    }
    // Buffer.lastIndexOf counts a negative start from the end: guard it.
    const newlineBefore = (i: number): number => (i < 0 ? -1 : data.lastIndexOf(NEWLINE, i));
    // Line ends inside the window, from the last one back.
    let end = got;
    if (end > 0 && data[end - 1] !== NEWLINE) end = newlineBefore(end - 1) + 1;
    while (end > 0) {
      const startIdx = newlineBefore(end - 2) + 1;
      if (startIdx === 0 && from > 0) break; // the line may begin before the window
      const text = data.toString('utf8', startIdx, end - 1);
      const value = accept(text);
      if (value !== undefined) {
        const validEnd = from + end;
        return {
          last: { line: { offset: from + startIdx, end: validEnd, text, terminated: true }, value },
          validEnd,
          tornBytes: size - validEnd,
          tornPreview: data.toString('utf8', end, Math.min(got, end + 80)),
          size,
        };
      }
      end = startIdx;
    }
    if (from === 0 || window >= reach) {
      return {
        last: undefined,
        validEnd: 0,
        tornBytes: size,
        tornPreview: data.toString('utf8', 0, 80),
        size,
      };
    }
    window = Math.min(size, window * 2, reach);
  }
};
