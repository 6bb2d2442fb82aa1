/**
 * Opening a board: the driver session of each configured board, on its line, with the daemon's
 * clock, so every observation carries a time on the daemon's time line. DGT boards on their own
 * line, DGT boards sharing a bus line (one poller per line, shared by its boards), Millennium
 * and Certabo boards on serial lines, and Chessnut boards over USB HID (node-hid).
 *
 *   const open = makeBoardOpener({ now, scheduler, log, boards, calibrationDir: 'journal/calibration' });
 *   open(boardConfig, clockCommands$).subscribe(o => …);   // cold: subscribing opens the port
 *
 * Per board kind:
 * - Certabo: 38400 8N1. The RFID calibration lives in a JSON file (`boards[].calibration`, else
 *   `<calibrationDir>/<id>.json`): loaded when the session starts, learned from the start
 *   position (setup squares lit) when missing or broken, and saved at once. Its orientation is
 *   configured, never detected (a turned board would learn every colour wrong), so 'auto' is
 *   'normal'. Calibration progress is logged; it carries nothing for the game.
 * - Chessnut: by HID path (`port`, e.g. /dev/hidraw3) or found by the USB serial number
 *   (`serial`) among the HID devices, looked up again on every connection attempt (a replugged
 *   board can get another hidraw node). node-hid is loaded once; when it cannot load, each
 *   Chessnut board reports its link lost with the reason and the fix, logged once, and stays
 *   that way without retrying: the other boards run on.
 * - LEDs: `leds(board)` feeds the sessions of the boards that have LEDs (Millennium, Certabo,
 *   Chessnut) with squares to light in the game frame; without it LEDs are left alone.
 */
import { join } from 'node:path';
import type { Result } from '@badrap/result';
import {
  concat,
  defer,
  filter,
  from,
  map,
  NEVER,
  type Observable,
  of,
  type SchedulerLike,
  share,
  shareReplay,
  switchMap,
  tap,
  throwError,
} from 'rxjs';
import { SERIAL_SETTINGS as CERTABO_SERIAL } from '../../drivers/certabo/protocol.js';
import { certaboSession$ } from '../../drivers/certabo/session.js';
import type { CalibrationObservation } from '../../drivers/certabo/sessionCalibration.js';
import { isChessnutDevice, USAGE_PAGE } from '../../drivers/chessnut/protocol.js';
import { chessnutSession$ } from '../../drivers/chessnut/session.js';
import type { ClockCommand } from '../../drivers/dgt/clockCommands.js';
import { dgtSession$ } from '../../drivers/dgt/session.js';
import type { BusObservation } from '../../drivers/dgt/bus.js';
import { dgtBusSession$ } from '../../drivers/dgt/sessionBus.js';
import { millenniumSerialOptions, millenniumSession$ } from '../../drivers/millennium/session.js';
import type { LinkObservation, Observation, ObservationType } from '../../drivers/observation.js';
import type { BoardObservation, LedGroup } from '../../drivers/observationExtra.js';
import { fileCalibrationStore } from '../../drivers/certabo/calibrationFile.js';
import { HidTransport } from '../../drivers/transport/hid.js';
import {
  type HidBackend,
  type HidDeviceInfo,
  type HidUnavailableError,
  loadHidBackend,
} from '../../drivers/transport/hidBackend.js';
import { CapturingTransport } from '../../drivers/transport/captureFile.js';
import { SerialTransport, type SerialTransportOptions } from '../../drivers/transport/serial.js';
import type { Transport } from '../../drivers/transport/transport.js';
import type { BoardConfig } from '../config/index.js';
import type { Logger } from '../logger.js';

/** Opens one board's observation stream (cold). */
export type BoardOpener = (board: BoardConfig, clock$: Observable<ClockCommand>) => Observable<Observation>;

export interface OpenerDeps {
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  readonly log: Logger;
  /** Every board of the daemon (bus lines are shared by the boards on one port). */
  readonly boards: readonly BoardConfig[];
  /** Folder of the Certabo calibrations of boards without `calibration`; default `journal/calibration`. */
  readonly calibrationDir?: string;
  /** Squares to light per board (game frame), for boards with LEDs; default none (LEDs left alone). */
  readonly leds?: (board: BoardConfig) => Observable<readonly LedGroup[]>;
  /** Loads the HID backend for Chessnut boards; default node-hid (loaded once, on first use). */
  readonly hid?: () => Promise<Result<HidBackend, HidUnavailableError>>;
}

/**
 * Silence before a DGT board is probed (ms). A running clock reports once a second; probing after
 * a second of silence would race those reports and send a probe (and read its answer) about every
 * other second per board. Half a second more leaves a board with a running clock unprobed, and
 * still probes a quiet one three times before its link counts as lost (5 s).
 */
