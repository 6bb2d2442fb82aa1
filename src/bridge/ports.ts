/**
 * `chessbridge ports`: lists the serial ports (or takes the paths given) and the HID devices of
 * this machine, and finds out which board kind answers on each: DGT (with serial number and
 * firmware), Millennium ChessLink (model and firmware), Certabo (RFID or occupancy), and Chessnut
 * among the HID devices. Listing survives a machine without udev, and one where node-hid cannot
 * load, and says what it could not list, why, and how to fix it. Formatting is pure and separate
 * from the I/O so it can be tested without ports.
 *
 *   const report = await runPorts({ paths: [] }, defaultPortsDeps());
 *   for (const line of formatPortsReport(report)) console.log(line);
 *   report.probes.filter(p => p.kind === 'dgt'); // [{ path: '/dev/ttyACM0', kind: 'dgt', serial: '01025', … }]
 *
 * Order per port (reference on non-DGT boards, §5): HID is listed first (harmless); each serial
 * port is then listened to without writing (Certabo boards stream frames and take any byte
 * written as LED data; a Millennium board in its factory mode streams status reports); a port
 * that is no Millennium or Certabo board gets the two DGT identification requests (version 0x4D,
 * serial number 0x45; DGT reference §1.2); a port silent through all that gets the Millennium
 * version request `V56` last, because a DGT board takes its parity-bit bytes as the start of a
 * 4-byte bus command and would swallow DGT requests sent after it (a Millennium board ignores
 * the DGT bytes: no valid command, no checksum). Ports are probed in parallel. A DGT board left
 * in bus mode switches to single-board mode (IDLE) on the first DGT request; the daemon puts it
 * back in its live mode when it connects.
 */
