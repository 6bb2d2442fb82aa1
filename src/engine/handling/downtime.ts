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
  /**
   * A physical clock read through the board (a DGT clock on a DGT board): driven by the presses,
   * White's time running from the first event, read every `everyMs` (default 1000, in whole
   * seconds) while the link is up. Without it, no readings.
   */
  readonly clock?: { readonly baseMs: number; readonly incMs: number; readonly everyMs?: number };
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
  const everyMs = options.clock?.everyMs ?? 1000;
  const first = events[0]?.at ?? 0;
  const clock = options.clock && {
    ...options.clock,
    everyMs,
    left: { white: options.clock.baseMs, black: options.clock.baseMs },
    running: 'white' as Color,
    mark: first,
    next: Math.ceil(first / everyMs) * everyMs,
  };
  const runTo = (at: number): void => {
    if (!clock) return;
    clock.left[clock.running] -= at - clock.mark;
    clock.mark = at;
  };
  /** The clock's readings before `upTo`; none while the link is down. */
  const readTo = (upTo: number): void => {
    if (!clock) return;
    for (; clock.next < upTo; clock.next += clock.everyMs) {
      if (clock.next >= options.from && clock.next < until) continue;
      runTo(clock.next);
      const shown = (ms: number): number => Math.max(0, Math.floor(ms / 1000) * 1000);
      inputs.push({
        kind: 'clock',
        at: clock.next,
        whiteMs: shown(clock.left.white),
        blackMs: shown(clock.left.black),
        running: clock.running,
      });
    }
  };
  const note = (square: Square, piece: SensedContent, at: number): void => {
    board[square] = piece;
    log.push({ kind: 'square', square, piece, quick: at - lastAt < 250 });
    lastAt = at;
  };
  const press = (side: Color, at: number): void => {
    log.push({ kind: 'press', side });
    if (clock?.running !== side) return;
    runTo(at);
    clock.left[side] += clock.incMs;
    clock.running = side === 'white' ? 'black' : 'white';
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
      readTo(options.from);
      inputs.push({ kind: 'link', at: options.from, state: 'lost' });
      state = 'down';
    }
    if (state === 'down' && e.at >= until) back();
    readTo(e.at);
    if (e.kind === 'square') note(e.square, e.piece, e.at);
    if (e.kind === 'press') press(e.side, e.at);
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
    readTo(until + TAIL_MS);
    inputs.push({ kind: 'tick', at: until + TAIL_MS });
  } else readTo((events.at(-1)?.at ?? 0) + TAIL_MS);
  return { inputs, presses, changes };
};
