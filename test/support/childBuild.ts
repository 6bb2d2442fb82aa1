/**
 * The daemon that tests start as a child process (`chessbridge run`, `simulate`, `replay`…) runs
 * from JavaScript transpiled once per test run, not through the tsx loader: a start costs about
 * 0.9 s of CPU instead of 2.2 s, and integration files start dozens. The sources are transpiled
 * file by file (no bundle, the layout of src/ kept, so paths relative to a module still resolve)
 * into .test-build/ by vitest's global setup (test/support/globalBuild.ts).
 *
 *   spawn(process.execPath, [...childMainArgs, 'run', '-c', config], { cwd: PROJECT_ROOT });
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the transpiled sources go (src/main.ts becomes .test-build/main.js). */
export const CHILD_BUILD_DIR = join(ROOT, '.test-build');

const MAIN_URL = pathToFileURL(join(CHILD_BUILD_DIR, 'main.js')).href;

/** Node's arguments that run the chessbridge command; the command's own arguments follow. */
export const childMainArgs: readonly string[] = [
  '--input-type=module',
  '-e',
  `const m = await import(${JSON.stringify(MAIN_URL)}); process.exitCode = await m.main(process.argv.slice(1));`,
];
