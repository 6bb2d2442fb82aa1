/**
 * The connection to one Millennium ChessLink board (reference §1.4, §1.5, §1.8, §1.9) as an
 * Observable of observations: open the transport, wait, ask for the version (`V`, which names
 * the model), read the report mode (`R02`) and write it only when it differs (E2ROM writes are
 * permanent), ask for the status (`S`), then follow the board's `s` reports as square changes.
 * A status request goes out after a second of silence (a board in report-on-change mode is quiet
 * while nobody moves); a link silent for `silenceMs` is lost, reopened with back-off, and starts
 * over with a fresh full snapshot. LED requests (`leds$`) become `L` / `X` commands, the newest
 * state only, sent again after every reconnection.
 *
 *   const port = new SerialTransport({ path: '/dev/ttyUSB0', ...millenniumSerialOptions('7O1') });
 *   millenniumSession$(port, { commandParity: false, leds$ }).subscribe(obs => console.log(obs.type));
 *   // link resynchronising, identity, snapshot, link connected, register, square, square, …
 *
 * Link settings: the board speaks 38400 baud 7O1, which on the wire equals 8N1 with a parity bit
 * in bit 7 (§1.2). Open the port either way: 8N1 with `commandParity: true` (the reference's
 * advice, the default) or 7O1 with `commandParity: false`. Replies are read with `parity: 'auto'`,
 * which accepts both readings.
 */
import {
  asyncScheduler,
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
  BehaviorSubject,
} from 'rxjs';
import type { Backoff } from '../backoff.js';
import { awakeTimer$, LinkSilentError, sessionNow } from '../link.js';
import type { LinkObservation, Orientation } from '../observation.js';
import type { BoardObservation, LedGroup } from '../observationExtra.js';
import type { Transport } from '../transport/transport.js';
import { MillenniumDecoder } from './codec.js';
import { makeCommand, makeLedCommand, type MillenniumCommand } from './commands.js';
import type { ParityMode } from './framing.js';
import { DEFAULT_SLOT_TIME } from './leds.js';
import { REGISTER, REPORT_MODE, SERIAL_SETTINGS } from './protocol.js';
import { alongside, every$, PacedWriter, sessionAttempts$, SnapshotTracker } from '../sessionKit.js';

export interface MillenniumSessionOptions {
  /** Timers (handshake, keepalive, silence, back-off, pacing); default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Clock for link observations; default the scheduler's now() if one is given, else performance.now. */
  readonly now?: () => number;
  /** 'normal' = orientation A, 'rotated' = B, 'auto' (default) = detect from the start position. */
  readonly orientation?: Orientation | 'auto';
  /** How bit 7 of replies is read; default 'auto' (odd parity or clear). */
  readonly parity?: ParityMode;
  /** Set odd parity in bit 7 of commands: true (default) on an 8N1 port, false on a 7O1 port. */
  readonly commandParity?: boolean;
  /**
   * Register 02 at connect time: 3 = report on change (default), 4–7 = on change after 2–5
   * stable scans, 0 = every scan; 'keep' leaves the board's setting alone.
   */
  readonly reportMode?: number | 'keep';
  /** Wait after opening before the first write; default 300 ms (mono424 waits before its first command). */
  readonly openDelayMs?: number;
  /** Least time between two writes; default 50 ms. */
  readonly commandGapMs?: number;
  /** Resend version / status requests until answered, every this many ms; default 2000. */
  readonly handshakeRetryMs?: number;
  /** Send a status request after this long without bytes, and again while it lasts; default 1000. */
  readonly keepaliveMs?: number;
  /** Declare the link lost after this long without bytes; default 5000. */
  readonly silenceMs?: number;
  readonly backoff?: Backoff;
  /** Attempts before giving up with the last error; default Infinity. */
  readonly maxAttempts?: number;
  /** LED requests (game frame); an empty list turns every LED off. Subscribed once per session. */
  readonly leds$?: Observable<readonly LedGroup[]>;
  /** Blink slot time in 4.096 ms units; default 0x32 (the vendor's sample). */
  readonly ledSlotTime?: number;
  /** Decoder buffer cap; default the decoder's. */
  readonly bufferCap?: number;
}

/** SerialTransport settings for the two ways of opening the port (§1.2). */
export const millenniumSerialOptions = (
  link: '8N1' | '7O1',
): { baudRate: number; dataBits: 7 | 8; parity: 'odd' | 'none'; stopBits: 1 } =>
  link === '7O1'
    ? { baudRate: SERIAL_SETTINGS.baudRate, dataBits: 7, parity: 'odd', stopBits: 1 }
    : { baudRate: SERIAL_SETTINGS.baudRate, dataBits: 8, parity: 'none', stopBits: 1 };

