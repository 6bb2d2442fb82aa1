/**
 * The arbiter console in headless Chromium: locked until the arbiter logs in (a wrong password is
 * refused by the broker, a wrong token by the HTTP server), an injected illegal-move alert with its
 * evidence and article, and "restore to ply N" sent as a request the test answers (through the
 * real request service and its schemas over MQTT, or the real arbiter route over HTTP); the page
 * shows the response and the restored position the test publishes.
 */
import { refused } from '../../src/bridge/wire/refusals.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Subscription } from 'rxjs';
import type { ArbiterRequest } from '../../src/bridge/http/arbiterRoutes.js';
import { serveRequests$ } from '../../src/bridge/mqtt/requests.js';
import { REQUEST_ACTIONS, type RequestHandlers } from '../../src/bridge/mqtt/requestSchemas.js';
import { silentLog } from '../../src/bridge/mqtt/log.js';
import type { WebAlert } from '../../src/bridge/web/contract.js';
import { alertText } from '../../src/bridge/i18n/messages.js';
import type { EventMessage } from '../../src/bridge/wire/schema.js';
import { decodePgnBytes, readPgn } from '../../src/engine/pgnRead.js';
import { Result } from '../../src/engine/types.js';
import { CHROMIUM_PATH, launchChromium, screenshot, type Chromium } from '../support/browser.js';
import { sharedPath } from '../support/shared.js';
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
  type WebStack,
} from './harness.js';

const WAIT = { timeout: 40_000 };
const BROKER = { username: 'arbiter', password: 'hall-a secret' };
const TOKEN = 'tok-8d1e57c2';
const AT_PLY = 24;
const RESTORE_TO = 20;

