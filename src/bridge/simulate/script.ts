/**
 * One game at one simulated board, as emulator steps: the clock set and started, the moves played
 * with human handling from the seeded generator (or with faults injected on some plies), thinking
 * stretched to a chosen pace, and the end shown as it happens at a board (the last move, or the
 * result gesture). Or, at the link maximum, the plain moves back to back as fast as a 9600-baud
 * line carries their bytes. Marks which step completes each ply, so latency can be measured from it.
 *
 *   const s = gameScript(game, { seed: 7, speed: 4, pace: { kind: 'human' }, faults: 0, clock: RAPID });
 *   runner.play$(s.steps);          // s.plyEnds.get(step) === 12 for the press that completes ply 12
 */
import type { Chess, Square } from 'chessops';
import { scriptFromSans, type ScriptStep } from '../../drivers/dgt/emulatorScript.js';
import { LINK_BYTES_PER_SECOND } from '../../drivers/dgt/constants.js';
import type { SupervisorInput } from '../../engine/events.js';
import {
  FAULT_KINDS,
  type FaultKind,
  TAKEBACK_STANDS_MS,
  injectFaults,
} from '../../engine/handling/faults.js';
import { makeHands } from '../../engine/handling/hands.js';
import {
  DEFAULT_RATES,
  deriveSeed,
  generateHandling,
  makeRng,
  type Rng,
  TEMPOS,
} from '../../engine/handling/index.js';
import { CENTRE, NEAR_CENTRE } from '../../engine/recognition/gesture.js';
import type { GameResult, SimGame } from './games.js';
import { stepsOfEvents } from './steps.js';

/** A time control as the emulated clock is set to it. */
export interface ClockSetting {
  /** Each side's time at the start (ms). */
  readonly ms: number;
  /** Added per move (ms). */
  readonly incrementMs: number;
}

export type Pace =
  /** People at the board: the handling generator's tempo, thinking stretched to `plyMs` on average (script time). */
  | { readonly kind: 'human'; readonly plyMs?: number }
  /**
   * Plain moves, each step as soon as the line has carried the previous one at `bytesPerSecond`
   * (default 960: 9600 baud), and each ply at least `minPlyMs` after the previous one (a bus
   * line's poll cycle has to see every ply on its own).
   */
  | { readonly kind: 'link-max'; readonly bytesPerSecond?: number; readonly minPlyMs?: number };

export interface GameScriptOptions {
  readonly seed: number;
  /** Script time runs `speed` times faster than real time (the emulator runner's speed). */
  readonly speed: number;
  readonly pace: Pace;
  /** Mean number of faults per game (0 to 4), each of another kind (engine/handling/faults.ts). */
  readonly faults: number;
  readonly clock: ClockSetting;
  /** The daemon's settle window in real time (ms, default 300): the handling respects it. */
  readonly settleMs?: number;
  /** Bus address put on every step. */
  readonly board?: number;
  /**
   * Which step is a ply's last byte: the clock press (boards whose clock the daemon reads) or the
   * move's last square change (boards read without their clock).
   */
  readonly plyEnd?: 'press' | 'square';
}

export interface GameScript {
  readonly steps: readonly ScriptStep[];
  /** The step that completes each ply (games without faults only: faults replay plies). */
  readonly plyEnds: ReadonlyMap<ScriptStep, number>;
  readonly faults: readonly FaultKind[];
}

/**
 * Handling that breaks no rule at a board: rook-first castling breaks Art. 4.4.2 (the players
 * castle king first), and a spoken j'adoube does not reach the daemon, so the adjustment after it
 * would be a touch (the players adjust only the piece they move).
 */
const AT_A_BOARD = { castlingRookFirst: 0, adjustAnnounced: 0 } as const;

/** Where the game's events start, after the clock is set (script ms). */
const FIRST_EVENT_AT = 1000;
/**
 * Real time from the clock's start to the first event on a bus board (ms): the daemon's poller
 * must read the clock running before White's first press, as White's side is learned from it.
 */
const BUS_FIRST_EVENT_MS = 1000;
/** Bytes a board sends for a square change (FIELD_UPDATE) and for a press (BWTIME). */
const SQUARE_BYTES = 5;
const CLOCK_BYTES = 10;
/**
 * Real time between the last move and the result gesture (ms): players shake hands first. (A
 * gesture within a second of a last move onto one of its squares can swallow that move.)
 */
