/**
 * The connection to one Certabo / TabuTronic board (reference §2.3–§2.8) as an Observable of
 * observations. The board streams frame lines without being asked and takes every byte the host
 * writes as LED data, so the session never writes anything but LED commands: it opens the port,
 * splits lines with the decoder's own bounded splitter, maps RFID frames through the calibration
 * (voted per square), and reports the first position of each connection whole and then the
 * squares that change. Silence for `silenceMs` loses the link; it is reopened with back-off.
 *
 *   const store = fileCalibrationStore('/var/lib/chessbridge/certabo-1.json');
 *   certaboSession$(new SerialTransport({ path, baudRate: 38400 }), { calibration: store, leds$ })
 *     .subscribe(obs => console.log(obs.type)); // calibration loaded, link …, snapshot, square…
 *
 * Calibration (§2.6): the stored table is loaded when the session starts. When none is stored
 * (or on a `calibrate$` request) the session lights the setup squares, learns from the newest
 * `calibrationSamples` scans of the start position, uses the result at once and saves it. LEDs
 * (§2.7): the newest state only, at most one command per `ledGapMs`, sent again when no `L`/`D`
 * acknowledgement comes back within `ledAckMs`; every style is lit steadily.
 *
 * Vote and timing (sessionVote.ts): a known tag counts at once, a square going empty must read
 * empty twice (or errata 2's 3-frame majority with `vote: 'majority'`); square observations carry
 * the receipt time of the first frame that showed them, so they can be merged by time with a
 * separate clock's presses.
 */
import { Result } from '@badrap/result';
import {
  asyncScheduler,
  BehaviorSubject,
  combineLatest,
  concat,
  concatMap,
  defer,
  EMPTY,
  filter,
  from,
  ignoreElements,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  type SchedulerLike,
  startWith,
  Subject,
  type Subscription,
  switchMap,
  take,
  takeUntil,
  tap,
  throwError,
} from 'rxjs';
import type { Backoff } from '../backoff.js';
import { awakeTimer$, LinkSilentError, sessionNow } from '../link.js';
import type { LinkObservation, Orientation } from '../observation.js';
import { type BoardObservation, type LedGroup, ledSquares } from '../observationExtra.js';
import { alongside, PacedWriter, sessionAttempts$, SnapshotTracker } from '../sessionKit.js';
import type { Calibration } from './calibration.js';
import { CertaboDecoder } from './codec.js';
import { makeCommand, makeRgbColours } from './commands.js';
import {
  CalibrationLearner,
  type CalibrationObservation,
  type CalibrationStore,
  makeCalibrationObservation,
  SETUP_LEDS,
} from './sessionCalibration.js';
import { VENDOR } from './protocol.js';
import { CertaboVote, type VoteMode } from './sessionVote.js';
import type { Transport } from '../transport/transport.js';

export type CertaboObservation = BoardObservation | CalibrationObservation;

export interface CertaboSessionOptions {
  /** Timers (silence, back-off, LED pacing); default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Clock for link and calibration observations; default the scheduler's now() if given, else performance.now. */
  readonly now?: () => number;
  /** How the board stands; default 'normal'. Set it before calibrating: scans are learned in the game frame. */
  readonly orientation?: Orientation;
  /** Where the calibration is loaded from and saved to; without it the session keeps it in memory only. */
  readonly calibration?: CalibrationStore;
  /** Each emission starts a new calibration from the start position (the arbiter's request). */
  readonly calibrate$?: Observable<unknown>;
  /** Start calibrating when no calibration is stored; default true. */
  readonly calibrateWhenMissing?: boolean;
  /** Scans to learn from; default 15 (Certabo's own software). */
  readonly calibrationSamples?: number;
  /** Spare queens on d6 / d3 while calibrating; default 'detect'. */
  readonly spareQueens?: 'detect' | 'require' | 'ignore';
  /**
   * How RFID frames are voted (sessionVote.ts): 'confirm-empty' (default) or 'majority' (errata 2
   * to the letter, which misses a piece standing for one frame: 49 of the 50 acceptance games
   * exact instead of 50, docs/boards.md).
   */
  readonly vote?: VoteMode;
  /** Frames of the 'majority' vote; default 3 (errata 2). */
  readonly voteFrames?: number;
  /** Also pass on the raw `rfid-scan` observations; default false. */
  readonly emitScans?: boolean;
  /** Declare the link lost after this long without bytes; default 5000 (the board sends about twice a second). */
  readonly silenceMs?: number;
  readonly backoff?: Backoff;
  /** Attempts before giving up with the last error; default Infinity. */
  readonly maxAttempts?: number;
  /** LED requests (game frame); an empty list turns every LED off. */
  readonly leds$?: Observable<readonly LedGroup[]>;
  /** 'mono' (8-byte bitmap, default) or 'rgb' (Spectrum boards, 247-byte frame). */
  readonly ledKind?: 'mono' | 'rgb';
  /** Least time between two LED commands; default 750 ms (Certabo's own software). */
  readonly ledGapMs?: number;
  /** Resend the newest LED state when no acknowledgement came back within this long; default 1500 ms. */
  readonly ledAckMs?: number;
  /** Resends of an unacknowledged LED state; default 2. */
  readonly ledResends?: number;
  /** Decoder buffer cap; default the decoder's. */
  readonly bufferCap?: number;
}

