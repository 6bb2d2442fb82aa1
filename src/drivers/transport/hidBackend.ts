/**
 * Loading node-hid and listing HID devices without ever throwing: node-hid's native part is
 * loaded on first use, and when it cannot load (no prebuilt binary for this platform, a missing
 * shared library) or cannot list (no hidraw support, no permission), the result is a typed
 * `HidUnavailableError` that says why and how to fix it. The backend is an interface, so tests
 * and the in-process device can stand in for node-hid.
 *
 *   const backend = await loadHidBackend(); // Result<HidBackend, HidUnavailableError>
 *   const devices = await listHidDevices(); // Result<HidDeviceInfo[], HidUnavailableError>
 *   if (devices.isErr) console.error(devices.error.message, '\n', devices.error.fix);
 *
 * Backends on Linux: node-hid uses the kernel's hidraw driver by default (devices appear as
 * /dev/hidraw*, the user needs read/write access to them); `driver: 'libusb'` uses libusb-1.0
 * instead, which must be installed and detaches the kernel driver. The choice is global to the
 * process and only takes effect before node-hid's first use.
 */
import { Result } from '@badrap/result';

/** One HID interface as the OS lists it (node-hid's `Device`). */
export interface HidDeviceInfo {
  /** The OS path to open (`/dev/hidraw3`, `1-2:1.0`, `\\?\HID#…`); missing for unopenable interfaces. */
  readonly path: string | undefined;
  readonly vendorId: number;
  readonly productId: number;
  readonly serialNumber?: string;
  readonly manufacturer?: string;
  readonly product?: string;
  readonly release: number;
  readonly interface: number;
  /** Filled by hidapi on Windows, macOS and Linux hidraw only (reference errata 9). */
  readonly usagePage?: number;
  readonly usage?: number;
}

/** An open HID device (node-hid's `HIDAsync`): each 'data' event is one input report. */
export interface HidHandle {
  on(event: 'data', listener: (data: Uint8Array) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  write(values: number[]): Promise<number>;
  close(): Promise<void>;
}

export interface HidBackend {
  /** For reports: `node-hid (hidapi 0.15.0, hidraw)`. */
  readonly name: string;
  devices(): Promise<HidDeviceInfo[]>;
  open(path: string): Promise<HidHandle>;
}

export type HidProblem =
  /** node-hid or its native part could not be loaded. */
  | { readonly kind: 'load-failed'; readonly detail: string }
  /** The backend loaded but listing devices failed. */
  | { readonly kind: 'list-failed'; readonly detail: string };

/** What to do about a problem, for a person at this machine. */
export const hidFix = (platform: string = process.platform): string => {
  switch (platform) {
    case 'linux':
      return (
        'node-hid needs libusb-1.0 or the hidraw backend on Linux. The default backend is hidraw: ' +
        'the kernel must provide /dev/hidraw* devices (module hidraw) and the user needs access to them. ' +
        "The libusb backend (driver 'libusb') needs libusb-1.0 (Debian/Ubuntu: sudo apt install libusb-1.0-0). " +
        'If no prebuilt binary fits this machine, install a C++ toolchain and run: npm rebuild node-hid. ' +
        'For access without root, add a udev rule such as ' +
        '/etc/udev/rules.d/70-chessnut.rules: SUBSYSTEM=="hidraw", ATTRS{idVendor}=="2d80", MODE="0660", GROUP="plugdev" ' +
        '(then sudo udevadm control --reload-rules && sudo udevadm trigger, add the user to plugdev and replug the board).'
      );
    case 'darwin':
      return 'node-hid uses IOKit on macOS: check that a prebuilt binary exists for this architecture, or run npm rebuild node-hid.';
    case 'win32':
      return 'node-hid uses the Windows HID API: check that a prebuilt binary exists for this architecture, or run npm rebuild node-hid.';
    default:
      return `node-hid has no prebuilt binary for ${platform}: install libusb-1.0 and a C++ toolchain and run npm rebuild node-hid.`;
  }
};

const describe = (p: HidProblem): string => {
  switch (p.kind) {
    case 'load-failed':
      return `cannot load node-hid: ${p.detail}`;
    case 'list-failed':
      return `cannot list HID devices: ${p.detail}`;
  }
};

export class HidUnavailableError extends Error {
  /** How to fix it on this platform. */
  readonly fix: string;

