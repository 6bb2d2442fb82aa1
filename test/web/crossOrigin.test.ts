/**
 * A page of another site, open in the arbiter's browser, cannot reach the embedded broker: headless
 * Chromium loads a page served from another origin whose script opens a WebSocket to the broker's
 * listener, and the upgrade is refused; the same script in a page of the daemon's own HTTP server
 * connects. (The broker's Origin check is also tested without a browser in
 * test/integration/security.test.ts; this is what a browser really sends.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium, type Chromium } from '../support/browser.js';
import { closeAll, startWebStack, type WebStack } from './harness.js';

/** Opens a WebSocket with the MQTT subprotocol and says whether the upgrade was accepted. */
const tryBroker = (page: Page, url: string): Promise<string> =>
  page.evaluate(
    (target: string) =>
      new Promise<string>(resolve => {
        const ws = new (
          globalThis as unknown as { WebSocket: new (u: string, p: string) => WebSocketLike }
        ).WebSocket(target, 'mqtt');
        ws.onopen = () => {
          ws.close();
          resolve('open');
        };
        ws.onerror = () => resolve('refused');
      }),
    url,
  );

interface WebSocketLike {
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  close(): void;
}

describe.skipIf(!CHROMIUM_PATH)('a page of another site and the broker’s WebSocket listener', () => {
  let stack: WebStack;
  let chrome: Chromium;
  let evil: Server;
  let evilUrl: string;

  beforeAll(async () => {
    [stack, chrome] = await Promise.all([startWebStack(), launchChromium()]);
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>another site</title><p>another site</p>');
    });
    await new Promise<void>(resolve => evil.listen(0, '127.0.0.1', resolve));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await closeAll(chrome, stack);
    evil.closeAllConnections();
    await new Promise<void>(resolve => evil.close(() => resolve()));
  });

  it('refuses the other site’s page, accepts the daemon’s own', async () => {
    const page = await chrome.newPage({ width: 800, height: 600 });
    await page.goto(evilUrl);
    expect(await tryBroker(page, stack.wsUrl)).toBe('refused');

    await page.goto(stack.pageUrl('display/board.html'));
    expect(await tryBroker(page, stack.wsUrl)).toBe('open');
    await page.close();
  });
});
