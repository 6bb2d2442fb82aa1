/**
 * The connection to one Chessnut board over USB HID (reference §3.2–§3.7) as an Observable of
 * observations: open the device, send the start command (`21 01 00`, nothing is reported before
 * it), ask for the MCU version and the battery, then follow the position reports that come every
 * 200 ms: the first of each connection whole, later ones as the squares that changed (repeats
 * give nothing). Every write keeps the SDK's 200 ms gap. When the reports stop for `keepaliveMs`
 * the start command is sent again; after `silenceMs` the link is lost, reopened with back-off,
 * and starts over (the board forgets real-time mode when unplugged, §3.7 step 6).
 *
 *   const port = new HidTransport({ path: info.path!, info });
 *   chessnutSession$(port, { device: info, leds$ }).subscribe(obs => console.log(obs.type));
 *   // link resynchronising, snapshot, link connected, identity, identity, battery, square…
 *
 * LEDs: on or off per square only; `blink` and `blink-inverse` groups are blinked by the session
 * (every `blinkMs`), which the 200 ms write gap allows.
 */
import {
  asyncScheduler,
  BehaviorSubject,
  concatMap,
  defer,
  EMPTY,
  filter,
  ignoreElements,
  merge,
  mergeMap,
  type Observable,
  type SchedulerLike,
  startWith,
  Subject,
  switchMap,
  take,
  takeUntil,
  takeWhile,
  tap,
  throwError,
  timer,
} from 'rxjs';
import type { Backoff } from '../backoff.js';
import { awakeTimer$, LinkSilentError, sessionNow } from '../link.js';
import {
  alongside,
  every$,
  ledPhases$,
  PacedWriter,
  sessionAttempts$,
  SnapshotTracker,
} from '../sessionKit.js';
import type { IdentityObservation, LinkObservation, Orientation } from '../observation.js';
import type { BoardObservation, LedGroup } from '../observationExtra.js';
import type { Transport } from '../transport/transport.js';
import { ChessnutDecoder } from './codec.js';
import { type ChessnutCommand, makeCommand } from './commands.js';
import { modelFromProductId, VENDOR } from './protocol.js';

export interface ChessnutSessionOptions {
  /** Timers (handshake, keepalive, silence, back-off, pacing, blinking); default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Clock for link observations; default the scheduler's now() if given, else performance.now. */
  readonly now?: () => number;
  /** 'auto' (default) detects a turned board from the start position. */
  readonly orientation?: Orientation | 'auto';
  /** The device as listed (product id → model, serial number), reported as identity. */
  readonly device?: { readonly productId?: number; readonly serialNumber?: string | undefined };
  /** Wait after opening before the first write; default 100 ms. */
  readonly openDelayMs?: number;
  /** Least time between two writes; default 200 ms (the vendor SDK). */
  readonly writeGapMs?: number;
  /** Resend the start command until a position arrives, every this many ms; default 2000. */
  readonly handshakeRetryMs?: number;
  /** Send the start command again after this long without a report; default 1000. */
  readonly keepaliveMs?: number;
  /** Declare the link lost after this long without a report; default 3000. */
  readonly silenceMs?: number;
  readonly backoff?: Backoff;
  /** Attempts before giving up with the last error; default Infinity. */
  readonly maxAttempts?: number;
  /** Ask for the MCU version after starting; default true. */
  readonly version?: boolean;
  /** Ask for the battery after starting; default true. */
  readonly battery?: boolean;
  /** LED requests (game frame); an empty list turns every LED off. */
  readonly leds$?: Observable<readonly LedGroup[]>;
  /** Blink period for `blink` / `blink-inverse` groups; default 600 ms. */
  readonly blinkMs?: number;
}

