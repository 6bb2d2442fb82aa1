/**
 * The HID side: the real node-hid on this machine (it loads, lists, and opening a device that is
 * not there is a typed `open-failed`), typed errors with the fix when node-hid cannot load or
 * list, the report-id and padding quirks, and the shared transport contract for HidTransport (on
 * a stand-in backend) and for the in-process HID device.
 */
import { EventEmitter } from 'node:events';
import { readdirSync } from 'node:fs';
import { Result } from '@badrap/result';
import { describe, expect, it } from 'vitest';
import { HidTransport } from '../../../src/drivers/transport/hid.js';
import {
  describeOpenFailure,
  type HidBackend,
  type HidDeviceInfo,
  type HidHandle,
  HidUnavailableError,
  listHidDevices,
  loadHidBackend,
} from '../../../src/drivers/transport/hidBackend.js';
import { createInProcessHid } from '../../../src/drivers/transport/hidMemory.js';
import { TransportError } from '../../../src/drivers/transport/transport.js';
import { waitFor } from '../../support/pty.js';
import { describeTransportContract } from './contract.js';

const CHESSNUT: HidDeviceInfo = {
  path: '/dev/hidraw-fake',
  vendorId: 0x2d80,
  productId: 0x8001,
  release: 0x100,
  interface: 0,
  usagePage: 0xff00,
};

class FakeHandle extends EventEmitter implements HidHandle {
  readonly written: number[][] = [];
  closed = false;

