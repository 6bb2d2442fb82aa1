/**
 * The serial binding's hang-up reading, on real PTY pairs: once the other side is gone, Linux
 * answers a read with end of file, which the platform binding reads again forever; ours reports
 * it, so the transport sees the cable pulled however the hang-up lands.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serialBinding } from '../../../src/drivers/transport/hangup.js';
import { closeAllPtyPairs, openPtyPair } from '../../support/pty.js';

const openHost = (path: string) => serialBinding().open({ path, baudRate: 9600 });

/** How long a read may stay pending before the test calls it stuck (only a failing run waits this long). */
const STUCK_MS = 20_000;

/** Settles a read: its bytes, its error, or `stuck` if it is still pending after STUCK_MS. */
const settle = async (read: Promise<{ bytesRead: number; buffer: Buffer }>): Promise<string> => {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<string>(resolve => (timer = setTimeout(() => resolve('stuck'), STUCK_MS)));
  const done = read.then(
    r => `read ${r.buffer.subarray(0, r.bytesRead).toString('hex')}`,
    (e: unknown) => `error: ${e instanceof Error ? e.message : String(e)}`,
  );
  const outcome = await Promise.race([done, stuck]);
  clearTimeout(timer);
  return outcome;
};

describe.runIf(process.platform === 'linux')('serial binding on Linux', () => {
  afterEach(closeAllPtyPairs);

  it('a read after the other side hung up fails naming the hang-up instead of waiting forever', async () => {
    const pair = await openPtyPair();
    const port = await openHost(pair.hostPath);
    await pair.stop(); // socat has exited: the terminal is hung up before anything reads
    const outcome = await settle(port.read(Buffer.alloc(16), 0, 16));
    expect(outcome).toBe('error: the line was hung up (a read returned end of file)');
    await port.close();
  });

  it('bytes sent before the hang-up are read first, then the hang-up', async () => {
    const pair = await openPtyPair();
    const port = await openHost(pair.hostPath);
    const device = await openHost(pair.devicePath);
    await device.write(Buffer.from([0x93, 0x00, 0x05]));
    await device.drain();
    let first = '';
    while (first.length < 'read 930005'.length && !first.startsWith('error')) {
      const more = await settle(port.read(Buffer.alloc(16), 0, 16));
      first = first === '' ? more : first + more.slice('read '.length);
    }
    await device.close();
    await pair.stop();
    expect(first).toBe('read 930005');
    expect(await settle(port.read(Buffer.alloc(16), 0, 16))).toMatch(/hung up/);
    await port.close();
  });

  it('a read waiting for data is canceled by our own close, not reported as a hang-up', async () => {
    const pair = await openPtyPair();
    const port = await openHost(pair.hostPath);
    const pending = port.read(Buffer.alloc(16), 0, 16).catch((e: unknown) => e);
    await port.close();
    expect(await pending).toMatchObject({ canceled: true });
  });
});
