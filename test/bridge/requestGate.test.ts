// The request gate's arithmetic, on an injected clock: per-client buckets, the total bucket, the
// bound on pending requests, the refusals answered, the summary line and the bounded memory.
import { describe, expect, it } from 'vitest';
import { RequestGate, requestClientKey, type RequestLimits } from '../../src/bridge/requestGate.js';

const limits: RequestLimits = {
  perSecond: 2,
  burst: 3,
  totalPerSecond: 100,
  queue: 10,
  refusalsPerSecond: 2,
  readPerSecond: 100,
};

const makeGate = (over: Partial<RequestLimits> = {}, maxClients?: number) => {
  let now = 0;
  const refused: string[] = [];
  const gate = new RequestGate({
    limits: { ...limits, ...over },
    now: () => now,
    onRefused: (t, r) => refused.push(`${t}:${r}`),
    ...(maxClients === undefined ? {} : { maxClients }),
  });
  return { gate, refused, advance: (ms: number) => (now += ms) };
};

describe('requestClientKey', () => {
  it('takes the verified user first, then the client id, the response topic, the address', () => {
    expect(requestClientKey({ transport: 'mqtt', user: 'ana', responseTopic: 'r/1' })).toBe('user:ana');
    expect(requestClientKey({ transport: 'mqtt', clientId: 'c1', responseTopic: 'r/1' })).toBe(
      'mqtt:client:c1',
    );
    expect(requestClientKey({ transport: 'mqtt', responseTopic: 'r/1' })).toBe('mqtt:reply:r/1');
    expect(requestClientKey({ transport: 'http', address: '10.0.0.7' })).toBe('http:address:10.0.0.7');
    expect(requestClientKey({ transport: 'mqtt' })).toBe('mqtt:anonymous');
  });
});

describe('RequestGate', () => {
  it('lets a client make its burst, then its rate, and refuses the rest as rate limited', () => {
    const { gate, refused, advance } = makeGate();
    const a = { transport: 'mqtt' as const, responseTopic: 'a' };
    const oks = [1, 2, 3, 4].map(() => gate.admit(a));
    expect(oks.map(t => t.ok)).toEqual([true, true, true, false]);
    const last = oks[3];
    expect(last?.ok === false && last.reason).toBe('rate_limited');
    expect(last?.ok === false && last.message).toBe(
      'rate limited: more than 2 requests a second from this client',
    );
    // Another client is not held back by the first.
    expect(gate.admit({ transport: 'mqtt', responseTopic: 'b' }).ok).toBe(true);
    advance(500); // one token back at 2 a second
    expect(gate.admit(a).ok).toBe(true);
    expect(gate.admit(a).ok).toBe(false);
    expect(refused).toEqual(['mqtt:rate_limited', 'mqtt:rate_limited']);
  });

  it('refuses as busy past the total rate and past the queue; a release makes room', () => {
    const total = makeGate({ totalPerSecond: 2, burst: 100 });
    expect([1, 2, 3].map(i => total.gate.admit({ transport: 'http', address: `h${i}` }).ok)).toEqual([
      true,
      true,
      false,
    ]);
    const queued = makeGate({ queue: 2, burst: 100 });
    const first = queued.gate.admit({ transport: 'mqtt' });
    queued.gate.admit({ transport: 'mqtt' });
    const third = queued.gate.admit({ transport: 'mqtt' });
    expect(third.ok === false && third.message).toBe('busy: 2 requests wait already');
    expect(queued.gate.pending).toBe(2);
    if (first.ok) {
      first.release();
      first.release(); // twice is once
    }
    expect(queued.gate.pending).toBe(1);
    expect(queued.gate.admit({ transport: 'mqtt' }).ok).toBe(true);
  });

  it('answers at most refusalsPerSecond refusals and sums them up in one line', () => {
    const { gate, advance } = makeGate({ burst: 1 });
    const flood = { transport: 'mqtt' as const };
    gate.admit(flood);
    const answered = Array.from({ length: 50 }, () => gate.admit(flood)).filter(() => gate.answerRefusal());
    expect(answered).toHaveLength(2);
    gate.admit({ transport: 'http', address: 'x' });
    gate.admit({ transport: 'http', address: 'x' });
    advance(10_000);
    expect(gate.summary()).toBe(
      'refused 51 requests in 10 s (rate limited 51, busy 0; 48 not answered); most from mqtt:anonymous (50), http:address:x (1)',
    );
    expect(gate.summary()).toBeUndefined();
  });

  it('keeps at most maxClients buckets, forgetting the oldest', () => {
    const { gate } = makeGate({ burst: 1, totalPerSecond: 10_000, queue: 10_000 }, 100);
    for (let i = 0; i < 1000; i++) gate.admit({ transport: 'mqtt', responseTopic: `r/${i}` });
    // r/0's bucket was forgotten: it starts full again.
    expect(gate.admit({ transport: 'mqtt', responseTopic: 'r/0' }).ok).toBe(true);
    expect(gate.admit({ transport: 'mqtt', responseTopic: 'r/999' }).ok).toBe(false);
  });
});

describe('RequestGate.readDelayMs', () => {
  it('lets readPerSecond messages be read and then asks for a pause until tokens are back', () => {
    const { gate, advance } = makeGate({ readPerSecond: 100 });
    // A bucket of a tenth of a second: 10 reads at once, then a pause of at least 10 ms.
    expect(Array.from({ length: 10 }, () => gate.readDelayMs())).toEqual(Array(10).fill(0));
    expect(gate.readDelayMs()).toBe(10);
    advance(50);
    expect(Array.from({ length: 5 }, () => gate.readDelayMs())).toEqual(Array(5).fill(0));
    expect(gate.readDelayMs()).toBeGreaterThan(0);
    expect(gate.summary()).toBe(
      'requests arrive faster than they are read: reading paused 2 times at 100 a second',
    );
  });
});