const source = readPgn(decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn'))))
  .flatMap(r => (r.isOk ? [r.value] : []))
  .filter(g => g.headers.get('Round') === '1.4')[0]!;
const game: GameFrames = gameFrames(source, 'r1-b4', { round: '1', board_number: 4 });

/** The placement after ply RESTORE_TO with the white king put two squares away: an illegal move. */
const illegalPlacement = (): { placement: string; move: string } => {
  const rows = placementOf(game.fen(RESTORE_TO))
    .split('/')
    .map(rank => [...rank].flatMap(ch => (/\d/.test(ch) ? Array<string>(Number(ch)).fill('') : [ch])));
  const at = (file: number, rank: number) => rows[8 - rank]![file]!;
  let from: [number, number] = [0, 0];
  for (let r = 1; r <= 8; r++) for (let f = 0; f < 8; f++) if (at(f, r) === 'K') from = [f, r];
  const to = (
    [
      [2, 0],
      [-2, 0],
      [0, 2],
      [0, -2],
      [2, 2],
      [-2, 2],
    ] as const
  )
    .map(([df, dr]) => [from[0] + df, from[1] + dr] as [number, number])
    .find(([f, r]) => f >= 0 && f < 8 && r >= 1 && r <= 8 && at(f, r) === '')!;
  rows[8 - to[1]]![to[0]] = 'K';
  rows[8 - from[1]]![from[0]] = '';
  const placement = rows
    .map(rank =>
      rank.reduce(
        (text, ch) => (ch === '' ? text.replace(/(\d?)$/, d => String(Number(d) + 1)) : text + ch),
        '',
      ),
    )
    .join('/');
  const name = ([f, r]: [number, number]) => `${'abcdefgh'[f]}${r}`;
  return { placement, move: `${name(from)}${name(to)}` };
};

let alerts = 0;
const illegalMoveAlert = (): WebAlert => {
  const { placement, move } = illegalPlacement();
  alerts += 1;
  return {
    id: `alert-${alerts}`,
    code: 'illegal_move',
    message: `White's move ${move} on board 4 is illegal; the game continued for 3 more plies`,
    at: Date.now(),
    game: game.id,
    board: 'dgt-4',
    seq: AT_PLY,
    article: '7.5.1',
    edition: 'E23',
    ply: RESTORE_TO + 1,
    evidence: {
      fen_before: game.fen(RESTORE_TO),
      placement,
      move,
      restore_ply: RESTORE_TO,
      color: 'white',
      detail: 'king moved two squares',
    },
  };
};

describe.skipIf(!CHROMIUM_PATH)('arbiter console', () => {
  let stack: WebStack;
  let chrome: Chromium;
  let serving: Subscription;
  let seq = AT_PLY;
  const mqttRequests: unknown[] = [];
  const httpRequests: ArbiterRequest[] = [];

  /** What the daemon does on a restore: a correction removing the later plies, and the corrected snapshot. */
  const restore = (ply: number) => {
    seq += 1;
    const snapshot = { ...game.snapshot(ply), seq };
    const event: EventMessage = {
      game: game.id,
      seq,
      at: Date.now(),
      type: 'correction',
      from_ply: ply + 1,
      moves: [],
      reason: 'arbiter',
    };
    stack.publisher.publishEvent(event);
    stack.publisher.retain(stack.topics.game(game.id), snapshot);
  };

  /** Back to the game at AT_PLY, as if play had gone on. */
  const resetGame = async () => {
    seq += 1;
    stack.publisher.retain(stack.topics.game(game.id), { ...game.snapshot(AT_PLY), seq });
    await stack.publisher.drained();
  };

  beforeAll(async () => {
    const refuse = () => Promise.resolve(Result.err(new Error('not part of this test')));
    const handlers: RequestHandlers = {
      ...(Object.fromEntries(REQUEST_ACTIONS.map(action => [action, refuse])) as unknown as RequestHandlers),
      restore_position: request => {
        mqttRequests.push(request);
        restore(request.ply);
        return Promise.resolve(Result.ok({ game_id: request.game_id, ply: request.ply }));
      },
      apply_penalty: request => {
        mqttRequests.push(request);
        return Promise.resolve(
          Result.err(new Error(`no penalty in ${request.game_id}: the game is under review`)),
        );
      },
      // A refusal with its code: the page says it in its language (docs/i18n.md).
      resync_board: request =>
        Promise.resolve(
          Result.err(
            refused(
              'board_not_connected',
              { board: request.board_id },
              `board ${request.board_id} is not connected`,
            ),
          ),
        ),
      claim: request => {
        mqttRequests.push(request);
        return Promise.resolve(Result.ok({ game_id: request.game_id, seq: 0, events: 1 }));
      },
      set_moves: request => {
        mqttRequests.push(request);
        return Promise.resolve(Result.ok({ game_id: request.game_id, seq: 0, events: 1 }));
      },
    };
    const restoreOverHttp = (request: ArbiterRequest) => {
      httpRequests.push(request);
      const body = request.body as { game_id: string; ply: number };
      restore(body.ply);
      return Promise.resolve(Result.ok({ game_id: body.game_id, ply: body.ply }));
    };
    [stack, chrome] = await Promise.all([
      startWebStack({
        credentials: BROKER,
        sse: true,
        arbiter: { token: TOKEN, actions: { 'restore-position': restoreOverHttp } },
      }),
      launchChromium(),
    ]);
    serving = serveRequests$({ connection: stack.connection, handlers, log: silentLog }).subscribe();
    await resetGame();
  });
  afterAll(async () => {
    serving.unsubscribe();
    await closeAll(chrome, stack);
  });

  const login = async (page: Page, secret: string, kind: 'token' | 'password' = 'token') => {
    await page.locator('#secret').fill(secret);
    if (await page.locator('#secret-kind').isVisible())
      await page.locator(`input[name="kind"][value="${kind}"]`).check();
    await page.locator('#login-button').click();
  };

  /** Clicks "Restore" on the newest alert card. */
  const restoreFromAlert = (page: Page) =>
    page.locator('.alert').first().locator('button[data-action="restore_position"]').click();

  it('is locked without the password, shows the alert with its evidence, and restores over MQTT', async () => {
    const page = await chrome.newPage({ width: 1600, height: 1000 });
    await page.goto(stack.pageUrl('console/index.html', { user: BROKER.username }));
    await page.locator('#login-form').waitFor(WAIT);
    expect(await page.locator('#workspace').isHidden()).toBe(true);
    expect(await page.locator('button[data-action]:visible').count()).toBe(0);

    // A wrong password: the broker refuses it, the console stays locked, nothing is sent.
    await login(page, 'not the password');
    await page.locator('#login-error', { hasText: 'refused' }).waitFor(WAIT);
    expect(await page.locator('#workspace').isHidden()).toBe(true);
    expect(mqttRequests).toEqual([]);

    await login(page, BROKER.password);
    await page.locator('#workspace').waitFor({ state: 'visible', ...WAIT });
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    await page.locator(`#game-ply[data-ply="${AT_PLY}"]`).waitFor(WAIT);

    const alert = illegalMoveAlert();
    stack.publisher.publishAlert(alert);
    const card = page.locator('.alert[data-alert="illegal_move"]');
    await card.waitFor(WAIT);
    expect(await card.locator('h3').textContent()).toContain('Illegal move');
    expect(await card.locator('h3').textContent()).toContain('board dgt-4');
    expect(await card.locator('.article').textContent()).toBe('FIDE Laws of Chess (2023), Art. 7.5.1');
    expect(await card.locator('.alert-message').textContent()).toBe(alert.message);
    expect(await readPlacement(page, '.alert [data-evidence="before"]')).toBe(
      placementOf(game.fen(RESTORE_TO)),
    );
    expect(await readPlacement(page, '.alert [data-evidence="board"]')).toBe(alert.evidence!.placement);
    const marked = await card
      .locator('[data-evidence="board"] [data-mark]')
      .evaluateAll((marks: PageElement[]) => marks.map(m => m.getAttribute('data-mark')).sort());
    expect(marked).toEqual(squaresOf(alert.evidence!.move!));
    expect(await card.locator('dd').first().textContent()).toBe(alert.evidence!.move);
    expect(await card.locator('input[type="number"]').inputValue()).toBe(String(RESTORE_TO));
    await screenshot(page, 'console-alert');

    await restoreFromAlert(page);
    const answer = page.locator('#response-log li[data-action="restore_position"]');
    await answer.waitFor(WAIT);
    expect(await answer.getAttribute('data-status')).toBe('ok');
    expect(await answer.textContent()).toContain(`"ply":${RESTORE_TO}`);
    expect(mqttRequests).toHaveLength(1);
    expect(mqttRequests[0]).toMatchObject({ game_id: game.id, ply: RESTORE_TO });
    const { transaction } = mqttRequests[0] as { transaction: string };
    expect(transaction).toMatch(/^web-/);
    expect(await answer.getAttribute('data-transaction')).toBe(transaction);
    await card.locator('.alert-report.ok').waitFor(WAIT);

    // The corrected snapshot: the game panel shows the position after ply 20 again.
    await page.locator(`#game-ply[data-ply="${RESTORE_TO}"]`).waitFor(WAIT);
    expect(await readPlacement(page, '#game-board')).toBe(placementOf(game.fen(RESTORE_TO)));
    expect(await readHighlighted(page, '#game-board')).toEqual(squaresOf(game.moveEvent(RESTORE_TO).uci));

    // A refused action shows the handler's reason.
    const penalty = page.locator('form[data-action="apply_penalty"]');
    await penalty.locator('select[name="penalty"]').selectOption('warning');
    await penalty.locator('button[type="submit"]').click();
    const refused = page.locator('#response-log li[data-action="apply_penalty"]');
    await refused.waitFor(WAIT);
    expect(await refused.getAttribute('data-status')).toBe('error');
    expect(await refused.textContent()).toContain('the game is under review');
    expect(mqttRequests[1]).toMatchObject({ game_id: game.id, color: 'white', penalty: 'warning' });
    await screenshot(page, 'console-restored');
    expect(chrome.errors).toEqual([]);
    await page.close();
  });

  it('in Spanish (?lang=es): <html lang="es">, the alert’s title and text rendered from its fields, a language switch', async () => {
    const page = await chrome.newPage({ width: 1600, height: 1000 });
    await page.goto(stack.pageUrl('console/index.html', { user: BROKER.username, lang: 'es' }));
    await page.locator('#lang-switch').waitFor(WAIT);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('#lang-switch').inputValue()).toBe('es');
    await login(page, BROKER.password);
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    const alert = illegalMoveAlert();
    stack.publisher.publishAlert(alert);
    const card = page.locator('.alert[data-alert="illegal_move"]');
    await card.waitFor(WAIT);
    expect(await card.locator('h3').textContent()).toContain('Jugada ilegal completada');
    expect(await card.locator('.alert-message').textContent()).toBe(alertText('es', alert));
    expect(await card.locator('.alert-message').textContent()).not.toBe(alert.message);
    // A refusal with a code is said from the catalog, not as the daemon's English error.
    const resync = page.locator('form[data-action="resync_board"]');
    await resync.locator('input[name="board_id"]').fill('dgt-9');
    await resync.locator('button[type="submit"]').click();
    const refusal = page.locator('#response-log li[data-action="resync_board"][data-status="error"]');
    await refusal.waitFor(WAIT);
    expect(await refusal.textContent()).toContain('el tablero dgt-9 no está conectado');
    expect(await refusal.textContent()).not.toContain('is not connected');
    await screenshot(page, 'console-alert-es');
    expect(chrome.errors).toEqual([]);
    await page.close();
  });

  it('over HTTP: a wrong token locks the console again; the right one restores the position', async () => {
    await resetGame();
    const page = await chrome.newPage({ width: 1600, height: 1000 });
    await page.goto(stack.pageUrl('console/index.html', { actions: 'http' }, 'sse'));
    await page.locator('#login-form').waitFor(WAIT);
    expect(await page.locator('#secret-kind').isVisible()).toBe(true);

    await login(page, 'tok-wrong');
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    await page.locator(`#game-ply[data-ply="${AT_PLY}"]`).waitFor(WAIT);
    stack.publisher.publishAlert(illegalMoveAlert());
    await page.locator('.alert[data-alert="illegal_move"]').waitFor(WAIT);
    await restoreFromAlert(page);
    await page.locator('#login-error', { hasText: 'refused' }).waitFor(WAIT);
    expect(await page.locator('#workspace').isHidden()).toBe(true);
    expect(httpRequests).toEqual([]);

    await login(page, TOKEN);
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    stack.publisher.publishAlert(illegalMoveAlert());
    await expect.poll(() => page.locator('.alert[data-alert="illegal_move"]').count(), WAIT).toBe(1);
    await restoreFromAlert(page);
    const answer = page.locator('#response-log li[data-action="restore_position"][data-status="ok"]');
    await answer.waitFor(WAIT);
    expect(httpRequests).toHaveLength(1);
    expect(httpRequests[0]).toMatchObject({ action: 'restore-position', via: 'token' });
    expect(httpRequests[0]!.body).toMatchObject({ game_id: game.id, ply: RESTORE_TO });
    await page.locator(`#game-ply[data-ply="${RESTORE_TO}"]`).waitFor(WAIT);
    expect(await readPlacement(page, '#game-board')).toBe(placementOf(game.fen(RESTORE_TO)));
    // The refused action made the browser log the 401; nothing else went wrong.
    expect(chrome.errors.filter(e => !e.includes('status of 401'))).toEqual([]);
    await page.close();
  });

  it('lists findings in the game view (not as alerts), strikes out a withdrawn alert, records a claim and an order', async () => {
    await resetGame();
    mqttRequests.length = 0;
    const page = await chrome.newPage({ width: 1600, height: 1000 });
    await page.goto(stack.pageUrl('console/index.html', { user: BROKER.username }));
    await login(page, BROKER.password);
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    await page.locator(`#game-ply[data-ply="${AT_PLY}"]`).waitFor(WAIT);
    expect(await page.locator('#no-findings').isVisible()).toBe(true);

    // A possible release on ply 23: a finding, listed with the game, no alert card.
    const release: WebAlert = {
      id: `${game.id}-901`,
      code: 'release',
      message: 'The piece from g1 was released on f3, a legal move, and then moved on.',
      at: Date.now(),
      game: game.id,
      seq: 901,
      article: '4.7',
      edition: 'E23',
      ply: 23,
      finding: true,
      grade: 'possible',
      breach: true,
      evidence: { color: 'white', detail: 'released on f3' },
    };
    stack.publisher.publishAlert(release);
    const finding = page.locator('#finding-list li[data-code="release"]');
    await finding.waitFor(WAIT);
    expect(await finding.getAttribute('data-grade')).toBe('possible');
    expect(await finding.textContent()).toContain('Ply 23 (possible), Art. 4.7');
    expect(await page.locator('.alert').count()).toBe(0);

    // A player claims it: the console records the claim through the request API.
    const claimForm = page.locator('form[data-action="claim"]');
    await claimForm.locator('select[name="color"]').selectOption('black');
    await claimForm.locator('select[name="claim"]').selectOption('art4');
    await claimForm.locator('button[type="submit"]').click();
    await page.locator('#response-log li[data-action="claim"][data-status="ok"]').waitFor(WAIT);
    expect(mqttRequests.at(-1)).toMatchObject({ game_id: game.id, color: 'black', claim: 'art4' });

    // An alert for a board two orders reach: a button per order sends set_moves.
    const undecided: WebAlert = {
      id: `${game.id}-902`,
      code: 'board_mismatch',
      message: 'The board shows a legal position that 2 move orders reach after ply 24.',
      at: Date.now(),
      game: game.id,
      board: 'dgt-4',
      seq: 902,
      ply: AT_PLY,
      article: '7.6',
      edition: 'E23',
      evidence: {
        orders: [
          ['Nf3', 'Nc6'],
          ['Nc3', 'Nf6'],
        ],
        orders_after_ply: AT_PLY,
      },
    };
    stack.publisher.publishAlert(undecided);
    const card = page.locator('.alert[data-key="r1-b4-902"]');
    await card.waitFor(WAIT);
    await card.locator('button[data-action="set_moves"][data-order="2"]').click();
    await page.locator('#response-log li[data-action="set_moves"][data-status="ok"]').waitFor(WAIT);
    expect(mqttRequests.at(-1)).toMatchObject({ game_id: game.id, after_ply: AT_PLY, moves: ['Nc3', 'Nf6'] });
    expect(await page.locator('#alert-count').textContent()).toBe('1');

    // The board shows the game again: the alert is withdrawn, struck out, no longer counted.
    const withdrawal: WebAlert = {
      id: `${game.id}-903`,
      code: 'board_mismatch',
      message: 'Withdrawn: the board shows a position of the game again.',
      at: Date.now(),
      game: game.id,
      seq: 903,
      ply: AT_PLY,
      withdraws: `${game.id}-902`,
      reason: 'resolved',
    };
    stack.publisher.publishAlert(withdrawal);
    await page.locator('.alert.withdrawn[data-key="r1-b4-902"]').waitFor(WAIT);
    expect(await page.locator('#alert-count').textContent()).toBe('0');
    expect(await page.locator('.alert').count()).toBe(1);
    await screenshot(page, 'console-findings-withdrawn');
    // (The 401 of the HTTP test before is in the same browser's log.)
    expect(chrome.errors.filter(e => !e.includes('status of 401'))).toEqual([]);
    await page.close();
  });

  it('over SSE, keeps the alert that follows an alert event (the page reopens its stream for the snapshot)', async () => {
    await resetGame();
    const page = await chrome.newPage({ width: 1600, height: 1000 });
    const streams: string[] = [];
    page.on('request', request => {
      if (new URL(request.url()).pathname === '/events') streams.push(request.url());
    });
    await page.goto(stack.pageUrl('console/index.html', {}, 'sse'));
    await login(page, TOKEN);
    await page.locator(`#game-ply[data-ply="${AT_PLY}"]`).waitFor(WAIT);
    expect(streams).toHaveLength(1);

    // What the daemon sends for an alert: the game event, then at once the message on `alerts`.
    // A game event the page cannot fold makes it read the snapshot again: over SSE a new stream.
    const alert = illegalMoveAlert();
    seq += 1;
    stack.publisher.publishEvent({
      game: game.id,
      seq,
      at: Date.now(),
      type: 'alert',
      code: 'illegal_move',
      article: '7.5.1',
      edition: 'E23',
      color: 'white',
      grade: 'proven',
      ply: AT_PLY,
      claimed: false,
      detail: alert.message,
      evidence: null,
    });
    stack.publisher.publishAlert({ ...alert, seq });
    stack.publisher.retain(stack.topics.game(game.id), { ...game.snapshot(AT_PLY), seq });
    await page.locator('.alert[data-alert="illegal_move"]').waitFor(WAIT);
    await expect.poll(() => streams.length, WAIT).toBe(2);
    await page.locator('#connection[data-status="live"]').waitFor(WAIT);
    expect(await page.locator('.alert').count()).toBe(1);
    expect(chrome.errors.filter(e => !e.includes('status of 401'))).toEqual([]);
    await page.close();
  });
});
