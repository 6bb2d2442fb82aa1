/**
 * Move recognition from square events (the act of moving, recognition core): the public surface.
 *
 *   import { startRecognition, step } from './recognition/index.js';
 *   let st = startRecognition(Game.standard());
 *   ({ state: st } = step(st, { kind: 'square', at: 0, square: 12, piece: 'empty' }));
 */
export * from './boardEvent.js';
export type { Gesture, GestureResult } from './gesture.js';
export { CENTRE, detectGesture } from './gesture.js';
export type { Lifted } from './hand.js';
export * from './outputs.js';
export type { Pending, PendingKind } from './pending.js';
export type { SensedBoard } from './sensedBoard.js';
export { contentAt, diffSquares, pieceAt, sensedOfBoard, sensedOfContents } from './sensedBoard.js';
export * from './state.js';
export { runRecognition, step } from './step.js';
export type { Step } from './step.js';
