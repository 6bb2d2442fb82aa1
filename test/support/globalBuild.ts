/**
 * Vitest global setup: transpiles src/ into .test-build/ once before any test file runs, for the
 * daemons tests start as child processes (test/support/childBuild.ts). Type errors are not its business
 * (`npm run typecheck`); a syntax error fails the run here, naming the file.
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CHILD_BUILD_DIR } from './childBuild.js';

export default async function setup(): Promise<void> {
  const src = join(CHILD_BUILD_DIR, '..', 'src');
  const entryPoints = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map(f => join(src, f));
  // A module deleted from src/ must not linger in the build.
  await rm(CHILD_BUILD_DIR, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir: CHILD_BUILD_DIR,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'error',
  });
}
