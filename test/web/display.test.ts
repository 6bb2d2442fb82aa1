/**
 * The hall display in headless Chromium against a real embedded broker: a real game of the shared
 * corpus is streamed move by move and the one-board page follows it (board, move list, last move,
 * clocks, result); the round page shows several boards at once; the same page works over
 * server-sent events. Screenshots land in test-artifacts/web/.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decodePgnBytes, readPgn, type ImportedGame } from '../../src/engine/pgnRead.js';
import { CHROMIUM_PATH, launchChromium, screenshot, type Chromium } from '../support/browser.js';
import { sharedPath } from '../support/shared.js';
import { localSan } from '../../src/bridge/i18n/messages.js';
import {
  closeAll,
  gameFrames,
  placementOf,
  readHighlighted,
  readPlacement,
  squaresOf,
  startWebStack,
  type GameFrames,
  type PageElement,
  type PageGlobal,
  type WebStack,
  figurineSan,
} from './harness.js';

const WAIT = { timeout: 40_000 };

const catalogOf = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../web/shared/i18n/${lang}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const EN_CATALOG = catalogOf('en');
const ES_CATALOG = catalogOf('es');

/**
 * No word of a Spanish page is left in English: every English page text of the catalog that
 * Spanish says otherwise is absent from what the reader sees.
 */
const expectNoEnglish = async (page: Page) => {
  const shownText = await page.locator('body').innerText();
  for (const [key, english] of Object.entries(EN_CATALOG)) {
    if (!key.startsWith('ui.') || typeof english !== 'string' || english === ES_CATALOG[key]) continue;
    const fixed = english.split(/\{\w+\}/).filter(part => part.trim().length > 2);
    for (const part of fixed) expect(shownText, `${key}: "${part}"`).not.toContain(part.trim());
  }
};

const corpus: ImportedGame[] = readPgn(
  decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn'))),
).flatMap(r => (r.isOk ? [r.value] : []));
const roundOf = (g: ImportedGame) => g.headers.get('Round')?.split('.')[0];
const round1 = corpus.filter(g => roundOf(g) === '1');
const round2 = corpus.filter(g => roundOf(g) === '2');

/** Waits until the large view's move list marks `ply` as the current move with its SAN (in figurines). */
const waitForPly = (page: Page, ply: number, san: string) =>
  page.waitForFunction(
    ([p, s]) => {
      const doc = (globalThis as unknown as PageGlobal).document;
      return doc.querySelector(`.move-list [data-ply="${p}"].current`)?.textContent === s;
    },
    [ply, figurineSan(san)] as const,
    WAIT,
  );

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const clockText = (page: Page, scope: string, color: 'white' | 'black') =>
  page.locator(`${scope} [data-clock="${color}"]`).textContent();

