/**
 * `chessbridge ports`, the non-DGT part: lists HID devices and picks out Chessnut boards (vendor
 * 0x2D80, product high byte 0x80–0x86, usage page 0xFF00), then probes serial ports for
 * Millennium ChessLink and Certabo boards in the reference's order (§5): listen first without
 * writing, since Certabo boards stream frame lines by themselves and take any byte written as
 * LED data, and a Millennium board in its factory mode streams status reports; only ports that
 * stayed silent get the Millennium version request `V56`. Formatting is pure and separate.
 *
 *   const report = await runBoardPorts({ paths: [] }, defaultBoardPortsDeps());
 *   for (const line of formatBoardPortsReport(report)) console.log(line);
 *   report.probes.filter(p => p.kind === 'certabo'); // [{ path: '/dev/ttyUSB0', kind: 'certabo', sensing: 'rfid', frames: 4 }]
 *
 * Run this before the DGT probe, and leave ports found to be Certabo boards out of it: the DGT
 * probe writes bytes that a Certabo board would take as LED data.
 */
import {
  asyncScheduler,
  filter,
  firstValueFrom,
  map,
  race,
  type SchedulerLike,
  startWith,
  Subject,
  take,
  timer,
} from 'rxjs';
import type { Result } from '@badrap/result';
import { CertaboDecoder } from '../drivers/certabo/codec.js';
import { SERIAL_SETTINGS as CERTABO_SERIAL, USB_ID as CERTABO_USB } from '../drivers/certabo/protocol.js';
import { isChessnutDevice, modelFromProductId, USAGE_PAGE } from '../drivers/chessnut/protocol.js';
import { MillenniumDecoder } from '../drivers/millennium/codec.js';
import { makeCommand } from '../drivers/millennium/commands.js';
import {
  type HidBackend,
  type HidDeviceInfo,
  type HidUnavailableError,
  listHidDevices,
  loadHidBackend,
} from '../drivers/transport/hidBackend.js';
import { SerialTransport } from '../drivers/transport/serial.js';
import {
  type ListDeps,
  listSerialPorts,
  type PortCandidate,
  type PortListing,
} from '../drivers/transport/serialList.js';
import type { Transport } from '../drivers/transport/transport.js';

export type BoardProbeOutcome =
  | {
      readonly path: string;
      readonly kind: 'millennium';
      readonly firmware: string | undefined;
      readonly model: string | undefined;
      /** Recognised by its status reports while listening, or by the answer to `V`. */
      readonly by: 'reports' | 'version';
    }
  | {
      readonly path: string;
      readonly kind: 'certabo';
      /** 320 numbers per frame (Certabo, Cerno) or 8 (Sentio, Tactum). */
      readonly sensing: 'rfid' | 'occupancy';
      readonly frames: number;
    }
  /** Nothing came back, even to `V`. */
  | { readonly path: string; readonly kind: 'silent'; readonly waitedMs: number }
  /** Bytes came, but no Millennium or Certabo frame (never written to). */
  | { readonly path: string; readonly kind: 'other'; readonly bytes: number }
  | { readonly path: string; readonly kind: 'error'; readonly detail: string };

export interface BoardProbeOptions {
  /** Listen this long before writing anything; default 2000 ms (§5: Certabo sends about twice a second). */
  readonly listenMs?: number;
  /** Wait this long for the answer to `V`; default 1500 ms (§1.8 reads for up to 2 s in all). */
  readonly versionTimeoutMs?: number;
  readonly scheduler?: SchedulerLike;
}

