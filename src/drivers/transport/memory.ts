/**
 * An in-process duplex: two transports joined like the two ends of a cable. What one end writes,
 * the other end's `bytes$` receives (after `latencyMs`, on the injected scheduler, so virtual
 * time works). `unplug()` pulls the cable: both ends fail with `disconnected` and cannot be
 * opened until `plug()`. Each end records what it wrote (`writes`, `lastWrite`) for assertions.
 *
 *   const link = createMemoryLink({ scheduler, now: () => scheduler.now() });
 *   link.device.bytes$.subscribe(c => void link.device.write(reply(c.bytes)));
 *   dgtSession$(link.host, { scheduler }).subscribe(obs => seen.push(obs));
 */
import { asyncScheduler, Observable, type SchedulerLike, type Subscriber } from 'rxjs';
import { type Chunk, monotonicNow, type Transport, TransportError } from './transport.js';

export interface MemoryLinkOptions {
  /** Delivers bytes and stamps chunks; default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Receipt-time clock; default the given scheduler's `now()`, else performance.now. */
  readonly now?: () => number;
  /** Delay between a write and its arrival at the other end, ms; default 0. */
  readonly latencyMs?: number;
  /** Names of the two ends, for reports; default `memory:host` / `memory:device`. */
  readonly names?: readonly [string, string];
}

interface LinkCore {
  plugged: boolean;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly latencyMs: number;
}

/** One end of a memory link. */
export class MemoryTransport implements Transport {
  private opened = false;
  private subscriber: Subscriber<Chunk> | undefined;
  private peer: MemoryTransport | undefined;
  private readonly written: Chunk[] = [];

  constructor(
    readonly path: string,
    private readonly core: LinkCore,
  ) {}

  /** @internal joins two ends; called once by createMemoryLink. */
  connect(peer: MemoryTransport): void {
    this.peer = peer;
  }

  get isOpen(): boolean {
    return this.opened;
  }

  /** Everything this end wrote, stamped with the link's clock. */
  get writes(): readonly Chunk[] {
    return this.written;
  }

  /** The last write's bytes, or undefined before the first write. */
  get lastWrite(): Uint8Array | undefined {
    return this.written.at(-1)?.bytes;
  }

  open(): Promise<void> {
    if (!this.core.plugged)
      return Promise.reject(
        new TransportError({ kind: 'open-failed', path: this.path, detail: 'unplugged' }),
      );
    this.opened = true;
    return Promise.resolve();
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.core.plugged)
      return Promise.reject(new TransportError({ kind: 'disconnected', detail: 'unplugged' }));
    if (!this.opened) return Promise.reject(new TransportError({ kind: 'not-open' }));
    const copy = bytes.slice();
    this.written.push({ at: this.core.now(), bytes: copy });
    const peer = this.peer;
    if (peer !== undefined) this.core.scheduler.schedule(() => peer.receive(copy), this.core.latencyMs);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.opened = false;
    const s = this.subscriber;
    this.subscriber = undefined;
    s?.error(new TransportError({ kind: 'canceled' }));
    return Promise.resolve();
  }

  readonly bytes$: Observable<Chunk> = new Observable<Chunk>(subscriber => {
    if (this.subscriber !== undefined) {
      subscriber.error(new TransportError({ kind: 'busy' }));
      return undefined;
    }
    if (!this.core.plugged) {
      subscriber.error(new TransportError({ kind: 'open-failed', path: this.path, detail: 'unplugged' }));
      return undefined;
    }
    this.opened = true;
    this.subscriber = subscriber;
    return () => {
      if (this.subscriber === subscriber) {
        this.subscriber = undefined;
        this.opened = false;
      }
    };
  });

  /** Bytes from the peer: dropped unless this end is open and read. */
  private receive(bytes: Uint8Array): void {
    if (!this.opened || !this.core.plugged) return;
    this.subscriber?.next({ at: this.core.now(), bytes });
  }

  /** @internal the cable was pulled. */
  pull(detail: string): void {
    const s = this.subscriber;
    this.subscriber = undefined;
    this.opened = false;
    s?.error(new TransportError({ kind: 'disconnected', detail }));
  }
}

export interface MemoryLink {
  /** The host's end (what a session reads). */
  readonly host: MemoryTransport;
  /** The device's end (what an emulator serves). */
  readonly device: MemoryTransport;
  /** Pulls the cable: both ends fail with `disconnected`; opens fail until plug(). */
  unplug(detail?: string): void;
  plug(): void;
  readonly plugged: boolean;
}

export const createMemoryLink = (options: MemoryLinkOptions = {}): MemoryLink => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const core: LinkCore = {
    plugged: true,
    scheduler,
    now: options.now ?? (options.scheduler !== undefined ? () => scheduler.now() : monotonicNow),
    latencyMs: options.latencyMs ?? 0,
  };
  const [hostName, deviceName] = options.names ?? ['memory:host', 'memory:device'];
  const host = new MemoryTransport(hostName, core);
  const device = new MemoryTransport(deviceName, core);
  host.connect(device);
  device.connect(host);
  return {
    host,
    device,
    unplug: (detail = 'cable pulled') => {
      core.plugged = false;
      host.pull(detail);
      device.pull(detail);
    },
    plug: () => {
      core.plugged = true;
    },
    get plugged() {
      return core.plugged;
    },
  };
};
