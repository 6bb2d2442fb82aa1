/**
 * A DGT bus line (reference §8): many boards on one serial line, each addressed by its serial
 * number, polled in a cycle. One request is outstanding at a time; each board is asked for its
 * changes every cycle; the clocks of the boards that have one are read as sessionBusClock.ts
 * plans (after a press in a change list, and in the cycle's spare time). A board that is new or
 * came back is first drained of old changes and then asked for a dump. A board empties its
 * change list when it sends it, so a change list that comes back corrupt, or not at all, is asked
 * for again with REPEAT_CHANGES, never SEND_CHANGES (which would lose it); a list identical to
 * the one last delivered is such a repeat, and is dropped. Every observation carries the sending board's address; `boardStreams` splits them into one stream
 * per board. Line failures reconnect with back-off like the single-board session.
 *
 *   const split = boardStreams(dgtBusSession$(new SerialTransport({ path }), { addresses: [1025, 1026] }), [1025, 1026]);
 *   split.boards.get(1025)?.subscribe(obs => console.log(obs.type));
 *   const running = split.connect(); // later: running.unsubscribe()
 */
import {
  asyncScheduler,
  catchError,
  concat,
  concatMap,
  connectable,
  defer,
  EMPTY,
  exhaustMap,
  filter,
  first,
  from,
  ignoreElements,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  retry,
  type SchedulerLike,
  type Subscription,
  startWith,
  Subject,
  switchMap,
  takeUntil,
  tap,
  throwError,
  timer,
} from 'rxjs';
import { type LinkObservation, makeHex, type Observation, type Orientation } from '../observation.js';
import type { Transport } from '../transport/transport.js';
import { busLengthPolicy, parseBusFrame, type BusObservation } from './bus.js';
import { BUS_REPLY, type BusCommandKind } from './busCommands.js';
import { makeCommand } from './commands.js';
import { DEFAULT_BUFFER_CAP } from './constants.js';
import { DgtFramer, type FrameSink } from './framing.js';
import { frameError, observeMessage } from './observe.js';
import { type Backoff, backoffDelay } from '../backoff.js';
import { awakeTimer$, LinkSilentError, sessionNow } from '../link.js';
import { BusClockPlan } from './sessionBusClock.js';
import { BoardView } from './sessionMirror.js';

export interface DgtBusSessionOptions {
  /** The boards on the line (bus addresses = serial numbers as integers). */
  readonly addresses: readonly number[];
  readonly scheduler?: SchedulerLike;
  /** Clock for link observations; default as in dgtSession$. */
  readonly now?: () => number;
  /** Orientation of every board, or per address; 'auto' detects from the start position (default). */
  readonly orientation?: Orientation | 'auto' | ReadonlyMap<number, Orientation | 'auto'>;
  /** Wait after opening before the first write; default 300 ms. */
  readonly openDelayMs?: number;
  /** Wait for a reply before counting a miss (§8.3: about 80 ms); default 80. */
  readonly replyTimeoutMs?: number;
  /** Start a polling cycle this often (a cycle in progress is never interrupted); default 500 ms. */
  readonly cycleMs?: number;
  /**
   * Read the clocks of the boards: true for every board, or the addresses of the boards that
   * have one; default none. See sessionBusClock.ts for when they are read.
   */
  readonly clock?: boolean | readonly number[];
  /** A running clock is read this often at least (a stopped one every cycle); default 1000 ms. */
  readonly clockEveryMs?: number;
  /** A board is lost after this many missed replies in a row; default 3. */
  readonly lostAfter?: number;
  /** Resends after a checksum error; default 2. */
  readonly resends?: number;
  /** The line is lost after this long without a byte from any board; default 5000 ms. */
  readonly silenceMs?: number;
  readonly backoff?: Backoff;
  /** Attempts before giving up; default Infinity. */
  readonly maxAttempts?: number;
}

/** One decoded bus frame, or a framing error, as the poller sees it. */
interface BusFrame {
  /** Reply id of a good frame. */
  readonly id: number | undefined;
  /** Sender (for a checksum error: the address as read). */
  readonly address: number | undefined;
  readonly checksumError: boolean;
}