const GESTURE_PAUSE_MS = 3000;
/** Real time the host gets to reconnect after a pulled cable before the game goes on (ms). */
const RECONNECT_MS = 4000;

const GESTURE_SQUARES: Readonly<Record<GameResult, readonly [Square, Square]>> = {
  '1-0': [28, 35], // e4, d5: both light
  '0-1': [27, 36], // d4, e5: both dark
  '1/2-1/2': [28, 36], // e4 light, e5 dark
};

const distance = (a: Square, b: Square): number =>
  Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));

/**
 * The result gesture after the last move: whatever stands on the two squares is taken off, then
 * the kings are put there, a king on the centre first (or the board would show another result half
 * way), then one beside the centre, then the other.
 */
const gestureEvents = (
  pos: Chess,
  result: GameResult,
  rng: Rng,
  startAt: number,
  settleMs: number,
): SupervisorInput[] => {
  const h = makeHands(
    rng,
    pos.board.clone(),
    { settleMs, occupancy: false, tempo: TEMPOS.rapid, rates: DEFAULT_RATES },
    startAt,
  );
  const targets = [...GESTURE_SQUARES[result]];
  const kings = (['white', 'black'] as const).flatMap(color => {
    const square = pos.board.kingOf(color);
    return square === undefined ? [] : [{ color, square }];
  });
  const free = targets.filter(t => !kings.some(k => k.square === t));
  const plan: { color: 'white' | 'black'; from: Square; to: Square }[] = [];
  for (const k of kings) {
    if (targets.includes(k.square)) continue;
    free.sort((a, b) => distance(a, k.square) - distance(b, k.square));
    const to = free.shift();
    if (to !== undefined) plan.push({ ...k, from: k.square, to });
  }
  const rank = (from: Square): number => (CENTRE.has(from) ? 0 : NEAR_CENTRE.has(from) ? 1 : 2);
  plan.sort((a, b) => rank(a.from) - rank(b.from));
  for (const m of plan) if (h.board.has(m.to)) h.take(m.to, h.pause());
  for (const m of plan) {
    h.take(m.from, h.pause());
    h.put(m.to, { color: m.color, role: 'king' }, h.carry());
  }
  h.wait(2000);
  return h.events;
};

/** Thinking stretched so that plies take `plyMs` on average: extra time before each move. */
const stretch = (
  events: readonly SupervisorInput[],
  plies: number,
  plyMs: number,
  rng: Rng,
): SupervisorInput[] => {
  const presses = events.filter(e => e.kind === 'press');
  const lastPress = presses.at(-1)?.at ?? 0;
  const natural = plies > 0 ? lastPress / plies : plyMs;
  const mean = plyMs - natural;
  if (mean <= 0) return [...events];
  let shift = 0;
  let moveStarts = true;
  return events.map(e => {
    if (moveStarts && e.kind !== 'press') {
      shift += Math.round(mean * (0.5 + rng.next()));
      moveStarts = false;
    }
    if (e.kind === 'press') moveStarts = true;
    return { ...e, at: e.at + shift };
  });
};

/** Kinds of fault for one game: `rate` on average, each kind at most once. */
const faultKinds = (rate: number, rng: Rng): FaultKind[] => {
  const pool = FAULT_KINDS.filter(k => k !== 'gesture');
  const count = Math.min(pool.length, Math.floor(rate) + (rng.chance(rate - Math.floor(rate)) ? 1 : 0));
  const kinds: FaultKind[] = [];
  while (kinds.length < count) {
    const k = rng.pick(pool.filter(p => !kinds.includes(p)));
    if (k !== undefined) kinds.push(k);
  }
  return kinds;
};

/** Marks the step that completes each ply: the n-th press, or the last square change before it. */
const markPlies = (steps: readonly ScriptStep[], plyEnd: 'press' | 'square'): Map<ScriptStep, number> => {
  const marks = new Map<ScriptStep, number>();
  let ply = 0;
  let lastSquare: ScriptStep | undefined;
  for (const s of steps) {
    if (s.kind === 'square') lastSquare = s;
    if (s.kind !== 'clock-press') continue;
    ply++;
    const end = plyEnd === 'press' ? s : lastSquare;
    if (end !== undefined) marks.set(end, ply);
  }
  return marks;
};

