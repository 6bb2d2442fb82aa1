/**
 * A USB HID device as a Transport, on node-hid's `HIDAsync`: each chunk of `bytes$` is one input
 * report and each `write` one output report, so message boundaries survive (the Chessnut decoder
 * takes one report per push). Subscribing opens the device and unsubscribing closes it; a read
 * error (the board unplugged) is `disconnected`, our own close `canceled`, and a device that
 * cannot be opened (missing, no permission, node-hid not loadable) `open-failed` with the reason
 * and, for permissions, the udev hint.
 *
 *   const port = new HidTransport({ path: info.path, info });
 *   chessnutSession$(port, { device: info }).subscribe(obs => console.log(obs.type));
 *   await port.write(Uint8Array.of(0x21, 0x01, 0x00)); // one output report, report id 0x21
 *
 * Report-id quirks, kept here: node-hid's first byte of a write is the report id; a device with
 * numbered reports (Chessnut: 0x21, 0x0A…) takes the message unchanged, one without numbered
 * reports needs a leading 0 (`reportId: 0`). Input reports of numbered devices arrive with their
 * id first on every OS (WebHID is the exception, not used here). Windows may want the write
 * padded to the full output report length (`outputReportLength`; recent hidapi pads by itself).
 */
import { Observable, type Subscriber } from 'rxjs';
import {
  describeOpenFailure,
  type HidBackend,
  type HidDeviceInfo,
  type HidHandle,
  type HidUnavailableError,
  loadHidBackend,
} from './hidBackend.js';
import type { Result } from '@badrap/result';
import { type Chunk, monotonicNow, type Transport, TransportError } from './transport.js';

/** A report-based transport (node-hid, or the in-process device): what the Chessnut session needs. */
export interface HidPort extends Transport {
  /** The device as listed, when known. */
  readonly info: HidDeviceInfo | undefined;
}

export interface HidTransportOptions {
  /** The OS path from the device list. */
  readonly path: string;
  readonly info?: HidDeviceInfo;
  /** The HID backend, or how to load it; default node-hid. */
  readonly backend?: HidBackend | (() => Promise<Result<HidBackend, HidUnavailableError>>);
  /** Receipt-time clock in ms; default performance.now. */
  readonly now?: () => number;
  /** Prepend this report id to every write (0 for devices without numbered reports); default none. */
  readonly reportId?: number;
  /** Pad writes with zeros to this length (Windows, UNVERIFIED for Chessnut); default no padding. */
  readonly outputReportLength?: number;
  readonly platform?: string;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

interface OpenDevice {
  readonly handle: HidHandle;
  byUs: boolean;
  gone: boolean;
}

export class HidTransport implements HidPort {
  readonly path: string;
  readonly info: HidDeviceInfo | undefined;
  private current: OpenDevice | undefined;
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private subscriber: Subscriber<Chunk> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: HidTransportOptions) {
    this.path = options.path;
    this.info = options.info;
    this.now = options.now ?? monotonicNow;
  }

  get isOpen(): boolean {
    return this.current !== undefined;
  }

  open(): Promise<void> {
    this.opening ??= (async () => {
      if (this.closing !== undefined) await this.closing;
      if (this.current !== undefined) return;
      await this.doOpen();
    })().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async backend(): Promise<HidBackend> {
    const b = this.options.backend;
    const loaded = await (b === undefined
      ? loadHidBackend()
      : typeof b === 'function'
        ? b()
        : Promise.resolve(b));
    if ('isOk' in loaded) {
      if (loaded.isErr)
        throw new TransportError({
          kind: 'open-failed',
          path: this.path,
          detail: `${loaded.error.message}. ${loaded.error.fix}`,
        });
      return loaded.value;
    }
    return loaded;
  }

  private async doOpen(): Promise<void> {
    const backend = await this.backend();
    let handle: HidHandle;
    try {
      handle = await backend.open(this.path);
    } catch (e) {
      throw new TransportError({
        kind: 'open-failed',
        path: this.path,
        detail: describeOpenFailure(message(e), this.options.platform),
      });
    }
    const open: OpenDevice = { handle, byUs: false, gone: false };
    this.current = open;
    handle.on('data', (data: Uint8Array) => {
      const at = this.now();
      this.subscriber?.next({ at, bytes: Uint8Array.from(data) });
    });
    handle.on('error', (e: unknown) => this.lost(open, message(e)));
  }

  /** The device went away under an open handle. */
  private lost(open: OpenDevice, detail: string): void {
    if (open.gone || open.byUs) return;
    open.gone = true;
    if (this.current === open) this.current = undefined;
    open.handle.close().catch(() => undefined);
    const s = this.subscriber;
    this.subscriber = undefined;
    s?.error(new TransportError({ kind: 'disconnected', detail }));
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.opening !== undefined) await this.opening;
    const open = this.current;
    if (open === undefined) throw new TransportError({ kind: 'not-open' });
    const report =
      this.options.reportId === undefined ? Array.from(bytes) : [this.options.reportId, ...bytes];
    const length = this.options.outputReportLength ?? 0;
    while (report.length < length) report.push(0);
    try {
      await open.handle.write(report);
    } catch (e) {
      if (open.byUs) throw new TransportError({ kind: 'canceled' });
      this.lost(open, message(e));
      throw new TransportError({ kind: 'disconnected', detail: message(e) });
    }
  }

  close(): Promise<void> {
    this.closing ??= this.doClose().finally(() => {
      this.closing = undefined;
    });
    return this.closing;
  }

  private async doClose(): Promise<void> {
    if (this.opening !== undefined) await this.opening.catch(() => undefined);
    const open = this.current;
    this.current = undefined;
    const s = this.subscriber;
    this.subscriber = undefined;
    if (open !== undefined) {
      open.byUs = true;
      await open.handle.close().catch(() => undefined);
    }
    s?.error(new TransportError({ kind: 'canceled' }));
  }

  readonly bytes$: Observable<Chunk> = new Observable<Chunk>(subscriber => {
    if (this.subscriber !== undefined) {
      subscriber.error(new TransportError({ kind: 'busy' }));
      return undefined;
    }
    this.subscriber = subscriber;
    this.open().catch((e: unknown) => {
      if (this.subscriber === subscriber) this.subscriber = undefined;
      subscriber.error(e);
    });
    return () => {
      if (this.subscriber === subscriber) this.subscriber = undefined;
      void this.close();
    };
  });
}
