/**
 * Building blocks shared by the Millennium, Certabo and Chessnut sessions (the three boards that
 * report whole positions rather than single squares): a tracker that turns board-frame snapshots
 * into one fresh snapshot per connection followed by square changes in the game frame; the
 * attempt loop with link observations and back-off; a paced writer that keeps a minimum gap
 * between writes and keeps only the newest LED state; LED phases for boards that cannot blink by
 * themselves; `every$`, a periodic timer that stays flat under virtual time; and `ofKind`.
 * Pure RxJS on an injected scheduler, so everything runs in virtual time.
 *
 *   const tracker = new SnapshotTracker('auto');
 *   tracker.snapshot(snapshot); // [snapshot] first, then [square, square…] for what changed
 *   const pacer = new PacedWriter(bytes => void transport.write(bytes), 200, scheduler);
 */
import type { SquareSet } from 'chessops';
import {
  catchError,
  concat,
  defer,
  distinctUntilChanged,
  filter,
  repeat,
  map,
  Observable,
  of,
  retry,
  type SchedulerLike,
  startWith,
  switchMap,
  type Subscription,
  throwError,
  timer,
} from 'rxjs';
import { backoffDelay, type Backoff } from './backoff.js';
import {
  detectOrientation,
  type IdentityObservation,
  type LinkObservation,
  type Orientation,
  orientSquares,
  type SnapshotObservation,
  type SquareContent,
  type SquareObservation,
} from './observation.js';
import { ledSquares, type LedGroup } from './observationExtra.js';

const same = (a: SquareContent | undefined, b: SquareContent | undefined): boolean => {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.kind !== b.kind) return false;
  if (a.kind === 'piece' && b.kind === 'piece') return a.color === b.color && a.role === b.role;
  if (a.kind === 'result-piece' && b.kind === 'result-piece') return a.result === b.result;
  return true;
};

/**
 * Board-frame snapshots in, game-frame observations out. The first snapshot after `reconnected()`
 * (and after the detected orientation changes) is reported whole: the fresh full state a consumer
 * must rebuild from. Later snapshots become square observations for the squares that changed,
 * emptied squares first (a hand lifts before it places), then by square number. Identical
 * snapshots (boards that report every scan or every 200 ms) give nothing.
 */
export class SnapshotTracker {
  orientation: Orientation;
  private mirror: SquareContent[] | undefined;
  private fresh = true;
  private known: Partial<Record<string, unknown>> = {};

  constructor(private readonly configured: Orientation | 'auto') {
    this.orientation = configured === 'auto' ? 'normal' : configured;
  }

  /** The board in the game frame, once a snapshot was seen. */
  get squares(): SquareContent[] | undefined {
    return this.mirror === undefined ? undefined : orientSquares(this.mirror, this.orientation);
  }

  /** A new connection: the next snapshot is reported whole; identity is reported again. */
  reconnected(): void {
    this.fresh = true;
    this.known = {};
  }

  /** One snapshot in the board's own frame. */
  snapshot(o: SnapshotObservation): (SnapshotObservation | SquareObservation)[] {
    const before = this.mirror === undefined ? undefined : orientSquares(this.mirror, this.orientation);
    this.mirror = [...o.squares];
    const flipped = this.detect();
    const now = orientSquares(this.mirror, this.orientation);
    if (this.fresh || flipped || before === undefined) {
      this.fresh = false;
      return [{ type: 'snapshot', at: o.at, squares: now }];
    }
    const changed = now.flatMap((c, sq) => (same(c, before[sq]) ? [] : [sq]));
    const lifts = changed.filter(sq => now[sq]?.kind === 'empty');
    const places = changed.filter(sq => now[sq]?.kind !== 'empty');
    return [...lifts, ...places].map((square): SquareObservation => ({
      type: 'square',
      at: o.at,
      square,
      content: now[square] ?? { kind: 'empty' },
    }));
  }

  /** An identity observation, passed on only with fields not yet reported on this connection. */
  identity(o: IdentityObservation): IdentityObservation[] {
    const { type: _type, at: _at, vendor: _vendor, ...fields } = o;
    const entries = Object.entries(fields).filter(([k, v]) => this.known[k] !== v);
    if (entries.length === 0) return [];
    for (const [k, v] of entries) this.known[k] = v;
    return [o];
  }

  private detect(): boolean {
    if (this.configured !== 'auto' || this.mirror === undefined) return false;
    const o = detectOrientation(this.mirror);
    if (o === undefined || o === this.orientation) return false;
    this.orientation = o;
    return true;
  }
}

export interface AttemptOptions {
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly backoff?: Backoff;
  /** Attempts before giving up with the last error; default Infinity. */
  readonly maxAttempts?: number;
}

export interface AttemptContext {
  /** 1-based number of this attempt. */
  readonly attempt: number;
  /** Call once the board is up: resets the back-off and returns the `connected` observation. */
  readonly connected: (detail?: string) => LinkObservation;
}

export const makeLink = (at: number, state: LinkObservation['state'], detail?: string): LinkObservation => ({
  type: 'link',
  at,
  state,
  ...(detail !== undefined && { detail }),
});

const describeError = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Runs connection attempts one after the other: each starts with `resynchronising`, ends with
 * `lost` (and the reason) when it errors, and the next starts after an exponential back-off that
 * a successful connection resets.
 */
