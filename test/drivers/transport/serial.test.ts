/**
 * SerialTransport on real pseudo-terminals (a socat pair): the shared transport contract, plus
 * opening a missing path, an unplugged cable and its return, and the PTY pair's own clean-up.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import type { Chunk } from '../../../src/drivers/transport/transport.js';
import { TransportError } from '../../../src/drivers/transport/transport.js';
import { closeAllPtyPairs, isAlive, makeLinkDir, openPtyPair, trackPid, waitFor } from '../../support/pty.js';
import { describeTransportContract } from './contract.js';

describeTransportContract('serial on a socat PTY pair', async () => {
  const pair = await openPtyPair();
  const clockReadings: number[] = [];
  let t = 0;
  const transport = new SerialTransport({
    path: pair.hostPath,
    now: () => {
      clockReadings.push(++t);
      return t;
    },
  });
  const peer = new SerialTransport({ path: pair.devicePath });
  const received: number[] = [];
  const sub = peer.bytes$.subscribe({ next: c => received.push(...c.bytes), error: () => undefined });
  await peer.open();
  return {
    transport,
    clockReadings,
    peerWrite: bytes => peer.write(bytes),
    peerReceived: () => Uint8Array.from(received),
    pull: () => pair.stop(),
    dispose: async () => {
      sub.unsubscribe();
      await transport.close();
      await peer.close();
      await closeAllPtyPairs();
    },
  };
});

describe('serial transport', () => {
  afterEach(closeAllPtyPairs);

  it('fails to open a path that does not exist with `open-failed` naming the path', async () => {
    const path = join(makeLinkDir(), 'nothing-here');
    const t = new SerialTransport({ path });
    const e = await t.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).problem).toMatchObject({ kind: 'open-failed', path });
    const viaBytes = await new Promise(resolve => t.bytes$.subscribe({ error: resolve }));
    expect((viaBytes as TransportError).problem.kind).toBe('open-failed');
  });

  it('after an unplugged cable, reopens the same path once the pair is back and reads again', async () => {
    const pair = await openPtyPair();
    const host = new SerialTransport({ path: pair.hostPath });
    const lost = new Promise<unknown>(resolve => host.bytes$.subscribe({ error: resolve }));
    await host.open();
    await pair.stop();
    expect(((await lost) as TransportError).problem.kind).toBe('disconnected');
    expect(existsSync(pair.hostPath)).toBe(false);

    await pair.start();
    trackPid(pair);
    const got: Chunk[] = [];
    const sub = host.bytes$.subscribe({ next: c => got.push(c), error: () => undefined });
    await host.open();
    const device = new SerialTransport({ path: pair.devicePath });
    const devSub = device.bytes$.subscribe({ error: () => undefined });
    await device.write(Uint8Array.of(0x93, 0x00, 0x05, 0x03, 0x0a));
    await waitFor(() => got.reduce((n, c) => n + c.bytes.length, 0) >= 5, 3000, 'the version reply');
    expect(got.flatMap(c => Array.from(c.bytes))).toEqual([0x93, 0x00, 0x05, 0x03, 0x0a]);
    sub.unsubscribe();
    devSub.unsubscribe();
    await Promise.all([host.close(), device.close()]);
  });

  it('reports every one of ten unplugged cables in a row, however the hang-up lands', async () => {
    // Depending on timing, a read on a hung-up terminal fails with EIO or returns end of file;
    // both must come out as `disconnected` (before the fix, about one unplug in fifteen was lost).
    const pair = await openPtyPair();
    const host = new SerialTransport({ path: pair.hostPath });
    const kinds: string[] = [];
    for (let i = 0; i < 10; i++) {
      if (i > 0) {
        await pair.start();
        trackPid(pair);
      }
      const lost = new Promise<unknown>(resolve => host.bytes$.subscribe({ error: resolve }));
      await host.open();
      await pair.stop();
      kinds.push(((await lost) as TransportError).problem.kind);
    }
    expect(kinds).toEqual(Array.from({ length: 10 }, () => 'disconnected'));
  });

  it('a second process-level open of a locked port fails instead of sharing the bytes', async () => {
    const pair = await openPtyPair();
    const first = new SerialTransport({ path: pair.hostPath });
    await first.open();
    const second = new SerialTransport({ path: pair.hostPath });
    const e = await second.open().catch((x: unknown) => x);
    await first.close();
    expect((e as TransportError).problem.kind).toBe('open-failed');
  });
});

describe('PTY pair', () => {
  let pid: number | undefined;
  afterAll(() => {
    if (pid !== undefined) expect(isAlive(pid)).toBe(false);
  });

  it('creates both links, and stop() kills socat and removes them', async () => {
    const pair = await openPtyPair();
    pid = pair.pid;
    expect(pid).toBeTypeOf('number');
    expect(existsSync(pair.hostPath) && existsSync(pair.devicePath)).toBe(true);
    await pair.stop();
    expect(pair.running).toBe(false);
    expect(existsSync(pair.hostPath) || existsSync(pair.devicePath)).toBe(false);
    expect(isAlive(pid!)).toBe(false);
    await closeAllPtyPairs();
  });
});
