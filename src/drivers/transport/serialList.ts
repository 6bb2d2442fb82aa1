/**
 * Lists the serial ports of this machine. On Linux serialport's list needs `udevadm`; where udev
 * is missing (containers, minimal images) the list would fail (`spawn udevadm ENOENT`), so this
 * checks for udevadm first, never lets a failure escape, falls back to scanning /dev for serial
 * device names, and says in `problems` what it could not list and why.
 *
 *   const { ports, problems } = await listSerialPorts();
 *   for (const p of problems) console.error(p);
 *   ports.map(p => p.path); // ['/dev/ttyACM0', …]
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { SerialPort } from 'serialport';

export interface PortCandidate {
  readonly path: string;
  /** How the port was found. */
  readonly source: 'serialport' | 'dev-scan' | 'given';
  readonly manufacturer?: string;
  readonly vendorId?: string;
  readonly productId?: string;
  readonly serialNumber?: string;
}

export interface PortListing {
  readonly ports: readonly PortCandidate[];
  /** What could not be listed and why, one sentence each. */
  readonly problems: readonly string[];
}

/** What listing touches; injectable for tests. */
export interface ListDeps {
  readonly platform?: string;
  /** serialport's own list (udev on Linux). */
  readonly listPorts?: () => Promise<
    readonly {
      path: string;
      manufacturer?: string | undefined;
      vendorId?: string | undefined;
      productId?: string | undefined;
      serialNumber?: string | undefined;
    }[]
  >;
  /** Whether an executable is on PATH. */
  readonly hasExecutable?: (name: string) => boolean;
  /** Entries of a directory (throws if it cannot be read). */
  readonly readDir?: (dir: string) => readonly string[];
}

/** Device names serialport's Linux lister accepts, plus the same for a /dev scan. */
export const SERIAL_DEVICE_NAME = /^(tty(S|WCH|ACM|USB|AMA|MFD|O|XRUSB)\d+|rfcomm\d+)$/;

const onPath = (name: string): boolean =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some(dir => {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Natural order: ttyACM2 before ttyACM10. */
const byPath = (a: PortCandidate, b: PortCandidate): number =>
  a.path.localeCompare(b.path, 'en', { numeric: true });

const scanDev = (readDir: (dir: string) => readonly string[]): PortListing => {
  try {
    const ports = readDir('/dev')
      .filter(n => SERIAL_DEVICE_NAME.test(n))
      .map((n): PortCandidate => ({ path: `/dev/${n}`, source: 'dev-scan' }))
      .sort(byPath);
    return { ports, problems: [] };
  } catch (e) {
    return { ports: [], problems: [`could not scan /dev for serial devices: ${message(e)}`] };
  }
};

const viaSerialport = async (
  list: NonNullable<ListDeps['listPorts']>,
): Promise<{ ports: PortCandidate[] } | { error: string }> => {
  try {
    const infos = await list();
    return {
      ports: infos
        .map((i): PortCandidate => ({
          path: i.path,
          source: 'serialport',
          ...(i.manufacturer !== undefined && { manufacturer: i.manufacturer }),
          ...(i.vendorId !== undefined && { vendorId: i.vendorId }),
          ...(i.productId !== undefined && { productId: i.productId }),
          ...(i.serialNumber !== undefined && { serialNumber: i.serialNumber }),
        }))
        .sort(byPath),
    };
  } catch (e) {
    return { error: message(e) };
  }
};

export const listSerialPorts = async (deps: ListDeps = {}): Promise<PortListing> => {
  const platform = deps.platform ?? process.platform;
  const list = deps.listPorts ?? (() => SerialPort.list());
  const hasExecutable = deps.hasExecutable ?? onPath;
  const readDir = deps.readDir ?? ((dir: string) => readdirSync(dir));
  if (platform !== 'linux') {
    const r = await viaSerialport(list);
    return 'error' in r
      ? { ports: [], problems: [`could not list serial ports: ${r.error}`] }
      : { ports: r.ports, problems: [] };
  }
  if (!hasExecutable('udevadm')) {
    const scan = scanDev(readDir);
    return {
      ports: scan.ports,
      problems: [
        'could not list serial ports with udev: udevadm is not on PATH (no udev on this machine), ' +
          'so USB vendor, product and serial numbers are unknown; scanned /dev for serial device names instead',
        ...scan.problems,
      ],
    };
  }
  const r = await viaSerialport(list);
  if (!('error' in r)) return { ports: r.ports, problems: [] };
  const scan = scanDev(readDir);
  return {
    ports: scan.ports,
    problems: [
      `could not list serial ports with udev: ${r.error}; scanned /dev for serial device names instead`,
      ...scan.problems,
    ],
  };
};
