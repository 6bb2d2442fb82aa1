/**
 * `chessbridge ports`: the report formatting (pure, every outcome kind, HID listed or not), the
 * probe order on injected parts, and for real: a DGT, a Millennium and a Certabo emulator on
 * socat PTYs, an idle line and a missing path, probed by the `chessbridge ports PATH...` command
 * in a child process (main.ts with its real services: serialport, node-hid). Also: probing
 * closes the port, and listing on a machine without udev says why it fell back.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { Result } from '@badrap/result';
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultPortsDeps,
  formatPortsReport,
  probeDgt,
  runPorts,
  type PortsDeps,
  type PortsReport,
} from '../../src/bridge/ports.js';
import type { HidListing } from '../../src/bridge/portsBoards.js';
import { CertaboEmulator } from '../../src/drivers/certabo/emulator.js';
import { certaboBoard } from '../../src/drivers/certabo/emulatorRunner.js';
import { DgtBoardEmulator } from '../../src/drivers/dgt/emulator.js';
import { DgtEmulatorRunner } from '../../src/drivers/dgt/emulatorRunner.js';
import { MillenniumEmulator } from '../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../src/drivers/millennium/emulatorRunner.js';
import type { EmulatedBoard } from '../../src/drivers/emulatedBoard.js';
import { EmulatedBoardOnPty } from '../../src/emulators/emulatorHost.js';
import { type HidBackend, HidUnavailableError } from '../../src/drivers/transport/hidBackend.js';
import { createMemoryLink } from '../../src/drivers/transport/memory.js';
import { SerialTransport } from '../../src/drivers/transport/serial.js';
import { SerialBoardOnPty } from '../../src/emulators/serialBoardHost.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, openPtyPair, waitFor } from '../support/pty.js';
import { childMainArgs } from '../support/childBuild.js';
import { PROJECT_ROOT } from '../support/shared.js';

const NO_HID: HidListing = {
  kind: 'listed',
  backend: 'node-hid (hidapi 0.15.0, hidraw)',
  devices: 0,
  chessnut: [],
};

const fakeHid = (): PortsDeps['hid'] => () =>
  Promise.resolve(
    Result.ok<HidBackend, HidUnavailableError>({
      name: 'fake hid',
      devices: () => Promise.resolve([]),
      open: () => Promise.reject(new Error('not here')),
    }),
  );

describe('formatPortsReport', () => {
  it('names each port with what answered, USB details and hints, counts, HID, and the listing problems', () => {
    const report: PortsReport = {
      listing: {
        ports: [
          {
            path: '/dev/ttyACM0',
            source: 'serialport',
            vendorId: '04d8',
            productId: '000a',
            manufacturer: 'Microchip',
          },
          { path: '/dev/ttyUSB0', source: 'serialport', vendorId: '0403', productId: '6001' },
          {
            path: '/dev/ttyUSB1',
            source: 'serialport',
            vendorId: '10c4',
            productId: 'ea60',
            manufacturer: 'Silicon Labs',
            serialNumber: '0001',
          },
          { path: '/dev/ttyS0', source: 'serialport' },
          { path: '/dev/ttyUSB10', source: 'serialport' },
          { path: '/dev/rfcomm0', source: 'serialport' },
        ],
        problems: [
          'could not list serial ports with udev: spawn udevadm ENOENT; scanned /dev for serial device names instead',
        ],
      },
      probes: [
        { path: '/dev/ttyACM0', kind: 'dgt', serial: '01025', firmware: '3.10' },
        { path: '/dev/ttyUSB0', kind: 'millennium', firmware: '01.03', model: 'Exclusive', by: 'version' },
        { path: '/dev/ttyUSB1', kind: 'certabo', sensing: 'rfid', frames: 4 },
        { path: '/dev/ttyS0', kind: 'error', detail: 'cannot open /dev/ttyS0: Error: Input/output error' },
        { path: '/dev/ttyUSB10', kind: 'silent', waitedMs: 5000 },
        { path: '/dev/rfcomm0', kind: 'other', bytes: 12 },
      ],
      hid: NO_HID,
    };
    expect(formatPortsReport(report)).toEqual([
      '6 serial ports found, probed for DGT, Millennium and Certabo boards:',
      '  /dev/ttyACM0   DGT board, serial number 01025, firmware 3.10 (USB 04d8:000a, Microchip)',
      '  /dev/ttyUSB0   Millennium ChessLink board, model Exclusive, firmware 01.03 (USB 0403:6001, FTDI FT232R, maybe a ChessLink module)',
      '  /dev/ttyUSB1   Certabo RFID board (Certabo, Cerno), 4 frames of 320 numbers (USB 10c4:ea60, Silicon Labs, serial 0001, CP210x, the chip Certabo boards use)',
      '  /dev/ttyS0     cannot probe: cannot open /dev/ttyS0: Error: Input/output error',
      '  /dev/ttyUSB10  no answer within 5000 ms',
      '  /dev/rfcomm0   sent 12 bytes, but not as a DGT, Millennium or Certabo board',
      '1 DGT board, 1 Millennium board, 1 Certabo board found',
      'HID: no Chessnut board among 0 HID devices (node-hid (hidapi 0.15.0, hidraw))',
      'note: could not list serial ports with udev: spawn udevadm ENOENT; scanned /dev for serial device names instead',
    ]);
  });

  it('says when there is nothing, lists without probing when asked, and says why HID is unavailable', () => {
    expect(formatPortsReport({ listing: { ports: [], problems: [] }, probes: [], hid: NO_HID })).toEqual([
      'no serial ports found',
      'HID: no Chessnut board among 0 HID devices (node-hid (hidapi 0.15.0, hidraw))',
    ]);
    const error = new HidUnavailableError(
      { kind: 'load-failed', detail: 'libusb-1.0.so.0: cannot open' },
      'linux',
    );
    expect(
      formatPortsReport({
        listing: { ports: [{ path: '/dev/ttyACM0', source: 'given' }], problems: [] },
        probes: [],
        hid: { kind: 'unavailable', reason: error.message, fix: error.fix },
      }),
    ).toEqual([
      '1 serial port given:',
      '  /dev/ttyACM0',
      'HID: cannot load node-hid: libusb-1.0.so.0: cannot open',
      `  fix: ${error.fix}`,
    ]);
    expect(error.fix).toMatch(/^node-hid needs libusb-1\.0 or the hidraw backend on Linux/);
  });

  it('a DGT board that gave only its version still counts, saying what is missing', () => {
    const lines = formatPortsReport({
      listing: { ports: [{ path: '/dev/x', source: 'given' }], problems: [] },
      probes: [{ path: '/dev/x', kind: 'dgt', serial: undefined, firmware: '1.80' }],
      hid: NO_HID,
    });
    expect(lines[1]).toBe('  /dev/x  DGT board, serial number not reported, firmware 1.80');
    expect(lines[2]).toBe('1 DGT board, 0 Millennium boards, 0 Certabo boards found');
  });
});

describe('probing', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
    await closeAllPtyPairs();
  });

  it('runPorts with injected parts: listen first, then the DGT requests, then the Millennium request', async () => {
    const link = createMemoryLink({ names: ['memory:board', 'memory:emulator'] });
    const emulator = new DgtBoardEmulator({ serial: '00042' });
    const runner = new DgtEmulatorRunner({ transport: link.device, emulator });
    runner.start();
    stops.push(() => runner.stop());
    const silent = createMemoryLink({ names: ['memory:silent', 'memory:nobody'] });
    const links: string[] = [];
    const report = await runPorts(
      { paths: [], timeoutMs: 400, openDelayMs: 20, listenMs: 200 },
      {
        list: () =>
          Promise.resolve({
            ports: [
              { path: 'memory:board', source: 'dev-scan' },
              { path: 'memory:silent', source: 'dev-scan' },
            ],
            problems: ['no udev'],
          }),
        transport: (path, kind) => {
          links.push(`${path} ${kind}`);
          return path === 'memory:board' ? link.host : silent.host;
        },
        hid: fakeHid(),
      },
    );
    expect(report.probes).toEqual([
      { path: 'memory:board', kind: 'dgt', serial: '00042', firmware: '3.10' },
      // Listening (200) + the DGT requests (400) + the Millennium version request (400).
      { path: 'memory:silent', kind: 'silent', waitedMs: 1000 },
    ]);
    const opened = (path: string) => links.filter(l => l.startsWith(`${path} `)).map(l => l.split(' ')[1]);
    expect(opened('memory:board')).toEqual(['millennium-certabo', 'dgt']);
    expect(opened('memory:silent')).toEqual(['millennium-certabo', 'dgt', 'millennium-certabo']);
    // On the silent line: DGT version and serial, the version again halfway, then V56 (§1.4).
    expect(silent.host.writes.flatMap(w => [...w.bytes])).toEqual([0x4d, 0x45, 0x4d, 0xd6, 0xb5, 0xb6]);
    expect(report.listing.problems).toEqual(['no udev']);
    expect(report.hid).toEqual({ kind: 'listed', backend: 'fake hid', devices: 0, chessnut: [] });
    // The DGT board heard only identification requests (the Millennium V56 is no DGT command).
    expect([...new Set(emulator.received.map(c => c.kind))].sort()).toEqual(['serial', 'version']);
  });

  it('a Certabo board is never written to, even by the DGT probe; something else gets the DGT requests', async () => {
    const serve = async (board: EmulatedBoard): Promise<SerialBoardOnPty> => {
      const dir = makeLinkDir();
      const b = new SerialBoardOnPty({ hostPath: join(dir, 'board'), devicePath: join(dir, 'emu'), board });
      await b.start();
      adoptPtyPair(b.pair, dir);
      stops.push(() => b.stop());
      return b;
    };
    const certabo = await serve(certaboBoard(new CertaboEmulator(), { frameMs: 100 }));
    const chatter = await serve({
      receive: () => [],
      apply: () => [],
      tick: () => [Uint8Array.from('OK\r\n', c => c.charCodeAt(0))],
      powerCycle: () => undefined,
    });
    // The probe waits 1.5 s for answers before it closes the port: what it wrote must cross the PTY
    // (socat on the other side) before then, which on a busy machine took more than 0.4 s.
    const report = await runPorts(
      { paths: [certabo.hostPath, chatter.hostPath], timeoutMs: 1500, listenMs: 500 },
      { ...defaultPortsDeps(), hid: fakeHid() },
    );
    expect(report.probes[0]).toMatchObject({ kind: 'certabo', sensing: 'rfid' });
    expect(certabo.runner.stats.bytesIn).toBe(0);
    expect(report.probes[1]).toMatchObject({ kind: 'other' });
    // Listened to (nothing written), then the DGT version and serial requests (one more halfway).
    // The emulator reads them on its own side of the PTY: on a busy machine a moment after the
    // probe has returned.
    await waitFor(() => chatter.runner.stats.bytesIn >= 2, 2000, 'the DGT requests at the chatty port');
  });

  it('probing closes the port afterwards, so the daemon can open it', async () => {
    const idle = await openPtyPair();
    const t = new SerialTransport({ path: idle.hostPath });
    await probeDgt(t, { timeoutMs: 200, openDelayMs: 10 });
    expect(t.isOpen).toBe(false);
    const again = new SerialTransport({ path: idle.hostPath });
    await expect(again.open()).resolves.toBeUndefined();
    await again.close();
  });

  it('lists this machine’s ports without crashing when udev is missing, and says why', async () => {
    const report = await runPorts(
      { paths: [], probe: false },
      defaultPortsDeps({ platform: 'linux', hasExecutable: () => false }),
    );
    expect(report.probes).toEqual([]);
    expect(report.listing.problems[0]).toMatch(/udevadm is not on PATH/);
    expect(formatPortsReport(report).at(-1)).toMatch(/^note: could not list serial ports with udev/);
    // The real node-hid loads and lists here.
    expect(
      formatPortsReport(report).some(l =>
        /^HID: no Chessnut board among \d+ HID devices? \(node-hid/.test(l),
      ),
    ).toBe(true);
  });
});

/** `chessbridge ports ARGS` from the sources in a child process: main.ts with its real services. */
const runChessbridge = (
  args: readonly string[],
): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childMainArgs, ...args], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', exitCode => resolve({ code: exitCode, out, err }));
  });

