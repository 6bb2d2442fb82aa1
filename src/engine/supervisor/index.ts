/**
 * The game supervisor: a pure reducer from what happens at a board (square events, presses,
 * clock readings, the link, operator commands) to the game's events (moves, corrections, clocks,
 * alerts with their article, claims, offers, the end), with a per-game `seq`. Time comes only
 * from the inputs, so a game replays exactly from its journal. docs/supervisor.md explains the
 * decisions, the articles and the two modes ('advise' and 'enforce').
 *
 *   let { state, events } = startSupervision({ game: 'r1-b1', edition: 'E23', gameType: 'standard', supervision: 'full', timeControl: '5400+30' });
 *   ({ state, events } = superviseStep(state, { kind: 'square', at: 0, square: 12, piece: 'empty' }));
 *   ({ state, events } = superviseStep(state, { kind: 'square', at: 200, square: 28, piece: { color: 'white', role: 'pawn' } }));
 *   ({ state, events } = superviseStep(state, { kind: 'press', at: 900, side: 'white' }));
 *   events[0];   // { type: 'move', ply: 1, san: 'e4', seq: 2, at: 200, ... }
 */
import { getProfile } from '../editions.js';
import type { GameEvent, GameSettings, SupervisorInput } from '../events.js';
import { Game } from '../game.js';
import { startRecognition } from '../recognition/state.js';
import { boardStep } from './board.js';
import { applyReading, checkFlags, makeClockModel, startIfNeeded } from './clockFeed.js';
import { checkClockOverGap } from './clockGap.js';
import { chess960Game } from '../chess960.js';
import { onCommand, onLink } from './commands.js';
import { commitOnReply, commitQuiet, quietMsOf } from './commit.js';
import { checkIrregular } from './held.js';
import { onBoardLog } from './recovery.js';
import type { BoardEvent } from '../recognition/boardEvent.js';
import { startPlies, syncPlies } from './plies.js';
import type { SupervisorOptions, SupervisorState } from './state.js';
import { type Tx, openTx, patch } from './tx.js';

export type { SupervisorOptions, SupervisorState } from './state.js';

export interface SupervisorStep {
  readonly state: SupervisorState;
  readonly events: GameEvent[];
}

/** The game from the settings' start position; throws a TypeError naming a bad setting. */
const startGame = (settings: GameSettings): Game => {
  if (settings.chess960 === true) {
    const game = chess960Game(settings.startFen === undefined ? {} : { fen: settings.startFen });
    if (game.isErr) throw new TypeError(`GameSettings.startFen: ${game.error.message}`);
    return game.value;
  }
  if (settings.startFen === undefined) return Game.standard();
  const game = Game.fromFen(settings.startFen);
  if (game.isErr) throw new TypeError(`GameSettings.startFen: ${game.error.message}`);
  return game.value;
};

/**
 * A supervised game: the board is assumed to show the start position. `options.recognition` sets
 * the recogniser (settle window, tracker reach); `game` may hold moves already played (a resumed
 * game, or a script's `@moves`), which are final.
 */
export const startSupervision = (
  settings: GameSettings,
  options: Partial<SupervisorOptions> & { readonly game?: Game } = {},
): SupervisorStep => {
  const profile = getProfile(settings.edition, settings.gameType, settings.supervision);
  const game = options.game ?? startGame(settings);
  const recOptions = {
    ...(settings.occupancyOnly ? { occupancyOnly: true } : {}),
    // Gestures and takebacks are read after the same quiet time as the supervisor's decisions.
    ...(settings.quietMs !== undefined ? { confirmMs: settings.quietMs } : {}),
    ...options.recognition,
  };
  const rec = startRecognition(game, recOptions);
  const plies = syncPlies(startPlies(game.truncate(0).unwrap(), profile), game, () => undefined);
  const moves = { white: 0, black: 0 };
  for (let ply = 1; ply <= game.length; ply++) {
    const turn = game.positionsView()[ply - 1]?.turn;
    if (turn) moves[turn]++;
  }
  const state: SupervisorState = {
    settings,
    profile,
    mode: settings.art4Mode ?? 'advise',
    seq: 0,
    now: 0,
    started: false,
    rec,
    recOptions,
    plies,
    clock: makeClockModel(settings.timeControl, game.turn, moves),
    reading: undefined,
    flagDone: { white: false, black: false },
    illegal: { white: 0, black: 0 },
    lastIllegal: undefined,
    completed: { white: game.length, black: game.length },
    offer: undefined,
    claim: undefined,
    claimable: undefined,
    obligation: undefined,
    breach: undefined,
    illegalShown: false,
    turnTouch: undefined,
    resync: false,
    inferred: false,
    epoch: 0,
    alerted: new Set(),
    linkLost: false,
    lostAt: undefined,
    gapped: false,
    gap: undefined,
    readOff: undefined,
    ended: undefined,
    pressSeen: false,
    // A resumed game's plies were pressed for, as far as anyone knows.
    presses: game.length,
    judged: game.length,
    unjudged: [],
    plyAlerts: [],
    suspicion: undefined,
    irregular: undefined,
    recovering: false,
    recovered: undefined,
    unproven: false,
  };
  return { state, events: [] };
};

/** What waits for a quiet board: a move that ends the game (or any, without a clock), a board that is no position. */
const afterQuiet = (tx: Tx, at: number): void => {
  if (tx.st.ended) return;
  commitQuiet(tx, at);
  checkIrregular(tx, at, quietMsOf(tx));
};

