/**
 * What a DGT session knows about one board between messages: a mirror of its 64 fields, its
 * orientation (configured, or detected from the start position), and the identity already
 * reported. Decoders run in the board's own frame ('normal'); this turns their observations into
 * the game frame, drops repeats (identical snapshots, identity already known) and re-reports the
 * board when the detected orientation changes. Pure; used by session.ts and sessionBus.ts.
 *
 *   const view = new BoardView('auto');
 *   view.observe(obs, { force: true }); // [snapshot in the game frame]
 *   view.orientation; // 'rotated' once a rotated start position was seen
 */
import type { IdentityObservation, Observation, Orientation, SquareContent } from '../observation.js';
import { detectOrientation, orientSquare, orientSquares } from '../observation.js';

const same = (a: SquareContent | undefined, b: SquareContent | undefined): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

const sameBoard = (a: readonly SquareContent[], b: readonly SquareContent[]): boolean =>
  a.length === b.length && a.every((c, i) => same(c, b[i]));

/** Applies an orientation to an observation made in the board's own frame. */
export const orientObservation = (o: Observation, orientation: Orientation): Observation => {
  if (orientation === 'normal') return o;
  switch (o.type) {
    case 'snapshot':
      return { ...o, squares: orientSquares(o.squares, orientation) };
    case 'square':
      return { ...o, square: orientSquare(o.square, orientation) };
    case 'eeprom-log':
      return {
        ...o,
        records: o.records.map(r =>
          r.kind === 'piece' ? { ...r, square: orientSquare(r.square, orientation) } : r,
        ),
      };
    case 'clock':
    case 'identity':
    case 'battery':
    case 'link':
    case 'protocol-error':
    case 'clock-ack':
    case 'bus-reply':
      return o;
  }
};

type IdentityFields = Omit<IdentityObservation, 'type' | 'at'>;

export class BoardView {
  orientation: Orientation;
  private mirror: SquareContent[] | undefined;
  private known: Partial<Record<keyof IdentityFields, unknown>> = {};

  constructor(private readonly configured: Orientation | 'auto') {
    this.orientation = configured === 'auto' ? 'normal' : configured;
  }

  /** The board in the game frame, once a snapshot was seen. */
  get squares(): SquareContent[] | undefined {
    return this.mirror === undefined ? undefined : orientSquares(this.mirror, this.orientation);
  }

  /** A new connection: identity is reported again; the mirror stays until the next snapshot. */
  reconnected(): void {
    this.known = {};
  }

  /** Detects the orientation from the mirror; true when it changed. */
  private detect(): boolean {
    if (this.configured !== 'auto' || this.mirror === undefined) return false;
    const o = detectOrientation(this.mirror);
    if (o === undefined || o === this.orientation) return false;
    this.orientation = o;
    return true;
  }

  /**
   * One observation from the decoder (board frame). Snapshots are reported when `force` is set,
   * when they differ from the mirror, or when they change the orientation.
   */
  observe(o: Observation, options: { readonly force?: boolean } = {}): Observation[] {
    switch (o.type) {
      case 'snapshot': {
        const changed = this.mirror === undefined || !sameBoard(this.mirror, o.squares);
        this.mirror = [...o.squares];
        const flipped = this.detect();
        return changed || flipped || options.force === true ? [orientObservation(o, this.orientation)] : [];
      }
      case 'square': {
        if (this.mirror !== undefined) this.mirror[o.square] = o.content;
        const out = [orientObservation(o, this.orientation)];
        if (this.detect() && this.mirror !== undefined)
          out.push({ type: 'snapshot', at: o.at, squares: orientSquares(this.mirror, this.orientation) });
        return out;
      }
      case 'identity': {
        const { type: _type, at: _at, ...fields } = o;
        const fresh = (Object.keys(fields) as (keyof IdentityFields)[]).filter(
          k => k !== 'vendor' && this.known[k] !== fields[k],
        );
        if (fresh.length === 0) return [];
        for (const k of fresh) this.known[k] = fields[k];
        return [o];
      }
      case 'eeprom-log':
        return [orientObservation(o, this.orientation)];
      case 'clock':
      case 'battery':
      case 'link':
      case 'protocol-error':
      case 'clock-ack':
      case 'bus-reply':
        return [o];
    }
  }
}
