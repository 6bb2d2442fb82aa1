/**
 * Opening a board: the driver session of each configured board, on its serial line, with the
 * daemon's clock, so every observation carries a time on the daemon's time line. DGT boards on
 * their own line, DGT boards sharing a bus line (one poller per line, shared by its boards), and
 * Millennium boards; the other drivers are reported as not wired in this daemon yet.
 *
 *   const open = makeBoardOpener({ now, scheduler, log });
 *   open(boardConfig, clockCommands$).subscribe(o => …);   // cold: subscribing opens the port
 */
import { EMPTY, filter, map, type Observable, type SchedulerLike, share, throwError } from 'rxjs';
import type { ClockCommand } from '../../drivers/dgt/clockCommands.js';
import { dgtSession$ } from '../../drivers/dgt/session.js';
import type { BusObservation } from '../../drivers/dgt/bus.js';
import { dgtBusSession$ } from '../../drivers/dgt/sessionBus.js';
import { millenniumSerialOptions, millenniumSession$ } from '../../drivers/millennium/session.js';
import type { Observation, ObservationType } from '../../drivers/observation.js';
import type { BoardObservation } from '../../drivers/observationExtra.js';
import { SerialTransport } from '../../drivers/transport/serial.js';
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
}

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
const isCommonObservation = (o: BoardObservation): o is Observation => COMMON.has(o.type);

/** A message for a board the daemon cannot open. */
export class BoardOpenError extends Error {
  override readonly name = 'BoardOpenError';
}

export const makeBoardOpener = (deps: OpenerDeps): BoardOpener => {
  const buses = new Map<string, Observable<BusObservation>>();
  const busOf = (port: string): Observable<BusObservation> => {
    let bus = buses.get(port);
    if (bus === undefined) {
      const addresses = deps.boards
        .filter(b => b.driver === 'dgt-bus' && b.port === port && b.busAddress !== undefined)
        .map(b => b.busAddress ?? 0);
      bus = dgtBusSession$(new SerialTransport({ path: port, now: deps.now }), {
        addresses,
        scheduler: deps.scheduler,
        now: deps.now,
      }).pipe(share());
      buses.set(port, bus);
    }
    return bus;
  };
  return (board, clock$) => {
    const orientation = board.orientation;
    switch (board.driver) {
      case 'dgt':
        if (board.port === undefined)
          return throwError(
            () => new BoardOpenError(`${board.id}: finding a DGT board by serial number needs a port here`),
          );
        return dgtSession$(new SerialTransport({ path: board.port, now: deps.now }), {
          scheduler: deps.scheduler,
          now: deps.now,
          orientation,
          clock: board.clock,
          clockCommands$: clock$,
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
        return millenniumSession$(
          new SerialTransport({ path: board.port, now: deps.now, ...millenniumSerialOptions('8N1') }),
          { scheduler: deps.scheduler, now: deps.now, orientation },
        ).pipe(filter(isCommonObservation));
      case 'certabo':
      case 'chessnut':
        deps.log.warn(
          `${board.id}: the ${board.driver} driver is not wired into the daemon yet; board ignored`,
        );
        return EMPTY;
    }
  };
};
