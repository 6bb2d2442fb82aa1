/**
 * The transport contract every byte source implements (STYLE item 11): Promise-based `open`,
 * `write` and `close`, and a cold `bytes$` that opens the port when subscribed and closes it when
 * the subscription ends. Every chunk carries its receipt time from an injected clock. Failures are
 * `TransportError`s whose `problem` tells our own close (`canceled`) from a vanished device
 * (`disconnected`), so a session knows when to reconnect.
 *
 *   const sub = transport.bytes$.subscribe({ next: c => decoder.push(c.bytes, c.at), error: e => retry(e) });
 *   await transport.write(Uint8Array.of(0x42)); // waits for an open in progress
 *   sub.unsubscribe(); // closes the port
 */
import type { Observable } from 'rxjs';

/** One read from the device: the bytes and when they arrived (ms, from the transport's clock). */
export interface Chunk {
  readonly at: number;
  readonly bytes: Uint8Array;
}

/** Why a transport operation failed. */
export type TransportProblem =
  /** We closed the port ourselves (close() or unsubscribe) while the operation was pending. */
  | { readonly kind: 'canceled' }
  /** The device went away: cable pulled, PTY pair gone, I/O error on an open port. */
  | { readonly kind: 'disconnected'; readonly detail: string }
  /** The port could not be opened (missing, busy, no permission). */
  | { readonly kind: 'open-failed'; readonly path: string; readonly detail: string }
  /** An operation that needs an open port was called on a closed one. */
  | { readonly kind: 'not-open' }
  /** `bytes$` already has a subscriber: a port has one reader. */
  | { readonly kind: 'busy' };

export type TransportProblemKind = TransportProblem['kind'];

const describe = (p: TransportProblem): string => {
  switch (p.kind) {
    case 'canceled':
      return 'canceled: the port was closed by us';
    case 'disconnected':
      return `disconnected: ${p.detail}`;
    case 'open-failed':
      return `cannot open ${p.path}: ${p.detail}`;
    case 'not-open':
      return 'the port is not open';
    case 'busy':
      return 'the port already has a reader';
  }
};

export class TransportError extends Error {
  constructor(readonly problem: TransportProblem) {
    super(describe(problem));
    this.name = 'TransportError';
  }

  /** True for our own close; false for every failure of the outside world. */
  get canceled(): boolean {
    return this.problem.kind === 'canceled';
  }

  /** True when the device vanished while open (the session should reconnect). */
  get disconnected(): boolean {
    return this.problem.kind === 'disconnected';
  }
}

export const isTransportError = (e: unknown): e is TransportError => e instanceof TransportError;

/** Wraps any failure as a TransportError (non-transport errors become `disconnected`). */
export const toTransportError = (e: unknown): TransportError =>
  isTransportError(e)
    ? e
    : new TransportError({ kind: 'disconnected', detail: e instanceof Error ? e.message : String(e) });

export interface Transport {
  /** What this transport talks to (a device path, `memory:…`, `replay:…`), for logs and reports. */
  readonly path: string;
  /** Opens the port; resolves when it is ready. Idempotent while open. */
  open(): Promise<void>;
  /** Writes bytes; resolves once they are handed to the OS (waits for an open in progress). */
  write(bytes: Uint8Array): Promise<void>;
  /** Closes the port; pending operations fail with `canceled`. Idempotent. */
  close(): Promise<void>;
  /**
   * Cold: subscribing opens the port (if not already open) and emits every read; unsubscribing
   * closes it. Errors with a TransportError; never completes for a live device (a replay
   * completes after its last read).
   */
  readonly bytes$: Observable<Chunk>;
}

/** The default clock: monotonic milliseconds. */
export const monotonicNow = (): number => performance.now();