type RequestOutcome = 'ok' | 'checksum' | 'timeout';

interface BoardState {
  readonly view: BoardView;
  synced: boolean;
  misses: number;
  /**
   * A SEND_CHANGES went out and no reply was seen. The board empties its list when it sends it,
   * so the reply may be the only copy: ask REPEAT_CHANGES next, not SEND_CHANGES.
   */
  unconfirmed: boolean;
  /** The last change-list frame delivered, to recognise a repeat of it. */
  lastChanges: string | undefined;
}

const describeError = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export interface BoardStreams {
  /** One stream per board address. */
  readonly boards: ReadonlyMap<number, Observable<Observation>>;
  /** Observations no board can be named for (garbage on the line, corrupt frames). */
  readonly line$: Observable<Observation>;
  /** Starts the bus session once every stream of interest is subscribed; unsubscribe to stop. */
  connect(): Subscription;
}

/**
 * Splits a bus session into one observation stream per board. The session runs once for all
 * of them: subscribe to the boards' streams, then call `connect()`.
 */
export const boardStreams = (
  bus$: Observable<BusObservation>,
  addresses: readonly number[],
): BoardStreams => {
  const shared$ = connectable(bus$, {
    connector: () => new Subject<BusObservation>(),
    resetOnDisconnect: true,
  });
  const of$ = (address: number | undefined): Observable<Observation> =>
    shared$.pipe(
      filter(b => b.address === address),
      map(b => b.observation),
    );
  return {
    boards: new Map(addresses.map(a => [a, of$(a)])),
    line$: of$(undefined),
    connect: () => shared$.connect(),
  };
};

