/**
 * Moves made while nobody was watching, recovered from the board's own memory (issue: downtime
 * never decides a result). A DGT board logs every square change and every lever press in its
 * EEPROM (reference dgt-protocol.md §7); read after a restart or a lost link, before the board's
 * snapshot, the log tells what happened in between, in order but without times. The supervisor
 * follows the log from a point where it knows the board (a power-up, then one record per piece; a
 * start position the board tagged), finds the last point where the board stood as it was last seen
 * here, and replays what came after as square events and presses spread over the gap. Recognition
 * then reads the moves as it would have live; the presses complete them.
 *
 * What the replay cannot tell is never judged: its timing is made up, so no Art. 4 finding comes
 * from it, and a press in it that the board does not explain counts as no illegal move (the
 * arbiter gets the mismatch, as for any re-read board).
 *
 *   onBoardLog(tx, { kind: 'boardLog', at: 60_000, entries });   // the moves since the kill published
 */
import type { BoardLogEntry, SupervisorInput } from '../events.js';
import {
  type BoardEvent,
  type SensedContent,
  contentsOfBoard,
  sameContent,
} from '../recognition/boardEvent.js';
import { contentAt } from '../recognition/sensedBoard.js';
import { Chess } from 'chessops';
import { type Tx, isOver, patch } from './tx.js';

type BoardLog = Extract<SupervisorInput, { kind: 'boardLog' }>;

/** Gap between two replayed records (ms): quick records within a settle window, others after one. */
const QUICK_GAP_MS = 40;
const SLOW_GAP_MS = 700;

const START_BOARD: readonly SensedContent[] = contentsOfBoard(Chess.default().board);
const EMPTY_BOARD: readonly SensedContent[] = new Array<SensedContent>(64).fill('empty');

const sameBoard = (a: readonly SensedContent[], b: readonly SensedContent[]): boolean =>
  a.every((c, sq) => sameContent(c, b[sq] ?? 'empty'));

/**
 * Where in `entries` the board stood as `seen` (the index of that entry, -1 for the mark before
 * the first record), following the log from its last mark; undefined when it never did (the log
 * was cut, or the board was changed beyond what it logs). A position can stand more than once (a
 * repetition, a piece lifted and put back): with `presses`, the clock presses the supervisor saw,
 * the place is the one with as many presses logged before it (or the nearest count), else the
 * last one. Presses are counted rather than changes: the board may merge a piece's records.
 */
export const alignLog = (
  entries: readonly BoardLogEntry[],
  seen: readonly SensedContent[],
  presses?: number,
): number | undefined => {
  let board: SensedContent[] | undefined;
  let pressed = 0;
  const found: { readonly i: number; readonly pressed: number }[] = [];
  for (const [i, e] of entries.entries()) {
    switch (e.kind) {
      case 'mark':
        board = [...(e.board === 'empty' ? EMPTY_BOARD : START_BOARD)];
        pressed = 0;
        found.length = 0;
        break;
      case 'gap':
        board = undefined;
        pressed = 0;
        found.length = 0;
        break;
      case 'square':
        if (board) board[e.square] = e.piece;
        break;
      case 'press':
        pressed++;
        break;
    }
    if (board && e.kind !== 'press' && sameBoard(board, seen)) found.push({ i, pressed });
  }
  if (presses === undefined) return found.at(-1)?.i;
  // The nearest count, the later place on a tie (so, in a log without presses, the last place).
  let best: { readonly i: number; readonly pressed: number } | undefined;
  for (const f of found)
    if (!best || Math.abs(f.pressed - presses) <= Math.abs(best.pressed - presses)) best = f;
  return best?.i;
};

/** The times of the replayed records: spread over (`from`, `until`], quick ones close together. */
const replayTimes = (entries: readonly BoardLogEntry[], from: number, until: number): number[] => {
  const gaps = entries.map(e => (e.kind === 'square' && e.quick ? QUICK_GAP_MS : SLOW_GAP_MS));
  const total = gaps.reduce((n, g) => n + g, 0);
  const room = Math.max(entries.length, until - from);
  const scale = total > room ? room / total : 1;
  let t = from;
  return gaps.map(g => {
    t = Math.min(until, t + Math.max(1, Math.floor(g * scale)));
    return t;
  });
};

/**
 * The board's log: the records after the point where the board stood as last seen are replayed
 * through `step` (the supervisor's board step), which publishes the moves they make.
 * Returns how many records were replayed (0: nothing new, or the log could not be placed).
 */
export const onBoardLog = (tx: Tx, input: BoardLog, step: (e: BoardEvent) => void): number => {
  const { rec } = tx.st;
  if (tx.st.ended || rec.result) return 0;
  const seen: SensedContent[] = [];
  for (let sq = 0; sq < 64; sq++) seen.push(contentAt(rec.sensed, sq));
  const k = alignLog(input.entries, seen, tx.st.presses);
  if (k === undefined) return 0;
  const tail = input.entries
    .slice(k + 1)
    .flatMap((e): Extract<BoardLogEntry, { kind: 'square' | 'press' }>[] =>
      e.kind === 'square' || e.kind === 'press' ? [e] : [],
    );
  if (!tail.some(e => e.kind === 'square')) return 0;
  // Replayed from when the board was last seen: the loss of the link, or the last thing judged.
  const from = Math.min(tx.st.lostAt ?? Math.max(tx.st.now, rec.now), input.at);
  const times = replayTimes(tail, from, input.at);
  // Set before the replay: the moves it makes are judged while it runs (a press, the reply).
  patch(tx, { recovering: true, recovered: { from, until: times[times.length - 1] ?? input.at } });
  for (const [i, e] of tail.entries()) {
    const at = times[i] ?? input.at;
    if (e.kind === 'square') step({ kind: 'square', at, square: e.square, piece: e.piece });
    else step({ kind: 'press', at, side: e.side });
    if (isOver(tx)) break;
  }
  patch(tx, { recovering: false });
  return tail.length;
};
