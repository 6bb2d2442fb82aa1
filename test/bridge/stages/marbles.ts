/**
 * Marble testing for the pipeline's stages: a TestScheduler whose assertions are vitest's, and
 * small builders of journal records and lane items.
 *
 *   const ts = createTestScheduler();
 *   ts.run(({ hot, expectObservable }) => expectObservable(hot('a-b').pipe(stage)).toBe('a-b', values));
 */
import { Result } from '@badrap/result';
import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import type { JournalEntry, JournalRecord } from '../../../src/bridge/journal/index.js';
import type { LaneItem } from '../../../src/bridge/stages/types.js';
import type { Observation } from '../../../src/drivers/observation.js';

export const createTestScheduler = (): TestScheduler =>
  new TestScheduler((actual, expected) => {
    expect(actual).toEqual(expected);
  });

export const square = (at: number, sq: number, empty: boolean): Observation => ({
  type: 'square',
  at,
  square: sq,
  content: empty ? { kind: 'empty' } : { kind: 'piece', color: 'white', role: 'pawn' },
});

export const entry = (o: Observation): JournalEntry => ({ type: 'observation', board: 'b1', observation: o });

export const item = (o: Observation): LaneItem => ({ kind: 'entry', entry: entry(o) });

export const record = (seq: number, o: Observation): JournalRecord => ({ seq, wall: 0, ...entry(o) });

export const ok = (r: JournalRecord) => Result.ok<JournalRecord, Error>(r);
