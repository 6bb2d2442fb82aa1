/**
 * Helpers for the recognition tests: a game from a FEN and SAN moves, a board-event script run
 * through the recogniser, and a one-line summary of each output for table-driven expectations.
 *
 *   const r = recognise('0 e2 -; 200 e4 P; 900 press w');
 *   summarise(r.outputs);   // ['move 1 e4 @200', 'final 1 press']
 */
import { makeSquare } from 'chessops';
import { Game } from '../../../src/engine/game.js';
import type { RecognitionOutput } from '../../../src/engine/recognition/outputs.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import {
  type RecognitionOptions,
  type RecognitionState,
  startRecognition,
} from '../../../src/engine/recognition/state.js';
import { runRecognition } from '../../../src/engine/recognition/step.js';

export const gameOf = (fen?: string, sans = ''): Game => {
  let game = fen ? Game.fromFen(fen).unwrap() : Game.standard();
  for (const san of sans.split(/\s+/).filter(s => s.length > 0)) game = game.playSan(san).unwrap();
  return game;
};

export interface Recognised {
  readonly outputs: RecognitionOutput[];
  readonly state: RecognitionState;
}

export const recognise = (
  script: string,
  setup: { fen?: string; moves?: string; options?: Partial<RecognitionOptions> } = {},
): Recognised =>
  runRecognition(startRecognition(gameOf(setup.fen, setup.moves), setup.options), parseShorthand(script));

const squares = (list: readonly number[]): string => list.map(makeSquare).join(',');

/** One short line per output. */
export const summarise = (outputs: readonly RecognitionOutput[]): string[] =>
  outputs.map(o => {
    switch (o.type) {
      case 'move':
        return `move ${o.ply} ${o.san} @${o.at}`;
      case 'correction':
        return `correction ${o.fromPly} ${o.moves.map(m => m.san).join(' ') || '-'} (${o.reason})`;
      case 'final':
        return `final ${o.ply} ${o.by}`;
      case 'pending':
        return `pending ${o.pending.kind}`;
      case 'mismatch':
        return `mismatch ${squares(o.squares)} (${o.trigger}, ${o.reason})`;
      case 'resolved':
        return `resolved ${o.ply}`;
      case 'result':
        return `result ${o.result}`;
    }
  });

/** The SAN moves of the recognised game. */
export const sansOf = (r: Recognised): string => r.state.game.moves.map(m => m.san).join(' ');
