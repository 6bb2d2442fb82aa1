/**
 * Headless Chromium for the web page tests: Debian's chromium driven by playwright-core (never a
 * downloaded browser), with the flags it needs as root on a closed network and a fresh profile
 * folder per launch, removed at close. Screenshots go to test-artifacts/web/ (git-ignored) for a
 * person to look at.
 *
 *   const chrome = await launchChromium();
 *   const page = await chrome.newPage({ width: 1920, height: 1080 });
 *   await page.goto(url);
 *   await screenshot(page, 'round-page');
 *   await chrome.close();
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from './shared.js';

/** The system browser, when installed (tests that need it are skipped otherwise). */
export const CHROMIUM_PATH = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(p => existsSync(p));

/** Flags for a headless run as root with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

/** Where screenshots are written. */
export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'test-artifacts', 'web');

export interface Chromium {
  /** A new page (tab) with the given viewport; its console errors are collected in `errors`. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Messages of uncaught page errors and console errors, for assertions and failure messages. */
  readonly errors: string[];
  /** Closes the browser and removes its profile folder. Idempotent. */
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh profile folder; `locale` sets the browser's language (what
 * `navigator.languages` and `Accept-Language` say), e.g. 'es-ES'; `args` are more flags (a
 * certificate's key to trust: `--ignore-certificate-errors-spki-list=…`).
 */
export const launchChromium = async (
  options: { readonly locale?: string; readonly args?: readonly string[] } = {},
): Promise<Chromium> => {
  if (!CHROMIUM_PATH) throw new Error('chromium is not installed (apt-get install chromium)');
  const profile = await mkdtemp(join(tmpdir(), 'chessbridge-chromium-'));
  let context: BrowserContext;
  try {
    // A persistent context is how playwright takes a profile folder (--user-data-dir).
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      timeout: 30_000,
      viewport: { width: 1600, height: 900 },
      ...(options.locale === undefined ? {} : { locale: options.locale }),
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const errors: string[] = [];
  let closing: Promise<void> | undefined;
  // The persistent context opens one blank page; it is not used.
  await Promise.all(context.pages().map(p => p.close()));
  return {
    errors,
    async newPage(viewport = { width: 1600, height: 900 }) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      page.on('pageerror', error => errors.push(`pageerror: ${error.message}`));
      page.on('console', message => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      return page;
    },
    close() {
      closing ??= (async () => {
        await context.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      })();
      return closing;
    },
  };
};

/** Saves a full-page PNG as test-artifacts/web/<name>.png and returns its path. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
};