  constructor(
    readonly problem: HidProblem,
    platform?: string,
  ) {
    super(describe(problem));
    this.name = 'HidUnavailableError';
    this.fix = hidFix(platform);
  }
}

/** Whether an open failure looks like missing permission (hidraw node not readable). */
export const isPermissionProblem = (detail: string): boolean =>
  /permission|EACCES|EPERM|access denied/i.test(detail);

/** The detail of a failed open, with the udev hint when permission is the likely cause. */
export const describeOpenFailure = (detail: string, platform: string = process.platform): string =>
  isPermissionProblem(detail) && platform === 'linux'
    ? `${detail} (no permission: add a udev rule for the hidraw node, e.g. SUBSYSTEM=="hidraw", ATTRS{idVendor}=="2d80", MODE="0660", GROUP="plugdev")`
    : detail;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The part of node-hid's module this file uses. */
interface NodeHidModule {
  devicesAsync(): Promise<HidDeviceInfo[]>;
  getHidapiVersion(): string;
  setDriverType(type: 'hidraw' | 'libusb'): void;
  HIDAsync: { open(path: string): Promise<HidHandle> };
}

const isNodeHid = (m: unknown): m is NodeHidModule =>
  typeof m === 'object' &&
  m !== null &&
  'devicesAsync' in m &&
  typeof m.devicesAsync === 'function' &&
  'HIDAsync' in m;

export interface LoadHidOptions {
  /** Linux backend; default node-hid's own (hidraw). Global to the process, before the first use only. */
  readonly driver?: 'hidraw' | 'libusb';
  /** Imports node-hid (tests give a fake or a failing one). */
  readonly importer?: () => Promise<unknown>;
  readonly platform?: string;
}

/** Loads node-hid and its native part; never rejects. */
export const loadHidBackend = async (
  options: LoadHidOptions = {},
): Promise<Result<HidBackend, HidUnavailableError>> => {
  const platform = options.platform ?? process.platform;
  const fail = (detail: string) =>
    Result.err(new HidUnavailableError({ kind: 'load-failed', detail }, platform));
  let mod: unknown;
  try {
    mod = await (options.importer ?? (() => import('node-hid')))();
  } catch (e) {
    return fail(message(e));
  }
  if (!isNodeHid(mod)) return fail('the node-hid module does not look like node-hid 3');
  const hid = mod;
  let version: string;
  try {
    if (options.driver !== undefined) hid.setDriverType(options.driver);
    // The native binding loads on first use: make that happen here, where it can be reported.
    version = hid.getHidapiVersion();
  } catch (e) {
    return fail(message(e));
  }
  const driver = platform === 'linux' ? `, ${options.driver ?? 'hidraw'}` : '';
  return Result.ok({
    name: `node-hid (hidapi ${version}${driver})`,
    devices: () => hid.devicesAsync(),
    open: path => hid.HIDAsync.open(path),
  });
};

/** Lists every HID interface; never rejects. `load` defaults to node-hid. */
export const listHidDevices = async (
  load: () => Promise<Result<HidBackend, HidUnavailableError>> = () => loadHidBackend(),
  platform: string = process.platform,
): Promise<Result<HidDeviceInfo[], HidUnavailableError>> => {
  const loaded = await load();
  if (loaded.isErr) return Result.err(loaded.error);
  try {
    const devices = await loaded.value.devices();
    return Result.ok(devices.map(d => ({ ...d })));
  } catch (e) {
    return Result.err(new HidUnavailableError({ kind: 'list-failed', detail: message(e) }, platform));
  }
};