/** The connection state machine of one board. Cold: subscribing connects, unsubscribing closes. */
export const millenniumSession$ = (
  transport: Transport,
  options: MillenniumSessionOptions = {},
): Observable<BoardObservation> => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = sessionNow(options);
  const openDelay = options.openDelayMs ?? 300;
  const retryMs = options.handshakeRetryMs ?? 2000;
  const keepaliveMs = options.keepaliveMs ?? 1000;
  const silenceMs = options.silenceMs ?? 5000;
  const wantedMode = options.reportMode ?? REPORT_MODE.ON_CHANGE;
  if (wantedMode !== 'keep' && !(Number.isInteger(wantedMode) && wantedMode >= 0 && wantedMode <= 7))
    throw new TypeError(`reportMode must be 0–7 or 'keep', got ${wantedMode}`);

  return defer(() => {
    const tracker = new SnapshotTracker(options.orientation ?? 'auto');
    // The newest LED request outlives connections: it is sent again after each one.
    const leds = new BehaviorSubject<readonly LedGroup[] | undefined>(undefined);
    const ledInput$ = (options.leds$ ?? EMPTY).pipe(
      tap(g => leds.next(g)),
      ignoreElements(),
    );

    const attempts$ = sessionAttempts$<BoardObservation>(
      ({ connected }) => {
        tracker.reconnected();
        const decoder = new MillenniumDecoder({
          parity: options.parity ?? 'auto',
          ...(options.bufferCap !== undefined && { bufferCap: options.bufferCap }),
        });
        const pacer = new PacedWriter(
          bytes => {
            // A failed write is not a verdict on the link: reads and the silence timer decide.
            transport.write(bytes).catch(() => undefined);
          },
          options.commandGapMs ?? 50,
          scheduler,
        );
        const send = (c: MillenniumCommand, key?: string): void =>
          pacer.send(
            makeCommand(c, { parity: options.commandParity ?? true }),
            key === undefined ? {} : { key },
          );
        const activity$ = new Subject<void>();
        const connectedNow$ = new Subject<void>();
        const ended$ = new Subject<void>();
        let versionSeen = false;
        let statusSeen = false;
        let modeSeen = wantedMode === 'keep';
        let isConnected = false;

        const handle = (o: BoardObservation): (BoardObservation | LinkObservation)[] => {
          const out: (BoardObservation | LinkObservation)[] = [];
          if (o.type === 'identity') {
            versionSeen = true;
            out.push(...tracker.identity(o));
          } else if (o.type === 'snapshot') {
            statusSeen = true;
            out.push(...tracker.snapshot(o));
          } else {
            if (o.type === 'register' && o.address === REGISTER.REPORT_MODE && !o.written) {
              modeSeen = true;
              if (wantedMode !== 'keep' && (o.value & 0x07) !== wantedMode)
                send({ kind: 'write-register', address: REGISTER.REPORT_MODE, value: wantedMode });
            }
            out.push(o);
          }
          if (!isConnected && versionSeen && statusSeen) {
            isConnected = true;
            out.push(connected());
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

        const ask = (): void => {
          if (!versionSeen) send({ kind: 'version' });
          if (!modeSeen) send({ kind: 'read-register', address: REGISTER.REPORT_MODE });
          if (!statusSeen) send({ kind: 'status' });
        };
        const handshake$ = timer(openDelay, scheduler).pipe(tap(ask), ignoreElements());
        const retries$ = timer(openDelay, scheduler).pipe(
          switchMap(() => every$(retryMs, scheduler)),
          takeWhile(() => !isConnected || !modeSeen),
          tap(ask),
          ignoreElements(),
        );

        const quiet$ = activity$.pipe(startWith(undefined));
        const keepalive$ = quiet$.pipe(
          switchMap(() => every$(keepaliveMs, scheduler)),
          tap(() => send({ kind: 'status' }, 'status')),
          ignoreElements(),
        );
        const silence$ = quiet$.pipe(
          switchMap(() => awakeTimer$(silenceMs, scheduler)),
          mergeMap(() => throwError(() => new LinkSilentError(silenceMs))),
        );

        const leds$ = connectedNow$.pipe(
          take(1),
          switchMap(() => leds),
          filter((g): g is readonly LedGroup[] => g !== undefined),
          tap(groups =>
            send(
              groups.length === 0
                ? { kind: 'leds-off' }
                : makeLedCommand(groups, tracker.orientation, options.ledSlotTime ?? DEFAULT_SLOT_TIME),
              'leds',
            ),
          ),
          ignoreElements(),
        );

        return merge(handshake$, retries$, keepalive$, silence$, leds$, main$).pipe(
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
    return alongside(attempts$, ledInput$);
  });
};
