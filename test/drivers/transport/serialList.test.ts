/**
 * Listing serial ports: serialport's list when udev works, a /dev scan with a clear note when
 * udevadm is missing or fails (this machine has no udev), never an exception.
 */
import { describe, expect, it } from 'vitest';
import { listSerialPorts, SERIAL_DEVICE_NAME } from '../../../src/drivers/transport/serialList.js';

const DEV = ['null', 'ttyACM10', 'ttyACM2', 'ttyS0', 'tty1', 'rfcomm0', 'ptmx', 'ttyUSB0', 'ttyprintk'];

describe('listSerialPorts', () => {
  it('without udevadm: scans /dev, sorts naturally, and says why USB details are missing', async () => {
    let listCalled = false;
    const r = await listSerialPorts({
      platform: 'linux',
      hasExecutable: () => false,
      listPorts: () => {
        listCalled = true;
        return Promise.resolve([]);
      },
      readDir: () => DEV,
    });
    expect(listCalled).toBe(false);
    expect(r.ports.map(p => p.path)).toEqual([
      '/dev/rfcomm0',
      '/dev/ttyACM2',
      '/dev/ttyACM10',
      '/dev/ttyS0',
      '/dev/ttyUSB0',
    ]);
    expect(r.ports.every(p => p.source === 'dev-scan')).toBe(true);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/udevadm is not on PATH/);
  });

  it('when udevadm exists but the list fails (spawn udevadm ENOENT): falls back and quotes the error', async () => {
    const r = await listSerialPorts({
      platform: 'linux',
      hasExecutable: () => true,
      listPorts: () => Promise.reject(new Error('spawn udevadm ENOENT')),
      readDir: () => ['ttyACM0'],
    });
    expect(r.ports.map(p => p.path)).toEqual(['/dev/ttyACM0']);
    expect(r.problems[0]).toBe(
      'could not list serial ports with udev: spawn udevadm ENOENT; scanned /dev for serial device names instead',
    );
  });

  it('with udev: keeps serialport’s USB details', async () => {
    const r = await listSerialPorts({
      platform: 'linux',
      hasExecutable: () => true,
      listPorts: () =>
        Promise.resolve([
          { path: '/dev/ttyACM0', vendorId: '04d8', productId: '000a', manufacturer: 'Microchip' },
        ]),
      readDir: () => {
        throw new Error('not used');
      },
    });
    expect(r).toEqual({
      ports: [
        {
          path: '/dev/ttyACM0',
          source: 'serialport',
          vendorId: '04d8',
          productId: '000a',
          manufacturer: 'Microchip',
        },
      ],
      problems: [],
    });
  });

  it('a /dev that cannot be read is a problem, not an exception', async () => {
    const r = await listSerialPorts({
      platform: 'linux',
      hasExecutable: () => false,
      readDir: () => {
        throw new Error('EACCES');
      },
    });
    expect(r.ports).toEqual([]);
    expect(r.problems[1]).toBe('could not scan /dev for serial devices: EACCES');
  });

  it('on other platforms a failing list is reported', async () => {
    const r = await listSerialPorts({
      platform: 'darwin',
      listPorts: () => Promise.reject(new Error('boom')),
    });
    expect(r).toEqual({ ports: [], problems: ['could not list serial ports: boom'] });
  });

  it('on this machine it returns (whatever udev says) without throwing', async () => {
    const r = await listSerialPorts();
    expect(Array.isArray(r.ports)).toBe(true);
    for (const p of r.ports) expect(p.path.startsWith('/dev/') || p.source === 'serialport').toBe(true);
  });

  it('the device-name pattern matches serial devices only', () => {
    expect(DEV.filter(n => SERIAL_DEVICE_NAME.test(n))).toEqual([
      'ttyACM10',
      'ttyACM2',
      'ttyS0',
      'rfcomm0',
      'ttyUSB0',
    ]);
  });
});
