/**
 * The pages at the sizes a venue has, in headless Chromium: a phone (390×844), a laptop
 * (1280×800) and a 4K hall screen (3840×2160). Each page (one board, the current round, every
 * round with `?round=all`, the arbiter console with an alert) is loaded once per size with real
 * games of long names and titles: nothing scrolls sideways, no player's name is cut to less than
 * the surname, the console's forms fit, and the round pages fit the hall screen's height.
 * Screenshots: test-artifacts/web/size-<page>-<width>.png.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebAlert, WebPlayer } from '../../src/bridge/web/contract.js';
import { decodePgnBytes, readPgn } from '../../src/engine/pgnRead.js';
import { CHROMIUM_PATH, launchChromium, screenshot, type Chromium } from '../support/browser.js';
import { sharedPath } from '../support/shared.js';
import { closeAll, gameFrames, startWebStack, type PageElement, type WebStack } from './harness.js';

const WAIT = { timeout: 40_000 };
const TOKEN = 'tok-sizes-41c9';
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
  { width: 3840, height: 2160 },
] as const;

/** Long names as federations write them: compound and double surnames, titles, accents. */
const PLAYERS: WebPlayer[] = [
  {
    name: 'Fernández de Córdoba Villanueva, María Inmaculada',
    title: 'WGM',
    rating: 2318,
    federation: 'ESP',
  },
  { name: 'Echeverría Santisteban, Juan Bautista', title: 'GM', rating: 2561, federation: 'ARG' },
  { name: 'Rodríguez-Vallejo Montenegro, Ana Lucía', title: 'WIM', rating: 2204, federation: 'COL' },
  { name: 'Villavicencio Larrañaga, José Ignacio', title: 'IM', rating: 2447, federation: 'MEX' },
  { name: 'Goryachkina, Aleksandra', title: 'GM', rating: 2535, federation: 'FID' },
  { name: 'Ju, Wenjun', title: 'GM', rating: 2560, federation: 'CHN' },
  { name: 'Hernández Guerrero de la Fuente, Francisco Javier', title: 'FM', rating: 2298, federation: 'ESP' },
  { name: 'Quispe Mamani, Rosa Elena', title: null, rating: 1987, federation: 'PER' },
];
const surname = (p: WebPlayer) => p.name.split(',')[0]!.trim();

const corpus = readPgn(decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn'))))
  .flatMap(r => (r.isOk ? [r.value] : []))
  .filter(g => g.game.moves.length > 30);

/** Eight boards of round 2 in play, four of round 1 finished. */
const GAMES = Array.from({ length: 12 }, (_, i) => {
  const round = i < 8 ? '2' : '1';
  const board = (i % 8) + 1;
  const frames = gameFrames(corpus[i]!, `r${round}-b${board}`, { round, board_number: board });
  const white = PLAYERS[(2 * i) % PLAYERS.length]!;
  const black = PLAYERS[(2 * i + 1) % PLAYERS.length]!;
  const ply = round === '2' ? 24 : frames.plies;
  const snapshot = { ...frames.snapshot(ply, Date.now(), round === '2' ? '*' : frames.result), white, black };
  return { id: frames.id, white, black, snapshot, frames };
});

/** The page's width problems: sideways scroll, names cut short, form fields sticking out. */
const widthProblems = (page: Page, surnames: Record<string, [string, string]>) =>
  page.evaluate(surnames => {
    type El = PageElement & {
      readonly scrollWidth: number;
      readonly clientWidth: number;
      readonly offsetParent: unknown;
      closest(selector: string): El | null;
      getBoundingClientRect(): { left: number; right: number };
    };
    const w = globalThis as unknown as {
      innerWidth: number;
      document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): Iterable<El> };
    };
    const problems: string[] = [];
    const doc = w.document;
    if (doc.documentElement.scrollWidth > w.innerWidth)
      problems.push(`page ${doc.documentElement.scrollWidth} px wide in ${w.innerWidth}`);
    for (const name of doc.querySelectorAll('[data-name]')) {
      if (name.offsetParent === null) continue;
      const game = name.closest('[data-game]')?.getAttribute('data-game') ?? '';
      const side = name.getAttribute('data-name') === 'white' ? 0 : 1;
      const family = surnames[game]?.[side] ?? '?';
      const text = name.textContent ?? '';
      if (!text.includes(family)) problems.push(`${game} ${side}: "${text}" lacks "${family}"`);
      else if (name.scrollWidth > name.clientWidth + 1)
        problems.push(`${game} ${side}: "${text}" cut (${name.scrollWidth} in ${name.clientWidth} px)`);
    }
    for (const form of doc.querySelectorAll('form.action, #login-form')) {
      if (form.offsetParent === null) continue;
      const box = form.getBoundingClientRect();
      for (const field of form.querySelectorAll('input, select, button') as Iterable<El>) {
        const r = field.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1)
          problems.push(`${form.getAttribute('data-action') ?? 'login'}: a field sticks out`);
      }
    }
    return problems;
  }, surnames);

