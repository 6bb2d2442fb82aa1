/**
 * `chessbridge ports`: the report formatting (pure), the probe against an emulated DGT board on
 * a real PTY, a silent port, a missing one, and listing on a machine without udev.
 */
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultPortsDeps,
  formatPortsReport,
  probeDgt,
  runPorts,
  type PortsReport,
} from '../../src/bridge/ports.js';
import { DgtBoardEmulator } from '../../src/drivers/dgt/emulator.js';
import { DgtEmulatorRunner } from '../../src/drivers/dgt/emulatorRunner.js';
import { EmulatedBoardOnPty } from '../../src/drivers/transport/emulatorHost.js';
import { createMemoryLink } from '../../src/drivers/transport/memory.js';
import { SerialTransport } from '../../src/drivers/transport/serial.js';
import { adoptPtyPair, closeAllPtyPairs, makeLinkDir, openPtyPair } from '../support/pty.js';

describe('formatPortsReport', () => {
  it('names each port with what answered, USB details, a count, and the listing problems', () => {
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
        { path: '/dev/ttyS0', kind: 'error', detail: 'cannot open /dev/ttyS0: Error: Input/output error' },
        { path: '/dev/ttyUSB10', kind: 'silent', waitedMs: 1500 },
        { path: '/dev/rfcomm0', kind: 'other', bytes: 12 },
      ],
    };
    expect(formatPortsReport(report)).toEqual([
      '4 serial ports found, probed for DGT boards:',
      '  /dev/ttyACM0   DGT board, serial number 01025, firmware 3.10 (USB 04d8:000a, Microchip)',
      '  /dev/ttyS0     cannot probe: cannot open /dev/ttyS0: Error: Input/output error',
      '  /dev/ttyUSB10  no answer within 1500 ms',
      '  /dev/rfcomm0   answered 12 bytes, but not as a DGT board',
      '1 DGT board answered',
      'note: could not list serial ports with udev: spawn udevadm ENOENT; scanned /dev for serial device names instead',
    ]);
  });

  it('says when there is nothing, and lists without probing when asked', () => {
    expect(formatPortsReport({ listing: { ports: [], problems: [] }, probes: [] })).toEqual([
      'no serial ports found',
    ]);
    expect(
      formatPortsReport({
        listing: { ports: [{ path: '/dev/ttyACM0', source: 'given' }], problems: [] },
        probes: [],
      }),
    ).toEqual(['1 serial port given:', '  /dev/ttyACM0']);
  });

  it('a DGT board that gave only its version still counts, saying what is missing', () => {
    const lines = formatPortsReport({
      listing: { ports: [{ path: '/dev/x', source: 'given' }], problems: [] },
      probes: [{ path: '/dev/x', kind: 'dgt', serial: undefined, firmware: '1.80' }],
    });
    expect(lines[1]).toBe('  /dev/x  DGT board, serial number not reported, firmware 1.80');
  });
});

describe('probing', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
    await closeAllPtyPairs();
  });

  it('runPorts with injected parts: the listed ports are probed, the emulated board answers', async () => {
    const link = createMemoryLink({ names: ['memory:board', 'memory:emulator'] });
    const runner = new DgtEmulatorRunner({
      transport: link.device,
      emulator: new DgtBoardEmulator({ serial: '00042' }),
    });
    runner.start();
    stops.push(() => runner.stop());
    const silent = createMemoryLink({ names: ['memory:silent', 'memory:nobody'] });
    const report = await runPorts(
      { paths: [], timeoutMs: 400, openDelayMs: 20 },
      {
        list: () =>
          Promise.resolve({
            ports: [
              { path: 'memory:board', source: 'dev-scan' },
              { path: 'memory:silent', source: 'dev-scan' },
            ],
            problems: ['no udev'],
          }),
        transport: path => (path === 'memory:board' ? link.host : silent.host),
      },
    );
    expect(report.probes).toEqual([
      { path: 'memory:board', kind: 'dgt', serial: '00042', firmware: '3.10' },
      { path: 'memory:silent', kind: 'silent', waitedMs: 400 },
    ]);
    expect(report.listing.problems).toEqual(['no udev']);
  });

  it('over real PTYs: the emulator answers as a DGT board, an idle line is silent, a missing path an error', async () => {
    const dir = makeLinkDir();
    const emulator = new DgtBoardEmulator({ serial: '01025', version: { major: 1, minor: 80 } });
    const board = new EmulatedBoardOnPty({
      hostPath: join(dir, 'dgt'),
      devicePath: join(dir, 'emu'),
      emulator,
    });
    await board.start();
    adoptPtyPair(board.pair, dirname(board.hostPath));
    stops.push(() => board.stop());
    const idle = await openPtyPair();
    const missing = join(dir, 'missing');

    const started = Date.now();
    const report = await runPorts(
      { paths: [board.hostPath, idle.hostPath, missing], timeoutMs: 800 },
      defaultPortsDeps(),
    );
    expect(Date.now() - started).toBeLessThan(3000); // probed in parallel, each bounded
    expect(report.probes).toEqual([
      { path: board.hostPath, kind: 'dgt', serial: '01025', firmware: '1.80' },
      { path: idle.hostPath, kind: 'silent', waitedMs: 800 },
      { path: missing, kind: 'error', detail: expect.stringContaining(`cannot open ${missing}`) as string },
    ]);
    // The probe sent only identification requests (no mode change, nothing written to EEPROM).
    const kinds = new Set(emulator.received.map(c => c.kind));
    expect([...kinds].sort()).toEqual(['serial', 'version']);
    const lines = formatPortsReport(report);
    expect(lines[0]).toBe('3 serial ports given, probed for DGT boards:');
    expect(lines.at(-1)).toBe('1 DGT board answered');
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
  });
});
