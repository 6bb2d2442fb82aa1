/**
 * A serial port as a Transport, on the `serialport` package. Defaults are the DGT link: 9600
 * baud, 8 data bits, no parity, 1 stop bit, no flow control (reference §1.1). Subscribing to
 * `bytes$` opens the port and unsubscribing closes it; a vanished device (USB unplugged, the
 * PTY pair gone) errors the subscriber with `disconnected`, our own close with `canceled`.
 *
 *   const port = new SerialTransport({ path: '/dev/ttyACM0' });
 *   const sub = port.bytes$.subscribe({ next: c => decoder.push(c.bytes, c.at), error: e => log(e) });
 *   await port.write(Uint8Array.of(0x4b)); // UPDATE_NICE; waits for the open in progress
 *
 * Hardware quirks:
 * - USB CDC-ACM boards (`/dev/ttyACM*`) and Bluetooth RFCOMM ignore the baud rate; it is still set
 *   to 9600 so RS-232 adapters (FTDI, `/dev/ttyUSB*`) work too.
 * - A board powers up in bus mode and drops to IDLE on its first single-board command, so after
 *   every open (replug, Bluetooth reconnect) the host must send the update-mode command again and
 *   take a fresh dump (§5.1). The session does; this transport only moves bytes.
 * - Stale bytes from before the open are flushed once the port is open (§5.3 step 1).
 * - The port is opened with `lock: true` (exclusive, TIOCEXCL on Linux): a second process opening
 *   the same board fails with `open-failed` instead of stealing half of the bytes. LiveChess or a
 *   second daemon holding the port shows up this way.
 * - On Linux, ModemManager may probe a freshly plugged `/dev/ttyACM*` device for a few seconds
 *   by writing AT commands; if the first open fails or the board answers oddly right after being
 *   plugged in, the session's back-off takes care of it, or ModemManager can be told to ignore it.
 * - When a PTY's other side closes, reads fail with EIO or return end of file (a hang-up, which
 *   `serialBinding` turns into an error) and serialport reports the port closed with
 *   `disconnected: true`; a pending write fails with EIO. Both become `disconnected` here.
 * - Writes are passed to the OS and drained (tcdrain) before `write()` resolves, so a resolved
 *   write is on its way to the board, not sitting in a Node buffer.
 */
import { Observable, type Subscriber } from 'rxjs';
import { SerialPortStream } from '@serialport/stream';
import { serialBinding } from './hangup.js';
import { type Chunk, monotonicNow, type Transport, TransportError } from './transport.js';

export interface SerialTransportOptions {
  /** Device path (`/dev/ttyACM0`, `COM3`, one end of a PTY pair). */
  readonly path: string;
  /** Baud rate; default 9600 (DGT). */
  readonly baudRate?: number;
  /** Data bits; default 8. Millennium boards may be opened 7O1 (`dataBits: 7, parity: 'odd'`). */
  readonly dataBits?: 5 | 6 | 7 | 8;
  /** Parity; default 'none'. */
  readonly parity?: 'none' | 'odd' | 'even';
  /** Stop bits; default 1. */
  readonly stopBits?: 1 | 2;
  /** Receipt-time clock in ms; default performance.now. */
  readonly now?: () => number;
  /** Exclusive open; default true. */
  readonly lock?: boolean;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

interface OpenPort {
  readonly port: SerialPortStream;
  /** Set when we close this port ourselves: its close is then `canceled`. */
  byUs: boolean;
}

export class SerialTransport implements Transport {
  readonly path: string;
  private current: OpenPort | undefined;
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private subscriber: Subscriber<Chunk> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: SerialTransportOptions) {
    this.path = options.path;
    this.now = options.now ?? monotonicNow;
  }

  get isOpen(): boolean {
    return this.current?.port.isOpen ?? false;
  }

  open(): Promise<void> {
    this.opening ??= (async () => {
      if (this.closing !== undefined) await this.closing;
      if (this.current?.port.isOpen === true) return;
      await this.doOpen();
    })().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private doOpen(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let port: SerialPortStream;
      try {
        port = new SerialPortStream({
          binding: serialBinding(),
          path: this.path,
          baudRate: this.options.baudRate ?? 9600,
          dataBits: this.options.dataBits ?? 8,
          parity: this.options.parity ?? 'none',
          stopBits: this.options.stopBits ?? 1,
          rtscts: false,
          xon: false,
          xoff: false,
          lock: this.options.lock ?? true,
          autoOpen: false,
        });
      } catch (e) {
        reject(new TransportError({ kind: 'open-failed', path: this.path, detail: message(e) }));
        return;
      }
      port.open(err => {
        if (err !== null) {
          reject(new TransportError({ kind: 'open-failed', path: this.path, detail: err.message }));
          return;
        }
        this.attach(port);
        port.flush(() => resolve());
      });
    });
  }

  /** Wires the port's events to the current subscriber. */
  private attach(port: SerialPortStream): void {
    const open: OpenPort = { port, byUs: false };
    this.current = open;
    port.on('data', (data: Buffer) => {
      const at = this.now();
      this.subscriber?.next({ at, bytes: new Uint8Array(data.buffer, data.byteOffset, data.length).slice() });
    });
    // An 'error' event without a listener would crash the process; the close that follows an
    // I/O error carries the disconnection, so errors are only noted here.
    port.on('error', () => undefined);
    port.on('close', (err: (Error & { disconnected?: boolean }) | null) => {
      if (this.current === open) this.current = undefined;
      const s = this.subscriber;
      if (s === undefined) return;
      this.subscriber = undefined;
      if (open.byUs && err?.disconnected !== true) s.error(new TransportError({ kind: 'canceled' }));
      else s.error(new TransportError({ kind: 'disconnected', detail: err?.message ?? 'port closed' }));
    });
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.opening !== undefined) await this.opening;
    const open = this.current;
    if (open?.port.isOpen !== true) throw new TransportError({ kind: 'not-open' });
    const { port } = open;
    await new Promise<void>((resolve, reject) => {
      port.write(Buffer.from(bytes), err => {
        if (err !== null && err !== undefined) {
          reject(
            open.byUs
              ? new TransportError({ kind: 'canceled' })
              : new TransportError({ kind: 'disconnected', detail: err.message }),
          );
          return;
        }
        port.drain(e =>
          e === null || open.byUs
            ? resolve()
            : reject(new TransportError({ kind: 'disconnected', detail: e.message })),
        );
      });
    });
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
    if (open === undefined) return;
    open.byUs = true;
    this.current = undefined;
    if (!open.port.isOpen) return;
    await new Promise<void>(resolve => open.port.close(() => resolve()));
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
