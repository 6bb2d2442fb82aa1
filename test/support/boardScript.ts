/**
 * Runs a board script (src/engine/script) in a test and returns the events of its first edition,
 * for tests that look at the published record rather than at expected lines.
 *
 *   const events = scriptEvents(`@edition E23\n@start ...\n0 e2 -\n300 e4 P\n`, 'e4.cbs');
 *   publishedSans(events); // ['e4']
 */
import type { GameEvent } from '../../src/engine/events.js';
import { parseScript, runScript } from '../../src/engine/script/index.js';

export const scriptEvents = (text: string, name: string): readonly GameEvent[] =>
  runScript(parseScript(text, name).unwrap())[0]?.events ?? [];
