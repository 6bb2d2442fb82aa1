/**
 * `chessbridge ports`: lists the serial ports (or takes the paths given), probes each with the
 * DGT identification requests (version 0x4D, serial number 0x45; reference §1.2) and reports
 * which answer as a DGT board, with serial number and firmware. Listing survives a machine
 * without udev and says what it could not list and why. Formatting is pure and separate from the
 * I/O so it can be tested without ports.
 *
 *   const report = await runPorts({ paths: [] }, defaultPortsDeps());
 *   for (const line of formatPortsReport(report)) console.log(line);
 *   report.probes.filter(p => p.kind === 'dgt'); // [{ path: '/dev/ttyACM0', kind: 'dgt', serial: '01025', … }]
 *
 * Probing writes two bytes to every port it tries. A DGT board left in bus mode switches to
 * single-board mode (IDLE) on the first of them; the daemon puts it back in its live mode when it
 * connects.
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
import { DgtDecoder } from '../drivers/dgt/codec.js';
import { makeCommand } from '../drivers/dgt/commands.js';
import type { Observation } from '../drivers/observation.js';
import { SerialTransport } from '../drivers/transport/serial.js';
import {
  type ListDeps,
  listSerialPorts,
  type PortCandidate,
  type PortListing,
} from '../drivers/transport/serialList.js';
import type { Transport } from '../drivers/transport/transport.js';

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

export interface PortsReport {
  readonly listing: PortListing;
  /** One per port, in listing order; empty when probing was off. */
  readonly probes: readonly ProbeOutcome[];
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

export interface PortsDeps {
  readonly list: () => Promise<PortListing>;
  readonly transport: (path: string) => Transport;
}

/** The real machine: serialport listing (udev, else a /dev scan) and serial transports. */
export const defaultPortsDeps = (listDeps: ListDeps = {}): PortsDeps => ({
  list: () => listSerialPorts(listDeps),
  transport: path => new SerialTransport({ path }),
});

export interface PortsRequest {
  /** Ports to probe instead of the listed ones. */
  readonly paths: readonly string[];
  /** Probe the ports (default true); false only lists them. */
  readonly probe?: boolean;
  readonly timeoutMs?: number;
  readonly openDelayMs?: number;
}

/** Lists (or takes the given paths) and probes every port in parallel. */
export const runPorts = async (request: PortsRequest, deps: PortsDeps): Promise<PortsReport> => {
  const listing: PortListing =
    request.paths.length > 0
      ? { ports: request.paths.map((path): PortCandidate => ({ path, source: 'given' })), problems: [] }
      : await deps.list();
  if (request.probe === false) return { listing, probes: [] };
  const options: ProbeOptions = {
    ...(request.timeoutMs !== undefined && { timeoutMs: request.timeoutMs }),
    ...(request.openDelayMs !== undefined && { openDelayMs: request.openDelayMs }),
  };
  const probes = await Promise.all(listing.ports.map(p => probeDgt(deps.transport(p.path), options)));
  return { listing, probes };
};

const usbText = (p: PortCandidate): string => {
  const ids = p.vendorId !== undefined && p.productId !== undefined ? `USB ${p.vendorId}:${p.productId}` : '';
  return [ids, p.manufacturer ?? '', p.serialNumber !== undefined ? `serial ${p.serialNumber}` : '']
    .filter(Boolean)
    .join(', ');
};

export const describeProbe = (p: ProbeOutcome): string => {
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
      return `answered ${p.bytes} bytes, but not as a DGT board`;
    case 'error':
      return `cannot probe: ${p.detail}`;
  }
};

/** The report as lines for a person (pure). */
export const formatPortsReport = (report: PortsReport): string[] => {
  const { listing, probes } = report;
  const lines: string[] = [];
  const n = listing.ports.length;
  const given = listing.ports.length > 0 && listing.ports.every(p => p.source === 'given');
  lines.push(
    n === 0
      ? 'no serial ports found'
      : `${n} serial port${n === 1 ? '' : 's'} ${given ? 'given' : 'found'}${probes.length > 0 ? ', probed for DGT boards:' : ':'}`,
  );
  const width = Math.max(0, ...listing.ports.map(p => p.path.length));
  for (const port of listing.ports) {
    const probe = probes.find(p => p.path === port.path);
    const usb = usbText(port);
    const what = probe === undefined ? '' : describeProbe(probe);
    const detail = [what, usb === '' ? '' : `(${usb})`].filter(Boolean).join(' ');
    lines.push(`  ${port.path.padEnd(width)}  ${detail}`.trimEnd());
  }
  const boards = probes.filter(p => p.kind === 'dgt').length;
  if (probes.length > 0) lines.push(`${boards} DGT board${boards === 1 ? '' : 's'} answered`);
  for (const problem of listing.problems) lines.push(`note: ${problem}`);
  return lines;
};
