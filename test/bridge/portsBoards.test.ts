/**
 * Probing for Millennium and Certabo boards on real pseudo-terminals with the emulators behind
 * them (a streaming Millennium, a quiet one that answers `V`, Certabo RFID and occupancy boards
 * that must never be written to, a silent port, a port sending something else, a missing path),
 * Chessnut picked out of HID listings (and the message with the fix when HID cannot be listed),
 * the real node-hid here, and the pure formatting. The whole `ports` command (these probes, then
 * the DGT probe, one report) is tested in ports.test.ts.
 */
import { dirname } from 'node:path';
import { Result } from '@badrap/result';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BoardProbeOutcome,
  describeBoardProbe,
  formatHidListing,
  listHid,
  pickChessnut,
  probeBoardPort,
} from '../../src/bridge/portsBoards.js';
import { CertaboEmulator } from '../../src/drivers/certabo/emulator.js';
import { certaboBoard } from '../../src/drivers/certabo/emulatorRunner.js';
import { MillenniumEmulator } from '../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../src/drivers/millennium/emulatorRunner.js';
import type { EmulatedBoard } from '../../src/drivers/emulatedBoard.js';
import {
  type HidBackend,
  type HidDeviceInfo,
  HidUnavailableError,
  loadHidBackend,
} from '../../src/drivers/transport/hidBackend.js';
import { SerialTransport } from '../../src/drivers/transport/serial.js';
import { SerialBoardOnPty } from '../../src/emulators/serialBoardHost.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, openPtyPair } from '../support/pty.js';

const FAST = { listenMs: 500, versionTimeoutMs: 800 };
const boards: SerialBoardOnPty[] = [];

const serve = async (board: EmulatedBoard): Promise<SerialBoardOnPty> => {
  const dir = makeLinkDir();
  const b = new SerialBoardOnPty({ hostPath: `${dir}/board`, devicePath: `${dir}/emulator`, board });
  await b.start();
  adoptPtyPair(b.pair, dirname(b.hostPath));
  boards.push(b);
  return b;
};

const port = (path: string) => new SerialTransport({ path, baudRate: 38400 });

afterEach(async () => {
  for (const b of boards.splice(0)) await b.stop();
  await closeAllPtyPairs();
});

const info = (o: Partial<HidDeviceInfo> & Pick<HidDeviceInfo, 'vendorId' | 'productId'>): HidDeviceInfo => ({
  path: `/dev/hidraw${o.productId & 0xff}`,
  release: 0x100,
  interface: 0,
  ...o,
});

const backendWith =
  (devices: HidDeviceInfo[]): (() => Promise<Result<HidBackend, HidUnavailableError>>) =>
  () =>
    Promise.resolve(
      Result.ok({
        name: 'node-hid (hidapi 0.15.0, hidraw)',
        devices: () => Promise.resolve(devices),
        open: () => Promise.reject(new Error('not here')),
      }),
    );

describe('probeBoardPort on PTYs', () => {
  it('a Millennium board streaming reports (factory mode) is recognised while listening, then asked for its version', async () => {
    const b = await serve(millenniumBoard(new MillenniumEmulator()));
    const r = await probeBoardPort(port(b.hostPath), FAST);
    expect(r).toEqual({
      path: b.hostPath,
      kind: 'millennium',
      firmware: '01.03',
      model: 'Exclusive',
      by: 'reports',
    });
  });

  it('a quiet Millennium board (report on change) answers the version request after the silence', async () => {
    const core = new MillenniumEmulator({ registers: { 2: 3 }, version: { major: 2, minor: 1 } });
    const b = await serve(millenniumBoard(core));
    const r = await probeBoardPort(port(b.hostPath), FAST);
    expect(r).toEqual({
      path: b.hostPath,
      kind: 'millennium',
      firmware: '02.01',
      model: 'eONE',
      by: 'version',
    });
    // §1.4: the request is V56 = D6 B5 B6 with parity.
    expect(b.runner.stats.bytesIn).toBe(3);
  });

  it('a Certabo RFID board is recognised by its frames and never written to', async () => {
    const b = await serve(certaboBoard(new CertaboEmulator(), { frameMs: 100 }));
    const r = await probeBoardPort(port(b.hostPath), FAST);
    expect(r).toMatchObject({ path: b.hostPath, kind: 'certabo', sensing: 'rfid' });
    expect(r.kind === 'certabo' && r.frames).toBeGreaterThanOrEqual(1);
    expect(b.runner.stats.bytesIn).toBe(0);
  });

  it('a Sentio (occupancy) board too', async () => {
    const b = await serve(certaboBoard(new CertaboEmulator({ sensing: 'occupancy' }), { frameMs: 100 }));
    expect(await probeBoardPort(port(b.hostPath), FAST)).toMatchObject({
      kind: 'certabo',
      sensing: 'occupancy',
    });
    expect(b.runner.stats.bytesIn).toBe(0);
  });

  it('a silent port: no frames, no answer', async () => {
    const pair = await openPtyPair();
    expect(await probeBoardPort(port(pair.hostPath), FAST)).toEqual({
      path: pair.hostPath,
      kind: 'silent',
      waitedMs: 1300,
    });
  });

  it('a port sending something else is `other` and is not written to', async () => {
    const chatter: EmulatedBoard = {
      receive: () => [],
      apply: () => [],
      tick: () => [Uint8Array.from('OK\r\n', c => c.charCodeAt(0))],
      powerCycle: () => undefined,
    };
    const b = await serve(chatter);
    const r = await probeBoardPort(port(b.hostPath), FAST);
    expect(r.kind).toBe('other');
    expect(b.runner.stats.bytesIn).toBe(0);
  });

  it('a path that does not exist is an error outcome, not an exception', async () => {
    const path = `${makeLinkDir()}/nothing`;
    const r = await probeBoardPort(port(path), FAST);
    expect(r).toMatchObject({ path, kind: 'error' });
    expect(r.kind === 'error' && r.detail).toMatch(/cannot open/);
  });
});