/** The polling state machine of a bus line. Cold: subscribing opens the line. */
export const dgtBusSession$ = (
  transport: Transport,
  options: DgtBusSessionOptions,
): Observable<BusObservation> => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = sessionNow(options);
  const replyTimeout = options.replyTimeoutMs ?? 80;
  const cycleMs = options.cycleMs ?? 500;
  const lostAfter = options.lostAfter ?? 3;
  const resends = options.resends ?? 2;
  const orientationOf = (a: number): Orientation | 'auto' => {
    const o = options.orientation;
    if (o === undefined || typeof o === 'string') return o ?? 'auto';
    return o.get(a) ?? 'auto';
  };
  const link = (address: number, state: LinkObservation['state'], detail?: string): BusObservation => ({
    address,
    observation: { type: 'link', at: now(), state, ...(detail !== undefined && { detail }) },
  });

  return defer(() => {
    const boards = new Map<number, BoardState>(
      options.addresses.map((a): [number, BoardState] => [
        a,
        {
          view: new BoardView(orientationOf(a)),
          synced: false,
          misses: 0,
          unconfirmed: false,
          lastChanges: undefined,
        },
      ]),
    );
    const clocks = new BusClockPlan(options.addresses, options.clock, {
      everyMs: options.clockEveryMs ?? 1000,
      cycleMs,
      replyTimeoutMs: replyTimeout,
    });
    let attempt = 0;
    let failures = 0;

    const attempt$ = defer((): Observable<BusObservation> => {
      attempt++;
      for (const [a, b] of boards) {
        b.synced = false;
        b.misses = 0;
        b.view.reconnected();
        clocks.forget(a);
      }
      const frames$ = new Subject<BusFrame>();
      const activity$ = new Subject<void>();
      const ended$ = new Subject<void>();
      // Observations leave through this subject before the frame is offered to the waiting
      // request, so a board's snapshot always precedes its `connected`.
      const observations$ = new Subject<BusObservation>();
      let dumpFrom: number | undefined;

      const emit = (address: number | undefined, o: Observation): void => {
        const board = address === undefined ? undefined : boards.get(address);
        if (board === undefined) {
          observations$.next({ address, observation: o });
          return;
        }
        const force = o.type === 'snapshot' && address === dumpFrom;
        for (const observation of board.view.observe(o, { force }))
          observations$.next({ address, observation });
      };

      let at = 0;
      const sink: FrameSink = {
        frame: bytes => {
          const parsed = parseBusFrame(bytes);
          if (parsed.isErr) {
            const reason = parsed.error.reason;
            emit(undefined, frameError(reason, { at, orientation: 'normal', frame: bytes }));
            const address = reason.kind === 'checksum' ? reason.address : undefined;
            frames$.next({ id: undefined, address, checksumError: reason.kind === 'checksum' });
            return;
          }
          const { address, message } = parsed.value;
          const board = boards.get(address);
          let duplicate = false;
          if (message.kind === 'bus-update' && board !== undefined) {
            // A list byte-identical to the last one delivered is its repeat: a reply thought lost
            // came late, or the board never got the request. (Two genuine identical lists in a row
            // would need a piece to flicker the same way twice between polls; the board ends the
            // same either way.)
            const signature = makeHex(bytes);
            duplicate = message.records.length > 0 && signature === board.lastChanges;
            board.unconfirmed = false;
            board.lastChanges = signature;
          }
          const ctx = { at, orientation: 'normal' as const, frame: bytes };
          const observed = duplicate
            ? []
            : message.kind === 'bus-update'
              ? clocks.changes(address, message, ctx)
              : observeMessage(message, ctx);
          // A reading may be held until the squares before its press are in (sessionBusClock.ts).
          const passed =
            message.kind === 'clock' ? clocks.reading(address, message.payload, observed) : observed;
          for (const o of passed) emit(address, o);
          if (message.kind === 'bus-update') for (const o of clocks.released(address, at)) emit(address, o);
          frames$.next({ id: bytes[0], address, checksumError: false });
        },
        error: (reason, hex, count) => emit(undefined, { type: 'protocol-error', at, reason, hex, count }),
      };
      const framer = new DgtFramer(DEFAULT_BUFFER_CAP, busLengthPolicy);

      const send = (command: BusCommandKind, address: number): void => {
        if (command === 'send-changes') clocks.changesAsked(address);
        transport.write(makeCommand({ kind: 'bus', command, address })).catch(() => undefined);
      };

      const main$ = transport.bytes$.pipe(
        tap({
          next: chunk => {
            activity$.next();
            at = chunk.at;
            framer.push(chunk.bytes, sink);
          },
          complete: () => ended$.next(),
        }),
        ignoreElements(),
      );

      /** Sends a command and waits for the board's reply, a checksum error from it, or the timeout. */
      const request$ = (command: BusCommandKind, address: number): Observable<RequestOutcome> => {
        const expected = BUS_REPLY[command];
        const reply$ = frames$.pipe(
          filter(f => f.address === address && (f.checksumError || f.id === expected)),
          map((f): RequestOutcome => (f.checksumError ? 'checksum' : 'ok')),
        );
        return merge(
          reply$,
          // The reply timeout, not counted while the daemon itself was stalled.
          awakeTimer$(replyTimeout, scheduler).pipe(map((): RequestOutcome => 'timeout')),
          defer(() => {
            send(command, address);
            return EMPTY;
          }),
        ).pipe(first());
      };

      /** A request with resends after checksum errors (REPEAT_CHANGES for a change list). */
      const ask$ = (command: BusCommandKind, address: number): Observable<RequestOutcome> => {
        const attemptAsk = (n: number, cmd: BusCommandKind): Observable<RequestOutcome> =>
          request$(cmd, address).pipe(
            concatMap(outcome =>
              outcome === 'checksum' && n < resends
                ? attemptAsk(n + 1, command === 'send-changes' ? 'repeat-changes' : command)
                : of(outcome),
            ),
          );
        return attemptAsk(0, command);
      };

      /**
       * Reads a board's clock. A reading held back (a press not in the change lists yet) has the
       * board's changes fetched right after it, when that fits in the cycle, else next cycle.
       */
      const readClock$ = (address: number, cycleStart: number): Observable<RequestOutcome> =>
        defer(() => {
          clocks.asked(address, scheduler.now());
          return ask$('send-clock', address);
        }).pipe(
          concatMap(outcome => {
            const board = boards.get(address);
            if (board === undefined || !clocks.holding(address) || !clocks.fits(scheduler.now(), cycleStart))
              return of(outcome);
            const changes: BusCommandKind = board.unconfirmed ? 'repeat-changes' : 'send-changes';
            board.unconfirmed = true;
            return ask$(changes, address);
          }),
        );

      /**
       * The clocks due in the cycle's spare time, each only while its read ends before the next
       * cycle is due. A failed read counts no miss (the change polls judge the board).
       */
      const spareClocks$ = (cycleStart: number): Observable<BusObservation> =>
        defer(() =>
          from(clocks.spare(scheduler.now())).pipe(
            concatMap(address =>
              boards.get(address)?.synced === true && clocks.fits(scheduler.now(), cycleStart)
                ? readClock$(address, cycleStart).pipe(ignoreElements())
                : EMPTY,
            ),
          ),
        );

      /** One board's turn in a cycle; emits link observations for that board. */
      const turn$ = (address: number): Observable<BusObservation> =>
        defer(() => {
          const board = boards.get(address);
          if (board === undefined) return EMPTY;
          const changes: BusCommandKind = board.unconfirmed ? 'repeat-changes' : 'send-changes';
          const steps: readonly BusCommandKind[] = board.synced ? [changes] : [changes, 'send-board'];
          const step$ = (i: number): Observable<BusObservation> => {
            // After the changes (and a dump): the clock, when the change list showed a press.
            const command =
              steps[i] ?? (board.synced && clocks.takeWanted(address) ? 'send-clock' : undefined);
            if (command === undefined) return EMPTY;
            if (command === 'send-board') dumpFrom = address;
            if (command === 'send-changes') board.unconfirmed = true;
            if (command === 'send-clock') clocks.asked(address, scheduler.now());
            return ask$(command, address).pipe(
              concatMap((outcome): Observable<BusObservation> => {
                dumpFrom = undefined;
                if (outcome !== 'ok') {
                  // A failed step ends this board's turn; the next cycle tries again.
                  board.misses++;
                  if (board.synced && board.misses >= lostAfter) {
                    board.synced = false;
                    clocks.forget(address);
                    return of(link(address, 'lost', `${board.misses} requests unanswered`));
                  }
                  return EMPTY;
                }
                board.misses = 0;
                if (command === 'send-board' && !board.synced) {
                  board.synced = true;
                  return concat(of(link(address, 'connected', `attempt ${attempt}`)), step$(i + 1));
                }
                return step$(i + 1);
              }),
            );
          };
          return step$(0);
        });

      const poll$ = timer(options.openDelayMs ?? 300, scheduler).pipe(
        tap(() => {
          // Boards left in single-board mode go back to bus mode (§8); the byte has no reply.
          transport.write(makeCommand({ kind: 'to-bus-mode' })).catch(() => undefined);
        }),
        switchMap(() =>
          timer(0, cycleMs, scheduler).pipe(
            exhaustMap(() => {
              const cycleStart = scheduler.now();
              return concat(from(options.addresses).pipe(concatMap(turn$)), spareClocks$(cycleStart));
            }),
          ),
        ),
      );

      const silenceMs = options.silenceMs ?? 5000;
      const silence$ = activity$.pipe(
        startWith(undefined),
        switchMap(() => awakeTimer$(silenceMs, scheduler)),
        mergeMap(() => throwError(() => new LinkSilentError(silenceMs))),
      );

      return merge(observations$, silence$, poll$, main$).pipe(
        takeUntil(ended$),
        startWith(...options.addresses.map(a => link(a, 'resynchronising', `attempt ${attempt}`))),
        tap(b => {
          if (b.observation.type === 'link' && b.observation.state === 'connected') failures = 0;
        }),
        catchError((e: unknown) =>
          concat(
            from(options.addresses.map(a => link(a, 'lost', describeError(e)))),
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
