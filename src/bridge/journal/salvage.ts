/**
 * Salvage of a damaged game file: every record that checks out (a JSON line of the record's shape,
 * with a `seq` that fits its neighbours) is kept, before and after the damage, and each damaged
 * stretch is reported as one range (lines, bytes, and the seq numbers lost). The framing is the
 * line (`\n`) and the `seq`: after bad bytes the reader takes up again at the next good line, and
 * the seq of that line says how many records the damage swallowed.
 *
 *   const r = await readJournalAll(path, { salvage: true }); // read.ts calls salvageGameFile
 *   for (const d of r.value.damage) console.log(describeDamage(d)); // lines 40-42 (812 bytes at …): seq 15-17 lost
 *   salvageLines(items);   // the pure part: which lines are kept, which ranges are damaged
 *
 * How a record after damage is taken (docs/journal.md, "Damage inside a file"): a record whose seq
 * continues the last kept one is kept; one that jumps ahead is kept when the next good record
 * continues it (seq + 1), or, as the file's last record, when the damaged bytes before it could
 * have held the records it skips. A record whose seq goes back, or jumps without either proof,
 * is damage itself (a flipped digit in a seq). A flipped byte that leaves valid JSON of the
 * right shape (a digit inside a time, say) cannot be seen: the journal has no checksums.
 */
import { Result } from '@badrap/result';
import { ioError, type JournalError } from './errors.js';
import { parseRecord, type JournalRecord } from './format.js';
import type { JournalFs } from './fsio.js';
import type { TornTail } from './inspect.js';
import { readLines } from './lines.js';

/** One stretch of a file that did not check out, between two kept records. */
export interface DamagedRange {
  readonly file: string;
  /** 1-based first and last line of the stretch (both 0 when no line is bad: a seq gap only). */
  readonly fromLine: number;
  readonly toLine: number;
  /** Byte offset of the stretch and its length (0 for a seq gap only). */
  readonly offset: number;
  readonly bytes: number;
  /** seq of the kept record before (0: the header) and after it. */
  readonly afterSeq: number;
  readonly nextSeq: number;
  /** Why the first bad line was refused, and its first bytes. */
  readonly detail: string;
  readonly preview: string;
}

/** Records lost in a range: the seq numbers between the kept records around it. */
export const lostSeqs = (d: DamagedRange): { from: number; to: number } | undefined =>
  d.nextSeq - d.afterSeq > 1 ? { from: d.afterSeq + 1, to: d.nextSeq - 1 } : undefined;

/** One line for a person: where, how big, what was lost. */
export const describeDamage = (d: DamagedRange): string => {
  const lost = lostSeqs(d);
  const what =
    lost === undefined
      ? 'no record lost'
      : lost.from === lost.to
        ? `record seq ${lost.from} lost`
        : `records seq ${lost.from}-${lost.to} lost (${lost.to - lost.from + 1})`;
  const where =
    d.bytes === 0
      ? `seq ${d.afterSeq} is followed by seq ${d.nextSeq}`
      : `${d.fromLine === d.toLine ? `line ${d.fromLine}` : `lines ${d.fromLine}-${d.toLine}`} (${d.bytes} bytes at offset ${d.offset}) damaged: ${d.detail}`;
  return `${d.file}: ${where}; ${what}`;
};

/** A line as read, with its record when it parses as one. */
export interface SalvageItem {
  readonly line: number;
  readonly offset: number;
  readonly end: number;
  readonly text: string;
  readonly record: JournalRecord | undefined;
  /** Why it did not parse (when `record` is undefined). */
  readonly detail: string;
}

export interface Salvaged {
  readonly records: readonly JournalRecord[];
  readonly damage: readonly DamagedRange[];
  /** Lines after the last kept record (a torn or damaged end). */
  readonly tail: readonly SalvageItem[];
}

/** The fewest bytes a record line takes; a jump over k records needs at least k times this. */
export const MIN_RECORD_BYTES = 40;

