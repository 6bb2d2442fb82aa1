/**
 * Acceptance 2 of the LiveChess API: a page with the Lichess board page's WebSocket logic
 * (test/web/fixtures/livechessPage.html: the URL from local storage `dgt-livechess-url`, eboards,
 * subscribe to the first board, setup, `san` lists diffed into moves), served from its own origin
 * (allowed in `livechess.origins`), shows in headless Chromium the moves played on an emulated DGT
 * board read by the daemon, and a takeback.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, launchChromium, type Chromium } from '../support/browser.js';
import { freePort } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { type LiveChessVenue, move, startLiveChessVenue } from './livechessKit.js';

const PAGE = join(import.meta.dirname, '..', 'web', 'fixtures', 'livechessPage.html');

describe.skipIf(!CHROMIUM_PATH)('a page with the Lichess board page logic', () => {
  let dir: string;
  let venue: LiveChessVenue;
  let server: Server;
  let origin: string;
  let chrome: Chromium | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-livechess-browser-'));
    const html = await readFile(PAGE);
    const port = await freePort();
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${port}`;
    venue = await startLiveChessVenue('dgt', dir, { origins: [origin] });
  }, 30_000);

  afterAll(async () => {
    await chrome?.close();
    await venue.stop();
    await closeAllPtyPairs();
    await new Promise<void>(resolve => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the moves of the game played on the board, and a takeback', async () => {
    chrome = await launchChromium();
    const page = await chrome.newPage({ width: 800, height: 600 });
    // As a user does on lichess.org: the API's address in local storage, before the page runs.
    await page.addInitScript(`localStorage.setItem('dgt-livechess-url', ${JSON.stringify(venue.url)})`);
    await page.goto(`${origin}/`);
    await page.locator('#status', { hasText: 'playing' }).waitFor({ timeout: 40_000 });
    expect(await page.locator('#warning').textContent()).toBe('');

    const moves = page.locator('#moves li');
    const shown = async (): Promise<string[]> => moves.allTextContents();
    await venue.play([
      ...move('e2', 'e4', 'P'),
      ...move('e7', 'e5', 'p').map(s => ({ ...s, at: s.at + 600 })),
      ...move('g1', 'f3', 'N').map(s => ({ ...s, at: s.at + 1200 })),
    ]);
    await moves.nth(2).waitFor({ timeout: 40_000 });
    expect(await shown()).toEqual(['e4', 'e5', 'Nf3']);

    // White takes the knight back: the page's list loses it.
    await venue.play(move('f3', 'g1', 'N'));
    await moves.nth(2).waitFor({ state: 'detached', timeout: 40_000 });
    expect(await shown()).toEqual(['e4', 'e5']);
    expect(chrome.errors).toEqual([]);
  }, 60_000);
});
