/**
 * Stage: journal every entry before anything is decided from it. Each entry is appended as soon
 * as it arrives, and passed on (the stamped record) once the journal has synced it and everything
 * before it (group commit: docs/journal.md): entries arriving while earlier ones are being synced
 * join the next batch instead of waiting for the sync before them, and what comes out is always
 * in arrival order. Wakes wait in the same queue, so they stay in order with the records. An
 * entry the journal refuses (disk full, read-only) is passed on as `refused` and never reaches
 * the supervisor: a decision is only ever made from what a replay will see again.
 *
 *   entries$.pipe(journalEntries({ append: (e) => journal.append(game, e), log }))
 *   // { kind: 'record', record: { seq: 17, wall, type: 'observation', … } } | { kind: 'wake', at } | { kind: 'refused', … }
 */
import type { Result } from '@badrap/result';
import {
  catchError,
  concatMap,
  defer,
  from,
  map,
  mergeMap,
  type Observable,
  type ObservableInput,
  of,
  type OperatorFunction,
} from 'rxjs';
import type { JournalEntry, JournalRecord } from '../journal/index.js';
import type { Logger } from '../logger.js';
import type { Journaled, LaneItem } from './types.js';

export interface JournalStageDeps {
  /** Appends to this game's journal; settles once synced (a Promise live, an Observable in marble tests). */
  readonly append: (entry: JournalEntry) => ObservableInput<Result<JournalRecord, Error>>;
  readonly log: Logger;
}

const appendOne = (
  item: Extract<LaneItem, { kind: 'entry' }>,
  deps: JournalStageDeps,
): Observable<Journaled> => {
  const done = item.done === undefined ? {} : { done: item.done };
  const refused = (error: Error): Journaled => {
    deps.log.error(`not recorded: ${error.message}`);
    return { kind: 'refused', entry: item.entry, error, ...done };
  };
  return defer(() => from(deps.append(item.entry))).pipe(
    map((r): Journaled => (r.isOk ? { kind: 'record', record: r.value, ...done } : refused(r.error))),
    // append throws only for an entry JSON cannot hold: a bug upstream, refused like a full disk.
    catchError((e: unknown) => of(refused(e instanceof Error ? e : new Error(String(e))))),
  );
};

export const journalEntries =
  (deps: JournalStageDeps): OperatorFunction<LaneItem, Journaled> =>
  source$ =>
    defer(() => {
      // Outcomes that came before an earlier item's, by arrival number, until it comes too.
      const early = new Map<number, Journaled>();
      let next = 0;
      return source$.pipe(
        // Every append starts at once (each settles exactly once)…
        mergeMap((item, n) =>
          (item.kind === 'wake' ? of(item) : appendOne(item, deps)).pipe(map(out => ({ n, out }))),
        ),
        // … and the outcomes leave in arrival order.
        concatMap(({ n, out }) => {
          early.set(n, out);
          const ready: Journaled[] = [];
          for (let o = early.get(next); o !== undefined; o = early.get(next)) {
            early.delete(next);
            ready.push(o);
            next += 1;
          }
          return ready;
        }),
      );
    });