describe.skipIf(!CHROMIUM_PATH)('web display', () => {
  let stack: WebStack;
  let chrome: Chromium;

  beforeAll(async () => {
    [stack, chrome] = await Promise.all([startWebStack({ sse: true }), launchChromium()]);
  });
  afterAll(async () => {
    await closeAll(chrome, stack);
  });

  it('follows a real game move by move on the one-board page', async () => {
    const source = round1[0]!;
    const g: GameFrames = gameFrames(source, 'r1-b1', { round: '1', board_number: 1 });
    expect(g.plies).toBeGreaterThan(40);
    stack.publisher.retain(stack.topics.game(g.id), g.snapshot(0));
    await stack.publisher.drained();

    const page = await chrome.newPage({ width: 1920, height: 1080 });
    await page.goto(stack.pageUrl('display/board.html', { game: g.id }));
    const white = source.headers.get('White')!;
    await page.locator('[data-name="white"]', { hasText: white }).waitFor(WAIT);
    expect(await readPlacement(page, '.game')).toBe(placementOf(g.fen(0)));
    expect(await page.locator('[data-last-move]').textContent()).toBe('No move yet');

    // Ply by ply: the move list, the board and the highlight follow every move event.
    const stepped = 16;
    for (let ply = 1; ply <= stepped; ply++) {
      const event = g.moveEvent(ply);
      stack.publisher.publishEvent(event);
      if (ply % 8 === 0) stack.publisher.retain(stack.topics.game(g.id), g.snapshot(ply));
      await waitForPly(page, ply, event.san);
      expect(await readPlacement(page, '.game')).toBe(placementOf(event.fen));
      expect(await readHighlighted(page, '.game')).toEqual(squaresOf(event.uci));
    }

    // Events delivered twice (QoS 1) are applied once.
    stack.publisher.publishEvent(g.moveEvent(10));
    stack.publisher.publishEvent(g.moveEvent(stepped));
    stack.publisher.publishEvent(g.moveEvent(stepped + 1));
    await waitForPly(page, stepped + 1, g.moveEvent(stepped + 1).san);
    expect(await page.locator('.move-list [data-ply]').count()).toBe(stepped + 1);
    expect(await page.locator('.move-list [data-ply="10"]').count()).toBe(1);

    // Clocks: the last readings, and the running side counts down between updates.
    const after = g.snapshot(stepped + 1);
    const mmss = (ms: number) =>
      `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}`;
    expect(await clockText(page, '.game', 'white')).toBe(mmss(after.clocks!.white_ms));
    await expect.poll(() => page.locator('[data-clock="black"].running').count(), WAIT).toBe(1);
    const ticking = await clockText(page, '.game', 'black');
    await page.waitForFunction(
      before => {
        const doc = (globalThis as unknown as PageGlobal).document;
        return doc.querySelector('[data-clock="black"]')?.textContent !== before;
      },
      ticking,
      { timeout: 20_000 },
    );
    expect(await page.locator('[data-last-move]').textContent()).toBe(
      `Last move: 9. ${figurineSan(g.moveEvent(stepped + 1).san)}`,
    );
    await screenshot(page, 'board-live');

    // The rest of the game at full speed, then the result.
    for (let ply = stepped + 2; ply <= g.plies; ply++) stack.publisher.publishEvent(g.moveEvent(ply));
    stack.publisher.retain(stack.topics.game(g.id), { ...g.snapshot(g.plies, Date.now(), g.result) });
    stack.publisher.publishEvent({
      game: g.id,
      seq: g.plies + 1,
      at: Date.now(),
      type: 'end',
      result: g.result,
      reason: 'checkmate',
      reason_text: 'checkmate',
      termination: 'normal',
      winner: g.result === '1-0' ? 'white' : g.result === '0-1' ? 'black' : null,
      article: '5.1.1',
      edition: 'E23',
      detail: null,
    });
    const last = g.moveEvent(g.plies);
    await waitForPly(page, g.plies, last.san);
    await page.locator('[data-result]', { hasText: '0\u20131' }).waitFor(WAIT);
    expect(await readPlacement(page, '.game')).toBe(placementOf(last.fen));
    expect(await readHighlighted(page, '.game')).toEqual(squaresOf(last.uci));
    expect(await page.locator('[data-score="black"]').textContent()).toBe('1');
    expect(await page.locator('.move-list [data-ply]').count()).toBe(g.plies);
    expect(await page.locator('[data-clock].running').count()).toBe(0);
    await screenshot(page, 'board-final');
    expect(chrome.errors).toEqual([]);
    await page.close();
  });

  it('shows every board of a round on one page, in board order, live', async () => {
    const frames = round1
      .slice(0, 7)
      .map((game, i) => gameFrames(game, `r1-b${i + 1}`, { round: '1', board_number: i + 1 }));
    // The games stand at different plies; one is over.
    const shownPly = frames.map((g, i) => (i === 2 ? g.plies : Math.min(g.plies, 14 + 9 * i)));
    frames.forEach((g, i) =>
      stack.publisher.retain(
        stack.topics.game(g.id),
        g.snapshot(shownPly[i]!, Date.now(), i === 2 ? g.result : '*'),
      ),
    );
    const other = gameFrames(round2[0]!, 'r2-b9', { round: '2', board_number: 9 });
    stack.publisher.retain(stack.topics.game(other.id), other.snapshot(5));
    await stack.publisher.drained();

    const page = await chrome.newPage({ width: 1920, height: 1080 });
    await page.goto(stack.pageUrl('display/index.html', { round: '1' }));
    await expect.poll(() => page.locator('.game.card').count(), WAIT).toBe(7);
    expect(
      await page
        .locator('.game.card')
        .evaluateAll((cards: PageElement[]) => cards.map(c => c.getAttribute('data-game'))),
    ).toEqual(frames.map(g => g.id));
    expect(await page.locator('[data-game="r2-b9"]').count()).toBe(0);
    expect(await page.locator('#round-title').textContent()).toBe('Round 1');

    for (const [i, g] of frames.entries()) {
      const scope = `.game[data-game="${g.id}"]`;
      const snap = g.snapshot(shownPly[i]!);
      expect(await readPlacement(page, scope)).toBe(placementOf(snap.fen));
      expect(await readHighlighted(page, scope)).toEqual(squaresOf(snap.last_move!.uci));
      const family = snap.black!.name.split(',')[0]!;
      expect(await page.locator(`${scope} [data-name="black"]`).textContent()).toContain(family);
      expect(await page.locator(`${scope} [data-name="black"]`).getAttribute('title')).toContain(
        snap.black!.name,
      );
      expect(await page.locator(`${scope} [data-clock="white"]`).textContent()).not.toBe('');
    }
    const finished = frames[2]!;
    const finishedScope = `.game[data-game="${finished.id}"]`;
    expect(await page.locator(`${finishedScope} [data-result]`).isVisible()).toBe(true);
    expect(await page.locator(`${finishedScope} [data-status]`).textContent()).toBe('Final');
    expect(await page.locator(`${finishedScope} [data-result]`).textContent()).toBe(
      finished.result === '1-0' ? '1\u20130' : finished.result === '0-1' ? '0\u20131' : '\u00bd\u2013\u00bd',
    );

    // A move on one board updates that card only.
    const moving = frames[0]!;
    const next = moving.moveEvent(shownPly[0]! + 1);
    stack.publisher.publishEvent(next);
    const scope = `.game[data-game="${moving.id}"]`;
    await expect.poll(() => readPlacement(page, scope), WAIT).toBe(placementOf(next.fen));
    expect(await readHighlighted(page, scope)).toEqual(squaresOf(next.uci));
    expect(await page.locator(`${scope} [data-last-move]`).textContent()).toMatch(
      new RegExp(` ${escape(figurineSan(next.san))}$`),
    );
    await screenshot(page, 'round-1');

    // One projector per group of boards.
    await page.goto(stack.pageUrl('display/index.html', { round: '1', boards: '2-3' }));
    await expect.poll(() => page.locator('.game.card').count(), WAIT).toBe(2);
    expect(
      await page
        .locator('.game.card')
        .evaluateAll((cards: PageElement[]) => cards.map(c => c.getAttribute('data-game'))),
    ).toEqual(['r1-b2', 'r1-b3']);
    expect(chrome.errors).toEqual([]);
    await page.close();
  });

  it('follows a game over server-sent events', async () => {
    const g = gameFrames(round2[1]!, 'r2-b2', { round: '2', board_number: 2 });
    stack.publisher.retain(stack.topics.game(g.id), g.snapshot(10));
    await stack.publisher.drained();
    const page = await chrome.newPage({ width: 1280, height: 800 });
    await page.goto(stack.pageUrl('display/board.html', { game: g.id }, 'sse'));
    await expect.poll(() => readPlacement(page, '.game'), WAIT).toBe(placementOf(g.fen(10)));
    expect(await page.locator('#connection').getAttribute('data-status')).toBe('live');
    for (const ply of [11, 12, 13]) stack.publisher.publishEvent(g.moveEvent(ply));
    stack.publisher.publishEvent(g.moveEvent(12)); // a duplicate
    await waitForPly(page, 13, g.moveEvent(13).san);
    expect(await readPlacement(page, '.game')).toBe(placementOf(g.fen(13)));
    expect(await page.locator('.move-list [data-ply]').count()).toBe(13);
    expect(chrome.errors).toEqual([]);
    await page.close();
  });
  it('in Spanish with ?notation=letters: <html lang="es">, moves with R D T A C, the wire’s SAN unchanged', async () => {
    const g = gameFrames(round2[1]!, 'r2-b2', { round: '2', board_number: 2 });
    stack.publisher.retain(stack.topics.game(g.id), g.snapshot(13));
    await stack.publisher.drained();
    const page = await chrome.newPage({ width: 1280, height: 800 });
    await page.goto(stack.pageUrl('display/board.html', { game: g.id, lang: 'es', notation: 'letters' }));
    await expect.poll(() => readPlacement(page, '.game'), WAIT).toBe(placementOf(g.fen(13)));
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('#lang-switch').inputValue()).toBe('es');
    const shown = await page.locator('.move-list [data-ply]').allTextContents();
    const sans = Array.from({ length: 13 }, (_, i) => g.moveEvent(i + 1).san);
    expect(shown).toEqual(sans.map(san => localSan('es', san)));
    // The game has piece moves, so the Spanish letters are there to see.
    expect(shown.some(m => /^[RDTAC]/.test(m))).toBe(true);
    // The page's own words come from the Spanish catalog.
    await page.locator('#connection', { hasText: 'En directo' }).waitFor(WAIT);
    expect(await page.locator('[data-last-move]').textContent()).toBe(
      `Última jugada: 7. ${localSan('es', g.moveEvent(13).san)}`,
    );
    expect(await page.locator('.status').textContent()).toBe('Juegan Negras');
    expect(await page.locator('#game-title').textContent()).toContain('Ronda 2 · Tablero 2');
    await expectNoEnglish(page);
    await screenshot(page, 'board-es-letters');
    expect(chrome.errors).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!CHROMIUM_PATH)('the hall display follows the current round', () => {
  let stack: WebStack;
  let chrome: Chromium;

  beforeAll(async () => {
    [stack, chrome] = await Promise.all([startWebStack(), launchChromium()]);
  });
  afterAll(async () => {
    await closeAll(chrome, stack);
  });

  const cards = (page: Page) =>
    page
      .locator('.game.card')
      .evaluateAll((list: PageElement[]) => list.map(c => c.getAttribute('data-game')));

  it('moves on to the round most boards play; ?round=N stays, ?round=all shows every game', async () => {
    const r1 = round1
      .slice(0, 4)
      .map((g, i) => gameFrames(g, `r1-b${i + 1}`, { round: '1', board_number: i + 1 }));
    r1.forEach(g => stack.publisher.retain(stack.topics.game(g.id), g.snapshot(10)));
    await stack.publisher.drained();
    const page = await chrome.newPage({ width: 1280, height: 800 });
    await page.goto(stack.pageUrl('display/index.html'));
    await expect.poll(() => cards(page), WAIT).toEqual(['r1-b1', 'r1-b2', 'r1-b3', 'r1-b4']);
    expect(await page.locator('#round-title').textContent()).toBe('Round 1');

    // Three boards finish round 1 and start round 2: the page moves on without a reload.
    r1.slice(0, 3).forEach(g =>
      stack.publisher.retain(stack.topics.game(g.id), g.snapshot(g.plies, Date.now(), g.result)),
    );
    const r2 = round2
      .slice(0, 3)
      .map((g, i) => gameFrames(g, `r2-b${i + 1}`, { round: '2', board_number: i + 1 }));
    r2.forEach(g => stack.publisher.retain(stack.topics.game(g.id), g.snapshot(3)));
    await stack.publisher.drained();
    await expect.poll(() => cards(page), WAIT).toEqual(['r2-b1', 'r2-b2', 'r2-b3']);
    expect(await page.locator('#round-title').textContent()).toBe('Round 2');

    await page.goto(stack.pageUrl('display/index.html', { round: '1' }));
    await expect.poll(() => cards(page), WAIT).toEqual(['r1-b1', 'r1-b2', 'r1-b3', 'r1-b4']);
    await page.goto(stack.pageUrl('display/index.html', { round: 'all' }));
    await expect.poll(() => page.locator('.game.card').count(), WAIT).toBe(7);
    expect(await page.locator('#round-title').textContent()).toBe('Live games');
    // Every card of the all-games view says its round.
    expect(await page.locator('.game[data-game="r2-b3"] h2').textContent()).toMatch(/^Round 2 · Board 3/);
    await page.goto(stack.pageUrl('display/index.html', { round: 'all', lang: 'es' }));
    await expect.poll(() => page.locator('.game.card').count(), WAIT).toBe(7);
    expect(await page.locator('#round-title').textContent()).toBe('Partidas en directo');
    await expectNoEnglish(page);
    await screenshot(page, 'round-all-es');
    expect(chrome.errors).toEqual([]);
    await page.close();
  });
});
