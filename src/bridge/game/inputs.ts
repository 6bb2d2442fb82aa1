/**
 * From driver observations to the supervisor's input: the bridge's side of the contract of
 * src/engine/events.ts. A pure Mealy machine (state in, state and inputs out), so a game replays
 * from its journal of raw observations with exactly the inputs it had live.
 *
 *   let st = startInputMap({ clock: true });
 *   ({ state: st, inputs } = mapObservation(st, { type: 'square', at: 120, square: 12, content: EMPTY }));
 *   inputs; // [{ kind: 'square', at: 120, square: 12, piece: 'empty' }]
 *
 * What it decides:
 * - square contents become the engine's SensedContent (a DGT result piece counts as 'occupied');
 * - a clock's lever going over is a press by the player on the side it left (the high side of a
 *   lever is the side whose clock runs, reference §6.2); readings become white/black times once it
 *   is known where White sits: configured, or learned at the first change of the clock seen in the
 *   game (clockSide.ts: the clock starting or the other side's running, with the board telling
 *   whether a move was made), never from a reading alone;
 * - the clock is the game's once a change has been seen in it (a reading whose running side differs
 *   from the previous one's on the same connection): before, a reading may still be the previous
 *   game's clock, running on the side of whoever was to move when it ended, or showing its fallen
 *   flag. Its readings and presses are not passed on until then, like an unset clock's;
 * - a stopped clock showing 0:00 on both sides is an unset clock, not a reading;
 * - link lost → `link lost`; the first snapshot after it → `link back`, then the snapshot;
 * - a new connection (a link `resynchronising`: a reconnection, or the daemon started again on a
 *   game it resumed from its journal) or a lost link leaves the board's state unknown until the
 *   first snapshot: field updates and presses before it are not passed on (they stay in the
 *   journal). The snapshot shows what they did, and a move read from them on the board as it was
 *   last known (before the gap) could be a different piece's move (a queen going to d7 where the
 *   board, unseen, had a bishop go there and be captured). A press before it is unseen, like one
 *   while the cable was out: the lever history starts again with the connection.
 * Identity, battery, protocol errors and clock acks carry nothing for the supervisor.
 */
import type { Color } from 'chessops';
import type { ClockSide, LogRecord, Observation, SquareContent } from '../../drivers/observation.js';
import type { BoardLogEntry, SupervisorInput } from '../../engine/events.js';
import type { SensedContent } from '../../engine/recognition/boardEvent.js';
import {
  type GameStart,
  learnWhiteSide,
  type SideLearning,
  STANDARD_START,
  startSideLearning,
  withBoard,
  withSquare,
} from './clockSide.js';

export interface InputMapOptions {
  /** Whether a clock is connected through the board (config `boards[].clock`); readings are ignored otherwise. */
  readonly clock: boolean;
  /** Where White sits at the clock, when configured; learned during the game otherwise (clockSide.ts). */
  readonly whiteSide?: ClockSide;
}

export interface InputMapState {
  readonly options: InputMapOptions;
  /** The clock side of White, once known. */
  readonly whiteSide: ClockSide | undefined;
  /** The high side of the lever at the last reading of this connection (undefined: none yet). */
  readonly lever: ClockSide | undefined;
  /** The running side at the last reading of this connection (when `lever` is set). */
  readonly running: ClockSide | undefined;
  /** A change of the clock has been seen during this game: its readings and presses are the game's. */
  readonly clockLive: boolean;
  /** While White's side is unknown: the game's start and its board as observed. */
  readonly learning: SideLearning | undefined;
  /** The link is lost and no snapshot has come since. */
  readonly linkLost: boolean;
  /** A connection attempt started (or the link was lost) and its first snapshot has not come. */
  readonly awaitingSnapshot: boolean;
}

export interface InputMapStep {
  readonly state: InputMapState;
  readonly inputs: readonly SupervisorInput[];
}

export const startInputMap = (
  options: InputMapOptions,
  start: GameStart = STANDARD_START,
): InputMapState => ({
  options,
  whiteSide: options.whiteSide,
  lever: undefined,
  running: undefined,
  clockLive: false,
  learning: options.whiteSide === undefined ? startSideLearning(start) : undefined,
  linkLost: false,
  awaitingSnapshot: false,
});

/** The engine's view of one square's content. */
export const sensedOf = (c: SquareContent): SensedContent => {
  switch (c.kind) {
    case 'empty':
      return 'empty';
    case 'piece':
      return { color: c.color, role: c.role };
    case 'occupied':
    case 'result-piece':
      return 'occupied';
  }
};

const other = (side: ClockSide): ClockSide => (side === 'left' ? 'right' : 'left');

const colorAt = (side: ClockSide, whiteSide: ClockSide): Color => (side === whiteSide ? 'white' : 'black');

const none = (state: InputMapState): InputMapStep => ({ state, inputs: [] });

/** The board kept for learning White's side, while it is unknown and a clock is read. */
const track = (state: InputMapState, f: (l: SideLearning) => SideLearning): InputMapState => {
  if (state.learning === undefined || state.whiteSide !== undefined || !state.options.clock) return state;
  const learning = f(state.learning);
  return learning === state.learning ? state : { ...state, learning };
};

