import { Result } from '@badrap/result';
import { describe, it } from 'vitest';
import { silentLogger } from '../../../src/bridge/logger.js';
import { journalEntries } from '../../../src/bridge/stages/journalEntries.js';
import type { LaneItem } from '../../../src/bridge/stages/types.js';
import { createTestScheduler, item, ok, record, square } from './marbles.js';

const e2 = square(100, 12, true);
const e4 = square(300, 28, false);

describe('journalEntries stage', () => {
  it('passes each entry on once it is synced, in order', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      let seq = 0;
      const append = () => cold('--(r|)', { r: ok(record(++seq, seq === 1 ? e2 : e4)) });
      const source = hot('a-b------', { a: item(e2), b: item(e4) });
      expectObservable(source.pipe(journalEntries({ append, log: silentLogger() }))).toBe('--a-b----', {
        a: { kind: 'record', record: record(1, e2) },
        b: { kind: 'record', record: record(2, e4) },
      });
    });
  });

  it('appends each entry as it arrives, without waiting for the sync before it; outcomes leave in order', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      // a's sync takes four frames, b's and c's one: b and c are synced before a, and wait for it.
      const syncs = [
        cold('----(r|)', { r: ok(record(1, e2)) }),
        cold('-(r|)', { r: ok(record(2, e4)) }),
        cold('-(r|)', { r: ok(record(3, e2)) }),
      ];
      let n = 0;
      const append = () => syncs[n++] ?? cold('-');
      const source = hot('abc-----', { a: item(e2), b: item(e4), c: item(e2) });
      expectObservable(source.pipe(journalEntries({ append, log: silentLogger() }))).toBe('----(abc)', {
        a: { kind: 'record', record: record(1, e2) },
        b: { kind: 'record', record: record(2, e4) },
        c: { kind: 'record', record: record(3, e2) },
      });
      expectSubscriptions(syncs[1]?.subscriptions ?? []).toBe('-^!');
      expectSubscriptions(syncs[2]?.subscriptions ?? []).toBe('--^!');
    });
  });

  it('keeps a wake behind the entries still being journaled (live order equals replay order)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const append = () => cold('---(r|)', { r: ok(record(1, e2)) });
      const wake: LaneItem = { kind: 'wake', at: 250 };
      const source = hot('ab', { a: item(e2), b: wake });
      expectObservable(source.pipe(journalEntries({ append, log: silentLogger() }))).toBe('---(ab)', {
        a: { kind: 'record', record: record(1, e2) },
        b: wake,
      });
    });
  });

  it('turns a refusal (disk full) or a throw into a refused entry, and goes on', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const full = new Error('journal: disk full (ENOSPC)');
      let n = 0;
      const append = () => {
        n += 1;
        if (n === 2) throw new TypeError('cannot hold a cycle');
        return cold('-(r|)', { r: n === 1 ? Result.err(full) : ok(record(1, e4)) });
      };
      const source = hot('a-b-c', { a: item(e2), b: item(e2), c: item(e4) });
      // The throw is refused at once (frame 2); the refusal after its sync frame (frame 1).
      expectObservable(source.pipe(journalEntries({ append, log: silentLogger() }))).toBe('-ab--c', {
        a: { kind: 'refused', entry: { type: 'observation', board: 'b1', observation: e2 }, error: full },
        b: {
          kind: 'refused',
          entry: { type: 'observation', board: 'b1', observation: e2 },
          error: new TypeError('cannot hold a cycle'),
        },
        c: { kind: 'record', record: record(1, e4) },
      });
    });
  });

  it('completes after the last append, propagates a source error, and stays silent on never', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const append = () => cold('--(r|)', { r: ok(record(1, e2)) });
      const deps = { append, log: silentLogger() };
      expectObservable(hot('a|', { a: item(e2) }).pipe(journalEntries(deps))).toBe('--(a|)', {
        a: { kind: 'record', record: record(1, e2) },
      });
      expectObservable(hot<LaneItem>('#').pipe(journalEntries(deps))).toBe('#');
      expectObservable(hot<LaneItem>('|').pipe(journalEntries(deps))).toBe('|');
      expectObservable(hot<LaneItem>('-').pipe(journalEntries(deps))).toBe('-');
      const source = hot('a----', { a: item(e2) });
      expectObservable(source.pipe(journalEntries(deps)), '^-!').toBe('---');
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });
});
