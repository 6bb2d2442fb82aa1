/**
 * The pieces set up in the start position again after the game (recognition/reset.ts): the game
 * is over on the board, with a result it cannot show (a resignation, 5.1.2; an agreed draw, 5.2.3).
 * The record is kept and the arbiter is asked for the result, once; an alert held for the board
 * while it was being cleared (pieces displaced, a board that was no position) is withdrawn; from
 * then on presses judge nothing and a flag that falls is the arbiter's (clockFeed.ts).
 *
 *   onReset(tx, mismatchOutput);   // one `arbiter-decision-needed` alert: enter the result
 */
import { citeTopic } from '../editions.js';
import type { RecognitionOutput } from '../recognition/outputs.js';
import { say } from '../texts.js';
import { type Tx, emit, emitOnce, patch } from './tx.js';

type MismatchOutput = Extract<RecognitionOutput, { type: 'mismatch' }>;

export const onReset = (tx: Tx, out: MismatchOutput): void => {
  const irr = tx.st.irregular;
  patch(tx, { irregular: undefined });
  if (irr?.alert && irr.alert.seq > 0)
    emit(tx, out.at, {
      type: 'alert-withdrawn',
      alert: irr.alert.seq,
      code: irr.alert.code,
      reason: 'resolved',
    });
  emitOnce(tx, `reset:${tx.st.epoch}`, out.at, {
    type: 'alert',
    code: 'arbiter-decision-needed',
    article: citeTopic(tx.st.profile, 'resignation'),
    detail: `The pieces are being set up in the starting position again after ply ${out.ply}: the game is over on the board, with a result it cannot show (a resignation, an agreed draw). The record is kept; nothing on this board is judged any more. The arbiter enters the result, or restores a position if the game goes on.`,
    text: [say('board.reset', { ply: out.ply })],
  });
};
