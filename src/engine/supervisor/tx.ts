/**
 * The transaction of one supervisor step: the state being built and the events published so far,
 * with the per-game `seq`. Only one `superviseStep` call ever holds a Tx, so the reducer stays
 * pure from the outside (the input state is never changed).
 *
 *   const tx = openTx(state);
 *   emit(tx, 120, { type: 'offer', by: 'white', status: 'made' });
 *   tx.events[0].seq;   // state.seq + 1
 */
import type { GameEvent, GameEventBody } from '../events.js';
import type { SupervisorState } from './state.js';

export interface Tx {
  st: SupervisorState;
  readonly events: GameEvent[];
}

export const openTx = (st: SupervisorState): Tx => ({ st, events: [] });

/** Publishes one event at `at` with the next seq. */
export const emit = (tx: Tx, at: number, body: GameEventBody): void => {
  const seq = tx.st.seq + 1;
  tx.st = { ...tx.st, seq };
  tx.events.push({ ...body, game: tx.st.settings.game, seq, at });
};

/** Publishes an alert once per key (a repeated judgement of the same board says nothing new). */
export const emitOnce = (tx: Tx, key: string, at: number, body: GameEventBody): void => {
  if (tx.st.alerted.has(key)) return;
  const alerted = new Set(tx.st.alerted);
  alerted.add(key);
  tx.st = { ...tx.st, alerted };
  emit(tx, at, body);
};

/** Whether the game has ended (a call, so that checks after other calls are not narrowed away). */
export const isOver = (tx: Tx): boolean => tx.st.ended !== undefined;

/** Updates the state. */
export const patch = (tx: Tx, changes: Partial<SupervisorState>): void => {
  tx.st = { ...tx.st, ...changes };
};
