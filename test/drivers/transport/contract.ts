/**
 * The transport contract (STYLE item 12), one suite run for every implementation: a harness
 * gives a fresh transport plus the far end of its line, and the suite checks what every session
 * relies on: bytes in order with receipt times, writes reaching the far end, one reader at a
 * time, unsubscribe closes, close() cancels, a vanished far end is `disconnected`.
 *
 *   describeTransportContract('memory', async () => memoryHarness());
 */
import { firstValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk, Transport } from '../../../src/drivers/transport/transport.js';
import { TransportError } from '../../../src/drivers/transport/transport.js';
import { waitFor } from '../../support/pty.js';

export interface TransportHarness {
  readonly transport: Transport;
  /** Makes the far end send bytes to the transport. */
  readonly peerWrite: (bytes: Uint8Array) => Promise<void>;
  /** Everything the far end has received so far. */
  readonly peerReceived: () => Uint8Array;
  /** The far end goes away (cable pulled). */
  readonly pull: () => Promise<void>;
  /** Frees everything. */
  readonly dispose: () => Promise<void>;
  /** The clock the transport was given (stamps must come from it). */
  readonly clockReadings: number[];
}

const bytesOf = (chunks: readonly Chunk[]): number[] => chunks.flatMap(c => Array.from(c.bytes));

const errorOf = async (t: Transport): Promise<unknown> =>
  new Promise(resolve => {
    t.bytes$.subscribe({ error: resolve });
  });

export const describeTransportContract = (name: string, make: () => Promise<TransportHarness>): void => {
  describe(`transport contract: ${name}`, () => {
    let h: TransportHarness | undefined;
    const harness = async (): Promise<TransportHarness> => (h = await make());
    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    });

    it('delivers the far end’s bytes in order, stamped by the injected clock', async () => {
      const { transport, peerWrite, clockReadings } = await harness();
      const chunks: Chunk[] = [];
      const sub = transport.bytes$.subscribe(c => chunks.push(c));
      await transport.open();
      for (let i = 0; i < 5; i++) await peerWrite(Uint8Array.of(0x80 + i, i));
      await waitFor(() => bytesOf(chunks).length >= 10, 3000, 'ten bytes');
      sub.unsubscribe();
      expect(bytesOf(chunks)).toEqual([0x80, 0, 0x81, 1, 0x82, 2, 0x83, 3, 0x84, 4]);
      for (const c of chunks) expect(clockReadings).toContain(c.at);
    });

    it('writes reach the far end, including a write issued while the port is opening', async () => {
      const { transport, peerReceived } = await harness();
      const sub = transport.bytes$.subscribe();
      await transport.write(Uint8Array.of(0x4b));
      await transport.write(Uint8Array.of(0x42, 0x45));
      await waitFor(() => peerReceived().length >= 3, 3000, 'three bytes at the far end');
      sub.unsubscribe();
      expect(Array.from(peerReceived())).toEqual([0x4b, 0x42, 0x45]);
    });

    it('has one reader at a time: a second subscriber gets `busy`', async () => {
      const { transport } = await harness();
      const sub = transport.bytes$.subscribe();
      const e = await errorOf(transport);
      sub.unsubscribe();
      expect(e).toBeInstanceOf(TransportError);
      expect((e as TransportError).problem.kind).toBe('busy');
    });

    it('closes the port when the subscriber unsubscribes, and can be read again', async () => {
      const { transport, peerWrite } = await harness();
      transport.bytes$.subscribe().unsubscribe();
      await transport.close(); // waits for the close started by the teardown
      await expect(transport.write(Uint8Array.of(1))).rejects.toMatchObject({
        problem: { kind: 'not-open' },
      });
      const next = firstValueFrom(transport.bytes$.pipe(take(1), toArray()));
      await transport.open();
      await peerWrite(Uint8Array.of(0x93));
      expect(bytesOf(await next)).toEqual([0x93]);
    });

    it('our own close() ends a reader with `canceled`', async () => {
      const { transport } = await harness();
      const error = errorOf(transport);
      await transport.open();
      await transport.close();
      const e = (await error) as TransportError;
      expect(e.problem.kind).toBe('canceled');
      expect(e.canceled).toBe(true);
    });

    it('a vanished far end ends a reader with `disconnected`', async () => {
      const { transport, pull } = await harness();
      const error = errorOf(transport);
      await transport.open();
      await pull();
      // A reader learns of a vanished device when its next read or write fails (EIO on a PTY);
      // keep writing a byte until it does, as a session's keepalive would, for at most 20 s.
      const flag = { settled: false };
      void error.finally(() => (flag.settled = true));
      for (let i = 0; i < 100 && !flag.settled; i++) {
        await transport.write(Uint8Array.of(0)).catch(() => undefined);
        await new Promise(r => setTimeout(r, 200));
      }
      const e = (await error) as TransportError;
      expect(e.problem.kind).toBe('disconnected');
      expect(e.disconnected).toBe(true);
    });
  });
};
