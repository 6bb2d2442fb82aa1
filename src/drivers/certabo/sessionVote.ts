/**
 * The Certabo session's vote over RFID frames (reference §2.4, errata 2), and when the board
 * first showed what the vote confirms. The decoder maps each frame through the calibration with
 * unknown and noise ids as empty; this decides, square by square, what the board shows:
 *
 * - 'confirm-empty' (default): a known tag is taken at once; a square going empty must read
 *   empty in two frames running. Noise and misread tags give unknown ids, which count as empty,
 *   so what needs confirming is a square going empty (a tag read badly for one frame); a piece
 *   standing for a single frame is still seen (a blitz capture and recapture on one square).
 * - 'majority': errata 2 to the letter, the most common content of the last `frames` frames,
 *   the newest winning a tie. A piece must stand for two frames to be seen.
 *
 * Square observations are stamped with the receipt time of the first frame that showed their
 * content, so they can be merged by time with a separate clock's presses; stamps never go back.
 *
 *   const vote = new CertaboVote('confirm-empty');
 *   const board = vote.frame(rawSquares, chunk.at); // the voted board
 *   vote.stamp(tracker.snapshot({ type: 'snapshot', at, squares: board }));
 */
import {
  EMPTY,
  type SnapshotObservation,
  type SquareContent,
  type SquareObservation,
} from '../observation.js';
import { pieceLetterOf } from '../observationExtra.js';
import { voteSquares } from './codec.js';

export type VoteMode = 'confirm-empty' | 'majority';

const keyOf = (c: SquareContent): string => (c.kind === 'piece' ? (pieceLetterOf(c) ?? '?') : c.kind);

export class CertaboVote {
  private history: SquareContent[][] = [];
  private voted: SquareContent[] | undefined;
  private readonly emptyRun: number[] = new Array<number>(64).fill(0);
  private readonly shown: string[] = new Array<string>(64).fill('');
  private readonly since: number[] = new Array<number>(64).fill(0);
  private last = -Infinity;

  constructor(
    private readonly mode: VoteMode = 'confirm-empty',
    private readonly frames = 3,
  ) {
    if (!Number.isInteger(frames) || frames < 1)
      throw new TypeError(`frames must be a positive integer, got ${frames}`);
  }

  /** Forgets everything (a new connection, a new calibration). */
  reset(): void {
    this.history = [];
    this.voted = undefined;
    this.emptyRun.fill(0);
    this.shown.fill('');
    this.last = -Infinity;
  }

  /** One frame's contents (game frame, unknown tags already empty) received at `at` → the voted board. */
  frame(raw: readonly SquareContent[], at: number): SquareContent[] {
    raw.forEach((c, sq) => {
      const k = keyOf(c);
      if (this.shown[sq] !== k) {
        this.shown[sq] = k;
        this.since[sq] = at;
      }
    });
    if (this.mode === 'majority') {
      this.history.push([...raw]);
      if (this.history.length > this.frames) this.history.shift();
      return voteSquares(this.history);
    }
    const voted = this.voted ?? [...raw];
    raw.forEach((c, sq) => {
      const now = voted[sq] ?? EMPTY;
      if (c.kind !== 'empty') {
        this.emptyRun[sq] = 0;
        voted[sq] = c;
      } else if (now.kind !== 'empty' && ++this.emptyRun[sq]! >= 2) {
        voted[sq] = EMPTY;
      }
    });
    this.voted = voted;
    return [...voted];
  }

  /** The observations with `at` moved back to when the board first showed each change, in time order. */
  stamp(
    obs: readonly (SnapshotObservation | SquareObservation)[],
  ): (SnapshotObservation | SquareObservation)[] {
    const out = obs.map(o => {
      if (o.type !== 'square') return o;
      const first = this.shown[o.square] === keyOf(o.content) ? this.since[o.square] : undefined;
      return first === undefined || first >= o.at ? o : { ...o, at: first };
    });
    // Stable: lifts stay before places at equal times.
    const sorted = out.map((o, i) => ({ o, i })).sort((a, b) => a.o.at - b.o.at || a.i - b.i);
    return sorted.map(({ o }) => {
      const at = Math.max(o.at, this.last);
      this.last = at;
      return at === o.at ? o : { ...o, at };
    });
  }
}
