/**
 * Acceptance 1 of the broadcast issue, through the daemon: `chessbridge run` as a child process
 * (embedded broker with its WebSocket listener, HTTP with arbiter credentials), an emulated DGT
 * board on a socat PTY playing a real game with human handling, and Debian's chromium.
 *
 * The one-board display (over MQTT on the broker's WebSocket) shows every ply as it is played,
 * board and last-move highlight included, and the round page (over the daemon's /events stream)
 * follows. Then the board plays an illegal move and presses the clock: the arbiter console (over
 * /events, with HTTP actions) shows the illegal-move alert with its article; "Restore" goes out
 * with the arbiter's token; the console, the display, the retained MQTT snapshot and the HTTP API
 * show the position before the illegal move, the journal holds the action with its HTTP source,
 * and the game goes on with legal moves that are recorded. Screenshots: test-artifacts/web/.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops';
import { makeFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { CHROMIUM_PATH, launchChromium, screenshot, type Chromium } from '../support/browser.js';
import { freePort, waitForPort } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { figurineSan, placementOf, readHighlighted, readPlacement, type PageGlobal } from '../web/harness.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  type DaemonProcess,
  type Subscriber,
  type Venue,
  type VenueBoard,
} from './support.js';
import { assertWire } from '../support/wire.js';
import { expectNoForeignText } from '../support/catalogWords.js';

const SPEED = 8;
const BASE = 'accept7';
const GAME = 'r1-b1';
/** Plies played before the illegal move, and in all. */
const BEFORE_ILLEGAL = 10;
const PLIES = 12;
/** The arbiter's token, given to the daemon in its environment only. */
const TOKEN = 'acc7-7f3c9e1d5b2a4608';
const PASSWORD = 'hall-b arbiter';
const WAIT = { timeout: 40_000 };

interface Ply {
  readonly ply: number;
  readonly san: string;
  readonly uci: string;
  readonly fen: string;
}

/** Every ply of a game from the start: SAN, UCI and the FEN after it. */
const pliesOf = (sans: readonly string[]): Ply[] => {
  const pos = Chess.default();
  return sans.map((san, i) => {
    const move = parseSan(pos, san);
    if (move === undefined) throw new Error(`illegal SAN ${san} at ply ${i + 1}`);
    pos.play(move);
    return { ply: i + 1, san, uci: makeUci(move), fen: makeFen(pos.toSetup()) };
  });
};

/** A board's steps cut after every clock press (one chunk a ply), each rebased to start at 0. */
const plyChunks = (steps: readonly ScriptStep[]): ScriptStep[][] => {
  const chunks: ScriptStep[][] = [[]];
  for (const s of steps) {
    chunks.at(-1)?.push(s);
    if (s.kind === 'clock-press') chunks.push([]);
  }
  return chunks
    .filter(c => c.length > 0)
    .map(c => {
      const t0 = c[0]?.at ?? 0;
      return c.map(s => ({ ...s, at: s.at - t0 }));
    });
};

const sortedSquares = (uci: string): string[] => [uci.slice(0, 2), uci.slice(2, 4)].sort();

/** Waits until the page's move list marks `ply` as the current move, written `san` in figurines. */
const waitForPly = (page: Page, ply: number, san: string) =>
  page.waitForFunction(
    ([p, s]) => {
      const doc = (globalThis as unknown as PageGlobal).document;
      return doc.querySelector(`.move-list [data-ply="${p}"].current`)?.textContent === s;
    },
    [ply, figurineSan(san)] as const,
    WAIT,
  );

/** The status of a GET whose path is sent exactly as written. */
const rawStatus = (base: string, path: string): Promise<number | undefined> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    get({ host: hostname, port, path }, res => {
      res.resume();
      resolve(res.statusCode);
    }).once('error', reject);
  });

/** A clock event as received. */
interface ClockEvent {
  readonly seq: number;
  readonly type: string;
  readonly clocks: { readonly white_ms: number; readonly black_ms: number; readonly running: string | null };
}

