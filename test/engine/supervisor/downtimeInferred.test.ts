/**
 * Plies inferred from a snapshot after a gap, then contradicted by the board: the record stays
 * the arbiter's to check, and nothing the board does afterwards is judged as an illegal move.
 *
 * Found by the supervision corpus with a 5 s downtime and no board log (engine-threefold-
 * repetition.pgn, game 6, seed 1): the cut came while a rook rested on c6 on its way to c3; the
 * catch-up built on that reading (…Rc6, a5, …Rc3) and left White to move where Black was. Black's
 * next press was a board mismatch, but White's move after it was taken as the "next move seen
 * made", the inference was dropped, and two later presses were counted as illegal moves: the
 * game was ended by 7.5.5, which a downtime must never do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withDowntime } from '../../../src/engine/handling/downtime.js';
import { generateForGame } from '../../../src/engine/handling/generator.js';
import { deriveSeed, makeRng } from '../../../src/engine/handling/prng.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';
import { sharedPath } from '../../support/shared.js';

const FILE = 'data/pgn/engine-threefold-repetition.pgn';
const INDEX = 6;
const SEED = 1;

/** The game cut for `downMs` from a ply in its middle third, as the corpus script cuts it. */
const runWithDowntime = (downMs: number) => {
  let game;
  for (const r of readPgn(decodePgnBytes(readFileSync(sharedPath(FILE))))) {
    if (r.isOk && r.value.index === INDEX) {
      game = r.value.game;
      break;
    }
  }
  if (game === undefined) throw new Error(`${FILE} has no game ${INDEX}`);
  const run = generateForGame(game, { seed: deriveSeed(SEED, INDEX), rates: { castlingRookFirst: 0 } });
  const rng = makeRng(deriveSeed(SEED, INDEX ^ 0x5eed));
  const ats = run.events.flatMap(e => (e.kind === 'press' || e.kind === 'square' ? [e.at] : []));
  const from = ats[Math.floor(ats.length / 3) + rng.int(0, Math.floor(ats.length / 3))] ?? 0;
  const cut = withDowntime(run.events, game.positionAt(0).board, { from, ms: downMs, log: false });
  const { state } = startSupervision(
    { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full', startFen: game.start.fen },
    { game: game.truncate(0).unwrap() },
  );
  return runSupervision(state, cut.inputs).events;
};

describe('plies inferred from a snapshot, contradicted by the next press', () => {
  it('counts no illegal move and ends nothing; the mismatch goes to the arbiter', () => {
    const events = runWithDowntime(5000);
    const codes = events.flatMap(e => (e.type === 'alert' ? [e.code] : []));
    expect(events.some(e => e.type === 'finding' && e.code === 'arbiter-decision-needed')).toBe(true);
    expect(codes).toContain('board-mismatch');
    expect(codes).not.toContain('illegal-move');
    expect(codes).not.toContain('press-without-move');
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });
});
