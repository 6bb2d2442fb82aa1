/**
 * Judges one supervised run of a game played by the handling model: nothing was irregular, so
 * every alert is false. Follows the published record through time (moves and corrections) and
 * compares it with what the hands had done by then: a ply published before its handling began, or
 * a finished ply published as another move, is invented; a record cut below the plies already
 * pressed (or, without a clock, already answered) has lost plies; a wrong reading of a ply still in
 * the hands is provisional (shown, then revised).
 *
 *   const v = judgeRun(result.events, played.plies, want, { clock: true });
 *   if (v.problems.length > 0) console.log(v.problems);
 */
import type { GameEvent } from '../../src/engine/events.js';
import type { PlyTrace } from './play.js';

export interface RunVerdict {
  /** Final record equals the game's, nothing invented or lost on the way, no alert raised. */
  readonly exact: boolean;
  readonly wrongRecord: boolean;
  readonly invented: boolean;
  readonly lost: boolean;
  /** Publications of a wrong move for a ply still being handled. */
  readonly provisional: number;
  /** Alerts raised ("code article"), withdrawn or not. */
  readonly alerts: readonly string[];
  readonly withdrawn: number;
  readonly possible: number;
  readonly unexpectedEnd: string | undefined;
  /** One line each, first problem first (empty when exact). */
  readonly problems: readonly string[];
  /** Each problem's kind (e.g. `alert release 4.7`, `invented`) and time (ms), or the ply it is about. */
  readonly issues: readonly { readonly kind: string; readonly at?: number; readonly ply?: number }[];
}

export const judgeRun = (
  events: readonly GameEvent[],
  plies: readonly PlyTrace[],
  want: { readonly sans: readonly string[]; readonly end: string | undefined },
  opts: { readonly clock: boolean },
): RunVerdict => {
  const problems: string[] = [];
  const issues: { kind: string; at?: number; ply?: number }[] = [];
  let record: string[] = [];
  /** Set by `check` (a closure: kept in an object so the flow analysis sees the changes). */
  const seen = { invented: false, lost: false };
  let provisional = 0;
  const begun = (t: number): number => plies.filter(p => p.beganAt <= t).length;
  const done = (j: number, t: number): boolean => (plies[j]?.doneAt ?? Infinity) <= t;
  /**
   * Plies the record must hold by `t`: with a clock, up to the last one pressed for (the plies
   * before it too, pressed or not: a press forgotten); without, the answered ones.
   */
  const settled = (t: number): number =>
    opts.clock
      ? plies.reduce((n, p) => (p.pressAt !== undefined && p.pressAt < t ? Math.max(n, p.ply) : n), 0)
      : Math.max(0, plies.filter(p => p.doneAt < t).length - 1);
  const check = (t: number, what: string): void => {
    if (!seen.invented && record.length > begun(t)) {
      seen.invented = true;
      issues.push({ kind: 'invented', at: t });
      problems.push(
        `invented: ${what} at ${t} ms makes ${record.length} plies, ${begun(t)} begun on the board`,
      );
    }
    for (let j = 0; j < record.length; j++) {
      if (record[j] === want.sans[j]) continue;
      if (j >= begun(t)) continue;
      if (done(j, t)) {
        if (!seen.invented) {
          seen.invented = true;
          issues.push({ kind: 'invented', at: t, ply: j + 1 });
          problems.push(
            `invented: ply ${j + 1} published as ${record[j]} at ${t} ms, its handling (${want.sans[j]}) finished`,
          );
        }
      }
    }
    const last = record.length - 1;
    if (last >= 0 && record[last] !== want.sans[last] && last < begun(t) && !done(last, t)) provisional++;
    if (!seen.lost && record.length < settled(t)) {
      seen.lost = true;
      issues.push({ kind: 'lost', at: t });
      problems.push(`lost: ${what} at ${t} ms leaves ${record.length} plies, ${settled(t)} already settled`);
    }
  };
  const alerts: string[] = [];
  let withdrawn = 0;
  let possible = 0;
  let unexpectedEnd: string | undefined;
  for (const e of events) {
    switch (e.type) {
      case 'move':
        record = [...record.slice(0, e.ply - 1), e.san];
        check(e.at, `move ply ${e.ply} ${e.san}`);
        break;
      case 'correction':
        record = [...record.slice(0, e.fromPly - 1), ...e.moves.map(m => m.san)];
        check(
          e.at,
          `correction (${e.reason}) from ply ${e.fromPly}${e.moves.length > 0 ? ` ${e.moves.map(m => m.san).join(' ')}` : ', nothing'}, ply ${record.length}`,
        );
        break;
      case 'alert':
        alerts.push(`${e.code} ${e.article.article}`);
        issues.push({ kind: `alert ${e.code} ${e.article.article}`, at: e.at });
        problems.push(
          `alert ${e.code} ${e.article.article}${e.ply !== undefined ? ` ply ${e.ply}` : ''} at ${e.at} ms: ${e.detail}`,
        );
        break;
      case 'alert-withdrawn':
        withdrawn++;
        break;
      case 'finding':
        if (e.grade === 'possible') possible++;
        break;
      case 'end':
        if (want.end === undefined || e.reason !== want.end) {
          unexpectedEnd = e.reason;
          issues.push({ kind: `ended ${e.reason}`, at: e.at });
          problems.push(`ended by ${e.reason} (${e.result}) at ${e.at} ms`);
        }
        break;
      case 'clock':
      case 'claim':
      case 'offer':
        break;
    }
  }
  const wrongRecord = record.length !== want.sans.length || record.some((s, i) => s !== want.sans[i]);
  if (wrongRecord) {
    const split = record.findIndex((s, i) => s !== want.sans[i]);
    const from = split < 0 ? Math.min(record.length, want.sans.length) : split;
    issues.push({ kind: 'wrong record', ply: from + 1 });
    problems.push(
      `record: from ply ${from + 1} ${record.slice(from, from + 6).join(' ') || '(nothing)'}; game ${want.sans.slice(from, from + 6).join(' ') || '(nothing)'}`,
    );
  }
  const { invented, lost } = seen;
  const exact = !wrongRecord && !invented && !lost && alerts.length === 0 && unexpectedEnd === undefined;
  return {
    exact,
    wrongRecord,
    invented,
    lost,
    provisional,
    alerts,
    withdrawn,
    possible,
    unexpectedEnd,
    problems,
    issues,
  };
};
