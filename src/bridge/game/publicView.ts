/**
 * The public snapshot of a game under the broadcast delay: the live snapshot (docs/web.md) cut to
 * what the feed shows at `now` (docs/broadcast.md, "Broadcast delay"). Moves are the plies the feed
 * shows; the result, reason and Termination only once the feed shows the result; the clocks are
 * the readings carried by the shown moves, the side to move running from the moment its last
 * shown move is released, so a delayed display counts down as the hall did N minutes before.
 * Live clock events are never used: a clock switching sides would give a withheld move away.
 *
 *   const pub = publicSnapshot(liveSnapshot, viewGame(feed, entry, now), delayMs, now);
 *   publisher.retain(topics.publicGame(pub.game), pub);
 *
 * `seq` is the time the snapshot was made (ms): it only grows, also across restarts, so a page that
 * keeps the highest seq (web/shared/store.js) never drops a newer public snapshot.
 */
import type { GameView as FeedView } from '../feed/visible.js';
import type { WebClocks, WebGameSnapshot, WebGameStatus } from '../web/contract.js';
import { turnOf, wireClocks } from '../wire/events.js';

/** Clock readings carried by the first `plies` moves: each side's latest. */
const shownClocks = (view: FeedView, delayMs: number, status: WebGameStatus): WebClocks | null => {
  const record = view.entry.live.game;
  let white: number | undefined;
  let black: number | undefined;
  for (let ply = view.plies; ply >= 1 && (white === undefined || black === undefined); ply--) {
    const move = record.moveAt(ply);
    if (move?.clockMs === undefined) continue;
    const mover = turnOf(record.fenAt(ply)) === 'white' ? 'black' : 'white';
    if (mover === 'white') white ??= move.clockMs;
    else black ??= move.clockMs;
  }
  if (white === undefined && black === undefined) return null;
  const initial = white ?? black ?? 0;
  const lastSeen = view.plies > 0 ? (view.entry.seenAt[view.plies - 1] ?? 0) : 0;
  const running = status === 'playing' ? turnOf(record.fenAt(view.plies)) : null;
  return wireClocks(white ?? initial, black ?? initial, running, lastSeen + delayMs);
};

/** What the public sees of `live` at `now` (see the module comment). */
export const publicSnapshot = (
  live: WebGameSnapshot,
  view: FeedView,
  delayMs: number,
  now: number,
): WebGameSnapshot => {
  const record = view.entry.live.game;
  const resultShown = view.result !== '*';
  const last = view.plies > 0 ? record.moveAt(view.plies) : undefined;
  const withheld = view.plies < record.length;
  // A pause shows only once every move before it is shown; a finished game withheld goes on.
  const status: WebGameStatus = resultShown
    ? 'finished'
    : live.status === 'not_started'
      ? 'not_started'
      : live.status === 'paused' && !withheld
        ? 'paused'
        : 'playing';
  return {
    ...live,
    seq: now,
    at: now,
    fen: record.fenAt(view.plies),
    moves: record.moves.slice(0, view.plies).map(m => m.san),
    last_move: last === undefined ? null : { ply: last.ply, san: last.san, uci: last.uci },
    clocks: shownClocks(view, delayMs, status),
    result: view.result,
    reason: resultShown ? live.reason : null,
    reason_text: resultShown ? live.reason_text : null,
    termination: resultShown ? live.termination : null,
    status,
  };
};
