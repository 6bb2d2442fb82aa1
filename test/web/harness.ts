/**
 * What the web page tests run against: a real embedded aedes broker (TCP for the test's own
 * client, WebSocket for the pages), the test's publisher (the daemon's EventPublisher on an
 * MqttConnection), and the bridge's HttpServer set up as the daemon sets it up: web/ under /ui/,
 * the MQTT.js browser bundle and an SSE stream at /events as extra routes and, when asked, arbiter
 * actions at /api/arbiter/ (with the test's handlers).
 * Also the frames of a real game (snapshots and move events, ply by ply) and page helpers that
 * read the board diagram back from the DOM.
 *
 *   const stack = await startWebStack({ sse: true });
 *   stack.publisher.retain(stack.topics.game('g1'), snapshot);
 *   await page.goto(stack.pageUrl('display/board.html', { game: 'g1' }));
 *   await stack.close();
 */
import { merge } from 'rxjs';
import type { Page } from 'playwright-core';
import { makeFeedState } from '../../src/bridge/feed/feedState.js';
import type { ArbiterAction } from '../../src/bridge/http/arbiterRoutes.js';
import { HttpServer } from '../../src/bridge/http/server.js';
import { makeFileReplier } from '../../src/bridge/http/staticFiles.js';
import { MqttConnection } from '../../src/bridge/mqtt/client.js';
import { EmbeddedBroker } from '../../src/bridge/mqtt/embeddedBroker.js';
import { makeDaemonUser } from '../../src/bridge/security/configUsers.js';
import { UserDirectory } from '../../src/bridge/security/users.js';
import { silentLog } from '../../src/bridge/mqtt/log.js';
import { EventPublisher } from '../../src/bridge/mqtt/publisher.js';
import type { Topics } from '../../src/bridge/mqtt/topics.js';
import type {
  WebClocks,
  WebGameSnapshot,
  WebMoveEvent,
  WebPlayer,
  WebResult,
} from '../../src/bridge/web/contract.js';
import { MQTT_BROWSER_BUNDLE, WEB_DIR } from '../../src/bridge/web/paths.js';
import { SseHub, sseFilters } from '../../src/bridge/web/sse.js';
import type { ImportedGame } from '../../src/engine/pgnRead.js';

export const BASE = 'chessbridge';

export interface WebStackOptions {
  /** Credentials the broker requires on both listeners. */
  readonly credentials?: { readonly username: string; readonly password: string };
  /** Serve /events from an SseHub. */
  readonly sse?: boolean;
  /** Serve /api/arbiter/<action> with these credentials and handlers. */
  readonly arbiter?: {
    readonly token: string;
    readonly actions: Readonly<Record<string, ArbiterAction>>;
    /** Users who log in with their own name and password (Basic), with their role. */
    readonly users?: readonly {
      readonly name: string;
      readonly role: 'arbiter' | 'operator';
      readonly secret: string;
    }[];
  };
  /** A broadcast delay: /api/broadcast names `<base>/public`, and /events/public serves it. */
  readonly delayMs?: number;
}

export interface WebStack {
  readonly broker: EmbeddedBroker;
  readonly wsUrl: string;
  readonly httpUrl: string;
  readonly connection: MqttConnection;
  readonly publisher: EventPublisher;
  readonly topics: Topics;
  /** A page's address with the broker (or SSE) settings in its query. */
  pageUrl(page: string, query?: Record<string, string>, transport?: 'mqtt' | 'sse'): string;
  /** Stops the HTTP server, the publisher, its connection and the broker. */
  close(): Promise<void>;
}

/** Closes whatever a failed `beforeAll` managed to start; never rejects. */
export const closeAll = async (...items: ({ close(): Promise<void> } | undefined)[]): Promise<void> => {
  await Promise.allSettled(items.map(item => (item ? item.close() : Promise.resolve())));
};

