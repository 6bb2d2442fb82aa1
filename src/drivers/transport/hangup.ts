/**
 * The serial binding the serial transport opens ports with: the platform's own, except that on
 * Linux a read that returns end of file is a hang-up, reported as a disconnection.
 *
 *   const port = new SerialPortStream({ binding: serialBinding(), path, baudRate: 9600 });
 *
 * Why: when the other side of a terminal goes away (a PTY pair's socat killed, a Bluetooth RFCOMM
 * link dropped, a USB adapter whose driver hangs the line up), Linux hangs the terminal up, and a
 * read then either fails with EIO or returns 0 bytes, depending on when the hang-up lands. The
 * platform binding reads again on 0 bytes, forever: the port never reports the loss (and spins
 * the thread pool). On a port opened with `vmin` 1 (the binding's default, which we keep) and
 * non-blocking reads, no data is EAGAIN and 0 bytes only ever means the line is gone.
 *
 * Everything else, the waiting for readable data included, is the platform binding's own.
 */
import { read } from 'node:fs';
import { promisify } from 'node:util';
import {
  autoDetect,
  type BindingInterface,
  type BindingPortInterface,
  BindingsError,
  LinuxBinding,
  type LinuxOpenOptions,
  type LinuxPortBinding,
  type LinuxSetOptions,
  type UpdateOptions,
} from '@serialport/bindings-cpp';

const readAsync = promisify(read);

/** Error codes on which a non-blocking read waits for the port to become readable. */
const WAIT_CODES = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

const codeOf = (e: unknown): string | undefined =>
  e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;

/** A Linux port whose read reports a hang-up (0 bytes read) as an error, the rest delegated. */
class HangupAwarePort implements BindingPortInterface {
  constructor(private readonly inner: LinuxPortBinding) {}

  get openOptions(): Required<LinuxOpenOptions> {
    return this.inner.openOptions;
  }

  get isOpen(): boolean {
    return this.inner.isOpen;
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    for (;;) {
      const fd = this.inner.fd;
      if (fd === null) throw new BindingsError('Port is not open', { canceled: true });
      let bytesRead: number;
      try {
        ({ bytesRead } = await readAsync(fd, buffer, offset, length, null));
      } catch (e) {
        if (!WAIT_CODES.has(codeOf(e) ?? '')) throw e;
        if (!this.inner.isOpen) throw new BindingsError('Port is not open', { canceled: true });
        await new Promise<void>((resolve, reject) =>
          this.inner.poller.once('readable', (err: Error | null) => (err === null ? resolve() : reject(err))),
        );
        continue;
      }
      if (bytesRead === 0) throw new Error('the line was hung up (a read returned end of file)');
      return { buffer, bytesRead };
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  write(buffer: Buffer): Promise<void> {
    return this.inner.write(buffer);
  }

  update(options: UpdateOptions): Promise<void> {
    return this.inner.update(options);
  }

  set(options: LinuxSetOptions): Promise<void> {
    return this.inner.set(options);
  }

  get(): ReturnType<LinuxPortBinding['get']> {
    return this.inner.get();
  }

  getBaudRate(): Promise<{ baudRate: number }> {
    return this.inner.getBaudRate();
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  drain(): Promise<void> {
    return this.inner.drain();
  }
}

const LINUX_HANGUP_AWARE: BindingInterface<HangupAwarePort, LinuxOpenOptions> = {
  list: () => LinuxBinding.list(),
  open: async options => new HangupAwarePort(await LinuxBinding.open(options)),
};

/** The binding to open serial ports with on this platform. */
export const serialBinding = (): BindingInterface =>
  process.platform === 'linux' ? LINUX_HANGUP_AWARE : autoDetect();
