/**
 * Board scripts: the public surface (parse, print, run). Grammar in docs/board-scripts.md.
 *
 *   const script = parseScript(text, 'game.cbs').unwrap();
 *   for (const run of runScript(script)) console.log(run.edition, run.failures);
 */
export { parseDuration, parseEditions, parseScript } from './parse.js';
export { makeDigest, makeInputText, printScript } from './print.js';
export { type ScriptRun, runScript, runScriptFor, settingsOf } from './run.js';
export type {
  BoardScript,
  ExpectedEvent,
  ScriptError,
  ScriptErrorDetail,
  ScriptHeader,
  ScriptInput,
} from './types.js';
