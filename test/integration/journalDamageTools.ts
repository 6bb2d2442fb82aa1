/**
 * Helpers of the damaged-journal tests (damagedJournal.ts): the kinds of damage done to a file
 * (bytes flipped, the last record cut short, garbage appended), finding lines in JSON Lines, the
 * steps that set a board up again, and `chessbridge replay FILE` run from the sources.
 *
 *   const lines = (await readFile(file, 'utf8')).split('\n');
 *   await flip(file, offsetOfLine(lines, middleClockLine(lines, 1)) + 12, 8);
 *   const seq = seqOfLine(await cutLastRecord(file)); // the seq of the record cut short
 */
import { spawn } from 'node:child_process';
import { appendFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { Chess } from 'chessops';
import { parseSan } from 'chessops/san';
import { letterOf, type ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { childMainArgs } from '../support/childBuild.js';
import { PROJECT_ROOT } from '../support/shared.js';
import { exited } from './support.js';

/** Flips `count` bytes of a file from `at` (each byte XOR 0xff: never a line break). */
export const flip = async (path: string, at: number, count: number): Promise<void> => {
  const data = await readFile(path);
  for (let i = at; i < at + count; i++) data[i] = (data[i] ?? 0) ^ 0xff;
  await writeFile(path, data);
};

/** The index of the clock-reading line nearest the middle of the lines from `from` (JSON Lines). */
export const middleClockLine = (lines: readonly string[], from: number): number => {
  const clocks = lines.flatMap((l, i) =>
    i >= from && l.includes('"observation":{"type":"clock"') ? [i] : [],
  );
  const i = clocks[Math.floor(clocks.length / 2)];
  if (i === undefined) throw new Error('no clock reading in the journal');
  return i;
};

export const offsetOfLine = (lines: readonly string[], n: number): number =>
  lines.slice(0, n).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);

/** The seq of a game file's record line, or of a log line's record. */
export const seqOfLine = (line: string): number => {
  const value = JSON.parse(line) as { seq?: number; record?: { seq: number } };
  const seq = value.record?.seq ?? value.seq;
  if (seq === undefined) throw new Error(`no seq in ${line.slice(0, 80)}`);
  return seq;
};

/**
 * Cuts the last line of a JSON Lines file in the middle (no line break after it), as a write
 * cut short leaves it. Returns that line as it was.
 */
export const cutLastRecord = async (path: string): Promise<string> => {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const last = lines.length - 2; // the text ends with \n: the final item is ''
  const line = lines[last] ?? '';
  await truncate(path, offsetOfLine(lines, last) + Math.floor(Buffer.byteLength(line) / 2));
  return line;
};

/**
 * Appends the first half of one more log record after the last one (its copy with the next seq),
 * with no line break: the record being written when the power went, never acknowledged.
 * Returns the whole record line it cut.
 */
export const appendTornRecord = async (walPath: string): Promise<string> => {
  const lines = (await readFile(walPath, 'utf8')).split('\n');
  const last = JSON.parse(lines[lines.length - 2] ?? '') as { record: { seq: number } };
  const line = JSON.stringify({ ...last, record: { ...last.record, seq: last.record.seq + 1 } });
  await appendFile(walPath, line.slice(0, Math.floor(line.length / 2)));
  return line;
};

/** Appends 300 bytes of garbage (any byte, line breaks among them). */
export const appendGarbage = async (path: string): Promise<void> => {
  await appendFile(path, Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) % 256)));
};

/** Emulator steps that put the pieces back in the starting position after `sans`. */
export const backToStart = (sans: readonly string[], at: number): ScriptStep[] => {
  const pos = Chess.default();
  for (const san of sans) {
    const move = parseSan(pos, san);
    if (move === undefined) throw new Error(`not a move: ${san}`);
    pos.play(move);
  }
  const start = Chess.default().board;
  const clear: ScriptStep[] = [];
  const place: ScriptStep[] = [];
  for (let sq = 0; sq < 64; sq++) {
    const now = pos.board.get(sq);
    const want = start.get(sq);
    if (now?.color === want?.color && now?.role === want?.role) continue;
    if (want === undefined) clear.push({ at, kind: 'square', square: sq, piece: 'empty' });
    else place.push({ at, kind: 'square', square: sq, piece: letterOf(want) });
  }
  return [...clear, ...place].map((s, i) => ({ ...s, at: at + i * 40 }));
};

/** `chessbridge replay FILE` from the sources; its exit code, stdout and stderr. */
export const replay = async (file: string): Promise<{ code: number | null; out: string; err: string }> => {
  const child = spawn(process.execPath, [...childMainArgs, 'replay', file], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { code: await exited(child), out, err };
};