describe('Chessnut among HID devices (§3.1, §3.7, errata 8–9)', () => {
  const air = info({ vendorId: 0x2d80, productId: 0x8001, usagePage: 0xff00, serialNumber: 'CN123' });
  const airKeyboard = info({ vendorId: 0x2d80, productId: 0x8001, usagePage: 0x0001, interface: 1 });
  const go = info({ vendorId: 0x2d80, productId: 0x8502 });
  const mouse = info({ vendorId: 0x046d, productId: 0xc077, usagePage: 0x0001 });
  const unnamed = info({ vendorId: 0x2d80, productId: 0x8410, usagePage: 0xff00 });
  const foreign = info({ vendorId: 0x2d80, productId: 0x9001, usagePage: 0xff00 });

  it('keeps the vendor interface of known product ids; an unknown usage page is kept as unknown', () => {
    expect(pickChessnut([air, airKeyboard, go, mouse, unnamed, foreign])).toEqual([
      { info: air, model: 'Air', vendorInterface: true },
      { info: go, model: 'Go', vendorInterface: undefined },
      { info: unnamed, model: undefined, vendorInterface: true },
    ]);
  });

  it('listHid reports the backend and the count, or why HID cannot be listed and the fix', async () => {
    expect(await listHid(backendWith([air, mouse]))).toMatchObject({
      kind: 'listed',
      backend: 'node-hid (hidapi 0.15.0, hidraw)',
      devices: 2,
      chessnut: [{ model: 'Air' }],
    });
    const unavailable = await listHid(() =>
      Promise.resolve(
        Result.err(new HidUnavailableError({ kind: 'load-failed', detail: 'no binary' }, 'linux')),
      ),
    );
    expect(unavailable).toMatchObject({ kind: 'unavailable', reason: 'cannot load node-hid: no binary' });
    expect(unavailable.kind === 'unavailable' && unavailable.fix).toMatch(
      /libusb-1\.0 or the hidraw backend/,
    );
    const listFails = await listHid(() =>
      Promise.resolve(
        Result.ok({
          name: 'x',
          devices: () => Promise.reject(new Error('EACCES')),
          open: () => Promise.reject(new Error('x')),
        }),
      ),
    );
    expect(listFails).toMatchObject({ kind: 'unavailable', reason: 'cannot list HID devices: EACCES' });
  });

  it('the real node-hid here lists without an error (no HID devices on this machine)', async () => {
    const r = await listHid(() => loadHidBackend());
    expect(r.kind).toBe('listed');
    expect(r.kind === 'listed' && r.backend).toMatch(/^node-hid/);
  });

  it('formats each Chessnut board with model, ids, usage page and serial', () => {
    const lines = formatHidListing({
      kind: 'listed',
      backend: 'node-hid (hidapi 0.15.0, hidraw)',
      devices: 3,
      chessnut: pickChessnut([air, go]),
    });
    expect(lines).toEqual([
      'HID: 2 Chessnut boards (node-hid (hidapi 0.15.0, hidraw)):',
      '  /dev/hidraw1  Chessnut Air (USB 2d80:8001, usage page ff00, serial CN123)',
      '  /dev/hidraw2  Chessnut Go (USB 2d80:8502, usage page unknown, interface 0)',
    ]);
    expect(formatHidListing({ kind: 'listed', backend: 'fake', devices: 1, chessnut: [] })).toEqual([
      'HID: no Chessnut board among 1 HID device (fake)',
    ]);
  });

  it('when HID cannot be listed, says why and how to fix it', async () => {
    const hid = await listHid(() =>
      Promise.resolve(
        Result.err(new HidUnavailableError({ kind: 'list-failed', detail: 'EACCES' }, 'linux')),
      ),
    );
    const lines = formatHidListing(hid);
    expect(lines[0]).toBe('HID: cannot list HID devices: EACCES');
    expect(lines[1]).toMatch(/^ {2}fix: node-hid needs libusb-1\.0 or the hidraw backend on Linux/);
    expect(lines).toHaveLength(2);
  });
});

describe('describeBoardProbe', () => {
  it('describes every outcome kind', () => {
    const outcomes: BoardProbeOutcome[] = [
      { path: '/a', kind: 'millennium', firmware: undefined, model: undefined, by: 'reports' },
      { path: '/b', kind: 'millennium', firmware: '01.03', model: 'Exclusive', by: 'version' },
      { path: '/c', kind: 'certabo', sensing: 'occupancy', frames: 1 },
      { path: '/d', kind: 'certabo', sensing: 'rfid', frames: 4 },
      { path: '/e', kind: 'silent', waitedMs: 3500 },
      { path: '/f', kind: 'other', bytes: 12 },
      { path: '/g', kind: 'error', detail: 'cannot open /g: busy' },
    ];
    expect(outcomes.map(describeBoardProbe)).toEqual([
      'Millennium ChessLink board, model not reported, no answer to the version request',
      'Millennium ChessLink board, model Exclusive, firmware 01.03',
      'Certabo occupancy board (Sentio, Tactum), 1 frame of 8 numbers',
      'Certabo RFID board (Certabo, Cerno), 4 frames of 320 numbers',
      'no frames and no answer to the version request within 3500 ms',
      'sent 12 bytes, but no Millennium or Certabo frame',
      'cannot probe: cannot open /g: busy',
    ]);
  });
});