import {
  ignoreElements,
  lastValueFrom,
  map,
  merge,
  scan,
  takeUntil,
  takeWhile,
  tap,
  timer,
  type Observable,
} from 'rxjs';
import type { Result } from '@badrap/result';
import { SERIAL_SETTINGS as CERTABO_SERIAL } from '../drivers/certabo/protocol.js';
import { DgtDecoder } from '../drivers/dgt/codec.js';
import { makeCommand } from '../drivers/dgt/commands.js';
import type { Observation } from '../drivers/observation.js';
import {
  type HidBackend,
  type HidUnavailableError,
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
import {
  type BoardProbeOutcome,
  describeBoardProbe,
  formatHidListing,
  type HidListing,
  listHid,
  probeBoardPort,
  usbHint,
} from './portsBoards.js';

/** What the DGT probe found on one port. */
export type ProbeOutcome =
  | {
      readonly path: string;
      readonly kind: 'dgt';
      readonly serial: string | undefined;
      readonly firmware: string | undefined;
    }
  /** Nothing came back within the timeout. */
  | { readonly path: string; readonly kind: 'silent'; readonly waitedMs: number }
  /** Bytes came back, but no DGT message. */
  | { readonly path: string; readonly kind: 'other'; readonly bytes: number }
  | { readonly path: string; readonly kind: 'error'; readonly detail: string };

/** What answered on one port, all probes together. */
export type PortProbe = BoardProbeOutcome | Extract<ProbeOutcome, { kind: 'dgt' }>;

export interface PortsReport {
  readonly listing: PortListing;
  /** One per port, in listing order; empty when probing was off. */
  readonly probes: readonly PortProbe[];
  /** The HID devices: Chessnut boards, or why HID could not be listed. */
  readonly hid: HidListing;
}

export interface ProbeOptions {
  /** Give up on a port after this long, ms; default 1500 (the reference suggests ~1 s for a reply). */
  readonly timeoutMs?: number;
  /** Wait after opening before writing (§5.3: 0.3–0.5 s); default 300 ms. */
  readonly openDelayMs?: number;
}

interface ProbeState {
  readonly bytes: number;
  readonly serial: string | undefined;
  readonly firmware: string | undefined;
  readonly dgt: boolean;
}

const done = (s: ProbeState): boolean => s.serial !== undefined && s.firmware !== undefined;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Asks one port whether it is a DGT board. Never rejects: failures are outcomes. */
export const probeDgt = async (transport: Transport, options: ProbeOptions = {}): Promise<ProbeOutcome> => {
  const timeoutMs = options.timeoutMs ?? 1500;
  const openDelay = options.openDelayMs ?? 300;
  const decoder = new DgtDecoder();
  const send = (kind: 'version' | 'serial'): void => {
    transport.write(makeCommand({ kind })).catch(() => undefined);
  };
  const writes$: Observable<never> = merge(
    timer(openDelay).pipe(
      tap(() => {
        send('version');
        send('serial');
      }),
    ),
    // One more version request halfway, in case the first byte was eaten by a waking board.
    timer(openDelay + (timeoutMs - openDelay) / 2).pipe(tap(() => send('version'))),
  ).pipe(ignoreElements());
  const initial: ProbeState = { bytes: 0, serial: undefined, firmware: undefined, dgt: false };
  const states$ = transport.bytes$.pipe(
    map(chunk => ({ chunk, obs: decoder.push(chunk.bytes, chunk.at) })),
    scan((s: ProbeState, { chunk, obs }): ProbeState => {
      const ids = obs.filter((o): o is Extract<Observation, { type: 'identity' }> => o.type === 'identity');
      return {
        bytes: s.bytes + chunk.bytes.length,
        serial: ids.find(o => o.serial !== undefined)?.serial ?? s.serial,
        firmware: ids.find(o => o.firmware !== undefined)?.firmware ?? s.firmware,
        dgt: s.dgt || obs.some(o => o.type !== 'protocol-error'),
      };
    }, initial),
  );
  try {
    const last = await lastValueFrom(
      merge(writes$, states$).pipe(
        takeWhile(s => !done(s), true),
        takeUntil(timer(timeoutMs)),
      ),
      { defaultValue: initial },
    );
    const { path } = transport;
    if (last.serial !== undefined || last.firmware !== undefined || last.dgt)
      return { path, kind: 'dgt', serial: last.serial, firmware: last.firmware };
    if (last.bytes > 0) return { path, kind: 'other', bytes: last.bytes };
    return { path, kind: 'silent', waitedMs: timeoutMs };
  } catch (e) {
    return { path: transport.path, kind: 'error', detail: message(e) };
  } finally {
    await transport.close().catch(() => undefined);
  }
};

/** Which line settings a probe opens the port with. */
export type ProbeLink = 'dgt' | 'millennium-certabo';

export interface PortsDeps {
  readonly list: () => Promise<PortListing>;
  /** A transport for one probe: DGT at 9600 baud, Millennium and Certabo at 38400 8N1. */
  readonly transport: (path: string, link: ProbeLink) => Transport;
  /** Loads the HID backend (node-hid); never rejects. */
  readonly hid: () => Promise<Result<HidBackend, HidUnavailableError>>;
}

/** The real machine: serialport listing (udev, else a /dev scan), serial transports, node-hid. */
export const defaultPortsDeps = (listDeps: ListDeps = {}): PortsDeps => ({
  list: () => listSerialPorts(listDeps),
  // 38400 8N1 serves both: Certabo's link, and Millennium's 7O1 with the parity bit read in software.
  transport: (path, link) =>
    link === 'dgt'
      ? new SerialTransport({ path })
      : new SerialTransport({ path, baudRate: CERTABO_SERIAL.baudRate }),
  hid: () => loadHidBackend(),
});

export interface PortsRequest {
  /** Ports to probe instead of the listed ones. */
  readonly paths: readonly string[];
  /** Probe the ports (default true); false only lists them (and the HID devices). */
  readonly probe?: boolean;
  /** How long to wait for an answer to a request (DGT identification, Millennium version), ms; default 1500. */
  readonly timeoutMs?: number;
  /** DGT: wait after opening before writing, ms; default 300. */
  readonly openDelayMs?: number;
  /** Listen this long before writing anything, ms; default 2000 (Certabo sends about twice a second). */
  readonly listenMs?: number;
}

/**
 * Probes one port: listen for Millennium and Certabo boards (nothing written), then the DGT
 * requests, then the Millennium version request to a port that stayed silent. Never rejects.
 */
export const probePort = async (path: string, request: PortsRequest, deps: PortsDeps): Promise<PortProbe> => {
  const timeout = request.timeoutMs === undefined ? {} : { versionTimeoutMs: request.timeoutMs };
  const heard = await probeBoardPort(deps.transport(path, 'millennium-certabo'), {
    ...(request.listenMs !== undefined && { listenMs: request.listenMs }),
    ...timeout,
    askSilent: false,
  });
  if (heard.kind === 'millennium' || heard.kind === 'certabo' || heard.kind === 'error') return heard;
  const dgt = await probeDgt(deps.transport(path, 'dgt'), {
    ...(request.timeoutMs !== undefined && { timeoutMs: request.timeoutMs }),
    ...(request.openDelayMs !== undefined && { openDelayMs: request.openDelayMs }),
  });
  if (dgt.kind === 'dgt' || dgt.kind === 'error') return dgt;
  if (heard.kind === 'other' || dgt.kind === 'other')
    return {
      path,
      kind: 'other',
      bytes: (heard.kind === 'other' ? heard.bytes : 0) + (dgt.kind === 'other' ? dgt.bytes : 0),
    };
  // Silent so far: a Millennium board in report-on-change mode answers only when asked.
  const asked = await probeBoardPort(deps.transport(path, 'millennium-certabo'), { ...timeout, listenMs: 0 });
  return asked.kind === 'silent'
    ? { path, kind: 'silent', waitedMs: heard.waitedMs + dgt.waitedMs + asked.waitedMs }
    : asked;
};

/** Lists the HID devices and the serial ports (or takes the given paths) and probes every port in parallel. */
export const runPorts = async (request: PortsRequest, deps: PortsDeps): Promise<PortsReport> => {
  const hid = await listHid(deps.hid);
  const listing: PortListing =
    request.paths.length > 0
      ? { ports: request.paths.map((path): PortCandidate => ({ path, source: 'given' })), problems: [] }
      : await deps.list();
  if (request.probe === false) return { listing, probes: [], hid };
  const probes = await Promise.all(listing.ports.map(p => probePort(p.path, request, deps)));
  return { listing, probes, hid };
};

const usbText = (p: PortCandidate): string => {
  const ids = p.vendorId !== undefined && p.productId !== undefined ? `USB ${p.vendorId}:${p.productId}` : '';
  return [
    ids,
    p.manufacturer ?? '',
    p.serialNumber !== undefined ? `serial ${p.serialNumber}` : '',
    usbHint(p) ?? '',
  ]
    .filter(Boolean)
    .join(', ');
};

export const describeProbe = (p: PortProbe): string => {
  switch (p.kind) {
    case 'dgt': {
      const parts = [
        p.serial !== undefined ? `serial number ${p.serial}` : 'serial number not reported',
        p.firmware !== undefined ? `firmware ${p.firmware}` : 'firmware not reported',
      ];
      return `DGT board, ${parts.join(', ')}`;
    }
    case 'silent':
      return `no answer within ${p.waitedMs} ms`;
    case 'other':
      return `sent ${p.bytes} bytes, but not as a DGT, Millennium or Certabo board`;
    case 'millennium':
    case 'certabo':
    case 'error':
      return describeBoardProbe(p);
  }
};

const count = (n: number, what: string): string => `${n} ${what} board${n === 1 ? '' : 's'}`;

/** The report as lines for a person (pure). */
export const formatPortsReport = (report: PortsReport): string[] => {
  const { listing, probes, hid } = report;
  const lines: string[] = [];
  const n = listing.ports.length;
  const given = n > 0 && listing.ports.every(p => p.source === 'given');
  lines.push(
    n === 0
      ? 'no serial ports found'
      : `${n} serial port${n === 1 ? '' : 's'} ${given ? 'given' : 'found'}${probes.length > 0 ? ', probed for DGT, Millennium and Certabo boards:' : ':'}`,
  );
  const width = Math.max(0, ...listing.ports.map(p => p.path.length));
  for (const port of listing.ports) {
    const probe = probes.find(p => p.path === port.path);
    const usb = usbText(port);
    const what = probe === undefined ? '' : describeProbe(probe);
    const detail = [what, usb === '' ? '' : `(${usb})`].filter(Boolean).join(' ');
    lines.push(`  ${port.path.padEnd(width)}  ${detail}`.trimEnd());
  }
  if (probes.length > 0) {
    const of = (kind: PortProbe['kind']): number => probes.filter(p => p.kind === kind).length;
    lines.push(
      `${count(of('dgt'), 'DGT')}, ${count(of('millennium'), 'Millennium')}, ${count(of('certabo'), 'Certabo')} found`,
    );
  }
  lines.push(...formatHidListing(hid));
  for (const problem of listing.problems) lines.push(`note: ${problem}`);
  return lines;
};