/** A board event: the board as it stood until now judged first, then the event. */
const sensorStep = (tx: Tx, input: BoardEvent, at: number): void => {
  // A board whose log was replayed over the gap is judged on its snapshot, not on the board before
  // it (the end of its log, read while a piece may have been in hand).
  const { gap, recovered } = tx.st;
  const logged = gap !== undefined && recovered !== undefined && recovered.until >= gap.from;
  const reread = input.kind === 'snapshot' && tx.st.resync && logged;
  if (input.kind !== 'tick' && !reread) {
    // What waited for a quiet spell is decided as of this instant, before the event changes the board.
    boardStep(tx, { kind: 'tick', at });
    afterQuiet(tx, at);
  }
  // A reply seen under way, as the board stood until now, makes the move it answers final.
  commitOnReply(tx, at);
  if (input.kind === 'snapshot') patch(tx, { resync: true });
  if (input.kind === 'press') patch(tx, { pressSeen: true, presses: tx.st.presses + 1 });
  const published = tx.events.length;
  boardStep(tx, at === input.at ? input : { ...input, at });
  // A re-read board that shows the record's tip as it stood (nothing caught up from it) proves the
  // record: what follows is live handling again (a knight set down beside its square is a stop on
  // the way, not a mismatch at once).
  if (
    input.kind === 'snapshot' &&
    tx.st.resync &&
    !tx.st.inferred &&
    !tx.st.recovering &&
    tx.st.rec.status.kind === 'synced' &&
    !tx.events.slice(published).some(e => e.type === 'move' || e.type === 'correction')
  )
    patch(tx, { resync: false });
  if (input.kind !== 'tick') afterQuiet(tx, at);
};

/** Advances the supervision by one input. */
export const superviseStep = (state: SupervisorState, input: SupervisorInput): SupervisorStep => {
  const at = Math.max(input.at, state.now);
  // The board's log is replayed from where the supervisor stood (before `at`), and a link that
  // returns says nothing of the board until its log or snapshot: their time is not now yet.
  const keepsTime = input.kind === 'boardLog' || (input.kind === 'link' && input.state === 'back');
  const tx = openTx(at === state.now || keepsTime ? state : { ...state, now: at });
  startIfNeeded(tx, at);
  switch (input.kind) {
    case 'tick':
      // Without a link the board is unknown: nothing waits out a quiet spell that nobody saw.
      if (!tx.st.linkLost) sensorStep(tx, input, at);
      break;
    case 'square':
    case 'snapshot':
    case 'press':
    case 'adjust':
      if (tx.st.lostAt !== undefined && input.kind !== 'adjust') patch(tx, { lostAt: undefined });
      // The board seen again after a gap (its first change or snapshot once the link is back).
      if (input.kind !== 'adjust' && !tx.st.linkLost && tx.st.gap && tx.st.gap.boardAt === undefined) {
        const { gap, recovered } = tx.st;
        // Without the board's log over the gap, a press has to prove the record again.
        const logged = recovered !== undefined && recovered.until >= gap.from;
        patch(tx, { gap: { ...gap, boardAt: at }, unproven: !logged });
        // A board that was changing when the link went (a rook set down on d1, the queen it took
        // put down on d2 for a moment) was never seen to stand: its quiet spell starts now, on the
        // board as it is seen again, not as it was left (that would be a mismatch for nothing).
        const { rec } = tx.st;
        if (!logged && rec.dirty && rec.lastChangeAt <= gap.from)
          patch(tx, { rec: { ...rec, lastChangeAt: at } });
      }
      sensorStep(tx, input, at);
      break;
    case 'boardLog':
      if (!tx.st.ended) onBoardLog(tx, { ...input, at }, e => sensorStep(tx, e, e.at));
      patch(tx, { now: Math.max(tx.st.now, at) });
      break;
    case 'clock':
      // Without a link the board is unknown: a clock reading judges nothing on it.
      if (!tx.st.linkLost) boardStep(tx, { kind: 'tick', at });
      // A reading since the board was seen again: did the clock run for plies the board does not show?
      const { gap } = tx.st;
      if (!tx.st.linkLost && gap?.boardAt !== undefined && !gap.clockChecked) {
        const { whiteMs, blackMs, running } = input;
        if (checkClockOverGap(tx, at, { whiteMs, blackMs, running }))
          patch(tx, { gap: { ...gap, clockChecked: true } });
      }
      if (!tx.st.ended) {
        applyReading(tx, at, input.whiteMs, input.blackMs, input.running);
        checkFlags(tx, at);
      }
      // The clock read again once the board was seen after a gap: from here the daemon sees it.
      if (tx.st.gap?.boardAt !== undefined && tx.st.gap.clockAt === undefined)
        patch(tx, { gap: { ...tx.st.gap, clockAt: at } });
      break;
    case 'link':
      if (input.state === 'lost' && !tx.st.linkLost) boardStep(tx, { kind: 'tick', at });
      if (!tx.st.ended) onLink(tx, input.state, at, input.restart === true);
      break;
    case 'claim':
    case 'offer':
    case 'offerReply':
    case 'resign':
    case 'arbiter':
      // The board is judged as of now first: a move made before the command counts before it.
      boardStep(tx, { kind: 'tick', at });
      checkFlags(tx, at);
      onCommand(tx, input);
      // A record the arbiter changed is matched against the board at once.
      if (input.kind === 'arbiter') boardStep(tx, { kind: 'tick', at });
      break;
  }
  if (!tx.st.linkLost && !keepsTime) afterQuiet(tx, at);
  return { state: tx.st, events: tx.events };
};

/** Runs a whole stream of inputs; returns the final state and every event in order. */
export const runSupervision = (
  start: SupervisorState,
  inputs: Iterable<SupervisorInput>,
): { state: SupervisorState; events: GameEvent[] } => {
  let state = start;
  const events: GameEvent[] = [];
  for (const input of inputs) {
    const r = superviseStep(state, input);
    state = r.state;
    for (const e of r.events) events.push(e);
  }
  return { state, events };
};