const mapClock = (state: InputMapState, o: Extract<Observation, { type: 'clock' }>): InputMapStep => {
  if (!state.options.clock || !o.connected) return none({ ...state, lever: undefined });
  // No times to pass on: a clock not set, or a reading made from a logged press that does not know them.
  const unset =
    (o.running === undefined && o.left.ms === 0 && o.right.ms === 0) || o.timeUnknown !== undefined;
  // A change: the clock started, or the other side's runs (the first reading of a connection is none).
  const started =
    state.lever !== undefined && o.running !== undefined && o.running !== state.running
      ? o.running
      : undefined;
  const whiteSide =
    state.whiteSide ??
    (started === undefined || state.awaitingSnapshot || state.learning === undefined
      ? undefined
      : learnWhiteSide(state.learning, started));
  const live = state.clockLive || started !== undefined;
  const inputs: SupervisorInput[] = [];
  if (
    state.lever !== undefined &&
    state.lever !== o.lever &&
    whiteSide !== undefined &&
    live &&
    !state.awaitingSnapshot
  )
    inputs.push({ kind: 'press', at: o.at, side: colorAt(state.lever, whiteSide) });
  if (!unset && whiteSide !== undefined && live) {
    const white = whiteSide === 'left' ? o.left : o.right;
    const black = whiteSide === 'left' ? o.right : o.left;
    inputs.push({
      kind: 'clock',
      at: o.at,
      whiteMs: white.ms,
      blackMs: black.ms,
      running: o.running === undefined ? undefined : colorAt(o.running, whiteSide),
    });
  }
  const learning = whiteSide === undefined ? state.learning : undefined;
  return {
    state: { ...state, whiteSide, lever: o.lever, running: o.running, clockLive: live, learning },
    inputs,
  };
};

/** One observation's supervisor inputs. */
export const mapObservation = (state: InputMapState, o: Observation): InputMapStep => {
  switch (o.type) {
    case 'square': {
      if (state.awaitingSnapshot) return none(state);
      const piece = sensedOf(o.content);
      return {
        state: track(state, l => withSquare(l, o.square, piece)),
        inputs: [{ kind: 'square', at: o.at, square: o.square, piece }],
      };
    }
    case 'snapshot': {
      const board = o.squares.map(sensedOf);
      const snapshot: SupervisorInput = { kind: 'snapshot', at: o.at, board };
      state = track(state, l => withBoard(l, board));
      if (!state.linkLost)
        return {
          state: state.awaitingSnapshot ? { ...state, awaitingSnapshot: false } : state,
          inputs: [snapshot],
        };
      return {
        state: { ...state, linkLost: false, awaitingSnapshot: false },
        inputs: [{ kind: 'link', at: o.at, state: 'back' }, snapshot],
      };
    }
    case 'clock':
      return mapClock(state, o);
    case 'link':
      switch (o.state) {
        case 'lost':
          // A new connection starts a new lever history: a press while the cable was out is unseen.
          if (state.linkLost) return none({ ...state, lever: undefined });
          return {
            state: { ...state, linkLost: true, awaitingSnapshot: true, lever: undefined },
            inputs: [{ kind: 'link', at: o.at, state: 'lost', ...(o.restart === true && { restart: true }) }],
          };
        case 'resynchronising':
          // A new connection: a new lever history, and the board as it stands comes with its first snapshot.
          return none({ ...state, awaitingSnapshot: true, lever: undefined });
        case 'connected':
          return none(state);
      }
    // falls through: every link state returned above
    case 'eeprom-log':
      // The board's move log, read at a new connection before its dump: what was played meanwhile.
      if (o.source !== 'dump' || !state.awaitingSnapshot) return none(state);
      return {
        state,
        inputs: [{ kind: 'boardLog', at: o.at, entries: logEntries(o.records, state.whiteSide) }],
      };
    case 'identity':
    case 'battery':
    case 'protocol-error':
    case 'clock-ack':
    case 'bus-reply':
      return none(state);
  }
};

/**
 * The board log's records as the supervisor reads them: square changes, presses (the stopped
 * clock's side, when White's side is known), and what the board is known to show (a power-up: an
 * empty board, then its pieces; a start position it tagged); a non-standard start or an unknown
 * byte breaks the thread.
 */
const logEntries = (records: readonly LogRecord[], whiteSide: ClockSide | undefined): BoardLogEntry[] =>
  records.flatMap((r): BoardLogEntry[] => {
    switch (r.kind) {
      case 'piece':
        return [{ kind: 'square', square: r.square, piece: sensedOf(r.content), quick: r.quick }];
      case 'time':
        return whiteSide === undefined ? [] : [{ kind: 'press', side: colorAt(r.side, whiteSide) }];
      case 'tag':
        switch (r.tag) {
          case 'power-up':
          case 'empty-board':
            return [{ kind: 'mark', board: 'empty' }];
          case 'begin-pos':
          case 'begin-pos-rotated':
            return [{ kind: 'mark', board: 'start' }];
          case 'four-rows':
            return [{ kind: 'gap' }];
          case 'eof':
          case 'downloaded':
          case 'start-tag':
          case 'watchdog':
          case 'clock-state':
          case 'bus-address':
          case 'nop':
          case 'nop2':
            return [];
        }
      // falls through: every tag returned above
      case 'unknown':
        return [{ kind: 'gap' }];
    }
  });

/** Clock side of a colour, once White's side is known. */
export const sideOf = (state: InputMapState, color: Color): ClockSide | undefined =>
  state.whiteSide === undefined ? undefined : color === 'white' ? state.whiteSide : other(state.whiteSide);
