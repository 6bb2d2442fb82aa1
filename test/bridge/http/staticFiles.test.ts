import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFeedState } from '../../../src/bridge/feed/feedState.js';
import { HttpServer } from '../../../src/bridge/http/server.js';
import { parseStaticPath } from '../../../src/bridge/http/staticFiles.js';

const top = mkdtempSync(join(tmpdir(), 'http-static-'));
const root = join(top, 'web');
const outside = join(top, 'private');
mkdirSync(join(root, 'sub'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(root, 'index.html'), '<h1>display</h1>');
writeFileSync(join(root, 'app.js'), 'console.log(1);');
writeFileSync(join(root, 'sub', 'page.html'), '<p>sub</p>');
writeFileSync(join(root, '.env'), 'TOKEN=hidden');
writeFileSync(join(top, 'secret.txt'), 'top secret');
writeFileSync(join(outside, 'keys.txt'), 'private keys');
symlinkSync(join(outside, 'keys.txt'), join(root, 'keys.txt')); // a link out of the root
symlinkSync(outside, join(root, 'private')); // a folder link out of the root
symlinkSync(join(root, 'app.js'), join(root, 'alias.js')); // a link that stays inside

const server = new HttpServer({ port: 0, feed: () => makeFeedState({ name: 'x' }, 0), staticDir: root });
let port = 0;
beforeAll(async () => {
  port = (await server.start()).port;
});
afterAll(async () => {
  await server.stop();
  rmSync(top, { recursive: true, force: true });
});

/** A GET with the path sent exactly as written (fetch would normalise `..` away before sending). */
const raw = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers, agent: false }, res => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });

describe('static files', () => {
  it('serves the pages with their content types and conditional GET', async () => {
    const page = await raw('/ui/');
    expect(page.status).toBe(200);
    expect(page.body).toBe('<h1>display</h1>');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const js = await raw('/ui/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await raw('/ui/app.js', { 'if-none-match': js.headers.etag as string })).status).toBe(304);
    expect((await raw('/ui/sub/page.html')).body).toBe('<p>sub</p>');
    expect((await raw('/ui/alias.js')).body).toBe('console.log(1);');
    expect((await raw('/ui/%61pp.js')).body).toBe('console.log(1);');
  });

  it('redirects a folder without its slash', async () => {
    expect(await raw('/ui')).toMatchObject({ status: 301, headers: { location: '/ui/' } });
    expect(await raw('/ui/sub')).toMatchObject({ status: 301, headers: { location: '/ui/sub/' } });
  });

  it.each([
    ['/ui/../secret.txt', 'dot segment'],
    ['/ui/sub/../../secret.txt', 'dot segment'],
    ['/ui/%2e%2e/secret.txt', 'encoded dot segment'],
    ['/ui/%2E%2e/%2e%2E/secret.txt', 'mixed-case encoded dot segments'],
    ['/ui/..%2fsecret.txt', 'encoded slash'],
    ['/ui/%2e%2e%2fsecret.txt', 'fully encoded'],
    ['/ui/..%5csecret.txt', 'encoded backslash'],
    ['/ui/..\\secret.txt', 'raw backslash'],
    ['/ui//etc/passwd', 'absolute path (double slash)'],
    ['/ui/%2fetc%2fpasswd', 'absolute path (encoded)'],
    ['/ui/C:%5cWindows%5cwin.ini', 'drive letter'],
    ['/ui/app.js%00.png', 'NUL byte'],
    ['/ui/%E0%A4%A', 'malformed percent-encoding'],
    ['/ui/./app.js', 'single dot segment'],
  ])('refuses %s with 400 (%s)', async path => {
    const res = await raw(path);
    expect(res.status).toBe(400);
    expect(res.body).not.toContain('secret');
  });

  it.each([
    ['/ui/keys.txt', 'file link out of the root'],
    ['/ui/private/keys.txt', 'folder link out of the root'],
    ['/ui/.env', 'hidden file'],
    ['/ui/missing.html', 'missing file'],
  ])('answers %s with 404 (%s)', async path => {
    const res = await raw(path);
    expect(res.status).toBe(404);
    expect(res.body).not.toMatch(/private keys|TOKEN/);
  });

  it('refuses traversal in the absolute request form too, and on the feed routes', async () => {
    expect((await raw(`http://127.0.0.1:${port}/ui/../secret.txt`)).status).toBe(400);
    for (const path of [
      '/../secret.txt',
      '/round-1/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/tournament.json/..',
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('top secret');
    }
  });
});

describe('parseStaticPath', () => {
  it('splits a safe path and marks a folder request', () => {
    expect(parseStaticPath('sub/page.html').unwrap()).toEqual({
      segments: ['sub', 'page.html'],
      folder: false,
    });
    expect(parseStaticPath('sub/').unwrap()).toEqual({ segments: ['sub'], folder: true });
    expect(parseStaticPath('').unwrap()).toEqual({ segments: [], folder: true });
    expect(parseStaticPath('a%20b.html').unwrap().segments).toEqual(['a b.html']);
  });
});
