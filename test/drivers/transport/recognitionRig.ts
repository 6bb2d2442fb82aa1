/**
 * Acceptance point 2 of the board drivers, in virtual time: an emulated board plays a corpus game
 * as people handle pieces (the engine's handling generator), its session turns the board's bytes
 * into observations, and the recogniser must give back exactly the original moves. Clock presses
 * go to the recogniser directly (these boards have no clock); ticks every 100 ms let settle
 * windows close.
 *
 *   const games = corpusSample(50);
 *   const r = playThroughRecognition(millenniumUnderTest, games[0]!.game, 1);
 *   expect(r.problems).toEqual([]);
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Observable, SchedulerLike } from 'rxjs';
import type { ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import type { SquareContent } from '../../../src/drivers/observation.js';
import {
  type BoardObservation,
  type PieceLetter,
  pieceLetterOf,
} from '../../../src/drivers/observationExtra.js';
import type { EmulatedBoard } from '../../../src/drivers/emulatedBoard.js';
import { BoardEmulatorRunner } from '../../../src/emulators/boardEmulatorHost.js';
import { createMemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Transport } from '../../../src/drivers/transport/transport.js';
import type { Game } from '../../../src/engine/game.js';
import { generateForGame, type HandlingOptions } from '../../../src/engine/handling/generator.js';
import { verifyOutputs } from '../../../src/engine/handling/verify.js';
import { splitPgn } from '../../../src/engine/pgnLex.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import type { BoardEvent, SensedContent } from '../../../src/engine/recognition/boardEvent.js';
import { startRecognition } from '../../../src/engine/recognition/state.js';
import { runRecognition } from '../../../src/engine/recognition/step.js';
import { sharedPath } from '../../support/shared.js';
import { createTestScheduler } from './boardRig.js';

const STANDARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export interface CorpusGame {
  readonly label: string;
  readonly game: Game;
}

/** The games of one PGN file by number (1-based), parsed only when asked. */
const fileGames = (file: string) => {
  const chunks = splitPgn(decodePgnBytes(readFileSync(sharedPath(join('data/pgn', file)))));
  return {
    count: chunks.length,
    game: (n: number): Game | undefined => {
      const chunk = chunks[n - 1];
      const r = chunk === undefined ? undefined : readPgn(chunk.text)[0];
      return r?.isOk === true && r.value.game.start.fen === STANDARD_FEN ? r.value.game : undefined;
    },
  };
};

/**
 * `count` games from the standard start: a third with en passant, promotion or castling on both
 * sides (from edge-case-index.csv), the rest evenly spread over five corpus files.
 */
export const corpusSample = (count: number): CorpusGame[] => {
  const out: CorpusGame[] = [];
  const files = new Map<string, ReturnType<typeof fileGames>>();
  const open = (f: string) => {
    const got = files.get(f) ?? fileGames(f);
    files.set(f, got);
    return got;
  };
  const add = (file: string, n: number): void => {
    if (out.some(g => g.label === `${file} #${n}`)) return;
    const game = open(file).game(n);
    if (game !== undefined && game.length >= 10) out.push({ label: `${file} #${n}`, game });
  };
  const index = readFileSync(sharedPath('data/pgn/edge-case-index.csv'), 'utf8').split(/\r?\n/).slice(1);
  const perFeature = Math.floor(count / 9);
  for (const feature of ['en_passant', 'promotion', 'castling_both_sides']) {
    const lines = index.filter(l => l.includes(feature) && !l.startsWith('parser-edge-cases'));
    const stride = Math.max(1, Math.floor(lines.length / perFeature));
    for (let i = 0; i < lines.length && i / stride < perFeature; i += stride) {
      const [file, n] = (lines[i] ?? '').split(',');
      if (file !== undefined && n !== undefined) add(file, Number(n));
    }
  }
  const spread = [
    'carlsen.pgn',
    'kasparov.pgn',
    'twic1256.pgn',
    'fide-womens-world-rapid-2024.pgn',
    'lichess-2013-01-sample.pgn',
  ];
  for (let round = 0; out.length < count && round < 50; round++) {
    for (const file of spread) {
      if (out.length >= count) break;
      const f = open(file);
      add(file, 1 + ((round * 97 + 13) % f.count));
    }
  }
  return out;
};