describe.skipIf(!CHROMIUM_PATH)('pages at phone, laptop and hall-screen sizes', () => {
  let stack: WebStack;
  let chrome: Chromium;
  const surnames = Object.fromEntries(
    GAMES.map(g => [g.id, [surname(g.white), surname(g.black)] as [string, string]]),
  );

  beforeAll(async () => {
    [stack, chrome] = await Promise.all([
      startWebStack({ sse: true, arbiter: { token: TOKEN, actions: {} } }),
      launchChromium(),
    ]);
    for (const g of GAMES) stack.publisher.retain(stack.topics.game(g.id), g.snapshot);
    await stack.publisher.drained();
  });
  afterAll(async () => {
    await closeAll(chrome, stack);
  });

  const alert = (n: number): WebAlert => ({
    id: `size-${n}`,
    code: 'illegal_move',
    message: 'Black’s move on board 3 is illegal; the game continued for 2 more plies',
    at: Date.now(),
    game: 'r2-b3',
    board: 'dgt-3',
    seq: 24,
    article: '7.5.1',
    edition: 'E23',
    ply: 23,
    evidence: {
      fen_before: GAMES[2]!.frames.fen(22),
      placement: GAMES[2]!.frames.fen(23).split(' ')[0]!,
      move: 'a7a5',
      restore_ply: 22,
      color: 'black',
      detail: 'pawn moved two squares from the wrong rank',
    },
  });

  const check = async (page: Page, name: string, size: { width: number; height: number }) => {
    await screenshot(page, `size-${name}-${size.width}`);
    expect.soft(await widthProblems(page, surnames), `${name} at ${size.width} px`).toEqual([]);
    // A hall screen shows every card of the round pages without scrolling down either.
    if (size.width >= 1920 && (name === 'round' || name === 'all'))
      expect
        .soft(await page.evaluate('document.documentElement.scrollHeight'), name)
        .toBeLessThanOrEqual(size.height);
  };

  it.each(SIZES)('fits $width×$height', async size => {
    const page = await chrome.newPage(size);
    await page.goto(stack.pageUrl('display/board.html', { game: 'r2-b1' }, 'sse'));
    await page.locator('.move-list [data-ply="24"].current').waitFor(WAIT);
    await check(page, 'board', size);

    await page.goto(stack.pageUrl('display/index.html', {}, 'sse'));
    await page.locator('#round-title', { hasText: 'Round 2' }).waitFor(WAIT);
    await expect.poll(() => page.locator('.game.card').count(), WAIT).toBe(8);
    await check(page, 'round', size);

    await page.goto(stack.pageUrl('display/index.html', { round: 'all' }, 'sse'));
    await expect.poll(() => page.locator('.game.card').count(), WAIT).toBe(GAMES.length);
    expect(await page.locator('.game.card h2').first().textContent()).toMatch(/^Round 1 · Board 1/);
    await check(page, 'all', size);

    await page.goto(stack.pageUrl('console/index.html', { actions: 'http' }, 'sse'));
    await check(page, 'console-login', size);
    await page.locator('#secret').fill(TOKEN);
    await page.locator('#login-button').click();
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    stack.publisher.publishAlert(alert(size.width));
    await page.locator('.alert[data-alert="illegal_move"]').waitFor(WAIT);
    await check(page, 'console', size);
    expect(chrome.errors).toEqual([]);
    await page.close();
  });
});
