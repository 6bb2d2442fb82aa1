/**
 * A daemon killed mid-game and started again: the game is rebuilt from its journal, and the board,
 * reopened, reports what happened while nobody listened. The journal below is what the restarted
 * daemon holds: the game up to the kill, then the new connection (`resynchronising`), field updates
 * of a move made before the board's first dump, a press, and the dump. The dump is the authority:
 * the plies made while the daemon was down and the move made just after the restart are caught up
 * as played, never a move read from the field updates against the board as it stood at the kill.
 *
 * Seen in the recovery benchmark (board r1-b4, twic1256.pgn): after 3. Bb5+ the daemon was killed,
 * 3... Bd7 4. Bxd7+ were played while it was down, and 4... Qxd7 was made right after the restart,
 * before the dump; the daemon published 3... Qd7 (the queen going to d7 on the board of the kill).
 */
import { Chess } from 'chessops';
import { describe, expect, it } from 'vitest';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { nextWakeAt, replayGameRun, stepGameRun, type GameRun } from '../../../src/bridge/game/gameRun.js';
import { squaresOf } from '../../../src/drivers/dgt/emulatorScript.js';
import type { ClockSide, Observation, SquareContent } from '../../../src/drivers/observation.js';
import type { JournalRecord } from '../../../src/bridge/journal/index.js';
import type { GameEvent, GameSettings } from '../../../src/engine/events.js';
import { face, movesOf, observationsOfGame, recordsOf } from '../game/support.js';

const settings: GameSettings = {
  game: 'r1-b4',
  edition: 'E23',
  gameType: 'standard',
  supervision: 'full',
  timeControl: '90+30',
};
const engine = engineSupervisor();

const BEFORE_KILL = ['e4', 'c5', 'Nf3', 'd6', 'Bb5+'];
const WHILE_DOWN = ['Bd7', 'Bxd7+'];
const AFTER_RESTART = 'Qxd7';

const D7 = 51;
const D8 = 59;

const positionAfter = (sans: readonly string[]): Chess => {
  const pos = Chess.default();
  for (const m of movesOf(sans)) pos.play(m);
  return pos;
};

/** A clock reading (White sits left; the lever is high on the side whose clock runs). */
const reading = (at: number, running: ClockSide): Observation => ({
  type: 'clock',
  at,
  connected: true,
  left: face(5_400_000),
  right: face(5_400_000),
  running,
  lever: running,
  batteryLow: false,
  status: 0,
});

const square = (at: number, sq: number, content: SquareContent): Observation => ({
  type: 'square',
  at,
  square: sq,
  content,
});

/** The journal the restarted daemon holds, with `dumpAfterMs`: when the first dump comes after the press. */
const journal = (dumpAfterMs: number): { records: JournalRecord[]; end: number } => {
  const before = observationsOfGame(BEFORE_KILL, { seed: 7, t0: 1_795_986_030_000, clockMs: 5_400_000 });
  const killedAt = (before.at(-1)?.at ?? 0) + 500;
  // Down for a few seconds; Black's lever went over and back (3... Bd7, 4. Bxd7+ pressed): right.
  const t = killedAt + 3000;
  const after = positionAfter([...BEFORE_KILL, ...WHILE_DOWN, AFTER_RESTART]);
  const restart: Observation[] = [
    { type: 'link', at: t, state: 'resynchronising', detail: 'attempt 1' },
    reading(t + 90, 'right'),
    reading(t + 190, 'right'),
    // 4... Qxd7 before the dump: the captured bishop removed, the queen lifted and put on d7.
    square(t + 250, D7, { kind: 'empty' }),
    square(t + 310, D8, { kind: 'empty' }),
    square(t + 340, D7, { kind: 'piece', color: 'black', role: 'queen' }),
    reading(t + 380, 'left'), // Black presses
    { type: 'snapshot', at: t + 380 + dumpAfterMs, squares: squaresOf(after) },
    { type: 'link', at: t + 380 + dumpAfterMs, state: 'connected', detail: 'attempt 1' },
    reading(t + 480 + dumpAfterMs, 'left'),
    reading(t + 1480 + dumpAfterMs, 'left'),
  ];
  return { records: recordsOf([...before, ...restart], 'sim-4'), end: t + 6000 + dumpAfterMs };
};

/** The replay of the records, then the wakes a live timer would fire until `end`. */
const run = (records: readonly JournalRecord[], end: number): GameEvent[] => {
  const replayed = replayGameRun(engine, settings, { clock: false }, records);
  let r: GameRun = replayed.run;
  const events = [...replayed.events];
  for (let due = nextWakeAt(r); due !== undefined && due <= end; due = nextWakeAt(r)) {
    const s = stepGameRun(engine, r, { kind: 'wake', at: due });
    r = s.run;
    events.push(...s.events);
  }
  return events;
};

/** The game's moves as published, corrections applied. */
const movesPublished = (events: readonly GameEvent[]): string[] => {
  const moves: string[] = [];
  for (const e of events) {
    if (e.type === 'move') moves[e.ply - 1] = e.san;
    if (e.type === 'correction') moves.splice(e.fromPly - 1, Infinity, ...e.moves.map(m => m.san));
  }
  return moves;
};

describe('a game resumed after a daemon restart, with moves made while it was down', () => {
  for (const dumpAfterMs of [20, 400, 1200]) {
    it(`catches up from the first dump, not from field updates read on the board of the kill (dump ${dumpAfterMs} ms after the press)`, () => {
      const { records, end } = journal(dumpAfterMs);
      const events = run(records, end);
      expect(movesPublished(events)).toEqual([...BEFORE_KILL, ...WHILE_DOWN, AFTER_RESTART]);
      expect(events.filter(e => e.type === 'move').map(e => e.san)).not.toContain('Qd7');
      expect(events.filter(e => e.type === 'correction')).toEqual([]);
      expect(events.flatMap(e => (e.type === 'alert' ? [e.code] : []))).toEqual([]);
    });
  }

  it('is the same whether the records are replayed in one go or the journal was cut at the kill', () => {
    const { records, end } = journal(400);
    const cut = records.findIndex(
      r =>
        r.type === 'observation' &&
        r.observation.type === 'link' &&
        r.observation.state === 'resynchronising',
    );
    // Restored from the journal up to the kill, then live.
    const restored = replayGameRun(engine, settings, { clock: false }, records.slice(0, cut));
    let r: GameRun = restored.run;
    const events = [...restored.events];
    for (const record of records.slice(cut)) {
      const at = record.type === 'observation' ? record.observation.at : 0;
      for (let due = nextWakeAt(r); due !== undefined && due < at; due = nextWakeAt(r)) {
        const s = stepGameRun(engine, r, { kind: 'wake', at: due });
        r = s.run;
        events.push(...s.events);
      }
      const s = stepGameRun(engine, r, { kind: 'record', record });
      r = s.run;
      events.push(...s.events);
    }
    for (let due = nextWakeAt(r); due !== undefined && due <= end; due = nextWakeAt(r)) {
      const s = stepGameRun(engine, r, { kind: 'wake', at: due });
      r = s.run;
      events.push(...s.events);
    }
    expect(events).toEqual(run(records, end));
  });
});
