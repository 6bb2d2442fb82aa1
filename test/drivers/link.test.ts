/**
 * The awake timer every session decides silence with: it counts time the daemon was awake, so a
 * stall of the process (a busy machine) never reads as a board that said nothing.
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { awakeTimer$ } from '../../src/drivers/link.js';
import { stallingScheduler } from '../support/stalled.js';

/** When awakeTimer$(ms) fires, with the daemon's clock jumping `stallMs` at each of `stallsAt`. */
const firesAt = (ms: number, stallsAt: readonly number[], stallMs: number): number | undefined => {
  const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
  const daemon = stallingScheduler(ts);
  let fired: number | undefined;
  ts.run(({ flush }) => {
    for (const t of stallsAt) ts.schedule(() => daemon.stall(stallMs), t);
    awakeTimer$(ms, daemon).subscribe(() => (fired = ts.now()));
    flush();
  });
  return fired;
};

describe('awakeTimer$', () => {
  it('fires after its time when the daemon ran on time', () => {
    expect(firesAt(80, [], 0)).toBe(80);
  });

  it('waits again after a wait that ended late by more than a quarter of its length', () => {
    // A 150 ms stall during the first wait: it is taken again (fires at 160, not 80).
    expect(firesAt(80, [40], 150)).toBe(160);
    // Stalls in two waits in a row: three waits.
    expect(firesAt(80, [40, 120], 150)).toBe(240);
    // A short stall (20 ms of 80) is within the wait's own slack: it counts.
    expect(firesAt(80, [40], 20)).toBe(80);
  });

  it('gives up waiting again after ten stalled waits: a daemon always stalled still decides', () => {
    const every = Array.from({ length: 30 }, (_, i) => 40 + i * 80);
    expect(firesAt(80, every, 150)).toBe(11 * 80);
  });
});
