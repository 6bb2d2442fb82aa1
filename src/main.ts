/**
 * The composition root: the only place that wires the real process (files, stdout, stderr, exit
 * code) to the application. `bin/chessbridge.js` calls `main` from the built `dist/`.
 *
 *   process.exitCode = await main(process.argv.slice(2));
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './bridge/cli.js';
import { decodePgnBytes } from './engine/pgnRead.js';

/** The package root: one level above `src/` or `dist/`. */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const EXAMPLES = ['opera-game.pgn', 'repetition.pgn', 'dead-position.pgn'].map(f =>
  join(PACKAGE_ROOT, 'examples', f),
);

/** A closed pipe (`chessbridge replay … | head`) ends the output quietly, as Unix tools do. */
const quietOnClosedPipe = (stream: NodeJS.WriteStream): void => {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
};

export const main = (argv: readonly string[]): Promise<number> => {
  quietOnClosedPipe(process.stdout);
  return runCli(argv, {
    readFile: path => readFile(path),
    out: line => process.stdout.write(`${line}\n`),
    err: line => process.stderr.write(`${line}\n`),
    decode: decodePgnBytes,
    examples: EXAMPLES,
  });
};
