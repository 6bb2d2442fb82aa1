/**
 * SerialTransport with the Millennium link settings on real pseudo-terminals: the shared
 * transport contract with both ends opened 7O1 at 38400 baud, and what a PTY does with 7O1 (it
 * takes the settings but passes every byte through, bit 7 included), which is why the Millennium
 * decoder reads parity 'auto'.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { millenniumSerialOptions } from '../../../src/drivers/millennium/session.js';
import { SerialTransport } from '../../../src/drivers/transport/serial.js';
import { closeAllPtyPairs, openPtyPair, waitFor } from '../../support/pty.js';
import { describeTransportContract } from './contract.js';

const SEVEN_O_ONE = millenniumSerialOptions('7O1');

describeTransportContract('serial 7O1 on a socat PTY pair', async () => {
  const pair = await openPtyPair();
  const clockReadings: number[] = [];
  let t = 0;
  const transport = new SerialTransport({
    path: pair.hostPath,
    ...SEVEN_O_ONE,
    now: () => {
      clockReadings.push(++t);
      return t;
    },
  });
  const peer = new SerialTransport({ path: pair.devicePath, ...SEVEN_O_ONE });
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

describe('7O1 on a PTY', () => {
  afterEach(closeAllPtyPairs);

  it('accepts the settings and carries bit 7 unchanged: "V56" with parity bits arrives as D6 B5 B6', async () => {
    const pair = await openPtyPair();
    const a = new SerialTransport({ path: pair.hostPath, ...SEVEN_O_ONE });
    const b = new SerialTransport({ path: pair.devicePath, ...SEVEN_O_ONE });
    const got: number[] = [];
    const sub = b.bytes$.subscribe({ next: c => got.push(...c.bytes), error: () => undefined });
    await b.open();
    await a.open();
    expect(SEVEN_O_ONE).toEqual({ baudRate: 38400, dataBits: 7, parity: 'odd', stopBits: 1 });
    await a.write(Uint8Array.of(0xd6, 0xb5, 0xb6, 0x56, 0x35, 0x36));
    await waitFor(() => got.length >= 6, 3000, 'six bytes');
    expect(got).toEqual([0xd6, 0xb5, 0xb6, 0x56, 0x35, 0x36]);
    sub.unsubscribe();
    await Promise.all([a.close(), b.close()]);
  });
});