/** One journal line of a game file (docs/journal.md). */
interface JournalLine {
  readonly type: string;
  readonly action?: string;
  readonly params?: Record<string, unknown>;
  readonly source?: string;
}

const WATCH = { username: 'watch', password: 'accept7 watch 2026' };

describe.skipIf(!CHROMIUM_PATH)('acceptance 1 through the daemon: display and arbiter console', () => {
  let dir: string;
  let venue: Venue;
  let board: VenueBoard;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let chrome: Chromium;
  let http: string;
  let ws: string;
  let chunks: ScriptStep[][];
  let plies: Ply[];
  /** The one-board display, open from the first test to the last. */
  let display: Page;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-accept7-'));
    const [mqttPort, wsPort, httpPort] = [await freePort(), await freePort(), await freePort()];
    http = `http://127.0.0.1:${httpPort}`;
    ws = `ws://127.0.0.1:${wsPort}/mqtt`;
    venue = await startVenue({ count: 1, firstBoard: 1, serialBase: 47000, speed: SPEED, maxPlies: PLIES });
    board = venue.boards[0]!;
    plies = pliesOf(board.plies);
    chunks = plyChunks(stepsOf(board, SPEED).first);
    const passwordFile = join(dir, 'arbiter-password');
    await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    const watchFile = join(dir, 'watch-password');
    await writeFile(watchFile, `${WATCH.password}\n`, { mode: 0o600 });
    const config = join(dir, 'accept7.yaml');
    await writeFile(
      config,
      stringify({
        version: 1,
        tournament: { name: 'acceptance 7', rounds: 1 },
        laws: { edition: 'E23', gameType: 'rapid', timeControl: '15+10' },
        journal: { dir: join(dir, 'journal'), checkpointSeconds: 2 },
        mqtt: {
          baseTopic: BASE,
          clientId: 'accept7',
          // The pages read without credentials, as in the demo; the subscriber logs in as a reader.
          broker: { host: '127.0.0.1', port: mqttPort, wsPort, anonymousRead: true },
        },
        users: [{ name: 'watch', role: 'display', passwordFile: watchFile }],
        // The token is not in the file: CHESSBRIDGE_HTTP_ARBITER_TOKEN below; the password is in a file.
        // Spanish for readers whose browser asks for a language without a catalog.
        http: { enabled: true, host: '127.0.0.1', port: httpPort, arbiter: { passwordFile }, language: 'es' },
        boards: [
          { id: board.id, driver: 'dgt', port: board.pty.hostPath, serial: board.serial, clock: true },
        ],
        pairings: [
          {
            round: 1,
            board: board.number,
            serial: board.serial,
            white: { name: board.game.white },
            black: { name: board.game.black },
          },
        ],
        logging: { level: 'info', format: 'json' },
      }),
    );
    // The child takes a copy of the environment when it is spawned; the variable is gone right after.
    process.env.CHESSBRIDGE_HTTP_ARBITER_TOKEN = TOKEN;
    try {
      daemon = startDaemon(config);
    } finally {
      delete process.env.CHESSBRIDGE_HTTP_ARBITER_TOKEN;
    }
    chrome = await launchChromium();
    await waitForPort(mqttPort, 30_000);
    sub = await subscribe(
      `mqtt://127.0.0.1:${mqttPort}`,
      [`${BASE}/games/+/events`, `${BASE}/games/+`, `${BASE}/alerts`],
      'accept7-sub',
      WATCH,
    );
    await waitFor(
      () => sub.latest(`${BASE}/games/${GAME}`) !== undefined,
      30_000,
      `the game to start (daemon output: ${daemon.output().slice(-2000)})`,
    );
  });

  afterAll(async () => {
    await killAllDaemons();
    await Promise.allSettled([chrome.close(), sub.close(), venue.stop()]);
    await closeAllPtyPairs();
    await rm(dir, { recursive: true, force: true });
  });

  const snapshot = () =>
    JSON.parse(sub.latest(`${BASE}/games/${GAME}`) ?? '{}') as { fen: string; moves: string[]; seq: number };
  const recorded = () => movesFromEvents(sub.firstArrivals().get(GAME) ?? []);

  it('serves the pages, the MQTT.js bundle, the event stream and the feed from one address', async () => {
    const page = await fetch(`${http}/ui/display/board.html`);
    expect(page.status).toBe(200);
    const bundle = await fetch(`${http}/ui/vendor/mqtt.esm.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    const etag = bundle.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect(
      (await fetch(`${http}/ui/vendor/mqtt.esm.js`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    const events = new AbortController();
    const stream = await fetch(`${http}/events`, { signal: events.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    events.abort();
    const health = await fetch(`${http}/healthz`);
    expect(health.status).toBe(200);
    assertWire('healthz', await health.json(), '/healthz');
    expect((await fetch(`${http}/round-1/games.pgn`)).status).toBe(200);
    // Path traversal through the page prefix is still refused (sent raw: fetch would resolve the dots).
    expect(await rawStatus(http, '/ui/%2e%2e/package.json')).toBe(400);
    expect(await rawStatus(http, '/ui/vendor/../../package.json')).toBe(400);
  });

  it('shows every ply on the one-board display as it is played, and on the round page', async () => {
    display = await chrome.newPage({ width: 1600, height: 900 });
    await display.goto(
      `${http}/ui/display/board.html?game=${GAME}&base=${BASE}&mqtt=${encodeURIComponent(ws)}`,
    );
    await display.locator('[data-name="white"]', { hasText: board.game.white }).waitFor(WAIT);
    expect(await display.locator('[data-last-move]').textContent()).toBe('No move yet');

    for (const p of plies.slice(0, BEFORE_ILLEGAL)) {
      await board.pty.runner.play(chunks[p.ply - 1] ?? []);
      await waitForPly(display, p.ply, p.san);
      expect(await readPlacement(display, '.game')).toBe(placementOf(p.fen));
      expect(await readHighlighted(display, '.game')).toEqual(sortedSquares(p.uci));
      if (p.ply === 4) await screenshot(display, 'daemon-display-ply-4');
    }
    const last = plies[BEFORE_ILLEGAL - 1]!;
    expect(await display.locator('.move-list [data-ply]').count()).toBe(BEFORE_ILLEGAL);
    expect(await display.locator('[data-last-move]').textContent()).toBe(
      `Last move: 5\u2026 ${figurineSan(last.san)}`,
    );
    await screenshot(display, 'daemon-display-live');

    // The round page, over the daemon's server-sent events.
    const round = await chrome.newPage({ width: 1600, height: 900 });
    await round.goto(`${http}/ui/display/index.html?round=1&base=${BASE}&sse=/events`);
    const card = `.game.card[data-game="${GAME}"]`;
    await round.locator(card).waitFor(WAIT);
    await expect.poll(() => readPlacement(round, card), WAIT).toBe(placementOf(last.fen));
    expect(await readHighlighted(round, card)).toEqual(sortedSquares(last.uci));
    await screenshot(round, 'daemon-round-live');
    await round.close();

    expect(recorded()).toEqual(board.plies.slice(0, BEFORE_ILLEGAL));
    expect(chrome.errors).toEqual([]);
  });

  it('pages take the browser’s language when it has a catalog, else the venue’s (http.language); no text of the other language', async () => {
    const list = (await (await fetch(`${http}/ui/shared/i18n/languages.json`)).json()) as { default: string };
    expect(list.default).toBe('es');
    for (const [locale, lang, lastMove] of [
      ['de-DE', 'es', 'Última jugada'],
      ['es-ES', 'es', 'Última jugada'],
      ['en-GB', 'en', 'Last move'],
    ] as const) {
      const browser = await launchChromium({ locale });
      try {
        const page = await browser.newPage({ width: 1280, height: 800 });
        await page.goto(
          `${http}/ui/display/board.html?game=${GAME}&base=${BASE}&mqtt=${encodeURIComponent(ws)}`,
        );
        await page.locator('[data-name="white"]', { hasText: board.game.white }).waitFor(WAIT);
        expect(await page.locator('html').getAttribute('lang'), locale).toBe(lang);
        await expect
          .poll(() => page.locator('[data-last-move]').textContent(), WAIT)
          .toMatch(new RegExp(`^${lastMove}`));
        await screenshot(page, `daemon-display-${locale}`);
        if (locale !== 'de-DE') {
          // No text of the other language on the display, the round page and the tournament page
          // (Accept-Language of the browser), moves in figurines.
          const other = lang === 'es' ? 'en' : 'es';
          const last = plies[BEFORE_ILLEGAL - 1]!;
          const piece = plies.slice(0, BEFORE_ILLEGAL).find(p => /^[NBRQK]/.test(p.san))!;
          expect(await page.locator('.move-list').textContent()).toContain(figurineSan(piece.san));
          await expectNoForeignText(page, other);
          await page.goto(`${http}/ui/display/index.html?round=1&base=${BASE}&sse=/events`);
          const card = `.game.card[data-game="${GAME}"]`;
          await page.locator(card).waitFor(WAIT);
          await expect.poll(() => readPlacement(page, card), WAIT).toBe(placementOf(last.fen));
          expect(await page.locator('html').getAttribute('lang'), locale).toBe(lang);
          await expectNoForeignText(page, other);
          await screenshot(page, `daemon-round-${locale}`);
          await page.goto(`${http}/`);
          expect(await page.locator('html').getAttribute('lang'), locale).toBe(lang);
          expect(await page.locator('h2').first().textContent()).toBe(lang === 'es' ? 'Ronda 1' : 'Round 1');
          // The files' names (round-1/games.pgn) are paths, in no language.
          await page
            .locator('code')
            .evaluateAll(names => names.forEach(n => (n as unknown as { remove(): void }).remove()));
          await expectNoForeignText(page, other);
          await screenshot(page, `daemon-index-${locale}`);
        }
        expect(browser.errors, locale).toEqual([]);
      } finally {
        await browser.close();
      }
    }
  });

  it('refuses arbiter actions without the right credentials, and checks their fields', async () => {
    const post = (authorization: string | undefined, body: unknown, action = 'restore-position') =>
      fetch(`${http}/api/arbiter/${action}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify(body),
      });
    const restore = { game_id: GAME, ply: 2 };
    const none = await post(undefined, restore);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect((await post('Bearer not-the-token-at-all', restore)).status).toBe(401);
    const basic = (secret: string) => `Basic ${Buffer.from(`arbiter:${secret}`).toString('base64')}`;
    expect((await post(basic('wrong password'), restore)).status).toBe(401);
    // The password (from its file) is accepted; the request is checked against the action's schema.
    const invalid = await post(basic(PASSWORD), { game_id: GAME, ply: 'two', transaction: 't-1' });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({
      status: 'error',
      transaction: 't-1',
      error: expect.stringMatching(/^ply: /) as unknown,
    });
    const unknown = await post(`Bearer ${TOKEN}`, {}, 'launch-rocket');
    expect(unknown.status).toBe(404);
    // Nothing of this changed the game.
    expect(snapshot().moves).toEqual(board.plies.slice(0, BEFORE_ILLEGAL));
  });

  it('shows an illegal move on the console; Restore brings back the position before it; play goes on', async () => {
    const before = plies[BEFORE_ILLEGAL - 1]!;
    const next = plies[BEFORE_ILLEGAL]!; // Bc4: the bishop of f1
    expect(next.uci.slice(0, 2)).toBe('f1');
    const arbiter = await chrome.newPage({ width: 1600, height: 1100 });
    await arbiter.goto(`${http}/ui/console/index.html?base=${BASE}&sse=/events`);
    await arbiter.locator('#login-form').waitFor(WAIT);
    expect(await arbiter.locator('#workspace').isHidden()).toBe(true);
    await arbiter.locator('#secret').fill(TOKEN);
    await arbiter.locator('input[name="kind"][value="token"]').check();
    await arbiter.locator('#login-button').click();
    await arbiter.locator('#connection[data-status="live"]').waitFor(WAIT);
    await arbiter.locator(`#game-ply[data-ply="${BEFORE_ILLEGAL}"]`).waitFor(WAIT);

    // White's bishop goes from f1 to f5 (as a rook would), stays there past the daemon's quiet
    // time (4 s: no piece in the air rests that long), and White presses the clock.
    const ms = (realMs: number) => realMs * SPEED;
    await board.pty.runner.play([
      { at: 0, kind: 'square', square: 'f1', piece: 'empty' },
      { at: ms(150), kind: 'square', square: 'f5', piece: 'B' },
      { at: ms(5200), kind: 'clock-press', side: 'left' },
    ]);
    const card = arbiter.locator('.alert[data-alert="illegal_move"]');
    await card.waitFor(WAIT);
    // The warning raised once the bishop had stood on f5 for the quiet time is there too (its game
    // event makes the page reopen its event stream, which must not lose the alert that follows it).
    expect(await arbiter.locator('.alert[data-alert="illegal_position"]').count()).toBe(1);
    expect(await card.locator('h3').textContent()).toContain('Illegal move');
    expect(await card.locator('.article').textContent()).toBe('FIDE Laws of Chess (2023), Art. 7.5.1');
    // "Restore" offers the position before the illegal move: after ply 10, not ply 9.
    expect(await card.locator('input[type="number"]').inputValue()).toBe(String(BEFORE_ILLEGAL));
    const alert = sub.seen
      .filter(m => m.topic === `${BASE}/alerts`)
      .map(
        m => JSON.parse(m.payload) as { code: string; article: string; evidence?: { restore_ply?: number } },
      )
      .find(a => a.code === 'illegal_move');
    expect(alert).toMatchObject({ article: '7.5.1', evidence: { restore_ply: BEFORE_ILLEGAL } });
    // The display never took the illegal move.
    expect(await readPlacement(display, '.game')).toBe(placementOf(before.fen));
    await screenshot(arbiter, 'daemon-console-illegal');

    const seqBefore = snapshot().seq;
    await card.locator('button[data-action="restore_position"]').click();
    const answer = arbiter.locator('#response-log li[data-action="restore_position"]');
    await answer.waitFor(WAIT);
    expect(await answer.getAttribute('data-status')).toBe('ok');
    expect(await answer.textContent()).toContain(`"game_id":"${GAME}"`);
    await card.locator('.alert-report.ok').waitFor(WAIT);

    // The position before the illegal move, everywhere.
    await arbiter.locator(`#game-ply[data-ply="${BEFORE_ILLEGAL}"]`).waitFor(WAIT);
    expect(await readPlacement(arbiter, '#game-board')).toBe(placementOf(before.fen));
    expect(await readHighlighted(arbiter, '#game-board')).toEqual(sortedSquares(before.uci));
    expect(await readPlacement(display, '.game')).toBe(placementOf(before.fen));
    expect(await display.locator('.move-list [data-ply]').count()).toBe(BEFORE_ILLEGAL);
    expect(snapshot()).toMatchObject({ fen: before.fen, moves: board.plies.slice(0, BEFORE_ILLEGAL) });
    expect(snapshot().seq).toBeGreaterThanOrEqual(seqBefore);
    const api = (await (await fetch(`${http}/api/rounds/1/games/1`)).json()) as {
      fen: string;
      plies: number;
    };
    expect(api).toMatchObject({ fen: before.fen, plies: BEFORE_ILLEGAL });
    assertWire('api_game', api, '/api/rounds/1/games/1');
    await screenshot(arbiter, 'daemon-console-restored');

    // The bishop goes back to f1, and the arbiter sets the clock as the daemon decided at the
    // illegal move (White's clock running, Black a minute more in this rapid game); play goes on.
    const illegalSeq =
      sub
        .firstArrivals()
        .get(GAME)
        ?.find(e => e.code === 'illegal_move')?.seq ?? 0;
    const decided = sub.seen
      .filter(m => m.topic === `${BASE}/games/${GAME}/events`)
      .map(m => JSON.parse(m.payload) as ClockEvent)
      .find(e => e.type === 'clock' && e.seq > illegalSeq);
    expect(decided?.clocks.running).toBe('white');
    const { white_ms: whiteMs, black_ms: blackMs } = decided!.clocks;
    await board.pty.runner.play([
      { at: 0, kind: 'square', square: 'f5', piece: 'empty' },
      { at: ms(150), kind: 'square', square: 'f1', piece: 'B' },
      { at: ms(300), kind: 'clock-set', left: whiteMs, right: blackMs, run: 'left', incrementMs: 10_000 },
    ]);
    await waitFor(
      () => {
        const c = (JSON.parse(sub.latest(`${BASE}/games/${GAME}`) ?? '{}') as Partial<ClockEvent>).clocks;
        return c?.running === 'white' && Math.abs(c.black_ms - blackMs) < 2000;
      },
      20_000,
      `the clock as the arbiter set it (${sub.latest(`${BASE}/games/${GAME}`) ?? ''})`,
    );
    for (const p of plies.slice(BEFORE_ILLEGAL)) {
      await board.pty.runner.play(chunks[p.ply - 1] ?? []);
      await waitForPly(display, p.ply, p.san);
      expect(await readPlacement(display, '.game')).toBe(placementOf(p.fen));
      expect(await readHighlighted(display, '.game')).toEqual(sortedSquares(p.uci));
    }
    await arbiter.locator(`#game-ply[data-ply="${PLIES}"]`).waitFor(WAIT);
    await waitFor(() => recorded().length === PLIES, 20_000, 'the moves after the restore');
    expect(recorded()).toEqual(board.plies);
    expect(snapshot()).toMatchObject({ fen: plies[PLIES - 1]!.fen, moves: board.plies });
    await screenshot(display, 'daemon-display-continued');

    // A board action from the console: the board is asked for a full dump.
    await arbiter.locator('form[data-action="resync_board"] button[type="submit"]').click();
    const resync = arbiter.locator('#response-log li[data-action="resync_board"]');
    await resync.waitFor(WAIT);
    expect(await resync.getAttribute('data-status')).toBe('ok');
    await arbiter.close();
    // What the pages logged while the daemon served them (once it stops, the display's MQTT
    // connection going away may log a write on a closed socket: that is no error of the pages).
    const pageErrors = [...chrome.errors];

    // Every arbiter action is in the game's journal with where it came from.
    expect(await daemon.stop()).toBe(0);
    const text = await readFile(join(dir, 'journal', 'games', `${GAME}.jsonl`), 'utf8');
    const commands = text
      .split('\n')
      .filter(l => l.startsWith('{'))
      .map(l => JSON.parse(l) as JournalLine)
      .filter(r => r.type === 'command' && r.source?.startsWith('http ') === true);
    // The two actions carried out, and nothing of the refused or malformed requests.
    expect(commands).toEqual([
      expect.objectContaining({
        action: 'restore_position',
        params: { game_id: GAME, ply: BEFORE_ILLEGAL },
        source: 'http role=arbiter user=(token) address=127.0.0.1',
      }),
      expect.objectContaining({
        action: 'resync_board',
        params: { board_id: board.id },
        source: 'http role=arbiter user=(token) address=127.0.0.1',
      }),
    ]);
    expect(pageErrors).toEqual([]);
  });
});
