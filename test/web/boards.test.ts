/**
 * The boards page in headless Chromium: board states made by the daemon's own registry (fed with
 * observations) are published retained on a real broker; the page lists every board with its
 * status, game and players, clock and serial, raises an alert for each problem (a board lost, a
 * clock stopped too long, a board that does not show its game) and drops it once the board is
 * back; over MQTT and over server-sent events, with no horizontal scroll on a phone; and in
 * Spanish (`?lang=es`) with no English word of the catalog left on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BoardRegistry } from '../../src/bridge/daemon/boards.js';
import type { BoardConfig } from '../../src/bridge/config/index.js';
import { START_SQUARES } from '../../src/drivers/observation.js';
import { CHROMIUM_PATH, launchChromium, screenshot, type Chromium } from '../support/browser.js';
import { closeAll, gameFrames, startWebStack, type PageElement, type WebStack } from './harness.js';
import { Game } from '../../src/engine/game.js';
import type { ImportedGame } from '../../src/engine/pgnRead.js';
import type { ArbiterAction } from '../../src/bridge/http/arbiterRoutes.js';
import { parsePairingsFile } from '../../src/bridge/pairings/fromFile.js';
import { Result } from '../../src/engine/types.js';
import { trfPlayerLine } from '../support/trf.js';
import { expectNoForeignText } from '../support/catalogWords.js';

const WAIT = { timeout: 40_000 };
const watch = { notRespondingSeconds: 15, clockPausedSeconds: 300 };
const config = (id: string, number: number): BoardConfig => ({
  id,
  driver: 'dgt',
  port: `/dev/${id}`,
  orientation: 'auto',
  clock: true,
  number,
});
const OLGA = { user: 'olga', password: 'rounds-and-boards-77' };
const TRF = [
  '012 Open',
  trfPlayerLine({ rank: 1, name: 'Alpha, Anna', rating: '2300', rounds: [['2', 'w', ' ']] }),
  trfPlayerLine({ rank: 2, name: 'Bravo, Ben', rating: '2300', rounds: [['1', 'b', ' ']] }),
  '',
].join('\n');
/** Logs the operator in on the boards page; her forms show. */
const logIn = async (page: Page): Promise<void> => {
  await page.locator('#op-user').fill(OLGA.user);
  await page.locator('#op-password').fill(OLGA.password);
  await page.locator('#op-login-button').click();
  await page.locator('#op-forms').waitFor({ state: 'visible', ...WAIT });
};
/** Uploads the TRF with a rating that is no number; the page's refusal as it reads. */
const uploadRefused = async (page: Page): Promise<string | null> => {
  const upload = page.locator('form[data-action="upload_pairings"]');
  await upload.locator('textarea').fill(TRF.replace('2300', '23x0'));
  await upload.locator('button[type="submit"]').click();
  const refused = page.locator('#op-responses li[data-action="upload_pairings"][data-status="error"]');
  await refused.waitFor(WAIT);
  return refused.textContent();
};
const FACE = { ms: 60_000, flagFallen: false, flagShown: false, timePerMove: false };