export const startWebStack = async (options: WebStackOptions = {}): Promise<WebStack> => {
  // As in the demo: the test's publisher is the daemon, the pages read without credentials
  // (anonymousRead) and the console logs in as the arbiter of `credentials`.
  const daemon = makeDaemonUser();
  const clientId = `web-test-${process.pid}`;
  const bound: { port?: number } = {};
  const creds = options.credentials;
  const broker = new EmbeddedBroker({
    log: silentLog,
    port: 0,
    wsPort: 0,
    access: {
      users: new UserDirectory([
        daemon.entry,
        ...(creds === undefined
          ? []
          : [{ name: creds.username, role: 'arbiter' as const, secret: creds.password }]),
      ]),
      daemon: { user: daemon.name, clientId },
      base: BASE,
      anonymousRead: true,
      httpPort: () => bound.port,
    },
  });
  const addresses = await broker.start();
  const connection = new MqttConnection({
    url: addresses.url,
    clientId,
    log: silentLog,
    base: BASE,
    protocolVersion: 4,
    startTimeoutMs: 10_000,
    username: daemon.name,
    password: daemon.secret,
  });
  await connection.start();
  const publisher = new EventPublisher({ connection, log: silentLog, drainTimeoutMs: 1000 });
  await publisher.start();

  const filters = sseFilters(BASE);
  const hub = options.sse
    ? new SseHub({
        messages$: merge(...filters.forward.map(f => connection.messages$(f, 1))),
        retainedFilters: filters.retained,
      })
    : undefined;
  hub?.start();
  const publicBase = `${BASE}/public`;
  const publicHub =
    options.delayMs === undefined
      ? undefined
      : new SseHub({
          messages$: connection.messages$(`${publicBase}/games/+`, 1),
          retainedFilters: [`${publicBase}/games/+`],
        });
  publicHub?.start();
  const mqttJs = makeFileReplier(MQTT_BROWSER_BUNDLE);
  const server = new HttpServer({
    port: 0,
    feed: () => makeFeedState({ name: 'web test' }, 0),
    staticDir: WEB_DIR,
    routes: [
      ...(hub ? [{ path: '/events', name: 'events', stream: hub.handle.bind(hub) }] : []),
      ...(publicHub
        ? [{ path: '/events/public', name: 'events', stream: publicHub.handle.bind(publicHub) }]
        : []),
      { path: '/ui/vendor/mqtt.esm.js', name: 'vendor', reply: req => mqttJs(req.headers) },
    ],
    maxAuthFailures: 50,
    ...(options.delayMs === undefined
      ? {}
      : {
          broadcast: () => ({
            delay_ms: options.delayMs,
            delay_results: true,
            public_base: publicBase,
            public_events: '/events/public',
            push: null,
          }),
        }),
    ...(options.arbiter
      ? {
          arbiter: {
            token: options.arbiter.token,
            actions: options.arbiter.actions,
            ...(options.arbiter.users === undefined
              ? {}
              : { users: new UserDirectory(options.arbiter.users) }),
          },
        }
      : {}),
  });
  bound.port = (await server.start()).port;
  const httpUrl = `http://127.0.0.1:${bound.port}`;
  const wsUrl = addresses.wsUrl ?? '';

  return {
    broker,
    wsUrl,
    httpUrl,
    connection,
    publisher,
    topics: connection.topics,
    pageUrl(page, query = {}, transport = 'mqtt') {
      const url = new URL(`/ui/${page}`, httpUrl);
      if (transport === 'sse') url.searchParams.set('sse', '/events');
      else url.searchParams.set('mqtt', wsUrl);
      for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
      return url.href;
    },
    async close() {
      hub?.stop();
      publicHub?.stop();
      await server.stop();
      await publisher.stop();
      await connection.stop();
      await broker.stop();
    },
  };
};

// --- a real game, frame by frame ------------------------------------------------------------

/** The starting clock of the rapid games in the corpus (15 minutes). */
const START_MS = 15 * 60_000;

const playerOf = (headers: ReadonlyMap<string, string>, color: 'White' | 'Black'): WebPlayer => {
  const rating = Number(headers.get(`${color}Elo`));
  return {
    name: headers.get(color) ?? '?',
    title: headers.get(`${color}Title`) ?? null,
    rating: Number.isFinite(rating) && rating > 0 ? rating : null,
    federation: null,
  };
};

/** A game of the corpus as the daemon would publish it: one snapshot and one move event per ply. */
export interface GameFrames {
  readonly id: string;
  readonly plies: number;
  /** The snapshot after `ply` plies (seq = ply), optionally with the game's result. */
  snapshot(ply: number, at?: number, result?: WebResult): WebGameSnapshot;
  /** The move event of ply `ply` (1-based, seq = ply). */
  moveEvent(ply: number, at?: number): WebMoveEvent;
  /** FEN after `ply` plies. */
  fen(ply: number): string;
  readonly result: WebResult;
}

