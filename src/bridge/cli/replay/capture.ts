/**
 * `chessbridge replay --driver dgt FILE... [--json]` (or `--driver millennium`): raw byte
 * captures (docs/capture-format.md) replayed through the board's own session (codec, board view,
 * orientation: the code that reads a live board) and the daemon's game run (journal records,
 * input mapping, recogniser, supervisor), printing the game events the daemon would have
 * published live: one JSON object a line (the `games/<game>/events` payload) or one readable line
 * each. File access is injected.
 *
 *   const request = { driver: 'dgt', json: true, edition: 'E23', gameType: 'standard', supervision: 'full' };
 *   const code = await replayCaptures(['board-3.cap'], request, nodeCaptureIo, engineSupervisor(), out, err);
 *   // {"game":"board-3","seq":1,"at":2410,"type":"move","ply":1,"san":"e4",...}
 *
 * A capture holds the reads of one connection: the replayed session sees them as one attempt (a
 * reconnection in the middle of a capture shows as nothing but its bytes). The game is named
 * after the file; it starts at the first read with the Laws given on the command line; a clock
 * plugged into the board is followed (White's side learned from the first running reading).
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { filter, type Observable, tap } from 'rxjs';
import { parseCapture, type CaptureRead } from '../../../drivers/capture.js';
import { dgtSession$ } from '../../../drivers/dgt/session.js';
import { millenniumSession$ } from '../../../drivers/millennium/session.js';
import type { Observation, ObservationType, Orientation } from '../../../drivers/observation.js';
import type { BoardObservation } from '../../../drivers/observationExtra.js';
import { ReplayTransport } from '../../../drivers/transport/replay.js';
import type { Transport } from '../../../drivers/transport/transport.js';
import type { GameEvent, GameSettings } from '../../../engine/events.js';
import type { Edition, GameType, Supervision } from '../../../engine/types.js';
import type { SupervisorPort } from '../../game/engine.js';
import { replayGameRun, stepGameRun } from '../../game/gameRun.js';
import { describeEvent } from './journal.js';
import { makeEventMessage } from '../../wire/events.js';
import type { JournalRecord } from '../../journal/index.js';

/** Drivers whose captures can be replayed. */
export const CAPTURE_DRIVERS = ['dgt', 'millennium'] as const;
export type CaptureDriver = (typeof CAPTURE_DRIVERS)[number];

export const isCaptureDriver = (name: string): name is CaptureDriver =>
  (CAPTURE_DRIVERS as readonly string[]).includes(name);

export interface CaptureReplayRequest {
  /** The board the bytes came from. */
  readonly driver: CaptureDriver;
  /** One JSON object a line (default: readable lines). */
  readonly json: boolean;
  readonly edition: Edition;
  readonly gameType: GameType;
  readonly supervision: Supervision;
  /** How the board stands; default 'auto' (detected from the start position, as live). */
  readonly orientation?: Orientation | 'auto';
}

/** File access for the replay. */
export interface CaptureIo {
  readText(path: string): Promise<string>;
}

export const nodeCaptureIo: CaptureIo = { readText: path => readFile(path, 'utf8') };

/** Observations the daemon journals (the rest carries nothing for a game). */
const JOURNALED: ReadonlySet<string> = new Set<ObservationType>([
  'snapshot',
  'square',
  'clock',
  'link',
  'identity',
  'protocol-error',
]);

const isJournaled = (o: BoardObservation): o is Observation => JOURNALED.has(o.type);

interface SessionParams {
  readonly now: () => number;
  readonly orientation: Orientation | 'auto';
}

/** Each driver's live session, for one attempt over a transport. */
const SESSIONS: Readonly<
  Record<CaptureDriver, (transport: Transport, p: SessionParams) => Observable<Observation>>
> = {
  dgt: (transport, p) => dgtSession$(transport, { ...p, maxAttempts: 1 }),
  // As in the daemon: the Millennium's own extras (register values, LED state) carry nothing for a game.
  millennium: (transport, p) =>
    millenniumSession$(transport, { ...p, maxAttempts: 1 }).pipe(filter(isJournaled)),
};

