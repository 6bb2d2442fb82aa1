/**
 * `chessbridge ports`, the part for boards other than DGT: picks Chessnut boards out of the HID
 * listing (vendor 0x2D80, product high byte 0x80–0x86, usage page 0xFF00), and probes one serial
 * port for a Millennium ChessLink or Certabo board in the reference's order (§5): listen first
 * without writing, since Certabo boards stream frame lines by themselves and take any byte
 * written as LED data, and a Millennium board in its factory mode streams status reports; only a
 * port that stayed silent gets the Millennium version request `V56`. `ports.ts` runs this before
 * the DGT probe and leaves the boards found here out of it. Formatting is pure and separate.
 *
 *   const outcome = await probeBoardPort(new SerialTransport({ path, baudRate: 38400 }));
 *   outcome; // { path: '/dev/ttyUSB0', kind: 'certabo', sensing: 'rfid', frames: 4 }
 *   formatHidListing(await listHid(() => loadHidBackend())); // ['HID: 1 Chessnut board (…):', …]
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
import { USB_ID as CERTABO_USB } from '../drivers/certabo/protocol.js';
import { isChessnutDevice, modelFromProductId, USAGE_PAGE } from '../drivers/chessnut/protocol.js';
import { MillenniumDecoder } from '../drivers/millennium/codec.js';
import { makeCommand } from '../drivers/millennium/commands.js';
import {
  type HidBackend,
  type HidDeviceInfo,
  type HidUnavailableError,
  listHidDevices,
} from '../drivers/transport/hidBackend.js';
import type { PortCandidate } from '../drivers/transport/serialList.js';
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
  /**
   * Send `V` to a port that stayed silent (default true). `ports.ts` asks silent ports for a DGT
   * board first: a DGT board takes the parity-bit bytes of `V56` as the start of a 4-byte bus
   * command and would swallow the DGT requests after it.
   */
  readonly askSilent?: boolean;
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
    if (!streamed && options.askSilent === false) return { path, kind: 'silent', waitedMs: listenMs };
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

// ---------------------------------------------------------------------------------------------
// Formatting (pure)

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/** What a port's USB id suggests (never a verdict: both ids are generic chips). */
export const usbHint = (p: PortCandidate): string | undefined => {
  const vid = p.vendorId?.toLowerCase();
  const pid = p.productId?.toLowerCase();
  if (vid === hex4(CERTABO_USB.vendorId) && pid === hex4(CERTABO_USB.productId))
    return 'CP210x, the chip Certabo boards use';
  if (vid === '0403' && pid === '6001') return 'FTDI FT232R, maybe a ChessLink module';
  return undefined;
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

/** The HID part of the `ports` report: the Chessnut boards, or why HID could not be listed and the fix. */
export const formatHidListing = (hid: HidListing): string[] => {
  switch (hid.kind) {
    case 'listed': {
      const k = hid.chessnut.length;
      return [
        k === 0
          ? `HID: no Chessnut board among ${hid.devices} HID device${hid.devices === 1 ? '' : 's'} (${hid.backend})`
          : `HID: ${k} Chessnut board${k === 1 ? '' : 's'} (${hid.backend}):`,
        ...hid.chessnut.map(c => `  ${c.info.path ?? '(no path)'}  ${describeChessnut(c)}`),
      ];
    }
    case 'unavailable':
      return [`HID: ${hid.reason}`, `  fix: ${hid.fix}`];
  }
};
