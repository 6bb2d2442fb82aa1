/**
 * Stage: what a board's observations mean to the daemon besides its game. Each one updates the
 * board registry (link, serial number, the mirror of its squares), is journaled into the game
 * bound to the board, and may start that board's next pairing (its serial is known and the
 * pieces stand in the start position). Link changes and new serial numbers are logged at info; a
 * port that cannot be opened is said once at warn with a hint, its retries at debug.
 *
 *   observations$.pipe(trackBoard({ id: 'b-01', boards, route, consider, log }))
 */
import { type MonoTypeOperatorFunction, tap } from 'rxjs';
import type { Observation } from '../../drivers/observation.js';
import type { Logger } from '../logger.js';
import type { TrackedBoards } from './types.js';

export interface TrackBoardDeps {
  readonly id: string;
  /** The board registry (the daemon's BoardRegistry), as far as this stage uses it. */
  readonly boards: TrackedBoards;
  /** Journals an observation into the board's game (GameRegistry.route). */
  readonly route: (board: string, o: Observation) => void;
  /** Starts the board's next pairing when it is ready (GameRegistry.considerBoard). */
  readonly consider: (board: string) => void;
  readonly log: Logger;
}

export const trackBoard =
  (deps: TrackBoardDeps): MonoTypeOperatorFunction<Observation> =>
  source$ => {
    // A port that cannot be opened (no board plugged in) is said once, with a hint, at warn; the
    // retries that fail the same way are debug lines until the board connects.
    let cannotOpen = false;
    const logLink = (o: Extract<Observation, { type: 'link' }>): void => {
      const line = `board ${deps.id}: ${o.state}${o.detail === undefined ? '' : ` (${o.detail})`}`;
      const failedOpen = o.state === 'lost' && o.detail?.startsWith('cannot open') === true;
      if (failedOpen && !cannotOpen)
        deps.log.warn(
          `${line}: check the cable and the board's port in the configuration; \`chessbridge ports\` lists the boards it finds. Retrying, quietly, until it connects`,
        );
      else if (cannotOpen && (failedOpen || o.state === 'resynchronising')) deps.log.debug(line);
      else deps.log.info(line);
      if (failedOpen) cannotOpen = true;
      else if (o.state === 'connected') cannotOpen = false;
    };
    return source$.pipe(
      tap(o => {
        const change = deps.boards.observe(deps.id, o);
        const status = deps.boards.get(deps.id)?.status;
        if (o.type === 'link' && change.link) logLink(o);
        if (change.serial) deps.log.info(`board ${deps.id}: serial number ${status?.serial ?? '?'}`);
        if (o.type === 'protocol-error')
          deps.log.warn(`board ${deps.id}: protocol error ${o.reason.kind} (${o.count} bytes)`, {
            hex: o.hex,
          });
        deps.route(deps.id, o);
        if (change.serial || change.squares || change.link) deps.consider(deps.id);
      }),
    );
  };
