// The live state of every game a page follows, built from retained snapshots and the event
// stream: events are applied once each (duplicates are dropped by `seq`), events that arrive
// early or across a gap wait for the snapshot that covers them, and a page is told when it
// should read a game's snapshot again. A retained snapshot (kept by the broker, perhaps from an
// earlier run of the daemon) is taken provisionally: the live stream confirms it or refutes it
// (a live event or snapshot far below its seq, or a move it contradicts); a refuted one gives way
// to the last confirmed state and is not taken again (docs/web.md, "Store"). Pure: no DOM, no network.
//
//   const store = new GameStore();
//   store.subscribe(change => render(change.game));
//   store.applySnapshot(JSON.parse(payload), { retained: packet.retain });
//   store.applyEvent(JSON.parse(payload));   // 'applied' | 'duplicate' | 'waiting' | 'gap'

/** @typedef {{ white_ms: number, black_ms: number, running: 'white'|'black'|null, at: number }} Clocks */
/** @typedef {{ ply: number, san: string, uci: string }} LastMove */
/**
 * @typedef {object} GameState
 * @property {string} game
 * @property {number} seq last event applied
 * @property {boolean} hasSnapshot
 * @property {string|null} board
 * @property {number|null} board_number
 * @property {string|null} round
 * @property {string|null} event
 * @property {object|null} white
 * @property {object|null} black
 * @property {string} fen
 * @property {(string|null)[]} moves SAN per ply; null where a ply is not known yet
 * @property {LastMove|null} last_move
 * @property {Clocks|null} clocks
 * @property {string} result
 * @property {string|null} reason_text
 * @property {string} status
 * @property {boolean} [provisional] from a retained snapshot the live stream has not confirmed yet
 */

/** Events held back per game at most; beyond, the oldest are applied as they are. */
const MAX_WAITING = 64;

/**
 * How far below a game's seq a live message may arrive and still be the same story: messages of
 * two topics (events, snapshot) may cross on their way. Further below, the page's state is not
 * the daemon's: a retained snapshot of an earlier run, or the daemon started the game over.
 */
export const SEQ_SLACK = 16;

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const isObject = value => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSeq = value => Number.isInteger(value) && value >= 0;
const textOrNull = value => (typeof value === 'string' && value !== '' ? value : null);
const numberOrNull = value => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Reads a clocks object, or null when it is not one. */
export const readClocks = value => {
  if (!isObject(value)) return null;
  const { white_ms, black_ms, running, at } = value;
  if (![white_ms, black_ms, at].every(n => typeof n === 'number' && Number.isFinite(n))) return null;
  return { white_ms, black_ms, running: running === 'white' || running === 'black' ? running : null, at };
};

const readLastMove = value =>
  isObject(value) && Number.isInteger(value.ply) && typeof value.san === 'string'
    ? { ply: value.ply, san: value.san, uci: typeof value.uci === 'string' ? value.uci : '' }
    : null;

const readPlayer = value => {
  if (typeof value === 'string') return { name: value, title: null, rating: null, federation: null };
  if (!isObject(value) || typeof value.name !== 'string') return null;
  return {
    name: value.name,
    title: textOrNull(value.title),
    rating: numberOrNull(value.rating),
    federation: textOrNull(value.federation),
  };
};

const readMoves = value =>
  Array.isArray(value)
    ? value.map(m => (typeof m === 'string' ? m : isObject(m) && typeof m.san === 'string' ? m.san : null))
    : [];

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

/** A snapshot payload read into a state, or null when it is not a snapshot. */
export const readSnapshot = value => {
  if (!isObject(value) || typeof value.game !== 'string' || !isSeq(value.seq)) return null;
  const result = RESULTS.includes(value.result) ? value.result : '*';
  return {
    game: value.game,
    seq: value.seq,
    hasSnapshot: true,
    board: textOrNull(value.board),
    board_number: numberOrNull(value.board_number),
    round: value.round === null || value.round === undefined ? null : String(value.round),
    event: textOrNull(value.event),
    white: readPlayer(value.white),
    black: readPlayer(value.black),
    fen: typeof value.fen === 'string' && value.fen !== '' ? value.fen : START_FEN,
    moves: readMoves(value.moves),
    last_move: readLastMove(value.last_move),
    clocks: readClocks(value.clocks),
    result,
    reason_text: textOrNull(value.reason_text),
    status: typeof value.status === 'string' ? value.status : result === '*' ? 'playing' : 'finished',
  };
};

/** A state for a game known only from its events so far. */
const emptyState = game => ({
  game,
  seq: 0,
  hasSnapshot: false,
  board: null,
  board_number: null,
  round: null,
  event: null,
  white: null,
  black: null,
  fen: START_FEN,
  moves: [],
  last_move: null,
  clocks: null,
  result: '*',
  reason_text: null,
  status: 'playing',
});

/** The moves after ply `ply` are dropped; unknown plies before it become null. */
const movesUpTo = (moves, ply) => {
  const out = moves.slice(0, Math.max(0, ply));
  while (out.length < ply) out.push(null);
  return out;
};

