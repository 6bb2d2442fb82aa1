/**
 * What the daemon's health reports say beyond "serving": the boards that are not connected and
 * the reasons `/healthz` gives for `degraded` (a board missing, the publisher behind, the journal
 * failing to write). Pure: the registries are read as they are.
 *
 *   degradedReasons({ boards, publisher, journalProblem }); // ['1 of 2 boards not connected: b-2 (lost)']
 */
import type { PublisherHealth } from '../mqtt/publisher.js';
import type { BoardRegistry, BoardSlot } from './boards.js';

/** Events waiting for the broker from which /healthz says the publisher is behind. */
export const PUBLISHER_BEHIND = 500;
/** Or: the oldest event has waited this long (ms) for its PUBACK (a stall, however few events). */
export const PUBLISHER_STALLED_MS = 10_000;
/** Boards named in the reason; more are counted. */
const NAMED_BOARDS = 10;

/** The configured boards whose link is not up. */
export const notConnected = (boards: Pick<BoardRegistry, 'all'>): BoardSlot[] =>
  boards.all().filter(slot => slot.status.link !== 'connected');

export interface HealthSources {
  readonly boards: Pick<BoardRegistry, 'all'>;
  readonly publisher: { health(): Pick<PublisherHealth, 'queued' | 'oldestMs'> } | undefined;
  /** The journal's standing problem (a full disk, a failed checkpoint), if any. */
  readonly journalProblem: string | undefined;
}

/** What is wrong while the daemon serves, in words; empty when nothing is. */
export const degradedReasons = (s: HealthSources): string[] => {
  const out: string[] = [];
  const missing = notConnected(s.boards);
  if (missing.length > 0) {
    const named = missing
      .slice(0, NAMED_BOARDS)
      .map(slot => `${slot.config.id} (${slot.status.link})`)
      .join(', ');
    out.push(
      `${missing.length} of ${s.boards.all().length} boards not connected: ${named}${missing.length > NAMED_BOARDS ? ', …' : ''}`,
    );
  }
  const { queued, oldestMs } = s.publisher?.health() ?? { queued: 0, oldestMs: 0 };
  if (queued >= PUBLISHER_BEHIND || oldestMs >= PUBLISHER_STALLED_MS)
    out.push(
      `publisher behind: ${queued} events wait for the broker, the oldest for ${Math.round(oldestMs / 1000)} s`,
    );
  if (s.journalProblem !== undefined) out.push(`journal: ${s.journalProblem}`);
  return out;
};