/** A board kind under test: its emulator and its session, built inside the test scheduler. */
export interface BoardUnderTest {
  readonly name: string;
  build(scheduler: SchedulerLike): {
    readonly board: EmulatedBoard;
    readonly session: (
      transport: Transport,
    ) => Observable<BoardObservation | { readonly type: string; readonly at: number }>;
    readonly tickMs?: number;
    /** The line between board and session; default a memory link (a byte stream). */
    readonly link?: { readonly host: Transport; readonly device: Transport };
  };
  /** Time to wait before the game starts (connecting, calibrating), ms. */
  readonly warmupMs: number;
  /** Handling options for every game (e.g. a tempo), over the seed's choice. */
  readonly handling?: Partial<Omit<HandlingOptions, 'seed' | 'startAt'>>;
}

const toLetter = (c: SensedContent): PieceLetter | 'empty' =>
  typeof c === 'string'
    ? 'empty'
    : (pieceLetterOf({ kind: 'piece', color: c.color, role: c.role }) ?? 'empty');

const sensed = (c: SquareContent): SensedContent => {
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

export interface RecognitionRun {
  readonly problems: readonly string[];
  readonly plies: number;
  readonly boardEvents: number;
  readonly observations: number;
}

/** Plays one game on the emulated board through its session into the recogniser. */
export const playThroughRecognition = (kind: BoardUnderTest, game: Game, seed: number): RecognitionRun => {
  const handling = generateForGame(game, { ...kind.handling, seed, startAt: kind.warmupMs });
  const last = handling.events.at(-1)?.at ?? kind.warmupMs;
  const endMs = last + 3000;
  const steps: ScriptStep[] = handling.events.flatMap((e): ScriptStep[] =>
    e.kind === 'square' ? [{ at: e.at, kind: 'square', square: e.square, piece: toLetter(e.piece) }] : [],
  );
  const seen: { readonly type: string; readonly at: number }[] = [];
  const ts = createTestScheduler();
  ts.run(({ flush }) => {
    const built = kind.build(ts);
    const link = built.link ?? createMemoryLink({ scheduler: ts });
    const runner = new BoardEmulatorRunner({
      transport: link.device,
      board: built.board,
      scheduler: ts,
      tickMs: built.tickMs ?? 20,
    });
    runner.start();
    void runner.play(steps);
    const sub = built.session(link.host).subscribe(o => seen.push(o));
    ts.schedule(() => {
      sub.unsubscribe();
      void runner.stop();
    }, endMs);
    flush();
  });
  const fromBoard: BoardEvent[] = seen.flatMap((o): BoardEvent[] => {
    const b = o as BoardObservation;
    if (b.type === 'snapshot') return [{ kind: 'snapshot', at: b.at, board: b.squares.map(sensed) }];
    if (b.type === 'square')
      return [{ kind: 'square', at: b.at, square: b.square, piece: sensed(b.content) }];
    return [];
  });
  const fromClock = handling.events.filter(e => e.kind === 'press' || e.kind === 'adjust');
  const ticks: BoardEvent[] = [];
  for (let t = 0; t <= endMs; t += 100) ticks.push({ kind: 'tick', at: t });
  // Sensor events first at equal times, then the clock, then the tick.
  const rank = (e: BoardEvent): number =>
    e.kind === 'tick' ? 2 : e.kind === 'press' || e.kind === 'adjust' ? 1 : 0;
  const events = [...fromBoard, ...fromClock, ...ticks].sort((a, b) => a.at - b.at || rank(a) - rank(b));
  const start = startRecognition(game.truncate(0).unwrap());
  const { state, outputs } = runRecognition(start, events);
  return {
    problems: verifyOutputs(game, outputs, state.game),
    plies: game.length,
    boardEvents: fromBoard.length,
    observations: seen.length,
  };
};