describe('chessbridge ports PATH... (the CLI with its real services)', () => {
  const boards: { stop: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const b of boards.splice(0)) await b.stop();
    await closeAllPtyPairs();
  });

  it('identifies a Millennium, a Certabo and a DGT emulator on PTYs; an idle line is silent, a missing path an error', async () => {
    const dir = makeLinkDir();
    const millennium = new SerialBoardOnPty({
      hostPath: join(dir, 'millennium'),
      devicePath: join(dir, 'millennium-emu'),
      // Report on change: quiet until asked, so it is found by its answer to V56.
      board: millenniumBoard(new MillenniumEmulator({ registers: { 2: 3 } })),
    });
    const certabo = new SerialBoardOnPty({
      hostPath: join(dir, 'certabo'),
      devicePath: join(dir, 'certabo-emu'),
      board: certaboBoard(new CertaboEmulator(), { frameMs: 300 }),
    });
    const dgtCore = new DgtBoardEmulator({ serial: '01025', version: { major: 1, minor: 80 } });
    const dgt = new EmulatedBoardOnPty({
      hostPath: join(dir, 'dgt'),
      devicePath: join(dir, 'dgt-emu'),
      emulator: dgtCore,
    });
    for (const b of [millennium, certabo, dgt]) {
      await b.start();
      adoptPtyPair(b.pair, dirname(b.hostPath));
      boards.push(b);
    }
    const idle = await openPtyPair();
    const missing = join(dir, 'missing');

    const r = await runChessbridge([
      'ports',
      millennium.hostPath,
      certabo.hostPath,
      dgt.hostPath,
      idle.hostPath,
      missing,
      '--timeout',
      '1500',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    const w = Math.max(
      ...[millennium, certabo, dgt].map(b => b.hostPath.length),
      idle.hostPath.length,
      missing.length,
    );
    const row = (path: string, what: string) => `  ${path.padEnd(w)}  ${what}`;
    expect(lines.slice(0, 5)).toEqual([
      '5 serial ports given, probed for DGT, Millennium and Certabo boards:',
      row(millennium.hostPath, 'Millennium ChessLink board, model Exclusive, firmware 01.03'),
      expect.stringMatching(
        new RegExp(
          `^ {2}${certabo.hostPath} +Certabo RFID board \\(Certabo, Cerno\\), \\d+ frames? of 320 numbers$`,
        ),
      ) as string,
      row(dgt.hostPath, 'DGT board, serial number 01025, firmware 1.80'),
      // Listening 2000 ms, the DGT requests 1500 ms, the Millennium request 1500 ms.
      row(idle.hostPath, 'no answer within 5000 ms'),
    ]);
    expect(lines[5]).toMatch(new RegExp(`^ {2}${missing} +cannot probe: cannot open ${missing}`));
    expect(lines[6]).toBe('1 DGT board, 1 Millennium board, 1 Certabo board found');
    // The real node-hid loaded and listed (no Chessnut board on this machine).
    expect(lines[7]).toMatch(/^HID: no Chessnut board among \d+ HID devices? \(node-hid \(hidapi [\d.]+/);
    expect(certabo.runner.stats.bytesIn).toBe(0);
    expect([...new Set(dgtCore.received.map(c => c.kind))].sort()).toEqual(['serial', 'version']);
  });
});
