/**
 * The connection to one DGT board (reference §5.3) as an Observable of observations: open the
 * transport, wait, switch to UPDATE_NICE, ask for version and serial number, take a board dump
 * (with the update mode sent again right after the dump request, in the same write), ask the
 * clock for its version, then follow the board. A probe (serial number request) goes out
 * after a second of silence, and a link silent for longer than `silenceMs` is lost; a lost link
 * is reopened with exponential back-off and starts over with a fresh dump, the only trustworthy
 * state after a gap. A dump is also taken after the board has been quiet for `settleMs` following
 * field updates, so a dropped update is repaired. Time comes from the injected scheduler.
 *
 *   dgtSession$(new SerialTransport({ path: '/dev/ttyACM0' }), { orientation: 'auto' })
 *     .subscribe(obs => console.log(obs.type));
 *   // link resynchronising, identity…, snapshot, link connected, square, square, clock, …
 *
 * Link observations: `resynchronising` when an attempt starts (port opening, handshake), then
 * `connected` right after the first snapshot of the attempt once the board has identified
 * itself, and `lost` (with the reason) when an attempt fails. Field updates arriving before that
 * snapshot are passed on; the snapshot that follows is the authority.
 */
import {
  asyncScheduler,
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  filter,
  ignoreElements,
  merge,
  mergeMap,
  type Observable,
  of,
  retry,
  type SchedulerLike,
  startWith,
  Subject,
  switchMap,
  take,
  takeUntil,
  takeWhile,
  tap,
  throwError,
  timeout,
  timer,
} from 'rxjs';
import { type Backoff, backoffDelay } from '../backoff.js';
import { awakeTimer$, LinkSilentError, sessionNow } from '../link.js';
import type { LinkObservation, Observation, Orientation } from '../observation.js';
import type { Transport } from '../transport/transport.js';
import type { ClockCommand } from './clockCommands.js';
import { DgtDecoder } from './codec.js';
import { type DgtCommand, makeCommand } from './commands.js';
import { BoardView } from './sessionMirror.js';

export interface DgtSessionOptions {
  /** Timers (handshake, keepalive, silence, back-off, settle); default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Clock for link observations; default the scheduler's now() if a scheduler is given, else performance.now. Use the transport's clock. */
  readonly now?: () => number;
  /** Board orientation, or 'auto' to detect it from the start position (default). */
  readonly orientation?: Orientation | 'auto';
  /** Live mode: UPDATE_NICE (default, clock messages only on change) or UPDATE (every second). */
  readonly mode?: 'update-nice' | 'update';
  /** Wait after opening before the first write (§5.3: 0.3–0.5 s); default 300 ms. */
  readonly openDelayMs?: number;
  /** Pause between handshake commands (the board's input buffer is 10 bytes); default 100 ms. */
  readonly commandGapMs?: number;
  /** Resend version / dump requests until answered, every this many ms; default 2000. */
  readonly handshakeRetryMs?: number;
  /** Send a serial-number probe after this long without bytes, and again as long as it lasts; default 1000. */
  readonly keepaliveMs?: number;
  /** Declare the link lost after this long without bytes; default 5000. */
  readonly silenceMs?: number;
  /** Take a dump once the board has been quiet this long after a field update; 0 = never; default 250. */
  readonly settleMs?: number;
  readonly backoff?: Backoff;
  /** Attempts before giving up with the last error; default Infinity. */
  readonly maxAttempts?: number;
  /** Ask the clock for its version after connecting; default true. */
  readonly clock?: boolean;
  /** Clock commands to send one at a time while connected (subscribed on each connection; pass a hot stream). */
  readonly clockCommands$?: Observable<ClockCommand>;
  /** Wait for a clock message after a clock command before resending; default 2000 ms. */
  readonly clockAckMs?: number;
  /** Resends of an unanswered clock command; default 2 (three sends in all, §5.3 step 7). */
  readonly clockResends?: number;
  /** Decoder buffer cap; default the decoder's. */
  readonly bufferCap?: number;
  /**
   * Read the board's move log (EEPROM, §7) at each connection, before its dump: the changes made
   * while the host was not listening (a restart, a pulled cable), in order. Default false.
   */
  readonly readLog?: boolean;
}