export const DGT_KEEPALIVE_MS = 1500;

/** The Certabo calibration folder when the daemon names none: `calibration` in the default journal folder. */
export const DEFAULT_CALIBRATION_DIR = join('journal', 'calibration');

const COMMON: ReadonlySet<string> = new Set<ObservationType>([
  'snapshot',
  'square',
  'clock',
  'identity',
  'battery',
  'link',
  'protocol-error',
  'clock-ack',
  'eeprom-log',
  'bus-reply',
]);

/** The observations of the shared vocabulary (driver-specific extras are not journaled). */
const isCommonObservation = (o: BoardObservation | CalibrationObservation): o is Observation =>
  COMMON.has(o.type);

/** A message for a board the daemon cannot open. */
export class BoardOpenError extends Error {
  override readonly name = 'BoardOpenError';
}

/** The Certabo calibration file of a board: its own, else `<dir>/<id>.json`. */
export const calibrationFileOf = (board: BoardConfig, dir: string = DEFAULT_CALIBRATION_DIR): string =>
  board.calibration ?? join(dir, `${board.id}.json`);

/** One line per calibration step worth telling the operator (retries are debug: a hand over the board). */
const logCalibration = (log: Logger, id: string, file: string, o: CalibrationObservation): void => {
  const detail = o.detail ?? '';
  switch (o.state) {
    case 'loaded':
      return log.info(`${id}: calibration loaded from ${file} (${o.tags ?? 0} tags)`);
    case 'missing':
      return log.info(`${id}: no calibration in ${file} yet`);
    case 'invalid':
      return log.warn(`${id}: ${detail}; it is learned again from the start position`);
    case 'learning':
      return log.info(`${id}: calibrating: set up the start position (its squares are lit)`);
    case 'retrying':
      return log.debug(`${id}: calibrating: ${detail}`);
    case 'learned': {
      const spares =
        o.spares !== undefined && o.spares.length > 0 ? `, spare queens ${o.spares.join(' ')}` : '';
      return log.info(`${id}: calibration learned (${o.tags ?? 0} tags${spares})`);
    }
    case 'saved':
      return log.info(`${id}: calibration saved to ${file}`);
    case 'save-failed':
      return log.error(`${id}: ${detail}; the calibration is used but will be learned again next time`);
    case 'not-needed':
      return log.info(`${id}: an occupancy board (no piece identity): no calibration needed`);
  }
};

const link = (at: number, state: LinkObservation['state'], detail: string): LinkObservation => ({
  type: 'link',
  at,
  state,
  detail,
});

/** The Chessnut board a configuration means among the HID devices: by path, else by serial number. */
export const findChessnut = (
  devices: readonly HidDeviceInfo[],
  board: Pick<BoardConfig, 'port' | 'serial'>,
): HidDeviceInfo | undefined => {
  const vendor = devices.filter(
    d =>
      d.path !== undefined &&
      isChessnutDevice(d.vendorId, d.productId) &&
      (d.usagePage === undefined || d.usagePage === USAGE_PAGE),
  );
  if (board.port !== undefined) return vendor.find(d => d.path === board.port);
  return vendor.find(d => d.serialNumber === board.serial);
};

