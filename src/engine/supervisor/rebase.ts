/**
 * Moving the recogniser onto another game line without touching the board: after an arbiter's
 * restored position, an enforced Art. 4 correction or a promotion completed by the rules (E14+
 * 7.5.2). The sensed board is kept as it is; if it does not show the new line's position, the
 * recogniser waits for the players to set it up (a `resolved` follows when they have).
 *
 *   rebase(tx, game.truncate(4).unwrap());   // the position after ply 4 is the game's again
 */
import type { Game } from '../game.js';
import { diffSquares } from '../recognition/sensedBoard.js';
import { startRecognition } from '../recognition/state.js';
import { type Tx, patch } from './tx.js';

export const rebase = (tx: Tx, game: Game, options: { readonly awaitSetup?: boolean } = {}): void => {
  const old = tx.st.rec;
  const fresh = startRecognition(game, old.options);
  const tip = game.positionsView()[game.length];
  if (!tip) throw new RangeError('rebase: game without a current position');
  const squares = diffSquares(tip.board, old.sensed);
  const now = { now: old.now, lastChangeAt: old.lastChangeAt };
  if (squares.isEmpty()) {
    patch(tx, { rec: { ...fresh, ...now } });
    return;
  }
  patch(tx, {
    resync: true,
    rec: {
      ...fresh,
      ...now,
      sensed: old.sensed,
      touched: squares,
      status: { kind: 'mismatch', squares, reason: 'unreachable' },
      report: `mismatch:unreachable:${squares.lo}:${squares.hi}`,
      mismatchOpen: true,
      awaitSetup: options.awaitSetup === true,
      shown: false,
      // A board ahead of the new line (play went on) is searched as far as after a re-read, at once.
      catchUp: options.awaitSetup !== true,
      dirty: options.awaitSetup !== true,
    },
  });
};