/** The emulator steps of one game (see the module comment). */
export const gameScript = (g: SimGame, options: GameScriptOptions): GameScript => {
  const rng = makeRng(deriveSeed(options.seed, 0x5151));
  const settleMs = options.settleMs ?? 300;
  // The window in script time that is the daemon's window in real time, with a margin.
  const scriptSettleMs = Math.ceil(settleMs * options.speed * 1.3);
  // People's timings that the daemon judges in real time, in script time: a piece resting on its
  // way (0.3–2 s), a taken-back position left standing (longer than the daemon's quiet time).
  const dwellMs = [300 * options.speed, 2000 * options.speed] as const;
  const standsMs = TAKEBACK_STANDS_MS * options.speed;
  const board = options.board === undefined ? {} : { board: options.board };
  const clockSet: ScriptStep = {
    at: 0,
    kind: 'clock-set',
    left: options.clock.ms,
    right: options.clock.ms,
    run: 'left',
    incrementMs: options.clock.incrementMs,
    ...board,
  };
  const final = g.game.position();
  const plyEnd = options.plyEnd ?? 'press';

  if (options.pace.kind === 'link-max') {
    const moves = scriptFromSans(g.sans, { pressAfterMs: 1, handMs: 1, plyMs: 1, ...board }).unwrap();
    const gesture =
      g.ending.kind === 'gesture'
        ? stepsOfEvents(gestureEvents(final, g.ending.result, rng, 0, settleMs), { startAt: 0, ...board })
        : [];
    const perSecond = options.pace.bytesPerSecond ?? LINK_BYTES_PER_SECOND;
    const minPlyMs = options.pace.minPlyMs ?? 0;
    const steps: ScriptStep[] = [clockSet];
    // Real time: each step waits until the previous one's bytes are on the line.
    let at = FIRST_EVENT_AT;
    let plyStart = at;
    for (const s of moves.steps) {
      steps.push({ ...s, at: at * options.speed });
      at += ((s.kind === 'clock-press' ? CLOCK_BYTES : SQUARE_BYTES) * 1000) / perSecond;
      if (s.kind === 'clock-press') plyStart = at = Math.max(at, plyStart + minPlyMs);
    }
    // The gesture keeps human timing (the recogniser needs its settle windows), after a pause.
    const gestureAt = (at + GESTURE_PAUSE_MS) * options.speed;
    for (const s of gesture) steps.push({ ...s, at: gestureAt + s.at * options.speed });
    return { steps, plyEnds: markPlies(steps, plyEnd), faults: [] };
  }

  const kinds = faultKinds(options.faults, rng);
  const gameSeed = deriveSeed(options.seed, 1);
  // The board plays what the players do, the moves made while its cable is out included.
  const faulty =
    kinds.length === 0
      ? undefined
      : injectFaults(g.game, {
          seed: gameSeed,
          kinds,
          tempo: 'rapid',
          settleMs: scriptSettleMs,
          rates: AT_A_BOARD,
          dwellMs,
          standsMs,
        });
  const events: SupervisorInput[] =
    faulty === undefined
      ? generateHandling(
          g.game.positionAt(0),
          g.game.moves.map(m => m.move),
          {
            seed: gameSeed,
            clock: 'press',
            tempo: 'rapid',
            settleMs: scriptSettleMs,
            tailMs: 0,
            rates: AT_A_BOARD,
            dwellMs,
          },
        ).events
      : faulty.played;
  const paced =
    options.pace.plyMs === undefined ? events : stretch(events, g.sans.length, options.pace.plyMs, rng);
  const endAt = paced.reduce((t, e) => Math.max(t, e.at), 0);
  const ending =
    g.ending.kind === 'gesture'
      ? gestureEvents(final, g.ending.result, rng, endAt + GESTURE_PAUSE_MS * options.speed, scriptSettleMs)
      : [];
  const steps: ScriptStep[] = [
    clockSet,
    ...stepsOfEvents([...paced, ...ending], {
      startAt:
        options.board === undefined
          ? FIRST_EVENT_AT
          : Math.max(FIRST_EVENT_AT, BUS_FIRST_EVENT_MS * options.speed),
      reconnectMs: RECONNECT_MS * options.speed,
      ...board,
    }),
  ];
  // The faults injected: a kind asked for may find no ply of the game that allows it.
  const injected = faulty?.faults.map(f => f.kind) ?? [];
  return { steps, plyEnds: faulty === undefined ? markPlies(steps, plyEnd) : new Map(), faults: injected };
};