const describeError = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The connection state machine of one board. Cold: subscribing connects, unsubscribing closes. */
export const certaboSession$ = (
  transport: Transport,
  options: CertaboSessionOptions = {},
): Observable<CertaboObservation> => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = sessionNow(options);
  const silenceMs = options.silenceMs ?? 5000;
  const orientation = options.orientation ?? 'normal';
  const store = options.calibration;

  return defer(() => {
    // The decoder applies the orientation, so the tracker works in the game frame already.
    const tracker = new SnapshotTracker('normal');
    const learner = new CalibrationLearner({
      ...(options.calibrationSamples !== undefined && { samples: options.calibrationSamples }),
      ...(options.spareQueens !== undefined && { spareQueens: options.spareQueens }),
    });
    let calibration: Calibration | undefined;
    let lastRetry = '';
    const calibrating = new BehaviorSubject(false);
    const leds = new BehaviorSubject<readonly LedGroup[] | undefined>(undefined);
    const saved$ = new Subject<CalibrationObservation>();
    const cal = makeCalibrationObservation;

    const startLearning = (): CalibrationObservation => {
      learner.start();
      lastRetry = '';
      calibrating.next(true);
      return cal(now(), 'learning');
    };
    const stopLearning = (): void => {
      learner.stop();
      calibrating.next(false);
      // Turn the setup pattern off unless the caller already asked for something.
      if (leds.value === undefined) leds.next([]);
    };

    const load$: Observable<CertaboObservation> = defer(() => {
      const r = store?.load() ?? Result.ok(undefined);
      return r instanceof Promise ? from(r) : of(r);
    }).pipe(
      mergeMap(r => {
        const out: CertaboObservation[] = [];
        if (r.isOk && r.value !== undefined) {
          calibration = r.value;
          out.push(cal(now(), 'loaded', { tags: Object.keys(r.value.pieces).length }));
        } else {
          out.push(r.isErr ? cal(now(), 'invalid', { detail: r.error.message }) : cal(now(), 'missing'));
          if (options.calibrateWhenMissing ?? true) out.push(startLearning());
        }
        return from(out);
      }),
    );

    const saved = (s: Result<true, Error>): void =>
      saved$.next(cal(now(), s.isOk ? 'saved' : 'save-failed', s.isErr ? { detail: s.error.message } : {}));
    const save = (target: CalibrationStore, c: Calibration): void => {
      try {
        const r = target.save(c);
        if (r instanceof Promise)
          r.then(saved, (e: unknown) => saved$.next(cal(now(), 'save-failed', { detail: describeError(e) })));
        else saved(r);
      } catch (e) {
        saved$.next(cal(now(), 'save-failed', { detail: describeError(e) }));
      }
    };

    const learned = (r: ReturnType<CalibrationLearner['push']>): CertaboObservation[] => {
      if (r === undefined) return [];
      if (r.isErr) {
        if (r.error.message === lastRetry) return [];
        lastRetry = r.error.message;
        return [cal(now(), 'retrying', { detail: r.error.message })];
      }
      calibration = r.value.calibration;
      stopLearning();
      // The calibration changes what every square means: report the next position whole.
      tracker.reconnected();
      const learnedCal = r.value.calibration;
      // Saved after 'learned' is reported, even when the store answers at once.
      if (store !== undefined) scheduler.schedule(() => save(store, learnedCal));
      return [
        cal(now(), 'learned', {
          tags: Object.keys(r.value.calibration.pieces).length,
          spares: r.value.spares,
        }),
      ];
    };

    const attempts$ = sessionAttempts$<CertaboObservation>(
      ({ attempt, connected }) => {
        tracker.reconnected();
        const decoder = new CertaboDecoder({
          orientation,
          emitScans: true,
          ...(calibration !== undefined && { calibration }),
          voteFrames: 1,
          ...(options.bufferCap !== undefined && { bufferCap: options.bufferCap }),
        });
        const activity$ = new Subject<void>();
        const connectedNow$ = new Subject<void>();
        const ended$ = new Subject<void>();
        let isConnected = false;
        let identified = false;
        const vote = new CertaboVote(options.vote ?? 'confirm-empty', options.voteFrames ?? 3);

        // LEDs: paced, newest only, resent when unacknowledged.
        const pacer = new PacedWriter(
          bytes => {
            transport.write(bytes).catch(() => undefined);
          },
          options.ledGapMs ?? 750,
          scheduler,
        );
        let latest: Uint8Array | undefined;
        let resendsLeft = 0;
        let ackTimer: Subscription | undefined;
        const armAck = (): void => {
          ackTimer?.unsubscribe();
          ackTimer = scheduler.schedule(() => {
            ackTimer = undefined;
            if (resendsLeft <= 0 || latest === undefined) return;
            resendsLeft--;
            pacer.send(latest, { key: 'leds', then: armAck });
          }, options.ledAckMs ?? 1500);
        };
        const ledAcked = (): void => {
          ackTimer?.unsubscribe();
          ackTimer = undefined;
        };
        const handle = (o: BoardObservation): (CertaboObservation | LinkObservation)[] => {
          const out: (CertaboObservation | LinkObservation)[] = [];
          let frame = false;
          if (o.type === 'rfid-scan') {
            frame = true;
            if (!identified) out.push({ type: 'identity', at: o.at, vendor: VENDOR, model: 'RFID' });
            if (options.emitScans === true) out.push(o);
            out.push(...learned(learner.push(o.tags)));
            if (calibration !== undefined && decoder.calibration !== calibration) {
              decoder.calibration = calibration;
              vote.reset();
            }
          } else if (o.type === 'snapshot') {
            frame = true;
            const occupancy = o.squares.some(c => c.kind === 'occupied');
            if (!identified && occupancy)
              out.push({ type: 'identity', at: o.at, vendor: VENDOR, model: 'occupancy' });
            if (occupancy && learner.active) {
              stopLearning();
              out.push(cal(now(), 'not-needed'));
            }
            // RFID snapshots come unvoted from the decoder: the session votes (sessionVote.ts).
            out.push(
              ...(occupancy
                ? tracker.snapshot(o)
                : vote.stamp(tracker.snapshot({ ...o, squares: vote.frame(o.squares, o.at) }))),
            );
          } else {
            if (o.type === 'command-ack') ledAcked();
            out.push(o);
          }
          if (frame) identified = true;
          if (
            !isConnected &&
            (out.some(x => x.type === 'snapshot') || (frame && calibration === undefined))
          ) {
            isConnected = true;
            out.push(connected(calibration === undefined ? `attempt ${attempt}, not calibrated` : undefined));
            connectedNow$.next();
          }
          return out;
        };

        const encode = (groups: readonly LedGroup[]): Uint8Array =>
          options.ledKind === 'rgb'
            ? makeCommand({ kind: 'leds-rgb', colours: makeRgbColours(groups, orientation) })
            : makeCommand({ kind: 'leds', squares: ledSquares(groups) }, { orientation });
        const leds$ = connectedNow$.pipe(
          take(1),
          switchMap(() => combineLatest([calibrating, leds])),
          map(([learning, groups]) => (learning ? SETUP_LEDS : groups)),
          filter((g): g is readonly LedGroup[] => g !== undefined),
          tap(groups => {
            latest = encode(groups);
            resendsLeft = options.ledResends ?? 2;
            pacer.send(latest, { key: 'leds', then: armAck });
          }),
          ignoreElements(),
        );

        const main$ = transport.bytes$.pipe(
          concatMap(chunk => {
            activity$.next();
            return decoder.push(chunk.bytes, chunk.at).flatMap(handle);
          }),
          tap({ complete: () => ended$.next() }),
        );
        const silence$ = activity$.pipe(
          startWith(undefined),
          switchMap(() => awakeTimer$(silenceMs, scheduler)),
          mergeMap(() => throwError(() => new LinkSilentError(silenceMs))),
        );
        return merge(main$, silence$, leds$).pipe(
          takeUntil(ended$),
          tap({
            finalize: () => {
              pacer.dispose();
              ackTimer?.unsubscribe();
            },
          }),
        );
      },
      {
        scheduler,
        now,
        ...(options.backoff !== undefined && { backoff: options.backoff }),
        ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
      },
    );

    const inputs$: Observable<CertaboObservation> = merge(
      (options.leds$ ?? EMPTY).pipe(
        tap(g => leds.next(g)),
        ignoreElements(),
      ),
      (options.calibrate$ ?? EMPTY).pipe(map(() => startLearning())),
      saved$,
    );
    return alongside(concat(load$, attempts$), inputs$);
  });
};
