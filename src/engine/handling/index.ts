/**
 * The human-handling generator: public surface.
 *
 *   import { generateForGame } from './handling/index.js';
 *   const { events } = generateForGame(game, { seed: 1, clock: 'none', tempo: 'blitz' });
 */
export { type HandlingOptions, type HandlingRun, generateForGame, generateHandling } from './generator.js';
export { type MoveFacts, type MoveKind, factsOf } from './moveFacts.js';
export { type HandlingStats, addStats, emptyStats } from './patterns.js';
export { type Rng, deriveSeed, makeRng } from './prng.js';
export { DEFAULT_RATES, type HandlingRates, TEMPOS, type Tempo, type TempoProfile } from './rates.js';
