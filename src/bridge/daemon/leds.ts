/**
 * Squares to fix, shown on the board: when the supervisor reports a position the board should not
 * show (an illegal position or move, displaced pieces, a board that differs from its game), the
 * squares of the alert's evidence blink on boards that have LEDs (Millennium, Certabo, Chessnut);
 * the next move, correction or result clears them. One stream per board, fed from the game events
 * the daemon publishes and read by the board's session (the opener's `leds`).
 *
 *   const leds = new BoardLeds();
 *   makeBoardOpener({ …, leds: board => leds.of(board.id) });
 *   leds.onEvent('b-03', event);            // for every published event of the game on b-03
 */
import { parseSquare, SquareSet } from 'chessops';
import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import type { LedGroup } from '../../drivers/observationExtra.js';
import type { AlertCode, GameEvent } from '../../engine/events.js';

/** Alerts whose evidence squares are the squares the arbiter or the players must put right. */
const TO_FIX: ReadonlySet<AlertCode> = new Set<AlertCode>([
  'illegal-position',
  'illegal-move',
  'king-capture',
  'displaced-pieces',
  'board-mismatch',
]);

/**
 * What one game event does to its board's LEDs: the groups to show, `[]` to clear, or undefined
 * to leave them as they are (pure).
 */
export const ledsForEvent = (e: GameEvent): readonly LedGroup[] | undefined => {
  switch (e.type) {
    case 'alert': {
      if (!TO_FIX.has(e.code)) return undefined;
      const squares = (e.evidence?.squares ?? []).reduce((set, name) => {
        const sq = parseSquare(name);
        return sq === undefined ? set : set.with(sq);
      }, SquareSet.empty());
      return squares.isEmpty() ? undefined : [{ squares, style: 'blink' }];
    }
    case 'move':
    case 'correction':
    case 'end':
    case 'alert-withdrawn':
      return [];
    case 'clock':
    case 'claim':
    case 'offer':
    case 'finding':
      return undefined;
  }
};

const sameGroups = (a: readonly LedGroup[], b: readonly LedGroup[]): boolean =>
  a.length === b.length && a.every((g, i) => g.style === b[i]?.style && g.squares.equals(b[i].squares));

/** The LED requests of every board, as streams the sessions subscribe to. */
export class BoardLeds {
  private readonly boards = new Map<string, BehaviorSubject<readonly LedGroup[]>>();

  private subject(board: string): BehaviorSubject<readonly LedGroup[]> {
    let s = this.boards.get(board);
    if (s === undefined) {
      s = new BehaviorSubject<readonly LedGroup[]>([]);
      this.boards.set(board, s);
    }
    return s;
  }

  /** The board's LED groups: the current ones first, then every change. */
  of(board: string): Observable<readonly LedGroup[]> {
    return this.subject(board).pipe(distinctUntilChanged(sameGroups));
  }

  /** Applies a published game event of the game on `board` (no board: nothing to light). */
  onEvent(board: string | undefined, e: GameEvent): void {
    if (board === undefined) return;
    const groups = ledsForEvent(e);
    if (groups !== undefined) this.subject(board).next(groups);
  }

  /** What the board shows now (for tests and the console). */
  current(board: string): readonly LedGroup[] {
    return this.boards.get(board)?.getValue() ?? [];
  }
}