describe.skipIf(!CHROMIUM_PATH)('boards page', () => {
  let stack: WebStack;
  let chrome: Chromium;
  let now = Date.now();
  const actions: { name: string; user: string; role: string; body: unknown }[] = [];
  const registry = new BoardRegistry([config('dgt-1', 1), config('dgt-2', 2), config('dgt-3', 3)], () => now);
  registry.watch({ watch, gameUnderWay: () => true, gamePlacement: () => undefined });

  const publish = async () => {
    for (const id of registry.ids())
      stack.publisher.retain(stack.topics.boardState(id), registry.stateOf(id)!);
    await stack.publisher.drained();
  };

  beforeAll(async () => {
    const act =
      (name: string, answer: (body: Record<string, unknown>) => Result<unknown, Error>): ArbiterAction =>
      request => {
        actions.push({ name, user: request.actor.user, role: request.actor.role, body: request.body });
        return Promise.resolve(answer(request.body as Record<string, unknown>));
      };
    [stack, chrome] = await Promise.all([
      startWebStack({
        sse: true,
        arbiter: {
          token: 'unused-token',
          users: [{ name: OLGA.user, role: 'operator', secret: OLGA.password }],
          actions: {
            // The file's text read by the pairings file's parser, as the daemon does.
            'upload-pairings': act('upload_pairings', body => {
              const parsed = parsePairingsFile(`uploaded.${String(body.format)}`, String(body.text));
              return parsed.isErr ? parsed : Result.ok({ pairings: parsed.value.length });
            }),
            'rebind-board': act('rebind_board', body => Result.ok(body)),
            'round-control': act('round_control', body => Result.ok(body)),
          },
        },
      }),
      launchChromium(),
    ]);
    const headers = new Map([
      ['White', 'Ju, Wenjun'],
      ['WhiteTitle', 'GM'],
      ['Black', 'Goryachkina, Aleksandra'],
    ]);
    const source = { headers, game: Game.standard(), result: '*' } as unknown as ImportedGame;
    const frames = gameFrames(source, 'r1-b1', { round: '1', board_number: 1 });
    stack.publisher.retain(stack.topics.game('r1-b1'), frames.snapshot(0));
    registry.ids().forEach((id, i) => {
      registry.observe(id, { type: 'link', at: now, state: 'connected' });
      registry.observe(id, {
        type: 'identity',
        at: now,
        vendor: 'DGT',
        serial: `0100${i + 1}`,
        firmware: '3.1',
      });
      registry.observe(id, { type: 'snapshot', at: now, squares: START_SQUARES });
      registry.bind(id, `r1-b${i + 1}`);
    });
    // Board 2's clock has stood for ten minutes, board 3 does not show its game, board 1 is fine.
    registry.observe('dgt-1', {
      type: 'clock',
      at: now,
      connected: true,
      left: FACE,
      right: FACE,
      running: 'left',
      lever: 'left',
      batteryLow: false,
      status: 0,
    });
    registry.observe('dgt-2', {
      type: 'clock',
      at: now - 600_000,
      connected: true,
      left: FACE,
      right: FACE,
      running: undefined,
      lever: 'left',
      batteryLow: false,
      status: 0,
    });
    now += 600_000;
    registry.observe('dgt-2', {
      type: 'battery',
      at: now,
      percent: 55,
      charging: false,
      minutesLeft: undefined,
      raw: [],
    });
    registry.markMismatch('dgt-3');
    for (const id of registry.ids()) registry.refresh(id);
    await publish();
  });
  afterAll(() => closeAll(chrome, stack));

  const problems = (page: Page) =>
    page
      .locator('#board-alert-list li')
      .evaluateAll((items: PageElement[]) =>
        items.map(i => `${i.getAttribute('data-board')}:${i.getAttribute('data-problem')}`),
      );

  it('lists every board and raises the alerts, over MQTT, on a phone without sideways scroll', async () => {
    const page = await chrome.newPage({ width: 390, height: 844 });
    await page.goto(stack.pageUrl('console/boards.html'));
    await page.locator('#board-rows tr[data-board="dgt-3"]').waitFor(WAIT);
    const row = page.locator('#board-rows tr[data-board="dgt-1"]');
    expect(await row.getAttribute('data-status')).toBe('connected');
    await row.locator('[data-field="game"]', { hasText: 'Ju, Wenjun' }).waitFor(WAIT);
    expect(await row.locator('[data-field="serial"]').textContent()).toBe('01001 · fw 3.1');
    expect(await row.locator('[data-field="clock"]').textContent()).toBe('running (left)');
    expect(
      await page.locator('#board-rows tr[data-board="dgt-2"] [data-field="battery"]').textContent(),
    ).toBe('55 %');
    expect(await problems(page)).toEqual(['dgt-2:clock_paused', 'dgt-3:board_mismatch']);
    expect(await page.locator('#board-alert-count').textContent()).toBe('2');
    const overflow = await page.evaluate(() => {
      const w = globalThis as unknown as {
        innerWidth: number;
        document: { documentElement: { scrollWidth: number } };
      };
      return w.document.documentElement.scrollWidth - w.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'boards-390');

    // Board 1's cable is pulled: lost, a board_missing alert; then back.
    registry.observe('dgt-1', { type: 'link', at: now, state: 'lost' });
    await publish();
    await page
      .locator('#board-alert-list li[data-board="dgt-1"][data-problem="board_missing"]')
      .waitFor(WAIT);
    expect(await row.getAttribute('data-status')).toBe('lost');
    registry.observe('dgt-1', { type: 'link', at: now, state: 'connected' });
    await publish();
    await page.locator('#board-rows tr[data-board="dgt-1"][data-status="connected"]').waitFor(WAIT);
    expect(await problems(page)).toEqual(['dgt-2:clock_paused', 'dgt-3:board_mismatch']);
    await page.close();
  });

  it('reads the same over server-sent events', async () => {
    const page = await chrome.newPage({ width: 1280, height: 800 });
    await page.goto(stack.pageUrl('console/boards.html', {}, 'sse'));
    await page.locator('#board-rows tr[data-board="dgt-3"]').waitFor(WAIT);
    expect(await problems(page)).toEqual(['dgt-2:clock_paused', 'dgt-3:board_mismatch']);
    expect(await page.locator('#board-summary').textContent()).toBe('3 of 3 up');
    await screenshot(page, 'boards-1280');
    await page.close();
  });

  it("sends the operator's forms with her own user: pairings, a board's table, a round", async () => {
    const page = await chrome.newPage({ width: 1280, height: 800 });
    await page.goto(stack.pageUrl('console/boards.html'));
    await page.locator('#board-rows tr[data-board="dgt-3"]').waitFor(WAIT);
    expect(await page.locator('#op-forms').isHidden()).toBe(true);
    await logIn(page);

    expect(await uploadRefused(page)).toContain(
      "1 problem, at line 2, field 'rating (columns 49-52)': '23x0' cannot be read there",
    );
    const upload = page.locator('form[data-action="upload_pairings"]');
    await upload.locator('textarea').fill(TRF);
    await upload.locator('button[type="submit"]').click();
    await page.locator('#op-responses li[data-action="upload_pairings"][data-status="ok"]').waitFor(WAIT);

    const rebind = page.locator('form[data-action="rebind_board"]');
    await rebind.locator('select').selectOption('dgt-3');
    await rebind.locator('input[name="number"]').fill('7');
    await rebind.locator('button[type="submit"]').click();
    await page.locator('#op-responses li[data-action="rebind_board"][data-status="ok"]').waitFor(WAIT);

    const round = page.locator('form[data-action="round_control"]');
    await round.locator('input[name="round"]').fill('2');
    await round.locator('button[value="pause"]').click();
    await page.locator('#op-responses li[data-action="round_control"]').waitFor(WAIT);
    expect(actions.map(a => `${a.name} ${a.user} ${a.role}`)).toEqual([
      'upload_pairings olga operator',
      'upload_pairings olga operator',
      'rebind_board olga operator',
      'round_control olga operator',
    ]);
    expect(actions[1]?.body).toMatchObject({ format: 'trf', text: TRF });
    expect(actions[2]?.body).toMatchObject({ board_id: 'dgt-3', number: 7 });
    expect(actions[3]?.body).toMatchObject({ round: 2, action: 'pause' });
    const overflow = await page.evaluate(() => {
      const w = globalThis as unknown as {
        innerWidth: number;
        document: { documentElement: { scrollWidth: number } };
      };
      return w.document.documentElement.scrollWidth - w.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'boards-operator');
    await page.close();
  });

  // After the operator's test: the round sent here is not among the actions it counts.
  it('speaks Spanish with ?lang=es: headings, statuses, alerts, forms and responses', async () => {
    const earlier = chrome.errors.length;
    const page = await chrome.newPage({ width: 1280, height: 800 });
    await page.goto(stack.pageUrl('console/boards.html', { lang: 'es' }));
    await page.locator('#board-rows tr[data-board="dgt-3"]').waitFor(WAIT);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('#lang-switch').inputValue()).toBe('es');
    expect(await page.title()).toBe('Tableros');
    expect(await page.locator('#board-table th').allTextContents()).toContain('Estado');
    const row = page.locator('#board-rows tr[data-board="dgt-1"]');
    expect(await row.locator('[data-field="status"]').textContent()).toBe('Conectado');
    expect(await row.locator('[data-field="clock"]').textContent()).toBe('en marcha (izquierda)');
    expect(await page.locator('#board-summary').textContent()).toBe('3 de 3 en marcha');
    await row.locator('[data-field="game"]', { hasText: 'Ju, Wenjun' }).waitFor(WAIT);
    expect(await page.locator('#board-alert-list li').allTextContents()).toEqual([
      'Tablero 2 (dgt-2): reloj parado demasiado tiempo (r1-b2)',
      'Tablero 3 (dgt-3): el tablero no coincide con su partida (r1-b3)',
    ]);
    await logIn(page);
    // A refused file, said in Spanish from the refusal's code and parameters.
    expect(await uploadRefused(page)).toContain(
      'emparejamientos no cargados: 1 problema, en la línea 2, campo «rating (columns 49-52)»: «23x0» no se puede leer ahí',
    );
    const round = page.locator('form[data-action="round_control"]');
    await round.locator('input[name="round"]').fill('2');
    await round.locator('button[value="start"]').click();
    const response = page.locator('#op-responses li[data-action="round_control"][data-status="ok"]');
    await response.waitFor(WAIT);
    expect(await response.textContent()).toContain('Ronda: Hecho · ronda 2 iniciada');
    await expectNoForeignText(page, 'en');
    await screenshot(page, 'boards-es');
    // The refused upload's 422 is the one resource error the browser logs.
    expect(chrome.errors.slice(earlier).filter(e => !e.includes('status of 422'))).toEqual([]);
    await page.close();
  });
});
