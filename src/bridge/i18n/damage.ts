/**
 * A damaged stretch of a game journal in words, in a language of the catalogs: where it is, how
 * big, what was lost (the same facts as the English `describeDamage` of the journal).
 *
 *   damageText('es', range); // 'r1-b3.jsonl: línea 21 (312 bytes en la posición 5120) dañada: no es JSON; …'
 */
import { type DamagedRange, lostSeqs } from '../journal/index.js';
import { t } from './messages.js';

/** Why a line was refused: the salvager's fixed reasons from the catalog, a record's own problem quoted. */
const detailOf = (lang: string, detail: string): string =>
  detail === 'not JSON'
    ? t(lang, 'damage.detail.not_json')
    : detail === 'unterminated line (torn write)'
      ? t(lang, 'damage.detail.torn')
      : detail === 'a gap in seq'
        ? t(lang, 'damage.detail.gap')
        : t(lang, 'damage.detail.record', { reason: detail });

/** One damaged range for a person: where, how big, what was lost. */
export const damageText = (lang: string, d: DamagedRange): string => {
  const lost = lostSeqs(d);
  const what =
    lost === undefined
      ? t(lang, 'damage.lost.none')
      : lost.from === lost.to
        ? t(lang, 'damage.lost.one', { seq: String(lost.from) })
        : t(lang, 'damage.lost.range', {
            from: String(lost.from),
            to: String(lost.to),
            count: lost.to - lost.from + 1,
          });
  // Seqs, lines and offsets are positions, written without grouping; counts by locale.
  const common = { file: d.file, bytes: d.bytes, offset: String(d.offset), detail: detailOf(lang, d.detail) };
  const where =
    d.bytes === 0
      ? t(lang, 'damage.gap', { file: d.file, after: String(d.afterSeq), next: String(d.nextSeq) })
      : d.fromLine === d.toLine
        ? t(lang, 'damage.line', { ...common, line: String(d.fromLine) })
        : t(lang, 'damage.lines', { ...common, from: String(d.fromLine), to: String(d.toLine) });
  return `${where}; ${what}`;
};