/** Decides which lines are kept; `firstSeq` is the seq the first record should have. */
export const salvageLines = (file: string, items: readonly SalvageItem[], firstSeq = 1): Salvaged => {
  const records: JournalRecord[] = [];
  const damage: DamagedRange[] = [];
  let lastSeq = firstSeq - 1;
  let bad: SalvageItem[] = [];
  const nextRecordAfter = (i: number): JournalRecord | undefined => {
    for (let j = i + 1; j < items.length; j++) {
      const r = items[j]?.record;
      if (r !== undefined) return r;
    }
    return undefined;
  };
  items.forEach((item, i) => {
    const r = item.record;
    const keep = ((): boolean => {
      if (r === undefined || r.seq <= lastSeq) return false;
      if (r.seq === lastSeq + 1) return true;
      const next = nextRecordAfter(i);
      if (next !== undefined) return next.seq === r.seq + 1;
      const badBytes = bad.reduce((n, b) => n + b.end - b.offset, 0);
      return r.seq - lastSeq - 1 <= Math.ceil(badBytes / MIN_RECORD_BYTES);
    })();
    if (!keep || r === undefined) {
      bad.push(item);
      return;
    }
    const first = bad[0];
    const last = bad.at(-1);
    if (first !== undefined || r.seq !== lastSeq + 1)
      damage.push({
        file,
        fromLine: first?.line ?? 0,
        toLine: last?.line ?? 0,
        offset: first?.offset ?? item.offset,
        bytes: first === undefined || last === undefined ? 0 : last.end - first.offset,
        afterSeq: lastSeq,
        nextSeq: r.seq,
        detail:
          first === undefined
            ? 'a gap in seq'
            : first.record !== undefined
              ? `seq ${first.record.seq} where ${lastSeq + 1} was expected`
              : first.detail,
        preview: first?.text.slice(0, 80) ?? '',
      });
    records.push(r);
    lastSeq = r.seq;
    bad = [];
  });
  return { records, damage, tail: bad };
};

const parseItem = (text: string, terminated: boolean): { record?: JournalRecord; detail: string } => {
  if (!terminated) return { detail: 'unterminated line (torn write)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { detail: 'not JSON' };
  }
  const r = parseRecord(value);
  return r.isOk ? { record: r.value, detail: '' } : { detail: r.error.message };
};

/** Reads a game file's records after its header (`start`) and salvages them. */
export const salvageGameFile = async (
  io: JournalFs,
  path: string,
  start: number,
): Promise<Result<Salvaged & { readonly tornTail: TornTail | undefined }, JournalError>> => {
  let fd: number;
  try {
    fd = await io.open(path, 'r');
  } catch (e) {
    return Result.err(ioError(path, 'opening', e));
  }
  const items: SalvageItem[] = [];
  try {
    for await (const line of readLines(io, fd, start)) {
      const parsed = parseItem(line.text, line.terminated);
      items.push({
        line: line.number + 1, // the header is line 1
        offset: line.offset,
        end: line.end,
        text: line.text,
        record: parsed.record,
        detail: parsed.detail,
      });
    }
  } catch (e) {
    return Result.err(ioError(path, 'reading', e));
  } finally {
    await io.close(fd).catch(() => undefined);
  }
  const salvaged = salvageLines(path, items);
  const first = salvaged.tail[0];
  const last = salvaged.tail.at(-1);
  const tornTail: TornTail | undefined =
    first === undefined || last === undefined
      ? undefined
      : {
          file: path,
          line: first.line,
          offset: first.offset,
          bytes: last.end - first.offset,
          preview: first.text.slice(0, 80),
        };
  return Result.ok({ ...salvaged, tornTail });
};

/**
 * Records of the write-ahead log that follow a salvaged game file: those after `lastSeq`, in seq
 * order, each gap reported as a range of the log (nothing there is invented or renumbered).
 */
export const continueFromWal = (
  walDir: string,
  lastSeq: number,
  wal: readonly JournalRecord[],
): { records: JournalRecord[]; damage: DamagedRange[] } => {
  const records: JournalRecord[] = [];
  const damage: DamagedRange[] = [];
  let last = lastSeq;
  for (const r of [...wal].sort((a, b) => a.seq - b.seq)) {
    if (r.seq <= last) continue;
    if (r.seq > last + 1)
      damage.push({
        file: walDir,
        fromLine: 0,
        toLine: 0,
        offset: 0,
        bytes: 0,
        afterSeq: last,
        nextSeq: r.seq,
        detail: 'a gap in seq',
        preview: '',
      });
    records.push(r);
    last = r.seq;
  }
  return { records, damage };
};