/**
 * Folds one event into a state (a new object). Types the pages do not know only advance `seq`;
 * the second value says whether the page should read the snapshot to learn what changed.
 * @returns {[GameState, boolean]}
 */
export const foldEvent = (state, event) => {
  const next = { ...state, seq: event.seq };
  switch (event.type) {
    case 'move': {
      if (!Number.isInteger(event.ply) || event.ply < 1 || typeof event.san !== 'string') return [next, true];
      next.moves = [...movesUpTo(state.moves, event.ply - 1), event.san];
      if (typeof event.fen === 'string') next.fen = event.fen;
      next.last_move = {
        ply: event.ply,
        san: event.san,
        uci: typeof event.uci === 'string' ? event.uci : '',
      };
      const clocks = readClocks(event.clocks);
      if (clocks) next.clocks = clocks;
      if (next.status === 'not_started') next.status = 'playing';
      return [next, typeof event.fen !== 'string'];
    }
    case 'clock': {
      const clocks = readClocks(event.clocks);
      if (!clocks) return [next, true];
      next.clocks = clocks;
      if (next.result === '*') {
        if (clocks.running) next.status = 'playing';
        else if (next.status === 'playing') next.status = 'paused';
      }
      return [next, false];
    }
    case 'end': {
      if (!RESULTS.includes(event.result)) return [next, true];
      next.result = event.result;
      next.reason_text = textOrNull(event.reason_text);
      next.status = event.result === '*' ? 'playing' : 'finished';
      if (next.clocks && event.result !== '*') next.clocks = { ...next.clocks, running: null };
      return [next, false];
    }
    default:
      return [next, true];
  }
};

/** The games a page follows (see the module comment). */
export class GameStore {
  constructor() {
    /** @type {Map<string, GameState>} */
    this.games = new Map();
    /** @type {Map<string, Map<number, object>>} events waiting for their turn, by game then seq */
    this.waiting = new Map();
    this.listeners = new Set();
    this.counters = { snapshots: 0, events: 0, duplicates: 0, stale: 0, refuted: 0, distrusted: 0 };
    /** @type {Map<string, GameState>} the last state the live stream confirmed, by game */
    this.trusted = new Map();
    /** @type {Map<string, number>} the seq of a refuted retained snapshot, by game */
    this.refuted = new Map();
  }

  /** Calls `listener({ game, state, needsSnapshot })` after every change; returns the removal. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @returns {GameState|undefined} */
  get(game) {
    return this.games.get(game);
  }

  /** Every game, in board order (round, then board number, then id). */
  list() {
    return [...this.games.values()].sort(compareGames);
  }

  /**
   * Takes a snapshot unless an equal or newer one was already applied together with later events.
   * A `retained` one (see the module comment) is provisional and refused when a retained snapshot
   * of that game at or above its seq was refuted; a live one below the page's state by more than
   * SEQ_SLACK replaces it (the daemon started over, or the state was a refuted retained one).
   * @param {unknown} payload
   * @param {{ retained?: boolean }} [options]
   * @returns {'applied'|'stale'|'invalid'|'distrusted'}
   */
  applySnapshot(payload, options = {}) {
    const snapshot = readSnapshot(payload);
    if (!snapshot) return 'invalid';
    const { game } = snapshot;
    const current = this.games.get(game);
    const below = current?.hasSnapshot ? current.seq - snapshot.seq : -1;
    if (options.retained === true) {
      const refuted = this.refuted.get(game);
      if (refuted !== undefined && snapshot.seq >= refuted) {
        this.counters.distrusted += 1;
        return 'distrusted';
      }
      if (below > 0) {
        this.counters.stale += 1;
        return 'stale';
      }
      // Close above a confirmed state it continues it (a re-read after a gap); else it waits for the live stream.
      snapshot.provisional = !(current?.hasSnapshot && !current.provisional && -below <= SEQ_SLACK);
      if (snapshot.provisional && current?.hasSnapshot && !current.provisional)
        this.trusted.set(game, current);
    } else {
      // Live, the daemon speaks now: below a provisional state, it refutes it (a retained one read
      // on subscribing was the latest then, so the daemon's next is not older); below a confirmed
      // one, within the slack it crossed an event on its way, further the daemon started over.
      if (below > 0 && current?.provisional) this.noteRefuted(game, current.seq);
      else if (below > 0 && below <= SEQ_SLACK) {
        this.counters.stale += 1;
        return 'stale';
      }
      this.live(game, snapshot.seq);
      snapshot.provisional = false;
    }
    this.counters.snapshots += 1;
    this.games.set(game, snapshot);
    const needsSnapshot = this.drain(game, true);
    this.emit(game, needsSnapshot);
    return 'applied';
  }

  /** A provisional state the live stream agrees with becomes the trusted one. */
  confirm(game) {
    const state = this.games.get(game);
    if (!state?.provisional) return;
    const confirmed = { ...state, provisional: false };
    this.games.set(game, confirmed);
    this.trusted.delete(game);
  }