export const makeBoardOpener = (deps: OpenerDeps): BoardOpener => {
  const buses = new Map<string, Observable<BusObservation>>();
  const busOf = (port: string): Observable<BusObservation> => {
    let bus = buses.get(port);
    if (bus === undefined) {
      const onLine = deps.boards.filter(
        b => b.driver === 'dgt-bus' && b.port === port && b.busAddress !== undefined,
      );
      const addresses = onLine.map(b => b.busAddress ?? 0);
      // Only the boards configured with a clock have theirs read (each read costs line time).
      const clock = onLine.filter(b => b.clock).map(b => b.busAddress ?? 0);
      const recorded = deps.boards.find(b => b.driver === 'dgt-bus' && b.port === port && b.capture);
      bus = dgtBusSession$(serial(recorded, port, {}), {
        addresses,
        clock,
        scheduler: deps.scheduler,
        now: deps.now,
      }).pipe(share());
      buses.set(port, bus);
    }
    return bus;
  };
  const ledsOf = (board: BoardConfig) => {
    const leds$ = deps.leds?.(board);
    return leds$ === undefined ? {} : { leds$ };
  };

  // node-hid is loaded once per opener, on the first Chessnut board; its failure is logged once per board.
  const hid$ = defer(() => from((deps.hid ?? (() => loadHidBackend()))())).pipe(shareReplay(1));
  const hidFailureLogged = new Set<string>();

  const chessnut$ = (board: BoardConfig): Observable<Observation> => {
    const { id } = board;
    const wanted = board.port ?? (board.serial === undefined ? undefined : `serial ${board.serial}`);
    if (wanted === undefined)
      return throwError(() => new BoardOpenError(`${id}: a Chessnut board needs a port or a serial number`));
    return hid$.pipe(
      switchMap(loaded => {
        if (loaded.isErr) {
          const { message, fix } = loaded.error;
          if (!hidFailureLogged.has(id)) {
            hidFailureLogged.add(id);
            deps.log.error(`${id}: cannot open the Chessnut board: ${message}. Fix: ${fix}`);
          }
          // Loading is not retried (node-hid's native part loads once per process): the board
          // stays lost with the reason until the daemon is restarted after the fix.
          return concat(of(link(deps.now(), 'lost', `${message}. ${fix}`)), NEVER);
        }
        const backend = loaded.value;
        let found: HidDeviceInfo | undefined;
        // Opening looks the board up again every attempt; the session reports a miss as a lost link.
        const lookup: HidBackend = {
          name: backend.name,
          devices: () => backend.devices(),
          open: async () => {
            const devices = await backend.devices();
            found = findChessnut(devices, board);
            const path = found?.path ?? board.port;
            if (path === undefined)
              throw new Error(
                `no Chessnut board with serial number ${board.serial ?? ''} among ${devices.length} HID devices`,
              );
            return backend.open(path);
          },
        };
        const device = {
          get productId() {
            return found?.productId;
          },
          get serialNumber() {
            const s = found?.serialNumber;
            return s === undefined || s === '' ? undefined : s;
          },
        };
        return chessnutSession$(new HidTransport({ path: wanted, backend: lookup, now: deps.now }), {
          scheduler: deps.scheduler,
          now: deps.now,
          orientation: board.orientation,
          device,
          ...ledsOf(board),
        }).pipe(filter(isCommonObservation));
      }),
    );
  };

  /** The serial line of a board, recording every read to its capture file when one is configured. */
  const serial = (
    board: BoardConfig | undefined,
    path: string,
    settings: Omit<SerialTransportOptions, 'path' | 'now'>,
  ): Transport => {
    const line = new SerialTransport({ path, now: deps.now, ...settings });
    const file = board?.capture;
    if (board === undefined || file === undefined) return line;
    deps.log.info(`${board.id}: recording every read of ${path} to ${file}`);
    return new CapturingTransport(line, {
      file,
      comments: [`chessbridge capture of ${path} (board ${board.id}, driver ${board.driver})`],
      onProblem: m => deps.log.error(`${board.id}: ${m}`),
    });
  };

  return (board, clock$) => {
    const orientation = board.orientation;
    switch (board.driver) {
      case 'dgt':
        if (board.port === undefined)
          return throwError(
            () => new BoardOpenError(`${board.id}: finding a DGT board by serial number needs a port here`),
          );
        return dgtSession$(serial(board, board.port, {}), {
          scheduler: deps.scheduler,
          now: deps.now,
          orientation,
          clock: board.clock,
          clockCommands$: clock$,
          keepaliveMs: DGT_KEEPALIVE_MS,
          // The board's memory of what was played while the daemon was not listening.
          readLog: true,
        });
      case 'dgt-bus': {
        const { port, busAddress } = board;
        if (port === undefined || busAddress === undefined)
          return throwError(
            () => new BoardOpenError(`${board.id}: a dgt-bus board needs a port and a bus address`),
          );
        return busOf(port).pipe(
          filter(b => b.address === busAddress),
          map(b => b.observation),
        );
      }
      case 'millennium':
        if (board.port === undefined)
          return throwError(() => new BoardOpenError(`${board.id}: a Millennium board needs a port`));
        return millenniumSession$(serial(board, board.port, millenniumSerialOptions('8N1')), {
          scheduler: deps.scheduler,
          now: deps.now,
          orientation,
          ...ledsOf(board),
        }).pipe(filter(isCommonObservation));
      case 'certabo': {
        if (board.port === undefined)
          return throwError(
            () =>
              new BoardOpenError(`${board.id}: a Certabo board needs a port (it reports no serial number)`),
          );
        const file = calibrationFileOf(board, deps.calibrationDir);
        return certaboSession$(serial(board, board.port, { baudRate: CERTABO_SERIAL.baudRate }), {
          scheduler: deps.scheduler,
          now: deps.now,
          orientation: orientation === 'auto' ? 'normal' : orientation,
          calibration: fileCalibrationStore(file),
          ...ledsOf(board),
        }).pipe(
          tap(o => {
            if (o.type === 'calibration') logCalibration(deps.log, board.id, file, o);
          }),
          filter(isCommonObservation),
        );
      }
      case 'chessnut':
        return chessnut$(board);
    }
  };
};
