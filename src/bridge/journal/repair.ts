/**
 * Repair of a game file from the write-ahead log at start-up: records that damage destroyed
 * inside a game file (bytes flipped, lines joined) are put back when the log still holds intact
 * copies of all of them, as it does for every record since the last checkpoint. The file is
 * written anew beside itself, synced, and renamed over the old one, so a crash during the repair
 * leaves the old file or the new one, never half of each. A damaged range the log cannot make
 * good in full stays as it was (salvage.ts keeps the records around it and reports it).
 *
 *   const r = await repairFromLog(io, 'journal/games/r1-b3.jsonl', logRecordsOfTheGame);
 *   if (r.isOk) for (const seqs of r.value) console.log(`seq ${seqs.from}-${seqs.to} restored`);
 */
import { dirname } from 'node:path';
import { Result } from '@badrap/result';
import { ioError, type JournalError } from './errors.js';
import type { JournalRecord } from './format.js';
import { syncDir, writeAll, type JournalFs } from './fsio.js';
import { readHeader } from './inspect.js';
import { lostSeqs, salvageGameFile } from './salvage.js';

/** The suffix of the new file while it is written (not a game file: recovery does not list it). */
export const REPAIR_SUFFIX = '.repair';

const readAll = async (io: JournalFs, path: string): Promise<Buffer> => {
  const fd = await io.open(path, 'r');
  try {
    const data = Buffer.alloc(await io.size(fd));
    let done = 0;
    while (done < data.length) {
      const n = await io.read(fd, data.subarray(done), done);
      if (n <= 0) break;
      done += n;
    }
    return data.subarray(0, done);
  } finally {
    await io.close(fd).catch(() => undefined);
  }
};

/**
 * Puts back, from `log` (the game's records found in the write-ahead log), every damaged range of
 * the game file whose lost records the log holds; returns the seq ranges restored (none: the file
 * is not touched).
 */
export const repairFromLog = async (
  io: JournalFs,
  path: string,
  log: readonly JournalRecord[],
): Promise<Result<{ from: number; to: number }[], JournalError>> => {
  const bySeq = new Map(log.map(r => [r.seq, r]));
  const head = await readHeader(io, path);
  if (head.isErr) return Result.err(head.error);
  const salvaged = await salvageGameFile(io, path, head.value.end);
  if (salvaged.isErr) return Result.err(salvaged.error);
  const fixes = salvaged.value.damage.flatMap(d => {
    const lost = lostSeqs(d);
    if (lost === undefined) return [];
    const records: JournalRecord[] = [];
    for (let seq = lost.from; seq <= lost.to; seq++) {
      const r = bySeq.get(seq);
      if (r === undefined) return [];
      records.push(r);
    }
    return [{ offset: d.offset, bytes: d.bytes, lost, records }];
  });
  if (fixes.length === 0) return Result.ok([]);
  const temp = `${path}${REPAIR_SUFFIX}`;
  let step = 'reading';
  try {
    const data = await readAll(io, path);
    const pieces: Buffer[] = [];
    let at = 0;
    for (const f of [...fixes].sort((a, b) => a.offset - b.offset)) {
      pieces.push(data.subarray(at, f.offset));
      pieces.push(Buffer.from(f.records.map(r => `${JSON.stringify(r)}\n`).join(''), 'utf8'));
      at = f.offset + f.bytes;
    }
    pieces.push(data.subarray(at));
    step = 'writing the repaired copy of';
    await io.unlink(temp).catch(() => undefined);
    const fd = await io.open(temp, 'ax');
    try {
      await writeAll(io, fd, Buffer.concat(pieces), 0);
      await io.fsync(fd);
    } finally {
      await io.close(fd);
    }
    step = 'replacing';
    await io.rename(temp, path);
    await syncDir(io, dirname(path));
  } catch (e) {
    await io.unlink(temp).catch(() => undefined);
    return Result.err(ioError(path, step, e));
  }
  return Result.ok(fixes.map(f => f.lost));
};
