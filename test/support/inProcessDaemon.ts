/**
 * A daemon in-process for tests that drive one board by hand: a fake board whose driver session
 * the test pushes observations into, and the daemon built around it (embedded broker and HTTP on
 * free ports, real time, the real engine).
 *
 *   const board = fakeBoard();
 *   const { daemon } = inProcessDaemon(config, board);
 *   await daemon.start();
 *   board.connect('01025', Date.now());   // identity, the start position, link up
 */
import { asyncScheduler, Observable, type Subscriber } from 'rxjs';
import type { Config } from '../../src/bridge/config/index.js';
import { Daemon } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import { START_SQUARES, type Observation } from '../../src/drivers/observation.js';

/** The daemon's clock in these tests: monotonic milliseconds on the wall-clock scale. */
export const now = (): number => performance.timeOrigin + performance.now();

/** A fake board: observations pushed into the daemon's session for it, while one is open. */
export const fakeBoard = () => {
  let sink: Subscriber<Observation> | undefined;
  const session$ = new Observable<Observation>(s => {
    sink = s;
    return () => (sink = undefined);
  });
  const push = (o: Observation) => sink?.next(o);
  return {
    open: () => session$,
    push,
    isOpen: () => sink !== undefined,
    /** The board says who it is, shows the start position, and its link is up. */
    connect: (serial: string, at: number) => {
      push({ type: 'identity', at, vendor: 'DGT', serial });
      push({ type: 'snapshot', at, squares: START_SQUARES });
      push({ type: 'link', at, state: 'connected' });
    },
  };
};

export type FakeBoard = ReturnType<typeof fakeBoard>;

/** The daemon with `board` behind every board of `config`; `lines` is its log. */
export const inProcessDaemon = (config: Config, board: FakeBoard) => {
  const { logger, lines } = memoryLogger('info');
  const daemon = new Daemon({
    config,
    log: logger,
    engine: engineSupervisor(),
    scheduler: asyncScheduler,
    now,
    version: '0.0.0-test',
    openBoard: board.open,
    httpPort: 0,
    brokerPorts: { port: 0, wsPort: 0 },
  });
  return { daemon, lines };
};
