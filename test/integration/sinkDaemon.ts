/**
 * A daemon in the test process whose one board is a stream the test writes observations into
 * (no serial line): for tests of what the daemon serves (brokers, HTTP, TLS, pages), not of the
 * board's bytes. The board reports serial 01025 and the start position, so the configured
 * pairing for that serial starts.
 *
 *   const run = await startSinkDaemon(config, { httpPort: 0 });
 *   await run.connectBoard('r1-b1');                // the game is open
 *   for (const o of observationsOfGame(['e4'], { t0: now() + 50 })) run.send(o);
 *   await run.stop();
 */
import { asyncScheduler, Observable, type Subscriber } from 'rxjs';
import type { Config } from '../../src/bridge/config/index.js';
import { Daemon, type DaemonContext } from '../../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../../src/bridge/game/engine.js';
import { memoryLogger } from '../../src/bridge/logger.js';
import { START_SQUARES, type Observation } from '../../src/drivers/observation.js';
import { waitFor } from '../support/mosquitto.js';

/** The daemon's clock in these tests: milliseconds since the epoch, monotonic. */
export const now = (): number => performance.timeOrigin + performance.now();

export interface SinkDaemon {
  readonly daemon: Daemon;
  /** The daemon's log lines so far. */
  readonly lines: readonly string[];
  /** One observation from the board (dropped while its session is closed). */
  send(observation: Observation): void;
  /** Waits for the board's session, reports the board with the start position, waits for `game`. */
  connectBoard(game: string): Promise<void>;
  /** Unsubscribes the pipeline and stops the daemon. */
  stop(): Promise<void>;
}

/** The daemon's context beyond its configuration (ports, report intervals), as tests set them. */
export type SinkDaemonOptions = Partial<Pick<DaemonContext, 'brokerPorts' | 'httpPort' | 'loginReportMs'>> & {
  readonly level?: Parameters<typeof memoryLogger>[0];
};

export const startSinkDaemon = async (
  config: Config,
  options: SinkDaemonOptions = {},
): Promise<SinkDaemon> => {
  const { level = 'info', ...context } = options;
  const memory = memoryLogger(level);
  let sink: Subscriber<Observation> | undefined;
  const daemon = new Daemon({
    config,
    log: memory.logger,
    engine: engineSupervisor(),
    scheduler: asyncScheduler,
    now,
    version: '0.0.0-test',
    openBoard: () =>
      new Observable<Observation>(s => {
        sink = s;
        return () => (sink = undefined);
      }),
    ...context,
  });
  await daemon.start();
  const pipeline = daemon.pipeline$().subscribe();
  const send = (observation: Observation): void => sink?.next(observation);
  return {
    daemon,
    lines: memory.lines,
    send,
    connectBoard: async game => {
      await waitFor(() => sink !== undefined, 5000, 'the board session');
      send({ type: 'identity', at: now(), vendor: 'DGT', serial: '01025' });
      send({ type: 'snapshot', at: now(), squares: START_SQUARES });
      send({ type: 'link', at: now(), state: 'connected' });
      await waitFor(() => daemon.games?.get(game) !== undefined, 5000, 'the game to start');
    },
    stop: async () => {
      pipeline.unsubscribe();
      await daemon.stop();
    },
  };
};