export const sessionAttempts$ = <T>(
  attempt: (ctx: AttemptContext) => Observable<T | LinkObservation>,
  options: AttemptOptions,
): Observable<T | LinkObservation> =>
  defer(() => {
    let n = 0;
    let failures = 0;
    const one$ = defer(() => {
      n++;
      const ctx: AttemptContext = {
        attempt: n,
        connected: detail => {
          failures = 0;
          return makeLink(options.now(), 'connected', detail ?? `attempt ${ctx.attempt}`);
        },
      };
      return attempt(ctx).pipe(
        startWith(makeLink(options.now(), 'resynchronising', `attempt ${n}`)),
        catchError((e: unknown) =>
          concat(
            of(makeLink(options.now(), 'lost', describeError(e))),
            throwError(() => e),
          ),
        ),
      );
    });
    return one$.pipe(
      retry({
        count: (options.maxAttempts ?? Infinity) - 1,
        delay: () => timer(backoffDelay(++failures, options.backoff), options.scheduler),
      }),
    );
  });

/**
 * Runs `side$` (session inputs such as `leds$`, calibration requests) for exactly as long as
 * `main$`: its values are passed on, its errors ignored, and the result ends when `main$` ends.
 */
export const alongside = <T>(main$: Observable<T>, side$: Observable<T>): Observable<T> =>
  new Observable<T>(subscriber => {
    const side = side$.subscribe({ next: v => subscriber.next(v), error: () => undefined });
    const main = main$.subscribe(subscriber);
    return () => {
      main.unsubscribe();
      side.unsubscribe();
    };
  });

interface Pending {
  readonly bytes: Uint8Array;
  readonly key: string | undefined;
  readonly then: (() => void) | undefined;
}

/**
 * Writes with at least `gapMs` between two writes (Chessnut's SDK waits 200 ms; Certabo boards
 * miss LED commands sent closer than 600–750 ms). Items with a key replace a queued item with the
 * same key, so only the newest LED state waits. `then` runs when the item is actually written.
 */
export class PacedWriter {
  private readonly queue: Pending[] = [];
  private last = -Infinity;
  private drain: Subscription | undefined;
  private closed = false;

  constructor(
    private readonly write: (bytes: Uint8Array) => void,
    private readonly gapMs: number,
    private readonly scheduler: SchedulerLike,
  ) {}

  /** Queued items not yet written. */
  get pending(): number {
    return this.queue.length;
  }

  send(bytes: Uint8Array, options: { readonly key?: string; readonly then?: () => void } = {}): void {
    if (this.closed) return;
    const item: Pending = { bytes, key: options.key, then: options.then };
    const i = item.key === undefined ? -1 : this.queue.findIndex(q => q.key === item.key);
    if (i >= 0) this.queue[i] = item;
    else this.queue.push(item);
    this.pump();
  }

  /** Drops the queue and stops writing. */
  dispose(): void {
    this.closed = true;
    this.queue.length = 0;
    this.drain?.unsubscribe();
    this.drain = undefined;
  }

  private pump(): void {
    if (this.drain !== undefined || this.closed) return;
    const wait = this.last + this.gapMs - this.scheduler.now();
    if (wait > 0) {
      this.drain = this.scheduler.schedule(() => {
        this.drain = undefined;
        this.pump();
      }, wait);
      return;
    }
    const item = this.queue.shift();
    if (item === undefined) return;
    this.last = this.scheduler.now();
    this.write(item.bytes);
    item.then?.();
    if (this.queue.length > 0) this.pump();
  }
}

/**
 * The squares to light over time for a board without hardware blinking: steady groups always,
 * `blink` in one phase and `blink-inverse` in the other, switching every `blinkMs`. Without
 * `blinkMs` (or without blinking groups) every group is lit steadily.
 */
export const ledPhases$ = (
  groups$: Observable<readonly LedGroup[]>,
  blinkMs: number | undefined,
  scheduler: SchedulerLike,
): Observable<SquareSet> =>
  groups$.pipe(
    switchMap(groups => {
      const blinking = groups.some(g => g.style !== 'steady');
      if (blinkMs === undefined || !blinking) return of(ledSquares(groups));
      const phase = (odd: boolean): SquareSet =>
        ledSquares(groups.filter(g => g.style === 'steady' || g.style === (odd ? 'blink-inverse' : 'blink')));
      return every$(blinkMs, scheduler).pipe(
        map(i => phase(i % 2 === 0)),
        startWith(phase(false)),
      );
    }),
    distinctUntilChanged((a, b) => a.equals(b)),
  );

/**
 * 0, 1, 2, … every `periodMs` after the first period, like `interval`, but as a timer that is
 * re-subscribed: under a TestScheduler an `interval` running for a long virtual time nests one
 * action per period and overflows the stack when unsubscribed; this one stays flat.
 */
export const every$ = (periodMs: number, scheduler: SchedulerLike): Observable<number> =>
  defer(() => {
    let n = 0;
    return timer(periodMs, scheduler).pipe(
      repeat(),
      map(() => n++),
    );
  });

/** Only the observations of some types, for any observation union (e.g. `ofKind('link')`). */
export const ofKind =
  <O extends { readonly type: string }, K extends O['type']>(...types: K[]) =>
  (source$: Observable<O>): Observable<Extract<O, { type: K }>> =>
    source$.pipe(filter((o): o is Extract<O, { type: K }> => (types as string[]).includes(o.type)));
