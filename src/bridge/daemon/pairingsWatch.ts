/**
 * Reads the pairings file again when it changes (`tournament.pairingsFile`): the organiser exports
 * the next round from the pairing program over the same file, and the boards take their next
 * games from it without a restart. A file that does not read or check out is reported with its
 * line and changes nothing; games already started keep their pairing.
 *
 *   const watch = watchPairingsFile({ config, log, scheduler, apply: p => games.setPairings(p) });
 *   watch?.stop(); // undefined when the config names no pairings file
 *
 * The folder is watched, not the file: pairing programs and editors often write a new file and
 * rename it over the old one, which a watch on the old file would miss. Changes within
 * `settleMs` are read once.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Config, PairingConfig } from '../config/index.js';
import type { Logger } from '../logger.js';
import { filePairings, inlinePairings, readPairingsFile } from '../pairings/fromFile.js';

export interface PairingsWatchOptions {
  readonly config: Config;
  readonly log: Logger;
  readonly scheduler: SchedulerLike;
  /** Called with the config's own pairings followed by the file's, each time the file's change. */
  readonly apply: (pairings: readonly PairingConfig[]) => void;
  /** Quiet time after a change before the file is read; default 300 ms. */
  readonly settleMs?: number;
}

export interface PairingsWatch {
  stop(): void;
}

const key = (pairings: readonly PairingConfig[]): string => JSON.stringify(pairings);

export const watchPairingsFile = (options: PairingsWatchOptions): PairingsWatch | undefined => {
  const { config, log, scheduler } = options;
  const path = config.tournament.pairingsFile;
  if (path === '') return undefined;
  const inline = inlinePairings(config);
  let current = filePairings(config);
  let pending: Subscription | undefined;
  let reading = false;
  let again = false;
  let stopped = false;

  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    const file = await readPairingsFile(path, config);
    reading = false;
    if (stopped) return;
    if (file.isErr) {
      log.error(
        `pairings file not applied, the pairings in use stay: ${file.error.message.split('\n').join('; ')}`,
      );
    } else if (key(file.value) !== key(current)) {
      const before = current;
      current = file.value;
      options.apply([...inline, ...file.value]);
      log.info(
        `pairings file ${path} read again: ${file.value.length} games to play (${before.length} before)`,
      );
    }
    if (again) {
      again = false;
      await read();
    }
  };

  const changed = (): void => {
    pending?.unsubscribe();
    pending = scheduler.schedule(() => {
      pending = undefined;
      void read();
    }, options.settleMs ?? 300);
  };

  log.info(`pairings file ${path}: ${current.length} games to play; read again when it changes`);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
      if (name === null || name === basename(path)) changed();
    });
    watcher.on('error', (e: Error) => log.warn(`pairings file ${path}: no longer watched (${e.message})`));
  } catch (e) {
    log.warn(
      `pairings file ${path}: cannot watch its folder (${e instanceof Error ? e.message : String(e)}); restart to read it again`,
    );
  }
  return {
    stop: () => {
      stopped = true;
      pending?.unsubscribe();
      watcher?.close();
    },
  };
};
