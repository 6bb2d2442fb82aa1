/**
 * The public display under a broadcast delay, in headless Chromium: when the daemon's
 * /api/broadcast names a delay, the one-board and round pages read the delayed public snapshots
 * (`<base>/public/games/<game>`, over MQTT or over /events/public) and never the live topics,
 * which hold more moves.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePgnBytes, readPgn } from '../../src/engine/pgnRead.js';
import { CHROMIUM_PATH, launchChromium, type Chromium } from '../support/browser.js';
import { sharedPath } from '../support/shared.js';
import { closeAll, gameFrames, placementOf, readPlacement, startWebStack, type WebStack } from './harness.js';

const WAIT = { timeout: 40_000 };
const LIVE_PLIES = 20;
const PUBLIC_PLIES = 6;

const source = readPgn(
  decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn'))),
).flatMap(r => (r.isOk ? [r.value] : []))[0]!;

describe.skipIf(!CHROMIUM_PATH)('public display with a broadcast delay', () => {
  let stack: WebStack;
  let chrome: Chromium;
  const g = gameFrames(source, 'r1-b1', { round: '1', board_number: 1 });

  beforeAll(async () => {
    [stack, chrome] = await Promise.all([startWebStack({ sse: true, delayMs: 5000 }), launchChromium()]);
    // The live topic is ahead; the public topic shows what the delay lets out.
    stack.publisher.retain(stack.topics.game(g.id), g.snapshot(LIVE_PLIES));
    stack.publisher.retain(stack.topics.publicGame(g.id), g.snapshot(PUBLIC_PLIES));
    await stack.publisher.drained();
  });
  afterAll(async () => {
    await closeAll(chrome, stack);
  });

  for (const transport of ['mqtt', 'sse'] as const)
    it(`the board and round pages show the delayed position only (${transport})`, async () => {
      const page = await chrome.newPage({ width: 1280, height: 800 });
      await page.goto(stack.pageUrl('display/board.html', { game: g.id }, transport));
      await expect.poll(() => readPlacement(page, '.game'), WAIT).toBe(placementOf(g.fen(PUBLIC_PLIES)));
      await page.goto(stack.pageUrl('display/index.html', { round: '1' }, transport));
      await expect.poll(() => readPlacement(page, '.game'), WAIT).toBe(placementOf(g.fen(PUBLIC_PLIES)));
      // A newer public snapshot moves the page on; the live topic's later moves never show.
      stack.publisher.retain(stack.topics.publicGame(g.id), g.snapshot(PUBLIC_PLIES + 1));
      await expect.poll(() => readPlacement(page, '.game'), WAIT).toBe(placementOf(g.fen(PUBLIC_PLIES + 1)));
      expect(await page.locator('.game').count()).toBe(1);
      stack.publisher.retain(stack.topics.publicGame(g.id), g.snapshot(PUBLIC_PLIES));
      await stack.publisher.drained();
      expect(chrome.errors).toEqual([]);
      await page.close();
    });
});
