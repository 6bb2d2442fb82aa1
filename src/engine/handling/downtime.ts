/**
 * The downtime mode of the handling generator: the recogniser's input is cut for a while in the
 * middle of a game, as when the daemon is killed and restarted or a cable is pulled, while the
 * players go on. What the board does meanwhile is not passed on; when the link returns the board
 * is read again (a snapshot), and, for a board that keeps a log of its changes (a DGT board's
 * EEPROM), that log comes first.
 *
 *   const run = generateForGame(game, { seed: 3 });
 *   const cut = withDowntime(run.events, game.positionAt(0).board, { from: 120_000, ms: 30_000, log: true });
 *   runSupervision(state, cut.inputs);   // the plies made while down recovered from the log
 */
import type { Board, Color, Square } from 'chessops';
import type { BoardLogEntry, SupervisorInput } from '../events.js';
import { type BoardEvent, type SensedContent, contentsOfBoard } from '../recognition/boardEvent.js';

/** How long the board stays in view after a link returned when the game ended meanwhile (ms). */
const TAIL_MS = 5000;

export interface DowntimeOptions {
  /** When the input is cut (the events' time base, ms). */
  readonly from: number;
  /** How long it stays cut (ms). */
  readonly ms: number;
  /** The board keeps a log of its changes, read before its snapshot when the link returns. */
  readonly log?: boolean;
}

export interface DowntimeRun {
  /** What the supervisor receives. */
  readonly inputs: SupervisorInput[];
  /** Presses made while the input was cut. */
  readonly presses: number;
  /** Square changes made while the input was cut. */
  readonly changes: number;
}

/**
 * `events` (from a game started on `start`) with the input cut from `options.from` for
 * `options.ms`: a `link lost`, nothing of what happened meanwhile, then the board's log when it
 * keeps one (every change and press since the start, as a DGT board logs them), `link back` and
 * the snapshot of the board as it stands.
 */
export const withDowntime = (
  events: readonly BoardEvent[],
  start: Board,
  options: DowntimeOptions,
): DowntimeRun => {
  const until = options.from + options.ms;
  const board: SensedContent[] = contentsOfBoard(start);
  const log: BoardLogEntry[] = [{ kind: 'mark', board: 'start' }];
  const inputs: SupervisorInput[] = [];
  let lastAt = Number.NEGATIVE_INFINITY;
  let presses = 0;
  let changes = 0;
  let state: 'before' | 'down' | 'after' = 'before';
  const note = (square: Square, piece: SensedContent, at: number): void => {
    board[square] = piece;
    log.push({ kind: 'square', square, piece, quick: at - lastAt < 250 });
    lastAt = at;
  };
  const press = (side: Color): void => {
    log.push({ kind: 'press', side });
  };
  const back = (): void => {
    // As the daemon reads a returning DGT board: its log first, then the link back with its snapshot.
    if (options.log === true) inputs.push({ kind: 'boardLog', at: until, entries: [...log] });
    inputs.push({ kind: 'link', at: until, state: 'back' });
    inputs.push({ kind: 'snapshot', at: until, board: [...board] });
    state = 'after';
  };
  for (const e of events) {
    if (state === 'before' && e.at >= options.from) {
      inputs.push({ kind: 'link', at: options.from, state: 'lost' });
      state = 'down';
    }
    if (state === 'down' && e.at >= until) back();
    if (e.kind === 'square') note(e.square, e.piece, e.at);
    if (e.kind === 'press') press(e.side);
    if (state === 'down') {
      if (e.kind === 'square') changes++;
      if (e.kind === 'press') presses++;
      continue;
    }
    inputs.push(e);
  }
  if (state === 'down') {
    // The game went on to its end while cut: the board is read back, then time passes over it.
    back();
    inputs.push({ kind: 'tick', at: until + TAIL_MS });
  }
  return { inputs, presses, changes };
};
