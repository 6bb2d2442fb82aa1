/**
 * Ending the game: publishes the `end` event from an outcome (outcome.ts) or an arbiter's result,
 * stops the clock model, and marks the state ended (later board events are only tracked).
 *
 *   endWith(tx, at, makeOutcome('resignation', 'black', profile).unwrap());
 *   tx.st.ended?.result;   // '0-1'
 */
import { stopClock } from '../clock.js';
import type { ArticleRef, Color } from '../types.js';
import { type Outcome, makeResultToken } from '../outcome.js';
import { type Tx, emit, patch } from './tx.js';

type ResultText = '1-0' | '0-1' | '1/2-1/2' | '0-0' | '*';

const stop = (tx: Tx, at: number): void => {
  const { clock } = tx.st;
  if (!clock || clock.phase === 'stopped') return;
  const stopped = stopClock(clock, Math.max(at, clock.mark));
  if (stopped.isOk) patch(tx, { clock: stopped.value });
};

/** Ends the game with a result and a reason (an outcome kind or another word), citing `article`. */
export const endGame = (
  tx: Tx,
  at: number,
  result: ResultText,
  reason: string,
  article: ArticleRef,
  winner?: Color,
): void => {
  if (tx.st.ended) return;
  emit(tx, at, { type: 'end', result, reason, article, ...(winner ? { winner } : {}) });
  stop(tx, at);
  patch(tx, { ended: { result, at }, offer: undefined, claim: undefined, claimable: undefined });
};

/** Ends the game with an outcome of outcome.ts. */
export const endWith = (tx: Tx, at: number, outcome: Outcome): void => {
  const result: ResultText = outcome.kind === 'bothLose' ? '0-0' : makeResultToken(outcome);
  endGame(tx, at, result, outcome.kind, outcome.article, outcome.winner);
};
