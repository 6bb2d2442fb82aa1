// The publisher's part of /healthz's `degraded`: behind when many events wait, and also when few
// wait but the oldest has waited long (the stuck window of issue 16 held 174 events, under the
// count threshold, for minutes).
import { describe, expect, it } from 'vitest';
import {
  degradedReasons,
  PUBLISHER_BEHIND,
  PUBLISHER_STALLED_MS,
} from '../../../src/bridge/daemon/health.js';

const reasons = (queued: number, oldestMs: number) =>
  degradedReasons({
    boards: { all: () => [] },
    publisher: { health: () => ({ queued, oldestMs }) },
    journalProblem: undefined,
  });

describe('degradedReasons: the publisher', () => {
  it('is quiet while events are acknowledged promptly', () => {
    expect(reasons(0, 0)).toEqual([]);
    expect(reasons(PUBLISHER_BEHIND - 1, 300)).toEqual([]);
  });

  it('says behind with the count and the oldest wait, by count or by age', () => {
    expect(reasons(PUBLISHER_BEHIND, 2_000)).toEqual([
      `publisher behind: ${PUBLISHER_BEHIND} events wait for the broker, the oldest for 2 s`,
    ]);
    expect(reasons(174, PUBLISHER_STALLED_MS + 500)).toEqual([
      'publisher behind: 174 events wait for the broker, the oldest for 11 s',
    ]);
  });
});
