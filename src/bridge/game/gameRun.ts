/**
 * One game as a reducer over its journal: every journaled record (observation, command, finish)
 * goes through the input mapping (inputs.ts, commands.ts) into the supervisor, and the game events
 * come out with their seq. The same function runs live, right after a record is synced, and at
 * start-up over the whole journal, so a restarted daemon has the same events with the same seq.
 *
 *   let { run, events } = startGameRun(engine, settings, { clock: true });
 *   ({ run, events } = stepGameRun(engine, run, { kind: 'record', record }));
 *   nextWakeAt(run); // when the settle window or the clock needs a tick, if ever
 *
 * Time passing: the recogniser judges a quiet board only at its next input, so the bridge adds
 * ticks. They are not journaled: they are derived from the journaled records. After a sensor
 * event at t, ticks fall due at t + settle window and t + gesture hold; while a timed game runs,
 * one second after the last input (flags). Before a record at T every tick due before T is fed
 * first; a `wake` (the live timer of nextWakeAt) feeds those due up to its time. Live, a wake for D
 * fires after every record stamped before D has been queued, so live and replay see the same
 * inputs in the same order.
 */
import {
  DEFAULT_QUIET_MS,
  type GameEvent,
  type GameSettings,
  type SupervisorInput,
} from '../../engine/events.js';
import type { JournalRecord } from '../journal/index.js';
import { commandInput } from './commands.js';
import type { SupervisorPort } from './engine.js';
import { isEdition, isGameType } from '../../engine/types.js';
import { makeTimeControl, parseReadableTimeControl } from '../../engine/timeControl.js';
import { gameStartOf } from './clockSide.js';
import { type InputMapOptions, type InputMapState, mapObservation, startInputMap } from './inputs.js';

/** Commands that set a game up rather than play it (journaled like the others, applied here). */
export const SETUP_COMMANDS = ['board_setup', 'set_time_control', 'set_edition'] as const;

/** What drives a game forward: a journaled record, or a timer saying time has come to `at`. */
export type GameInput =
  | { readonly kind: 'record'; readonly record: JournalRecord }
  | { readonly kind: 'wake'; readonly at: number };

export interface GameRun<S = unknown> {
  readonly settings: GameSettings;
  readonly sup: S;
  readonly map: InputMapState;
  /** Latest input time fed (inputs are never fed out of order: earlier stamps are raised to it). */
  readonly lastAt: number | undefined;
  /** Pending tick times, ascending. */
  readonly ticks: readonly number[];
  /** seq of the last event. */
  readonly seq: number;
  /** An `end` event was published, or the journal holds a finish record. */
  readonly ended: boolean;
}

export interface GameRunStep<S = unknown> {
  readonly run: GameRun<S>;
  readonly events: readonly GameEvent[];
}

/** A tick after a heartbeat-less gap this long (ms) while a timed game runs, so flags are seen. */
export const HEARTBEAT_MS = 1000;

export const startGameRun = <S>(
  engine: SupervisorPort<S>,
  settings: GameSettings,
  mapOptions: InputMapOptions,
): GameRunStep<S> => {
  const started = engine.start(settings);
  return {
    run: {
      settings,
      sup: started.state,
      map: startInputMap(mapOptions, gameStartOf(settings.startFen)),
      lastAt: undefined,
      ticks: [],
      seq: started.events.at(-1)?.seq ?? 0,
      ended: started.events.some(e => e.type === 'end'),
    },
    events: started.events,
  };
};

/** When the next tick falls due, if any. */
export const nextWakeAt = (run: GameRun): number | undefined => {
  if (run.ended) return undefined;
  const first = run.ticks[0];
  const beat =
    run.settings.timeControl !== undefined && run.lastAt !== undefined
      ? run.lastAt + HEARTBEAT_MS
      : undefined;
  if (first === undefined) return beat;
  return beat === undefined ? first : Math.min(first, beat);
};

const isSensor = (i: SupervisorInput): boolean => i.kind === 'square' || i.kind === 'snapshot';

/** Feeds one input (its time raised to the last one) and schedules the ticks it calls for. */
const feed = <S>(
  engine: SupervisorPort<S>,
  run: GameRun<S>,
  input: SupervisorInput,
  out: GameEvent[],
): GameRun<S> => {
  const at = run.lastAt === undefined ? input.at : Math.max(input.at, run.lastAt);
  const fed = at === input.at ? input : { ...input, at };
  const r = engine.step(run.sup, fed);
  out.push(...r.events);
  let ticks = run.ticks.filter(t => t > at);
  // What the engine judges after quiet spells: the settle window, a gesture's hold, the quiet time.
  const quiet = run.settings.quietMs ?? DEFAULT_QUIET_MS;
  if (isSensor(fed))
    ticks = [...new Set([...ticks, at + engine.settleMs + 1, at + engine.holdMs + 1, at + quiet + 1])].sort(
      (a, b) => a - b,
    );
  return {
    ...run,
    sup: r.state,
    lastAt: at,
    ticks,
    seq: r.events.at(-1)?.seq ?? run.seq,
    ended: run.ended || r.events.some(e => e.type === 'end'),
  };
};