export const gameFrames = (
  imported: ImportedGame,
  id: string,
  where: { round: string; board_number: number },
): GameFrames => {
  const { game, headers } = imported;
  const moves = game.moves;
  const clocksAfter = (ply: number, at: number): WebClocks => {
    let white = START_MS;
    let black = START_MS;
    for (const move of moves.slice(0, ply)) {
      if (move.clockMs === undefined) continue;
      if (move.ply % 2 === 1) white = move.clockMs;
      else black = move.clockMs;
    }
    return {
      white_ms: white,
      black_ms: black,
      running: ply === 0 ? null : ply % 2 === 0 ? 'white' : 'black',
      at,
    };
  };
  const lastMove = (ply: number) => {
    const move = moves[ply - 1];
    return move ? { ply, san: move.san, uci: move.uci } : null;
  };
  const result = (['1-0', '0-1', '1/2-1/2'] as const).find(r => r === imported.result) ?? '*';
  return {
    id,
    plies: moves.length,
    result,
    fen: ply => game.fenAt(ply),
    snapshot: (ply, at = Date.now(), final = '*') => ({
      game: id,
      seq: ply,
      at,
      board: `dgt-${where.board_number}`,
      board_number: where.board_number,
      round: where.round,
      event: headers.get('Event') ?? null,
      white: playerOf(headers, 'White'),
      black: playerOf(headers, 'Black'),
      variant: 'standard',
      start_fen: game.fenAt(0),
      fen: game.fenAt(ply),
      moves: moves.slice(0, ply).map(m => m.san),
      last_move: lastMove(ply),
      clocks: final === '*' ? clocksAfter(ply, at) : { ...clocksAfter(ply, at), running: null },
      result: final,
      reason: final === '*' ? null : 'checkmate',
      reason_text: final === '*' ? null : 'checkmate',
      termination: final === '*' ? null : 'normal',
      status: final !== '*' ? 'finished' : ply === 0 ? 'not_started' : 'playing',
    }),
    moveEvent: (ply, at = Date.now()) => {
      const move = moves[ply - 1];
      if (!move) throw new RangeError(`no ply ${ply} in ${id}`);
      return {
        game: id,
        seq: ply,
        at,
        type: 'move',
        ply,
        san: move.san,
        uci: move.uci,
        fen: move.fen,
        clocks: clocksAfter(ply, at),
        elapsed_ms: null,
      };
    },
  };
};

// --- reading the page back ------------------------------------------------------------------

/** The little of the DOM that functions run in the page use (the project compiles without DOM types). */
export interface PageElement {
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  readonly textContent: string | null;
  readonly hidden: boolean;
  readonly classList: { contains(name: string): boolean };
}
export type PageDocument = Pick<PageElement, 'querySelector' | 'querySelectorAll'>;
/** Inside page functions: `const doc = (globalThis as unknown as PageGlobal).document;`. */
export interface PageGlobal {
  readonly document: PageDocument;
}

/** The board part of a FEN rebuilt from the pieces drawn in the first board under `scope`. */
export const readPlacement = (page: Page, scope: string): Promise<string> =>
  page.evaluate(selector => {
    const svg = (globalThis as unknown as PageGlobal).document.querySelector(`${selector} svg.board`);
    if (!svg) return '';
    const ranks: string[] = [];
    for (let rank = 8; rank >= 1; rank--) {
      let row = '';
      let empty = 0;
      for (const file of 'abcdefgh') {
        const piece = svg
          .querySelector(`[data-piece][data-square="${file}${rank}"]`)
          ?.getAttribute('data-piece');
        if (piece) {
          row += `${empty || ''}${piece}`;
          empty = 0;
        } else empty += 1;
      }
      ranks.push(`${row}${empty || ''}`);
    }
    return ranks.join('/');
  }, scope);

/** The squares highlighted as the last move in the first board under `scope`, sorted. */
export const readHighlighted = (page: Page, scope: string): Promise<string[]> =>
  page.evaluate(
    selector =>
      [
        ...(globalThis as unknown as PageGlobal).document.querySelectorAll(
          `${selector} svg.board .sq.last-move`,
        ),
      ]
        .map(el => el.getAttribute('data-square') ?? '')
        .sort(),
    scope,
  );

/** SAN as the pages write it by default: figurines for the pieces (web/shared/format.js). */
export const figurineSan = (san: string): string => {
  const f: Record<string, string> = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658' };
  return san.replace(/^[KQRBN]/, l => f[l] ?? l).replace(/=([QRBN])/, (_, l: string) => `=${f[l] ?? l}`);
};

export const placementOf = (fen: string): string => fen.split(' ')[0] ?? '';

export const squaresOf = (uci: string): string[] => [uci.slice(0, 2), uci.slice(2, 4)].sort();