interface ProbeState {
  bytes: number;
  certabo: { sensing: 'rfid' | 'occupancy'; frames: number } | undefined;
  millennium: boolean;
  firmware: string | undefined;
  model: string | undefined;
  failure: unknown;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Listens to one port, then (if it stayed silent) asks it for a Millennium version. Never rejects. */
export const probeBoardPort = async (
  transport: Transport,
  options: BoardProbeOptions = {},
): Promise<BoardProbeOutcome> => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const listenMs = options.listenMs ?? 2000;
  const versionMs = options.versionTimeoutMs ?? 1500;
  const { path } = transport;
  const certabo = new CertaboDecoder();
  const millennium = new MillenniumDecoder({ parity: 'auto' });
  const s: ProbeState = {
    bytes: 0,
    certabo: undefined,
    millennium: false,
    firmware: undefined,
    model: undefined,
    failure: undefined,
  };
  const changed$ = new Subject<void>();
  /** Read through a function: the checks before an await do not hold after it. */
  const failed = (): unknown => s.failure;
  const until = (cond: () => boolean, ms: number): Promise<unknown> =>
    firstValueFrom(
      race(
        changed$.pipe(
          startWith(undefined),
          filter(() => cond() || s.failure !== undefined),
          take(1),
        ),
        timer(ms, scheduler).pipe(map(() => undefined)),
      ),
    );
  const sub = transport.bytes$.subscribe({
    next: chunk => {
      s.bytes += chunk.bytes.length;
      for (const o of certabo.push(chunk.bytes, chunk.at)) {
        const sensing =
          o.type === 'rfid-scan' ? 'rfid' : o.type === 'snapshot' ? ('occupancy' as const) : undefined;
        if (sensing !== undefined) s.certabo = { sensing, frames: (s.certabo?.frames ?? 0) + 1 };
      }
      for (const o of millennium.push(chunk.bytes, chunk.at)) {
        if (o.type === 'protocol-error') continue;
        s.millennium = true;
        if (o.type === 'identity') {
          s.firmware = o.firmware;
          s.model = o.model;
        }
      }
      changed$.next();
    },
    error: (e: unknown) => {
      s.failure = e;
      changed$.next();
    },
  });
  try {
    await until(() => s.certabo !== undefined || s.millennium, listenMs);
    if (s.failure !== undefined) return { path, kind: 'error', detail: message(s.failure) };
    if (s.certabo !== undefined) return { path, kind: 'certabo', ...s.certabo };
    if (s.bytes > 0 && !s.millennium) return { path, kind: 'other', bytes: s.bytes };
    const streamed = s.millennium;
    // A silent port, or a Millennium board already seen: ask for the version (§1.8).
    transport.write(makeCommand({ kind: 'version' })).catch(() => undefined);
    await until(() => s.firmware !== undefined, versionMs);
    const failure = failed();
    if (failure !== undefined) return { path, kind: 'error', detail: message(failure) };
    if (s.millennium)
      return {
        path,
        kind: 'millennium',
        firmware: s.firmware,
        model: s.model,
        by: streamed ? 'reports' : 'version',
      };
    if (s.bytes > 0) return { path, kind: 'other', bytes: s.bytes };
    return { path, kind: 'silent', waitedMs: listenMs + versionMs };
  } finally {
    sub.unsubscribe();
    await transport.close().catch(() => undefined);
  }
};

export interface ChessnutDevice {
  readonly info: HidDeviceInfo;
  readonly model: string | undefined;
  /** The vendor interface (usage page 0xFF00), or unknown where hidapi leaves the usage page out. */
  readonly vendorInterface: boolean | undefined;
}

export type HidListing =
  | {
      readonly kind: 'listed';
      readonly backend: string;
      readonly devices: number;
      readonly chessnut: readonly ChessnutDevice[];
    }
  | { readonly kind: 'unavailable'; readonly reason: string; readonly fix: string };

/** Chessnut boards among HID interfaces (§3.7 step 1, errata 9): the keyboard-like interface is left out. */
export const pickChessnut = (devices: readonly HidDeviceInfo[]): ChessnutDevice[] =>
  devices
    .filter(d => isChessnutDevice(d.vendorId, d.productId))
    .filter(d => d.usagePage === undefined || d.usagePage === USAGE_PAGE)
    .map(d => ({
      info: d,
      model: modelFromProductId(d.productId),
      vendorInterface: d.usagePage === undefined ? undefined : true,
    }));

/** Lists HID devices with the given loader; never rejects. */
export const listHid = async (
  load: () => Promise<Result<HidBackend, HidUnavailableError>>,
): Promise<HidListing> => {
  const loaded = await load();
  if (loaded.isErr) return { kind: 'unavailable', reason: loaded.error.message, fix: loaded.error.fix };
  const listed = await listHidDevices(() => Promise.resolve(loaded));
  if (listed.isErr) return { kind: 'unavailable', reason: listed.error.message, fix: listed.error.fix };
  return {
    kind: 'listed',
    backend: loaded.value.name,
    devices: listed.value.length,
    chessnut: pickChessnut(listed.value),
  };
};

export interface BoardPortsReport {
  readonly listing: PortListing;
  /** One per port, in listing order; empty when probing was off. */
  readonly probes: readonly BoardProbeOutcome[];
  readonly hid: HidListing;
}

export interface BoardPortsDeps {
  readonly list: () => Promise<PortListing>;
  readonly transport: (path: string) => Transport;
  readonly hid: () => Promise<Result<HidBackend, HidUnavailableError>>;
}

/** The real machine: serial listing (udev, else a /dev scan), 38400 8N1 serial transports, node-hid. */
export const defaultBoardPortsDeps = (listDeps: ListDeps = {}): BoardPortsDeps => ({
  list: () => listSerialPorts(listDeps),
  // 8N1 serves both: Certabo's link, and Millennium's 7O1 with the parity bit read in software.
  transport: path => new SerialTransport({ path, baudRate: CERTABO_SERIAL.baudRate }),
  hid: () => loadHidBackend(),
});

export interface BoardPortsRequest {
  /** Ports to probe instead of the listed ones. */
  readonly paths: readonly string[];
  /** Probe the serial ports (default true); false only lists them. */
  readonly probe?: boolean;
  readonly listenMs?: number;
  readonly versionTimeoutMs?: number;
}