/** The connection state machine of one board. Cold: subscribing connects, unsubscribing closes. */
export const chessnutSession$ = (
  transport: Transport,
  options: ChessnutSessionOptions = {},
): Observable<BoardObservation> => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = sessionNow(options);
  const openDelay = options.openDelayMs ?? 100;
  const retryMs = options.handshakeRetryMs ?? 2000;
  const keepaliveMs = options.keepaliveMs ?? 1000;
  const silenceMs = options.silenceMs ?? 3000;
  const device = options.device;

  return defer(() => {
    const tracker = new SnapshotTracker(options.orientation ?? 'auto');
    const leds = new BehaviorSubject<readonly LedGroup[] | undefined>(undefined);

    const attempts$ = sessionAttempts$<BoardObservation>(
      ({ connected }) => {
        tracker.reconnected();
        const decoder = new ChessnutDecoder();
        const pacer = new PacedWriter(
          bytes => {
            transport.write(bytes).catch(() => undefined);
          },
          options.writeGapMs ?? 200,
          scheduler,
        );
        const send = (c: ChessnutCommand, o: { key?: string; then?: () => void } = {}): void =>
          pacer.send(makeCommand(c, { orientation: tracker.orientation }), o);
        const activity$ = new Subject<void>();
        const connectedNow$ = new Subject<void>();
        const ended$ = new Subject<void>();
        let positionSeen = false;

        const identity = (at: number): IdentityObservation[] => {
          const pid = device?.productId;
          const model = pid === undefined ? undefined : modelFromProductId(pid);
          return tracker.identity({
            type: 'identity',
            at,
            vendor: VENDOR,
            ...(model !== undefined && { model }),
            ...(device?.serialNumber !== undefined && { serial: device.serialNumber }),
          });
        };

        const handle = (o: BoardObservation): (BoardObservation | LinkObservation)[] => {
          if (o.type === 'identity') return tracker.identity(o);
          if (o.type !== 'snapshot') return [o];
          const out: (BoardObservation | LinkObservation)[] = tracker.snapshot(o);
          if (!positionSeen) {
            positionSeen = true;
            out.push(connected(), ...identity(o.at));
            connectedNow$.next();
          }
          return out;
        };

        const main$ = transport.bytes$.pipe(
          concatMap(chunk => {
            activity$.next();
            return decoder.push(chunk.bytes, chunk.at).flatMap(handle);
          }),
          tap({ complete: () => ended$.next() }),
        );

        const start = (): void => send({ kind: 'start' }, { key: 'start' });
        const handshake$ = timer(openDelay, scheduler).pipe(tap(start), ignoreElements());
        const retries$ = timer(openDelay, scheduler).pipe(
          switchMap(() => every$(retryMs, scheduler)),
          takeWhile(() => !positionSeen),
          tap(start),
          ignoreElements(),
        );
        const queries$ = connectedNow$.pipe(
          take(1),
          tap(() => {
            if (options.version ?? true)
              send({ kind: 'version', which: 'mcu' }, { then: () => decoder.expectVersion('mcu') });
            if (options.battery ?? true) send({ kind: 'battery' });
          }),
          ignoreElements(),
        );

        const quiet$ = activity$.pipe(startWith(undefined));
        const keepalive$ = quiet$.pipe(
          switchMap(() => every$(keepaliveMs, scheduler)),
          filter(() => positionSeen),
          tap(start),
          ignoreElements(),
        );
        const silence$ = quiet$.pipe(
          switchMap(() => awakeTimer$(silenceMs, scheduler)),
          mergeMap(() => throwError(() => new LinkSilentError(silenceMs))),
        );

        const leds$ = connectedNow$.pipe(
          take(1),
          switchMap(() =>
            ledPhases$(
              leds.pipe(filter((g): g is readonly LedGroup[] => g !== undefined)),
              options.blinkMs ?? 600,
              scheduler,
            ),
          ),
          tap(squares => send({ kind: 'leds', squares }, { key: 'leds' })),
          ignoreElements(),
        );

        return merge(handshake$, retries$, queries$, keepalive$, silence$, leds$, main$).pipe(
          takeUntil(ended$),
          tap({ finalize: () => pacer.dispose() }),
        );
      },
      {
        scheduler,
        now,
        ...(options.backoff !== undefined && { backoff: options.backoff }),
        ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
      },
    );
    const ledInput$ = (options.leds$ ?? EMPTY).pipe(
      tap(g => leds.next(g)),
      ignoreElements(),
    );
    return alongside(attempts$, ledInput$);
  });
};
