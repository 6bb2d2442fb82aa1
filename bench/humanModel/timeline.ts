/**
 * What a sensor board and a clock report while people play, built step by step: a mirror of the 64
 * squares (a change is reported only when a square's content really changes, as a DGT board does),
 * a time cursor in ms, and the events so far. Events may be added out of order (a press the clock
 * reports late); `finish` sorts them by time and fills quiet stretches with one tick a second, as
 * the daemon's own timers do.
 *
 *   const tl = new Timeline(contentsOf(pos.board));
 *   tl.set(12, 'empty'); tl.wait(400); tl.set(28, { color: 'white', role: 'pawn' });
 *   tl.wait(900); tl.press('white');
 *   const inputs = tl.finish(8000);
 */
import type { Board, Color, Piece, Square } from 'chessops';
import type { SensedContent } from '../../src/engine/recognition/boardEvent.js';
import type { SupervisorInput } from '../../src/engine/events.js';

/** A square's content in the board's words. */
export const contentsOf = (board: Board): SensedContent[] => {
  const out: SensedContent[] = new Array<SensedContent>(64).fill('empty');
  for (const [sq, piece] of board) out[sq] = { color: piece.color, role: piece.role };
  return out;
};

const same = (a: SensedContent | undefined, b: SensedContent): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && a.color === b.color && a.role === b.role);

export class Timeline {
  /** The time cursor (ms). */
  t = 0;
  private readonly events: SupervisorInput[] = [];

  constructor(private readonly board: SensedContent[]) {}

  /** What the board shows on `sq` now. */
  at(sq: Square): SensedContent {
    return this.board[sq] ?? 'empty';
  }

  isEmpty(sq: Square): boolean {
    return this.at(sq) === 'empty';
  }

  /** The square now shows `content` (nothing is reported when it already did). */
  set(sq: Square, content: SensedContent | Piece): void {
    const sensed: SensedContent =
      typeof content === 'string' ? content : { color: content.color, role: content.role };
    if (same(this.board[sq], sensed)) return;
    this.board[sq] = sensed;
    this.events.push({ kind: 'square', at: this.t, square: sq, piece: sensed });
  }

  wait(ms: number): void {
    this.t += Math.max(0, Math.round(ms));
  }

  /** The player of `side` presses his lever, now or at `at` (a press reported late). */
  press(side: Color, at = this.t): void {
    this.events.push({ kind: 'press', at: Math.round(at), side });
  }

  /** Time of the last event added so far. */
  get lastAt(): number {
    return this.events.reduce((m, e) => Math.max(m, e.at), 0);
  }

  /** The events in time order (stable), with a tick every second of quiet, up to `tailMs` after the last. */
  finish(tailMs: number): SupervisorInput[] {
    const sorted = this.events
      .map((e, i) => ({ e, i }))
      .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
      .map(x => x.e);
    const end = (sorted.at(-1)?.at ?? 0) + tailMs;
    const out: SupervisorInput[] = [];
    let last = 0;
    const fill = (until: number): void => {
      for (let t = last + 1000; t < until; t += 1000) out.push({ kind: 'tick', at: t });
    };
    for (const e of sorted) {
      fill(e.at);
      out.push(e);
      last = e.at;
    }
    fill(end);
    out.push({ kind: 'tick', at: end });
    return out;
  }
}