const describeError = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The connection state machine of one board. Cold: subscribing connects, unsubscribing closes. */
export const dgtSession$ = (
  transport: Transport,
  options: DgtSessionOptions = {},
): Observable<Observation> => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = sessionNow(options);
  const openDelay = options.openDelayMs ?? 300;
  const gap = options.commandGapMs ?? 100;
  const retryMs = options.handshakeRetryMs ?? 2000;
  const keepaliveMs = options.keepaliveMs ?? 1000;
  const silenceMs = options.silenceMs ?? 5000;
  const settleMs = options.settleMs ?? 250;
  const mode: DgtCommand = { kind: options.mode ?? 'update-nice' };
  const link = (state: LinkObservation['state'], detail?: string): LinkObservation => ({
    type: 'link',
    at: now(),
    state,
    ...(detail !== undefined && { detail }),
  });

  return defer(() => {
    const view = new BoardView(options.orientation ?? 'auto');
    let attempt = 0;
    let failures = 0;

    const attempt$ = defer((): Observable<Observation> => {
      attempt++;
      view.reconnected();
      const decoder = new DgtDecoder(options.bufferCap !== undefined ? { bufferCap: options.bufferCap } : {});
      const activity$ = new Subject<void>();
      const squares$ = new Subject<void>();
      const clockReplies$ = new Subject<void>();
      const connectedNow$ = new Subject<void>();
      const ended$ = new Subject<void>();
      let versionSeen = false;
      let snapshotSeen = false;
      let connected = false;

      /** Writes the commands in one write, so they reach the board back to back, in order. */
      const send = (...commands: DgtCommand[]): void => {
        const parts = commands.map(c => makeCommand(c));
        const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          bytes.set(p, at);
          at += p.length;
        }
        // A failed write is not a verdict on the link: reads and the silence timer decide.
        transport.write(bytes).catch(() => undefined);
      };

      const handle = (o: Observation): Observation[] => {
        switch (o.type) {
          case 'identity':
            if (o.firmware !== undefined) versionSeen = true;
            break;
          case 'clock':
          case 'clock-ack':
            clockReplies$.next();
            break;
          case 'square':
            squares$.next();
            break;
          case 'snapshot':
          case 'battery':
          case 'link':
          case 'protocol-error':
          case 'eeprom-log':
          case 'bus-reply':
            break;
        }
        const first = o.type === 'snapshot' && !snapshotSeen;
        if (o.type === 'snapshot') snapshotSeen = true;
        const out = view.observe(o, { force: first });
        if (!connected && versionSeen && snapshotSeen) {
          connected = true;
          failures = 0;
          out.push(link('connected', `attempt ${attempt}`));
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

      // The dump request carries the update mode again, in the same write and after it: the dump
      // that completes the handshake then shows that the mode command reached the board too. A
      // board that missed the first one (not ready yet after power-up, §5.3 step 1) would
      // otherwise answer version and dump, count as connected, and never report a move.
      const dumpAndMode: readonly DgtCommand[] = [{ kind: 'send-board' }, mode];
      const handshakeSteps: readonly (readonly DgtCommand[])[] = [
        [mode],
        [{ kind: 'version' }],
        [{ kind: 'serial' }],
        // The log comes before the dump, so what it holds is followed up to the board as dumped.
        ...(options.readLog === true ? [[{ kind: 'log-moves' } as const]] : []),
        dumpAndMode,
      ];
      const handshake$ = timer(openDelay, scheduler).pipe(
        concatMap(() =>
          concat(
            ...handshakeSteps.map((cs, i) =>
              (i === 0 ? of(0) : timer(gap, scheduler)).pipe(tap(() => send(...cs))),
            ),
          ),
        ),
        ignoreElements(),
      );

      // Until the board has answered both, repeat what is missing (picochess's handshake).
      const retries$ = timer(openDelay + retryMs, retryMs, scheduler).pipe(
        takeWhile(() => !(versionSeen && snapshotSeen)),
        tap(() => {
          if (!versionSeen) {
            send(mode);
            send({ kind: 'version' });
          }
          if (!snapshotSeen) send(...dumpAndMode);
        }),
        ignoreElements(),
      );

      const quiet$ = activity$.pipe(startWith(undefined));
      const keepalive$ = quiet$.pipe(
        switchMap(() => timer(keepaliveMs, keepaliveMs, scheduler)),
        tap(() => send({ kind: 'serial' })),
        ignoreElements(),
      );
      const silence$ = quiet$.pipe(
        switchMap(() => awakeTimer$(silenceMs, scheduler)),
        mergeMap(() => throwError(() => new LinkSilentError(silenceMs))),
      );

      const settle$ =
        settleMs > 0
          ? squares$.pipe(
              switchMap(() => timer(settleMs, scheduler)),
              // Not before the handshake's own dump: the log (when read) must come first, and that
              // dump follows the board up to now anyway.
              tap(() => {
                if (connected) send({ kind: 'send-board' });
              }),
              ignoreElements(),
            )
          : EMPTY;

      const clockQueue$ = (): Observable<ClockCommand> =>
        concat(
          options.clock === false ? EMPTY : of<ClockCommand>({ kind: 'version' }),
          options.clockCommands$ ?? EMPTY,
        );
      const sendClock$ = (c: ClockCommand): Observable<never> =>
        defer(() => {
          send({ kind: 'clock', clock: c });
          return clockReplies$.pipe(take(1), timeout({ first: options.clockAckMs ?? 2000, scheduler }));
        }).pipe(
          retry(options.clockResends ?? 2),
          catchError(() => EMPTY),
          ignoreElements(),
        );
      const clock$ = connectedNow$.pipe(
        take(1),
        switchMap(() => clockQueue$().pipe(concatMap(sendClock$))),
      );

      return merge(handshake$, retries$, keepalive$, silence$, settle$, clock$, main$).pipe(
        takeUntil(ended$),
        startWith(link('resynchronising', `attempt ${attempt}`)),
        catchError((e: unknown) =>
          concat(
            of(link('lost', describeError(e))),
            throwError(() => e),
          ),
        ),
      );
    });

    return attempt$.pipe(
      retry({
        count: (options.maxAttempts ?? Infinity) - 1,
        delay: () => timer(backoffDelay(++failures, options.backoff), scheduler),
      }),
    );
  });
};

/** Only the observations of some types (e.g. `ofType('square', 'snapshot')`). */
export const ofType =
  <K extends Observation['type']>(...types: K[]) =>
  (source$: Observable<Observation>): Observable<Extract<Observation, { type: K }>> =>
    source$.pipe(filter((o): o is Extract<Observation, { type: K }> => (types as string[]).includes(o.type)));
