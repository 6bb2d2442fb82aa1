/**
 * An in-process HID device: the host end is a `HidPort` like `HidTransport` (one chunk per input
 * report, one output report per write, `info` with vendor and product ids), the device end is a
 * plain Transport an emulator serves. Built on the memory link, so it runs under virtual time;
 * `unplug()` is the board pulled out (both ends `disconnected`, opens fail until `plug()`).
 *
 *   const hid = createInProcessHid({ scheduler, info: { vendorId: 0x2d80, productId: 0x8001 } });
 *   new BoardEmulatorRunner({ transport: hid.device, board: chessnutBoard(new ChessnutEmulator()) }).start();
 *   chessnutSession$(hid.host, { scheduler, device: hid.host.info }).subscribe(…);
 */
import type { SchedulerLike } from 'rxjs';
import type { HidPort } from './hid.js';
import type { HidDeviceInfo } from './hidBackend.js';
import { createMemoryLink, type MemoryTransport } from './memory.js';

export interface InProcessHidOptions {
  readonly scheduler?: SchedulerLike;
  readonly now?: () => number;
  /** Delay of each report, ms; default 0. */
  readonly latencyMs?: number;
  /** How the device lists itself; path, release and interface get defaults. */
  readonly info?: Partial<HidDeviceInfo> & Pick<HidDeviceInfo, 'vendorId' | 'productId'>;
}

export interface InProcessHid {
  /** What the daemon opens. */
  readonly host: HidPort & { readonly writes: MemoryTransport['writes'] };
  /** What the emulator serves. */
  readonly device: MemoryTransport;
  readonly info: HidDeviceInfo;
  unplug(detail?: string): void;
  plug(): void;
  readonly plugged: boolean;
}

let counter = 0;

export const createInProcessHid = (options: InProcessHidOptions = {}): InProcessHid => {
  const given = options.info ?? { vendorId: 0, productId: 0 };
  const path = given.path ?? `hid-memory:${++counter}`;
  const info: HidDeviceInfo = { release: 0x100, interface: 0, ...given, path };
  const link = createMemoryLink({
    ...(options.scheduler !== undefined && { scheduler: options.scheduler }),
    ...(options.now !== undefined && { now: options.now }),
    ...(options.latencyMs !== undefined && { latencyMs: options.latencyMs }),
    names: [path, `${path}#device`],
  });
  const end = link.host;
  const host: InProcessHid['host'] = {
    path,
    info,
    open: () => end.open(),
    write: bytes => end.write(bytes),
    close: () => end.close(),
    bytes$: end.bytes$,
    get writes() {
      return end.writes;
    },
  };
  return {
    host,
    device: link.device,
    info,
    unplug: detail => link.unplug(detail ?? 'device unplugged'),
    plug: () => link.plug(),
    get plugged() {
      return link.plugged;
    },
  };
};
