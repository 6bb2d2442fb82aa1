/**
 * Replaying runs of the independent handling model (bench/humanModel) in tests: a corpus game as
 * the sweep numbers it, the stressed frequencies of docs/benchmarks.md, and the supervisor over
 * a run's inputs (E23 standard, full supervision).
 *
 *   const game = corpusGame('carlsen.pgn', 1736);
 *   const events = supervise(game.start.fen, playGame(game, rng, params, { clock: true }).inputs);
 */
import { readFileSync } from 'node:fs';
import type { GameEvent, SupervisorInput } from '../../src/engine/events.js';
import { Game } from '../../src/engine/game.js';
import { decodePgnBytes, readPgn } from '../../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../../src/engine/supervisor/index.js';
import { sharedPath } from './shared.js';

/** Every irregular handling of the model raised far above the captures' frequencies. */
export const STRESSED =
  'stop=0.3,nextTo=0.3,captureStop=0.4,capturedFirst=25,capturerFirst=10,ghost=0.4,repeatStop=1,adjust=0.1,adjustAfterPress=0.05,blitz=0.3,replyBeforePress=0.1,castleBothInHand=1,epCapturedFirst=1,promoPawnFirst=0.6,slide=0.2,flicker=0.1,placeBeforeLift=0.3';

const corpusText = (file: string): { text: string; starts: number[] } => {
  const text = decodePgnBytes(readFileSync(sharedPath(`data/pgn/${file}`)));
  return { text, starts: [...text.matchAll(/^\[Event /gm)].map(m => m.index) };
};

/** The game `n` (1-based) of a corpus file, split at its `[Event ` tags as the sweep does. */
export const corpusGame = (file: string, n: number): Game => {
  const { text, starts } = corpusText(file);
  const read = readPgn(text.slice(starts[n - 1], starts[n] ?? text.length))[0];
  if (!read || read.isErr) throw new Error(`${file} #${n}: not readable`);
  return read.value.game;
};

/** The first `count` games of a corpus file. */
export const corpusGames = (file: string, count: number): Game[] => {
  const { text, starts } = corpusText(file);
  return readPgn(text.slice(0, starts[count] ?? text.length))
    .slice(0, count)
    .map((r, i) => {
      if (r.isErr) throw new Error(`${file} #${i + 1}: not readable`);
      return r.value.game;
    });
};

/** The supervisor's events for a run's inputs from `startFen`. */
export const supervise = (startFen: string, inputs: readonly SupervisorInput[]): readonly GameEvent[] => {
  const { state } = startSupervision(
    { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full', startFen },
    { game: Game.fromFen(startFen).unwrap() },
  );
  return runSupervision(state, inputs).events;
};