  write(values: number[]): Promise<number> {
    if (this.closed) return Promise.reject(new Error('device closed'));
    this.written.push(values);
    return Promise.resolve(values.length);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** A backend with one device; every open gives a fresh handle. */
const fakeBackend = (failOpen?: string) => {
  const handles: FakeHandle[] = [];
  const backend: HidBackend = {
    name: 'fake',
    devices: () => Promise.resolve([CHESSNUT]),
    open: path => {
      if (failOpen !== undefined) return Promise.reject(new Error(failOpen));
      if (path !== CHESSNUT.path) return Promise.reject(new Error(`cannot open device with path ${path}`));
      const h = new FakeHandle();
      handles.push(h);
      return Promise.resolve(h);
    },
  };
  return { backend, handles };
};

describeTransportContract('HID (HidTransport on a stand-in node-hid backend)', () => {
  const { backend, handles } = fakeBackend();
  const clockReadings: number[] = [];
  let t = 0;
  const transport = new HidTransport({
    path: CHESSNUT.path!,
    info: CHESSNUT,
    backend,
    now: () => {
      clockReadings.push(++t);
      return t;
    },
  });
  const last = () => handles.at(-1);
  return Promise.resolve({
    transport,
    clockReadings,
    peerWrite: async bytes => {
      await waitFor(() => last() !== undefined && !last()!.closed, 2000, 'an open handle');
      last()!.emit('data', Buffer.from(bytes));
    },
    peerReceived: () => Uint8Array.from(handles.flatMap(h => h.written.flat())),
    pull: () => {
      last()?.emit('error', new Error('could not read from HID device'));
      return Promise.resolve();
    },
    dispose: () => transport.close(),
  });
});

describeTransportContract('HID (the in-process device)', () => {
  const clockReadings: number[] = [];
  let t = 0;
  const hid = createInProcessHid({
    now: () => {
      clockReadings.push(++t);
      return t;
    },
    info: { vendorId: 0x2d80, productId: 0x8001 },
  });
  const received: number[] = [];
  const sub = hid.device.bytes$.subscribe({ next: c => received.push(...c.bytes), error: () => undefined });
  return Promise.resolve({
    transport: hid.host,
    clockReadings,
    peerWrite: bytes => hid.device.write(bytes),
    peerReceived: () => Uint8Array.from(received),
    pull: () => {
      hid.unplug();
      return Promise.resolve();
    },
    dispose: async () => {
      sub.unsubscribe();
      await hid.host.close();
    },
  });
});

describe('node-hid on this machine', () => {
  it('loads, names its backend, and lists the HID devices (none here)', async () => {
    const backend = await loadHidBackend();
    expect(backend.isOk).toBe(true);
    expect(backend.unwrap().name).toMatch(/^node-hid \(hidapi \d+\.\d+/);
    const devices = await listHidDevices();
    expect(devices.isOk).toBe(true);
    const hidraw = (() => {
      try {
        return readdirSync('/dev').filter(n => n.startsWith('hidraw'));
      } catch {
        return [];
      }
    })();
    if (hidraw.length === 0) expect(devices.unwrap()).toEqual([]);
    for (const d of devices.unwrap()) expect(typeof d.vendorId).toBe('number');
  });

  it('opening a device that is not there is `open-failed` naming the path', async () => {
    const path = '/dev/hidraw-not-here';
    const t = new HidTransport({ path });
    const e = await t.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).problem).toMatchObject({ kind: 'open-failed', path });
    expect((e as TransportError).message).toMatch(/hidraw-not-here/);
    const viaBytes = await new Promise(resolve => t.bytes$.subscribe({ error: resolve }));
    expect((viaBytes as TransportError).problem.kind).toBe('open-failed');
  });
});

describe('node-hid that cannot load or list', () => {
  it('an import failure is a typed load-failed error with the fix (libusb-1.0 or hidraw, udev rule)', async () => {
    const r = await loadHidBackend({
      platform: 'linux',
      importer: () => Promise.reject(new Error('libusb-1.0.so.0: cannot open shared object file')),
    });
    expect(r.isErr).toBe(true);
    const e = r.isErr ? r.error : undefined;
    expect(e).toBeInstanceOf(HidUnavailableError);
    expect(e?.problem).toEqual({
      kind: 'load-failed',
      detail: 'libusb-1.0.so.0: cannot open shared object file',
    });
    expect(e?.message).toBe('cannot load node-hid: libusb-1.0.so.0: cannot open shared object file');
    expect(e?.fix).toMatch(/libusb-1\.0 or the hidraw backend on Linux/);
    expect(e?.fix).toMatch(/SUBSYSTEM=="hidraw", ATTRS\{idVendor\}=="2d80"/);
    expect(e?.fix).toMatch(/npm rebuild node-hid/);
  });

  it('a native part that fails on first use is load-failed too; a module that is not node-hid as well', async () => {
    const broken = {
      devicesAsync: () => Promise.resolve([]),
      getHidapiVersion: () => {
        throw new Error('No native build was found for platform=linux arch=riscv64');
      },
      setDriverType: () => undefined,
      HIDAsync: { open: () => Promise.reject(new Error('x')) },
    };
    const r = await loadHidBackend({ importer: () => Promise.resolve(broken) });
    expect(r.isErr && r.error.problem).toEqual({
      kind: 'load-failed',
      detail: 'No native build was found for platform=linux arch=riscv64',
    });
    const other = await loadHidBackend({ importer: () => Promise.resolve({ something: 1 }) });
    expect(other.isErr && other.error.problem.kind).toBe('load-failed');
  });

  it('a listing that fails is list-failed, with the fix', async () => {
    const backend: HidBackend = {
      name: 'fake',
      devices: () => Promise.reject(new Error('hid_enumerate: permission denied')),
      open: () => Promise.reject(new Error('x')),
    };
    const r = await listHidDevices(() => Promise.resolve(Result.ok(backend)), 'linux');
    expect(r.isErr && r.error.problem).toEqual({
      kind: 'list-failed',
      detail: 'hid_enumerate: permission denied',
    });
    expect(r.isErr && r.error.fix).toMatch(/udev/);
    const failedLoad = await listHidDevices(() =>
      Promise.resolve(Result.err(new HidUnavailableError({ kind: 'load-failed', detail: 'gone' }))),
    );
    expect(failedLoad.isErr && failedLoad.error.message).toBe('cannot load node-hid: gone');
  });

  it('HidTransport turns an unloadable node-hid into open-failed with the reason and the fix', async () => {
    const t = new HidTransport({
      path: '/dev/hidraw0',
      backend: () =>
        Promise.resolve(
          Result.err(new HidUnavailableError({ kind: 'load-failed', detail: 'no binary' }, 'linux')),
        ),
    });
    const e = (await t.open().catch((x: unknown) => x)) as TransportError;
    expect(e.problem).toMatchObject({ kind: 'open-failed', path: '/dev/hidraw0' });
    expect(e.message).toMatch(
      /cannot load node-hid: no binary\. node-hid needs libusb-1\.0 or the hidraw backend/,
    );
  });

  it('a permission failure gets the udev hint', async () => {
    const { backend } = fakeBackend("Failed to open a device with path '/dev/hidraw3': Permission denied");
    const t = new HidTransport({ path: '/dev/hidraw3', backend, platform: 'linux' });
    const e = (await t.open().catch((x: unknown) => x)) as TransportError;
    expect(e.message).toMatch(/Permission denied \(no permission: add a udev rule .*2d80/);
    expect(describeOpenFailure('No such file or directory', 'linux')).toBe('No such file or directory');
  });
});

describe('HidTransport report quirks', () => {
  it('writes the message unchanged by default (the first byte is the report id: Chessnut)', async () => {
    const { backend, handles } = fakeBackend();
    const t = new HidTransport({ path: CHESSNUT.path!, backend });
    await t.open();
    await t.write(Uint8Array.of(0x21, 0x01, 0x00));
    expect(handles[0]!.written).toEqual([[0x21, 0x01, 0x00]]);
    await t.close();
  });

  it('prepends a report id for devices without numbered reports, and pads to the output report length', async () => {
    const { backend, handles } = fakeBackend();
    const t = new HidTransport({ path: CHESSNUT.path!, backend, reportId: 0, outputReportLength: 8 });
    await t.open();
    await t.write(Uint8Array.of(0x0a, 0x08, 0x01));
    expect(handles[0]!.written).toEqual([[0x00, 0x0a, 0x08, 0x01, 0, 0, 0, 0]]);
    await t.close();
  });

  it('each input report is one chunk, and a failed write on a gone device is `disconnected`', async () => {
    const { backend, handles } = fakeBackend();
    const t = new HidTransport({ path: CHESSNUT.path!, backend });
    const chunks: number[][] = [];
    let error: unknown;
    t.bytes$.subscribe({ next: c => chunks.push(Array.from(c.bytes)), error: (e: unknown) => (error = e) });
    await t.open();
    handles[0]!.emit('data', Buffer.from([0x23, 0x01, 0x00]));
    handles[0]!.emit('data', Buffer.from([0x2a, 0x02, 0x50, 0x00]));
    expect(chunks).toEqual([
      [0x23, 0x01, 0x00],
      [0x2a, 0x02, 0x50, 0x00],
    ]);
    handles[0]!.closed = true; // the device vanished under the handle
    const e = await t.write(Uint8Array.of(0x29, 0x01, 0x00)).catch((x: unknown) => x);
    expect((e as TransportError).problem.kind).toBe('disconnected');
    expect((error as TransportError).problem.kind).toBe('disconnected');
  });
});