/** HID first (harmless), then every serial port in parallel (§5's probe order). */
export const runBoardPorts = async (
  request: BoardPortsRequest,
  deps: BoardPortsDeps,
): Promise<BoardPortsReport> => {
  const hid = await listHid(deps.hid);
  const listing: PortListing =
    request.paths.length > 0
      ? { ports: request.paths.map((path): PortCandidate => ({ path, source: 'given' })), problems: [] }
      : await deps.list();
  if (request.probe === false) return { listing, probes: [], hid };
  const options: BoardProbeOptions = {
    ...(request.listenMs !== undefined && { listenMs: request.listenMs }),
    ...(request.versionTimeoutMs !== undefined && { versionTimeoutMs: request.versionTimeoutMs }),
  };
  const probes = await Promise.all(listing.ports.map(p => probeBoardPort(deps.transport(p.path), options)));
  return { listing, probes, hid };
};

// ---------------------------------------------------------------------------------------------
// Formatting (pure)

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/** What a port's USB id suggests (never a verdict: both ids are generic chips). */
const usbHint = (p: PortCandidate): string | undefined => {
  const vid = p.vendorId?.toLowerCase();
  const pid = p.productId?.toLowerCase();
  if (vid === hex4(CERTABO_USB.vendorId) && pid === hex4(CERTABO_USB.productId))
    return 'CP210x, the chip Certabo boards use';
  if (vid === '0403' && pid === '6001') return 'FTDI FT232R, maybe a ChessLink module';
  return undefined;
};

const usbText = (p: PortCandidate): string => {
  const ids = p.vendorId !== undefined && p.productId !== undefined ? `USB ${p.vendorId}:${p.productId}` : '';
  return [ids, p.manufacturer ?? '', usbHint(p) ?? ''].filter(Boolean).join(', ');
};

export const describeBoardProbe = (p: BoardProbeOutcome): string => {
  switch (p.kind) {
    case 'millennium': {
      const parts = [
        p.model !== undefined ? `model ${p.model}` : 'model not reported',
        p.firmware !== undefined ? `firmware ${p.firmware}` : 'no answer to the version request',
      ];
      return `Millennium ChessLink board, ${parts.join(', ')}`;
    }
    case 'certabo':
      return p.sensing === 'rfid'
        ? `Certabo RFID board (Certabo, Cerno), ${p.frames} frame${p.frames === 1 ? '' : 's'} of 320 numbers`
        : `Certabo occupancy board (Sentio, Tactum), ${p.frames} frame${p.frames === 1 ? '' : 's'} of 8 numbers`;
    case 'silent':
      return `no frames and no answer to the version request within ${p.waitedMs} ms`;
    case 'other':
      return `sent ${p.bytes} bytes, but no Millennium or Certabo frame`;
    case 'error':
      return `cannot probe: ${p.detail}`;
  }
};

const describeChessnut = (c: ChessnutDevice): string => {
  const { info } = c;
  const ids = `USB ${hex4(info.vendorId)}:${hex4(info.productId)}`;
  const page =
    c.vendorInterface === undefined ? `usage page unknown, interface ${info.interface}` : 'usage page ff00';
  const serial =
    info.serialNumber !== undefined && info.serialNumber !== '' ? `, serial ${info.serialNumber}` : '';
  return `Chessnut ${c.model ?? 'board (model not named by the vendor)'} (${ids}, ${page}${serial})`;
};

/** The report as lines for a person (pure). */
export const formatBoardPortsReport = (report: BoardPortsReport): string[] => {
  const { listing, probes, hid } = report;
  const lines: string[] = [];
  const n = listing.ports.length;
  const given = n > 0 && listing.ports.every(p => p.source === 'given');
  lines.push(
    n === 0
      ? 'no serial ports found'
      : `${n} serial port${n === 1 ? '' : 's'} ${given ? 'given' : 'found'}${probes.length > 0 ? ', probed for Millennium and Certabo boards:' : ':'}`,
  );
  const width = Math.max(0, ...listing.ports.map(p => p.path.length));
  for (const port of listing.ports) {
    const probe = probes.find(p => p.path === port.path);
    const usb = usbText(port);
    const what = probe === undefined ? '' : describeBoardProbe(probe);
    lines.push(
      `  ${port.path.padEnd(width)}  ${[what, usb === '' ? '' : `(${usb})`].filter(Boolean).join(' ')}`.trimEnd(),
    );
  }
  if (probes.length > 0) {
    const m = probes.filter(p => p.kind === 'millennium').length;
    const c = probes.filter(p => p.kind === 'certabo').length;
    lines.push(`${m} Millennium board${m === 1 ? '' : 's'}, ${c} Certabo board${c === 1 ? '' : 's'} found`);
  }
  switch (hid.kind) {
    case 'listed': {
      const k = hid.chessnut.length;
      lines.push(
        k === 0
          ? `HID: no Chessnut board among ${hid.devices} HID device${hid.devices === 1 ? '' : 's'} (${hid.backend})`
          : `HID: ${k} Chessnut board${k === 1 ? '' : 's'} (${hid.backend}):`,
      );
      for (const c of hid.chessnut) lines.push(`  ${c.info.path ?? '(no path)'}  ${describeChessnut(c)}`);
      break;
    }
    case 'unavailable':
      lines.push(`HID: ${hid.reason}`, `  fix: ${hid.fix}`);
      break;
  }
  for (const problem of listing.problems) lines.push(`note: ${problem}`);
  return lines;
};