/**
 * The observations the board's live session produces from these reads, in order: the session
 * runs on a transport that plays the reads back (each stamped with its recorded time) and ends
 * after the last one. Timers of the session never fire; what they would have sent is not needed,
 * since the board's answers are in the capture.
 */
export const captureObservations = (
  reads: readonly CaptureRead[],
  driver: CaptureDriver,
  orientation: Orientation | 'auto' = 'auto',
): Observation[] => {
  const replay = new ReplayTransport(reads);
  let now = reads[0]?.at ?? 0;
  const transport: Transport = {
    path: replay.path,
    open: () => replay.open(),
    write: bytes => replay.write(bytes),
    close: () => replay.close(),
    bytes$: replay.bytes$.pipe(tap(c => (now = c.at))),
  };
  const out: Observation[] = [];
  const session$ = SESSIONS[driver](transport, { now: () => now, orientation });
  // The replay transport plays every read synchronously and completes: so does the session.
  session$.subscribe({ next: o => out.push(o), error: () => undefined }).unsubscribe();
  return out;
};

/**
 * The game events of a board's observations, as the daemon publishes them: the observations
 * become journal records after the `board_setup` the daemon journals first, the game run maps
 * them to inputs for the supervisor, and at the end time passes as the daemon's timers would let
 * it (the settle window and the gesture hold), so the last move is published too.
 */
export const gameEventsOf = (
  observations: readonly Observation[],
  settings: GameSettings,
  engine: SupervisorPort,
  driver: CaptureDriver,
): GameEvent[] => {
  const first = observations[0]?.at ?? 0;
  const last = observations.at(-1)?.at ?? first;
  let seq = 0;
  const records: JournalRecord[] = [
    {
      type: 'command',
      at: first,
      action: 'board_setup',
      params: { board: settings.game, clock: true, driver },
      source: 'replay',
      seq: ++seq,
      wall: 0,
    },
    ...observations.filter(isJournaled).map((observation): JournalRecord => ({
      type: 'observation',
      board: settings.game,
      observation,
      seq: ++seq,
      wall: 0,
    })),
  ];
  const { run, events } = replayGameRun(engine, settings, { clock: false }, records);
  const after = stepGameRun(engine, run, {
    kind: 'wake',
    at: last + Math.max(engine.settleMs, engine.holdMs) + 1,
  });
  return [...events, ...after.events];
};

/** The game id of a capture file: its name without the extension. */
export const captureGameId = (path: string): string => basename(path, extname(path)) || 'capture';

/**
 * Replays the captures, writing event lines to `out` and problems to `err`. Returns the exit
 * code: 0 all replayed, 1 a file could not be read or is not a capture (named with its line).
 */
export const replayCaptures = async (
  paths: readonly string[],
  request: CaptureReplayRequest,
  io: CaptureIo,
  engine: SupervisorPort,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> => {
  let code = 0;
  for (const path of paths) {
    let text: string;
    try {
      text = await io.readText(path);
    } catch (e) {
      err(`chessbridge replay: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
      code = 1;
      continue;
    }
    const reads = parseCapture(text);
    if (reads.isErr) {
      err(`chessbridge replay: ${path}: ${reads.error.message}`);
      code = 1;
      continue;
    }
    const game = captureGameId(path);
    const observations = captureObservations(reads.value, request.driver, request.orientation);
    const settings: GameSettings = {
      game,
      edition: request.edition,
      gameType: request.gameType,
      supervision: request.supervision,
    };
    const events = gameEventsOf(observations, settings, engine, request.driver);
    const laws = `${request.edition} ${request.gameType}`;
    if (!request.json)
      out(
        `${game}: ${reads.value.length} reads from a ${request.driver} board, ${observations.length} observations (${laws})`,
      );
    for (const e of events) {
      if (request.json) out(JSON.stringify(makeEventMessage(e)));
      else out(`${Math.round(e.at)} ms  ${e.game} #${String(e.seq).padEnd(4)} ${describeEvent(e)}`);
    }
    const errors = observations.filter(o => o.type === 'protocol-error').length;
    if (!request.json) out(`${events.length} events${errors > 0 ? `, ${errors} protocol errors` : ''}`);
  }
  return code;
};
