/**
 * What an installed package holds and says of itself: `npm pack` takes every file the daemon
 * serves or reads at run time (the web pages, the example PGN files, the example configurations,
 * the systemd unit), and `chessbridge --version` prints the package's version through the real
 * entry point.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const run = promisify(execFile);

const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap(name => {
    const path = join(ROOT, dir, name);
    return statSync(path).isDirectory() ? filesUnder(relative(ROOT, path)) : [relative(ROOT, path)];
  });

describe('the package', () => {
  it('packs every file the daemon serves or reads at run time', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
    const packed = new Set(
      (JSON.parse(stdout) as { files: { path: string }[] }[])[0]?.files.map(f => f.path) ?? [],
    );
    const needed = [
      ...filesUnder('web'),
      ...filesUnder('examples'),
      ...filesUnder('config'),
      ...filesUnder('systemd'),
      'bin/chessbridge.js',
    ];
    expect(needed.length).toBeGreaterThan(10);
    expect(needed.filter(f => !packed.has(f))).toEqual([]);
  });

  it('says its version: chessbridge --version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const code =
      "import { main } from './src/main.ts'; process.exitCode = await main(process.argv.slice(1));";
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code, '--', '--version'],
      {
        cwd: ROOT,
      },
    );
    expect(stdout).toBe(`chessbridge ${version}\n`);
  });
});
