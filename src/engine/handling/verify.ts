/**
 * Round trip of a game through the handling generator and the recogniser, and the verdict: the
 * recognised moves must be exactly the original ones, and nothing false may be reported (no
 * correction, mismatch or result; a pending state only where that kind of move was made).
 *
 *   const v = roundTrip(game, { seed: 3 });
 *   if (!v.ok) console.log(v.problems[0]);   // e.g. 'ply 31: recognised Rd1, played Rf1'
 */
import type { Game } from '../game.js';
import { startRecognition, type RecognitionOptions } from '../recognition/state.js';
import type { RecognitionOutput } from '../recognition/outputs.js';
import { runRecognition } from '../recognition/step.js';
import { type HandlingOptions, type HandlingRun, generateForGame } from './generator.js';

export interface RoundTrip {
  readonly ok: boolean;
  /** What went wrong, one line each (empty when ok). */
  readonly problems: readonly string[];
  readonly run: HandlingRun;
  readonly outputs: readonly RecognitionOutput[];
  /** Recognition time in ms, when a clock was given. */
  readonly elapsedMs: number;
}

const PENDING_FOR: Record<string, (san: string, uci: string) => boolean> = {
  castling: san => san.startsWith('O-O'),
  promotion: san => san.includes('='),
  enPassant: (san, uci) => san.includes('x') && uci.length === 4,
};

/** Checks recognition outputs against the game they came from. */
export const verifyOutputs = (
  game: Game,
  outputs: readonly RecognitionOutput[],
  recognised: Game,
): string[] => {
  const problems: string[] = [];
  const played = game.moves;
  let next = 1;
  for (const out of outputs) {
    switch (out.type) {
      case 'move': {
        const rec = played[out.ply - 1];
        if (out.ply !== next) problems.push(`ply ${out.ply}: published out of order (expected ply ${next})`);
        else if (!rec || rec.san !== out.san)
          problems.push(`ply ${out.ply}: recognised ${out.san}, played ${rec?.san ?? 'nothing'}`);
        next = out.ply + 1;
        break;
      }
      case 'correction':
        problems.push(
          `correction from ply ${out.fromPly} (${out.reason}): ${out.moves.map(m => m.san).join(' ') || 'removed'}`,
        );
        next = out.fromPly + out.moves.length;
        break;
      case 'mismatch':
        problems.push(
          `mismatch at ply ${out.ply} (${out.reason}, ${out.trigger}) on squares ${out.squares.join(',')}`,
        );
        break;
      case 'result':
        problems.push(`result gesture ${out.result} at ply ${out.ply}`);
        break;
      case 'pending': {
        const rec = played[out.ply];
        const fits = PENDING_FOR[out.pending.kind];
        if (!rec || !fits?.(rec.san, rec.uci))
          problems.push(`pending ${out.pending.kind} at ply ${out.ply} before ${rec?.san ?? 'the end'}`);
        break;
      }
      case 'final':
      case 'resolved':
        break;
    }
  }
  const got = recognised.moves.map(m => m.san).join(' ');
  const want = played.map(m => m.san).join(' ');
  if (got !== want) problems.push(`recognised "${got.slice(-80)}" instead of "${want.slice(-80)}"`);
  return problems;
};

/**
 * Generates the handling of `game` and recognises it from the game's start. `now` (a ms clock,
 * e.g. performance.now) times the recognition alone.
 */
export const roundTrip = (
  game: Game,
  handling: HandlingOptions,
  recognition: Partial<RecognitionOptions> = {},
  now?: () => number,
): RoundTrip => {
  const run = generateForGame(game, {
    ...handling,
    ...(recognition.settleMs ? { settleMs: recognition.settleMs } : {}),
  });
  const start = startRecognition(game.truncate(0).unwrap(), {
    occupancyOnly: handling.occupancy ?? false,
    ...recognition,
  });
  const t0 = now?.() ?? 0;
  const { state, outputs } = runRecognition(start, run.events);
  const elapsedMs = (now?.() ?? 0) - t0;
  const problems = verifyOutputs(game, outputs, state.game);
  return { ok: problems.length === 0, problems, run, outputs, elapsedMs };
};
