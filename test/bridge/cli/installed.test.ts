/**
 * The package as a user gets it: `npm pack` (which builds dist/ first), the tarball unpacked into
 * a fresh folder, its runtime dependencies installed from the lockfile without the network, and
 * `chessbridge demo --once` started from there through its bin script: it serves the pages it
 * ships and exits 0 when its games are over.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'chessbridge-installed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed tarball, installed', () => {
  it('runs chessbridge demo --once from the installed package and serves its pages', async () => {
    await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, maxBuffer: 1 << 24 });
    const tarball = readdirSync(dir).find(f => f.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote a tarball').toBeDefined();
    await run('tar', ['xzf', join(dir, tarball ?? ''), '-C', dir]);
    const pkg = join(dir, 'package');
    expect(existsSync(join(pkg, 'dist/main.js')), 'the tarball holds the built daemon').toBe(true);
    // The runtime dependencies, as the lockfile pins them, from npm's cache (no network).
    copyFileSync(join(ROOT, 'package-lock.json'), join(pkg, 'package-lock.json'));
    await run('npm', ['ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: pkg,
      maxBuffer: 1 << 24,
    });
    expect(existsSync(join(pkg, 'node_modules/vitest')), 'no development dependency installed').toBe(false);

    const child = spawn(
      process.execPath,
      ['bin/chessbridge.js', 'demo', '--once', '--boards', '1', '--speed', '20'],
      {
        cwd: pkg,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
    try {
      const display = await new Promise<string>((resolve, reject) => {
        const seen = () => {
          const url = /hall display +(\S+)/.exec(out)?.[1];
          if (url !== undefined) resolve(url);
        };
        child.stdout.on('data', seen);
        void exit.then(code => reject(new Error(`the demo exited (${code}) before serving: ${out}`)));
      });
      const page = await fetch(display);
      expect(page.status, display).toBe(200);
      expect(await page.text()).toContain('<html');
      expect(await exit, out.slice(-2000)).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);
});
