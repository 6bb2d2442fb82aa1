/**
 * Round trip of a game through the handling generator and the recogniser, and the verdict: the
 * recognised moves must be exactly the original ones, and nothing false may be reported (no
 * mismatch or result, no correction of a final ply; a pending state only where that kind of move
 * was made). Provisional moves revised before they are final (a stop on the way) are allowed.
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
  // A king may rest on its castling square on its way elsewhere (a stop beside its destination).
  castling: san => san.startsWith('O-O') || san.startsWith('K'),
  promotion: san => san.includes('='),
  enPassant: (san, uci) => san.includes('x') && uci.length === 4,
};

/**
 * Checks recognition outputs against the game they came from. A published move may be provisional
 * (d3 published while the pawn rests there on its way to d4) and revised (`revision`) until it is
 * final; what is wrong is a final ply that differs from the played one, a correction that reaches a
 * final ply or has another reason (takeback, gesture), a mismatch at a press or one never resolved
 * (a piece resting on a square no move reaches is one while it rests), or a result gesture.
 */
export const verifyOutputs = (
  game: Game,
  outputs: readonly RecognitionOutput[],
  recognised: Game,
): string[] => {
  const problems: string[] = [];
  const played = game.moves;
  const line: string[] = [];
  let final = 0;
  let open: string | undefined;
  for (const out of outputs) {
    switch (out.type) {
      case 'move':
        if (out.ply !== line.length + 1)
          problems.push(`ply ${out.ply}: published out of order (expected ply ${line.length + 1})`);
        line.length = out.ply - 1;
        line.push(out.san);
        break;
      case 'correction':
        if (out.reason !== 'revision' || out.fromPly <= final)
          problems.push(
            `correction from ply ${out.fromPly} (${out.reason}${out.fromPly <= final ? ', a final ply' : ''}): ${out.moves.map(m => m.san).join(' ') || 'removed'}`,
          );
        line.length = out.fromPly - 1;
        for (const m of out.moves) line.push(m.san);
        break;
      case 'final': {
        final = Math.max(final, out.ply);
        const want = played[out.ply - 1]?.san;
        if (line[out.ply - 1] !== want)
          problems.push(
            `ply ${out.ply}: final ${line[out.ply - 1] ?? 'nothing'}, played ${want ?? 'nothing'}`,
          );
        break;
      }
      case 'mismatch':
        // A quiet board that is no position while a piece rests on a square no move reaches is
        // the supervisor's to hold (it is no alert); a press with it, or one never resolved, is wrong.
        if (out.trigger === 'press' || out.reason !== 'unreachable')
          problems.push(
            `mismatch at ply ${out.ply} (${out.reason}, ${out.trigger}) on squares ${out.squares.join(',')}`,
          );
        else
          open ??= `mismatch at ply ${out.ply} (unreachable, never resolved) on squares ${out.squares.join(',')}`;
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
      case 'resolved':
        open = undefined;
        break;
    }
  }
  if (open !== undefined) problems.push(open);
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
