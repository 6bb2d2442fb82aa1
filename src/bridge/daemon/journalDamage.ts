/**
 * What a restart does about a damaged journal (docs/journal.md, "Damage inside a file"): the game
 * is resumed from every record that checks out, and the arbiter gets one `journal_damaged` alert
 * saying what was lost (lines, bytes, seq numbers). The alert is given once per damaged range:
 * a `journal_damage` command journaled into the game notes the ranges it told, and a later
 * restart that finds the same ranges again stays silent.
 *
 *   const d = damageReport(game, contents.damage, cutTail, contents.records);
 *   if (d !== undefined) { outputs.alert(damageAlert(d, ctx)); games.resume(header, run, view, [damageNote(d, at)]); }
 */
import {
  describeDamage,
  lostSeqs,
  type DamagedRange,
  type JournalEntry,
  type JournalRecord,
  type TornTail,
} from '../journal/index.js';
import type { WebAlert } from '../web/contract.js';

/** The command that notes damage the arbiter was told about (ignored by the supervisor). */
export const DAMAGE_NOTE = 'journal_damage';

/** A range as the note keeps it; the same range found again has the same key. */
const keyOf = (d: DamagedRange): string => `${d.afterSeq}-${d.nextSeq}-${d.offset}-${d.bytes}`;

interface NotedRange {
  readonly after_seq: number;
  readonly next_seq: number;
  readonly offset: number;
  readonly bytes: number;
}

const notedKeys = (records: readonly JournalRecord[]): Set<string> => {
  const keys = new Set<string>();
  for (const r of records) {
    if (r.type !== 'command' || r.action !== DAMAGE_NOTE) continue;
    const ranges = (r.params as { ranges?: unknown } | null)?.ranges;
    if (!Array.isArray(ranges)) continue;
    for (const n of ranges as NotedRange[])
      keys.add(`${String(n.after_seq)}-${String(n.next_seq)}-${String(n.offset)}-${String(n.bytes)}`);
  }
  return keys;
};

/** Damage found at a restart that the arbiter has not been told about yet. */
export interface DamageReport {
  readonly game: string;
  readonly ranges: readonly DamagedRange[];
  /** The end of the game file cut off at the start, not made good by the write-ahead log. */
  readonly cutTail: TornTail | undefined;
}

export const damageReport = (
  game: string,
  damage: readonly DamagedRange[],
  cutTail: TornTail | undefined,
  records: readonly JournalRecord[],
): DamageReport | undefined => {
  const noted = notedKeys(records);
  const ranges = damage.filter(d => !noted.has(keyOf(d)));
  return ranges.length === 0 && cutTail === undefined ? undefined : { game, ranges, cutTail };
};

/** How many records the damaged ranges lost. */
const lostOf = (d: DamageReport): number =>
  d.ranges.reduce((n, r) => {
    const l = lostSeqs(r);
    return n + (l === undefined ? 0 : l.to - l.from + 1);
  }, 0);

/** The report in words: every range, what it lost, and what was kept. */
export const describeReport = (d: DamageReport, kept: number): string => {
  const lost = lostOf(d);
  const parts = d.ranges.map(describeDamage);
  if (d.cutTail !== undefined)
    parts.push(
      `${d.cutTail.file}: the last ${d.cutTail.bytes} bytes (from offset ${d.cutTail.offset}) did not read ` +
        'as records and were cut off (a record written only in part, which the write-ahead log did not ' +
        'hold, or bytes added to the file)',
    );
  return (
    `journal of game ${d.game} damaged: ${parts.join('; ')}. ` +
    `${kept} records kept${lost > 0 ? `, ${lost} lost` : ''}; the game goes on from what was kept: ` +
    'check it against the scoresheet'
  );
};

/** The `journal_damaged` alert for the arbiter (one per restart and game). */
export const damageAlert = (
  d: DamageReport,
  ctx: {
    readonly text: string;
    /** The records kept. */
    readonly kept: number;
    readonly at: number;
    readonly seq: number;
    readonly ply: number;
    readonly board: string | undefined;
  },
): WebAlert => ({
  id: `${d.game}-journal-${d.ranges.map(r => r.nextSeq).join('-') || `cut-${d.cutTail?.offset ?? 0}`}`,
  at: ctx.at,
  game: d.game,
  seq: Math.max(1, ctx.seq),
  ply: ctx.ply,
  ...(ctx.board === undefined ? {} : { board: ctx.board }),
  code: 'journal_damaged',
  message: ctx.text,
  // What a reader of another language gets; the ranges stay in the English detail.
  text: [{ key: 'journal.damaged', params: { count: ctx.kept, lost: lostOf(d) } }],
  evidence: { detail: ctx.text },
});

/** The journaled note of the ranges told, so the next restart does not tell them again. */
export const damageNote = (d: DamageReport, at: number): JournalEntry => ({
  type: 'command',
  at,
  action: DAMAGE_NOTE,
  params: {
    ranges: d.ranges.map(r => ({
      after_seq: r.afterSeq,
      next_seq: r.nextSeq,
      offset: r.offset,
      bytes: r.bytes,
    })),
  },
  source: 'daemon',
});