/** Feeds the ticks due before `until` (or at it, when `inclusive`). */
const tickUntil = <S>(
  engine: SupervisorPort<S>,
  run: GameRun<S>,
  until: number,
  inclusive: boolean,
  out: GameEvent[],
): GameRun<S> => {
  let r = run;
  for (;;) {
    const due = nextWakeAt(r);
    if (due === undefined || due > until || (!inclusive && due === until)) return r;
    r = feed(engine, { ...r, ticks: r.ticks.filter(t => t > due) }, { kind: 'tick', at: due }, out);
  }
};

/** The inputs a journal record gives, mapping state updated. */
const recordInputs = (
  map: InputMapState,
  record: JournalRecord,
): { map: InputMapState; inputs: readonly SupervisorInput[]; at: number | undefined } => {
  switch (record.type) {
    case 'observation': {
      const r = mapObservation(map, record.observation);
      return { map: r.state, inputs: r.inputs, at: record.observation.at };
    }
    case 'command': {
      const input = commandInput(record.action, record.params, record.at);
      return { map, inputs: input === undefined ? [] : [input], at: record.at };
    }
    case 'finish':
      return { map, inputs: [], at: record.at };
  }
};

type Params = Readonly<Record<string, unknown>>;

/**
 * A setup command's effect: the board's clock settings for the input mapping (`board_setup`,
 * journaled first in every game), or the Laws and time control before the game has published
 * anything (the supervisor is started again with them; the daemon refuses them later).
 */
const applySetup = <S>(
  engine: SupervisorPort<S>,
  run: GameRun<S>,
  action: string,
  params: Params,
): GameRun<S> => {
  if (action === 'board_setup') {
    const side =
      params.white_side === 'left' || params.white_side === 'right' ? params.white_side : undefined;
    const options: InputMapOptions = {
      clock: params.clock === true,
      ...(side === undefined ? {} : { whiteSide: side }),
    };
    const mapped = {
      ...run,
      map: { ...run.map, options, whiteSide: run.map.whiteSide ?? options.whiteSide },
    };
    // A board without a clock: the game follows the rules of one without (GameSettings.clock),
    // whatever the hall's time control; told to the supervisor before it has published anything.
    if (run.seq > 0 || (run.settings.clock ?? true) === options.clock) return mapped;
    const settings = { ...run.settings, clock: options.clock };
    return { ...mapped, settings, sup: engine.start(settings).state };
  }
  if (run.seq > 0) return run;
  let settings = run.settings;
  if (action === 'set_time_control' && typeof params.time_control === 'string') {
    const tc = parseReadableTimeControl(params.time_control);
    const timed = tc.isOk && (tc.value.kind === 'periods' || tc.value.kind === 'sandclock');
    const { timeControl: _old, ...rest } = settings;
    settings = timed ? { ...rest, timeControl: makeTimeControl(tc.value) } : rest;
  }
  if (action === 'set_edition') {
    const edition =
      typeof params.edition === 'string' && isEdition(params.edition) ? params.edition : settings.edition;
    const gameType =
      typeof params.game_type === 'string' && isGameType(params.game_type)
        ? params.game_type
        : settings.gameType;
    const supervision =
      params.supervision === 'full' || params.supervision === 'reduced'
        ? params.supervision
        : settings.supervision;
    settings = { ...settings, edition, gameType, supervision };
  }
  const restarted = engine.start(settings);
  return { ...run, settings, sup: restarted.state };
};

/** Advances a game by one record or wake. */
export const stepGameRun = <S>(
  engine: SupervisorPort<S>,
  run: GameRun<S>,
  input: GameInput,
): GameRunStep<S> => {
  const events: GameEvent[] = [];
  if (input.kind === 'wake') return { run: tickUntil(engine, run, input.at, true, events), events };
  const rec = input.record;
  if (rec.type === 'command' && (SETUP_COMMANDS as readonly string[]).includes(rec.action)) {
    const params = typeof rec.params === 'object' && rec.params !== null ? (rec.params as Params) : {};
    return { run: applySetup(engine, run, rec.action, params), events };
  }
  const { map, inputs, at } = recordInputs(run.map, input.record);
  let r: GameRun<S> = { ...run, map };
  if (at !== undefined) r = tickUntil(engine, r, at, false, events);
  for (const i of inputs) r = feed(engine, r, i, events);
  if (input.record.type === 'finish') r = { ...r, ended: true };
  return { run: r, events };
};

/** Replays a journal's records: the game as it stood after the last one, and every event it published. */
export const replayGameRun = <S>(
  engine: SupervisorPort<S>,
  settings: GameSettings,
  mapOptions: InputMapOptions,
  records: Iterable<JournalRecord>,
): GameRunStep<S> => {
  const started = startGameRun(engine, settings, mapOptions);
  const events: GameEvent[] = [...started.events];
  let run = started.run;
  for (const record of records) {
    const r = stepGameRun(engine, run, { kind: 'record', record });
    run = r.run;
    events.push(...r.events);
  }
  return { run, events };
};
