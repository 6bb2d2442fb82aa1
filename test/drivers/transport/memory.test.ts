/**
 * The in-memory link: the shared transport contract, plus what only a memory link does (unplug
 * and plug, virtual-time delivery with latency, the write log).
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Chunk } from '../../../src/drivers/transport/transport.js';
import { describeTransportContract } from './contract.js';

describeTransportContract('memory link', () => {
  const clockReadings: number[] = [];
  let t = 1000;
  const link = createMemoryLink({
    now: () => {
      clockReadings.push(++t);
      return t;
    },
  });
  const received: number[] = [];
  const sub = link.device.bytes$.subscribe({ next: c => received.push(...c.bytes), error: () => undefined });
  return Promise.resolve({
    transport: link.host,
    clockReadings,
    peerWrite: bytes => link.device.write(bytes),
    peerReceived: () => Uint8Array.from(received),
    pull: () => {
      link.unplug();
      return Promise.resolve();
    },
    dispose: () => {
      sub.unsubscribe();
      return Promise.resolve();
    },
  });
});

const scheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

describe('memory link', () => {
  it('delivers after the latency, on the scheduler, stamped with virtual time', () => {
    const ts = scheduler();
    ts.run(({ flush }) => {
      const link = createMemoryLink({ latencyMs: 20, scheduler: ts });
      const got: Chunk[] = [];
      link.host.bytes$.subscribe(c => got.push(c));
      link.device.bytes$.subscribe();
      void link.device.write(Uint8Array.of(1, 2));
      flush();
      expect(got).toEqual([{ at: 20, bytes: Uint8Array.of(1, 2) }]);
    });
  });

  it('after unplug, opens fail until plug; writes fail with disconnected', async () => {
    const link = createMemoryLink();
    link.unplug('test');
    expect(link.plugged).toBe(false);
    await expect(link.host.open()).rejects.toMatchObject({ problem: { kind: 'open-failed' } });
    await expect(link.host.write(Uint8Array.of(1))).rejects.toMatchObject({
      problem: { kind: 'disconnected' },
    });
    link.plug();
    await expect(link.host.open()).resolves.toBeUndefined();
  });

  it('records every write with its time for assertions (lastWrite)', () => {
    const ts = scheduler();
    ts.run(({ flush }) => {
      const link = createMemoryLink({ scheduler: ts });
      const sub = link.host.bytes$.subscribe();
      void link.host.write(Uint8Array.of(0x4b));
      flush();
      expect(link.host.lastWrite).toEqual(Uint8Array.of(0x4b));
      expect(link.host.writes).toEqual([{ at: 0, bytes: Uint8Array.of(0x4b) }]);
      sub.unsubscribe();
      expect(link.host.isOpen).toBe(false);
    });
  });
});
