/**
 * The arbiter console in the browser's language: headless Chromium in `es-ES` and in `en-GB` on
 * the console of a game whose breaches come from the real supervisor (board scripts of
 * test/scenarios with an illegal move, touch-move, a possible release, a board that differs, a
 * claim), published as the daemon publishes them. The Spanish console shows no English text of
 * the catalog (and the English one no Spanish), its alerts are rendered from their sentences, and
 * moves are written in figurines, or in Spanish letters when the reader chose them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertText, detailText } from '../../src/bridge/i18n/messages.js';
import type { WebAlert } from '../../src/bridge/web/contract.js';
import { makeAlertMessage } from '../../src/bridge/wire/events.js';
import { decodePgnBytes, readPgn } from '../../src/engine/pgnRead.js';
import { parseScript, runScriptFor } from '../../src/engine/script/index.js';
import { CHROMIUM_PATH, launchChromium, screenshot } from '../support/browser.js';
import { PROJECT_ROOT, sharedPath } from '../support/shared.js';
import { closeAll, figurineSan, gameFrames, startWebStack, type WebStack } from './harness.js';
import { expectNoForeignText } from '../support/catalogWords.js';

const WAIT = { timeout: 30_000 };
const BROKER = { username: 'arbiter', password: 'sala-b secreto' };

const source = readPgn(decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn'))))
  .flatMap(r => (r.isOk ? [r.value] : []))
  .filter(g => g.headers.get('Round') === '1.4')[0]!;
const game = gameFrames(source, 'r1-b4', { round: '1', board_number: 4 });
/** A ply whose move is a piece's (a letter in SAN), to see how the console writes it. */
const AT_PLY = [...Array(game.plies).keys()]
  .map(i => i + 1)
  .find(p => /^[NBRQ]/.test(game.snapshot(p).last_move?.san ?? ''))!;
const SAN = game.snapshot(AT_PLY).last_move!.san;

/** Board scripts whose E23 run has breaches for the arbiter. */
const SCRIPTS = [
  'illegal/s40-first-illegal-move.cbs',
  'illegal/s46-press-without-move.cbs',
  'basic/s04b-release-claimed.cbs',
  'basic/s07-touched-own-other-moved.cbs',
  'basic/s07b-touch-move-claim-without-evidence.cbs',
  'setup/s93-wrong-initial-position.cbs',
];

/** The alerts (and findings, pending claims) the daemon publishes for those runs, on this game. */
const supervisorAlerts = (): WebAlert[] => {
  let seq = 1000;
  return SCRIPTS.flatMap(name => {
    const file = join(PROJECT_ROOT, 'test', 'scenarios', name);
    const script = parseScript(readFileSync(file, 'utf8'), name).unwrap();
    return runScriptFor(script, 'E23').events.flatMap(e => {
      seq += 1;
      const alert = makeAlertMessage({ ...e, game: game.id, seq }, { board: 'dgt-4', ply: AT_PLY });
      return alert === undefined || alert.withdraws !== undefined ? [] : [alert];
    });
  });
};

describe.skipIf(!CHROMIUM_PATH)('arbiter console in the browser’s language', () => {
  let stack: WebStack;
  const alerts = supervisorAlerts();
  const cards = alerts.filter(a => a.finding !== true);

  beforeAll(async () => {
    stack = await startWebStack({ credentials: BROKER });
    stack.publisher.retain(stack.topics.game(game.id), game.snapshot(AT_PLY));
    await stack.publisher.drained();
  });
  afterAll(() => closeAll(stack));

  it('has breaches of several kinds, each with its sentences', () => {
    expect(new Set(cards.map(a => a.code)).size).toBeGreaterThanOrEqual(3);
    expect(alerts.some(a => a.finding === true)).toBe(true);
    expect(alerts.every(a => (a.text?.length ?? 0) > 0 || a.code === 'claim')).toBe(true);
  });

  /** Spanish letters for a SAN move (C A T D R). */
  const spanishSan = (san: string) =>
    san
      .replace(/^[NBRQK]/, l => 'CATDR'['NBRQK'.indexOf(l)]!)
      .replace(/=([NBRQ])/, (_, l: string) => `=${'CATD'['NBRQ'.indexOf(l)]!}`);

  // The Spanish reader has chosen the language's letters (?notation=letters); the English one
  // sees the default, figurines.
  for (const [locale, lang, notation, writeSan] of [
    ['es-ES', 'es', 'letters', spanishSan],
    ['en-GB', 'en', 'figurine', figurineSan],
  ] as const) {
    it(`${locale}: the console in ${lang}, alerts rendered from their sentences, moves in ${notation}`, async () => {
      const chrome = await launchChromium({ locale });
      try {
        const page = await chrome.newPage({ width: 1600, height: 1400 });
        await page.goto(stack.pageUrl('console/index.html', { user: BROKER.username, notation }));
        await page.locator('#lang-switch').waitFor(WAIT);
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        expect(await page.locator('#notation-switch').inputValue()).toBe(notation);
        await page.locator('#secret').fill(BROKER.password);
        await page.locator('#login-button').click();
        await page.locator('#connection[data-status="live"]').waitFor(WAIT);
        await page.locator(`#game-ply[data-ply="${AT_PLY}"]`).waitFor(WAIT);
        for (const alert of alerts) stack.publisher.publishAlert(alert);
        await expect.poll(() => page.locator('#alert-list .alert').count(), WAIT).toBe(cards.length);
        await page.locator('#finding-list li').first().waitFor(WAIT);

        // Each card says what its alert says, in the page's language.
        const shown = await page.locator('#alert-list .alert-message').allTextContents();
        const expected = [...cards]
          .reverse()
          .map(a =>
            lang === 'en'
              ? a.message
              : a.text?.length
                ? detailText('es', a.text, writeSan)
                : alertText('es', a),
          );
        expect(shown).toEqual(expected);
        expect(await page.locator('#game-last-move').textContent()).toContain(writeSan(SAN));
        expect(writeSan(SAN)).not.toBe(SAN);
        await expectNoForeignText(page, lang === 'es' ? 'en' : 'es');
        await screenshot(page, `console-${locale}`);
        expect(chrome.errors).toEqual([]);
      } finally {
        await chrome.close();
      }
    });
  }
});