  noteRefuted(game, seq) {
    this.counters.refuted += 1;
    this.refuted.set(game, Math.min(seq, this.refuted.get(game) ?? seq));
  }

  /** The live stream reached `seq`: a refuted retained snapshot at or below it is history. */
  live(game, seq) {
    const refuted = this.refuted.get(game);
    if (refuted !== undefined && seq >= refuted) this.refuted.delete(game);
  }

  /**
   * Whether live `event` refutes the provisional state: far below its seq, or a move at a ply the
   * state has with another SAN (a takeback in between may look so too: the daemon's next snapshot
   * then sets the page right).
   */
  refutes(state, event) {
    if (!state.provisional) return false;
    if (state.seq - event.seq > SEQ_SLACK) return true;
    if (event.type !== 'move' || !Number.isInteger(event.ply) || event.ply < 1) return false;
    const known = state.moves[event.ply - 1];
    return typeof known === 'string' && known !== event.san;
  }

  /**
   * Applies an event once: `duplicate` when its seq was already applied, `waiting` when it is held
   * until the game's snapshot arrives, `gap` when earlier events are missing (the page should read
   * the snapshot again), else `applied`.
   * @returns {'applied'|'duplicate'|'waiting'|'gap'|'invalid'}
   */
  applyEvent(event) {
    if (!isObject(event) || typeof event.game !== 'string' || !isSeq(event.seq) || event.seq < 1)
      return 'invalid';
    let current = this.games.get(event.game);
    if (current?.hasSnapshot && this.refutes(current, event)) {
      // The retained snapshot is not the daemon's story: back to the last confirmed state, and
      // the event is taken as the live stream says.
      this.noteRefuted(event.game, current.seq);
      current = this.trusted.get(event.game) ?? emptyState(event.game);
      this.trusted.delete(event.game);
      this.games.set(event.game, current);
    }
    this.live(event.game, event.seq);
    if (current?.hasSnapshot && event.seq <= current.seq) {
      this.counters.duplicates += 1;
      return 'duplicate';
    }
    let waiting = this.waiting.get(event.game);
    if (waiting?.has(event.seq)) {
      this.counters.duplicates += 1;
      return 'duplicate';
    }
    this.counters.events += 1;
    if (!waiting) {
      waiting = new Map();
      this.waiting.set(event.game, waiting);
    }
    waiting.set(event.seq, event);
    if (!current?.hasSnapshot) {
      if (!current) this.games.set(event.game, emptyState(event.game));
      this.trimWaiting(event.game);
      this.emit(event.game, true);
      return 'waiting';
    }
    const gap = event.seq > current.seq + 1;
    if (!gap && current.provisional) this.confirm(event.game);
    let needsSnapshot = this.drain(event.game, false);
    if (gap) {
      this.trimWaiting(event.game);
      needsSnapshot = true;
    }
    this.emit(event.game, needsSnapshot);
    return gap ? 'gap' : 'applied';
  }

  /**
   * Applies the waiting events that follow the game's seq without a hole; with `force`, also
   * those beyond a hole, in order (they are self-contained enough to show). Returns whether the
   * page should read the snapshot again.
   */
  drain(game, force) {
    const waiting = this.waiting.get(game);
    let state = this.games.get(game);
    if (!waiting || !state) return false;
    let needsSnapshot = false;
    for (const seq of [...waiting.keys()].sort((a, b) => a - b)) {
      if (seq <= state.seq) {
        waiting.delete(seq);
        continue;
      }
      if (seq !== state.seq + 1 && !force) break;
      if (seq !== state.seq + 1) needsSnapshot = true;
      const [next, wants] = foldEvent(state, waiting.get(seq));
      waiting.delete(seq);
      state = next;
      needsSnapshot ||= wants;
    }
    if (waiting.size === 0) this.waiting.delete(game);
    this.games.set(game, state);
    return needsSnapshot;
  }

  /** Bounds a game's waiting events: beyond MAX_WAITING, applies them across the hole. */
  trimWaiting(game) {
    const waiting = this.waiting.get(game);
    if (!waiting || waiting.size <= MAX_WAITING) return false;
    const state = this.games.get(game);
    if (state && !state.hasSnapshot) {
      const oldest = Math.min(...waiting.keys());
      waiting.delete(oldest);
      return true;
    }
    return this.drain(game, true);
  }

  /** Forgets a game (its snapshot was cleared). */
  remove(game) {
    this.games.delete(game);
    this.waiting.delete(game);
    this.trusted.delete(game);
    this.emit(game, false);
  }

  emit(game, needsSnapshot) {
    const state = this.games.get(game);
    this.listeners.forEach(listener => listener({ game, state, needsSnapshot }));
  }
}

/** Orders games for a round page: round, board number, then id. */
export const compareGames = (a, b) =>
  String(a.round ?? '').localeCompare(String(b.round ?? ''), undefined, { numeric: true }) ||
  (a.board_number ?? Number.MAX_SAFE_INTEGER) - (b.board_number ?? Number.MAX_SAFE_INTEGER) ||
  a.game.localeCompare(b.game, undefined, { numeric: true });
