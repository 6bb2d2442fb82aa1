/**
 * The daemon's HTTP side: the live event streams (`/events`, and `/events/public` with a broadcast
 * delay), the pages, the feed, the arbiter and operator routes and `/healthz`, on one server.
 * Called by the daemon once its games and outputs run; what it starts is handed back through
 * `started` as soon as it exists, so a failed start still stops it.
 *
 *   const web = await startWeb({ config, connection, outputs, games, boards, ..., started: p => Object.assign(parts, p) });
 *   web.address; // 'http://127.0.0.1:8080'
 */
import { merge } from 'rxjs';
import type { Config } from '../config/index.js';
import { readArbiterSecrets } from '../http/credentials.js';
import type { BridgeMetrics } from '../http/metrics.js';
import { jsonReply } from '../http/reply.js';
import { HttpServer } from '../http/server.js';
import { makeFileReplier } from '../http/staticFiles.js';
import { LANGUAGES } from '../i18n/messages.js';
import type { Logger } from '../logger.js';
import type { MqttConnection } from '../mqtt/client.js';
import type { EventPublisher } from '../mqtt/publisher.js';
import type { RequestGate } from '../requestGate.js';
import { describeCertificate, type TlsPair } from '../security/tlsFiles.js';
import type { UserDirectory } from '../security/users.js';
import { LIVE_ROLES } from '../security/roles.js';
import { MQTT_BROWSER_BUNDLE, WEB_DIR } from '../web/paths.js';
import { SseHub, sseFilters } from '../web/sse.js';
import { type BoardRegistry, boardsDocument } from './boards.js';
import type { GameRegistry } from './games.js';
import { degradedReasons } from './health.js';
import type { DaemonOutputs } from './outputs.js';
import { PUBLIC_EVENTS_PATH, type PublicOutputs } from './publicOutputs.js';
import { makeArbiterActions } from './requestHandlers.js';

export interface WebDeps {
  readonly config: Config;
  readonly connection: MqttConnection;
  readonly outputs: DaemonOutputs;
  readonly games: GameRegistry;
  readonly boards: BoardRegistry;
  readonly broadcast: PublicOutputs | undefined;
  readonly publisher: EventPublisher | undefined;
  readonly metrics: BridgeMetrics;
  /** The port to listen on (0 = any free one). */
  readonly port: number;
  readonly tls: TlsPair | undefined;
  readonly gate: RequestGate;
  readonly users: UserDirectory | undefined;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** The journal's standing problem, if any, for /healthz. */
  readonly journalProblem: () => string | undefined;
  readonly log: (suffix: string) => Logger;
  /** Receives what was started, for the daemon to stop. */
  readonly started: (parts: { hub?: SseHub; publicHub?: SseHub; http?: HttpServer }) => void;
}

export interface WebStarted {
  /** `http://host:port` or `https://…`. */
  readonly address: string;
  readonly port: number;
}

/** Starts the event streams and the HTTP server; resolves once it listens. */
export const startWeb = async (deps: WebDeps): Promise<WebStarted> => {
  const { config, connection, outputs } = deps;
  const log = deps.log('bridge:http');
  const secrets = await readArbiterSecrets(config.http.arbiter);
  if (secrets.isErr) throw secrets.error;
  const filters = sseFilters(config.mqtt.baseTopic);
  const hub = new SseHub({
    messages$: merge(...filters.forward.map(f => connection.messages$(f, 1))),
    retainedFilters: filters.retained,
  });
  hub.start();
  deps.started({ hub });
  // With a broadcast delay the public pages read the delayed snapshots only (docs/broadcast.md).
  const broadcast = deps.broadcast;
  const publicBase = broadcast?.info().public_base ?? null;
  const publicHub =
    publicBase === null
      ? undefined
      : new SseHub({
          messages$: connection.messages$(`${publicBase}/games/+`, 1),
          retainedFilters: [`${publicBase}/games/+`],
        });
  publicHub?.start();
  if (publicHub !== undefined) deps.started({ publicHub });
  const mqttJs = makeFileReplier(MQTT_BROWSER_BUNDLE);
  const http = new HttpServer({
    metrics: deps.metrics,
    host: config.http.host,
    port: deps.port,
    ...(deps.tls === undefined ? {} : { tls: deps.tls }),
    feed: () => outputs.feed(),
    boards: () => boardsDocument(deps.boards, deps.now()),
    staticDir: WEB_DIR,
    language: config.http.language,
    routes: [
      // The pages' event stream (docs/web.md) and the MQTT.js bundle they import.
      // With a broadcast delay the live stream is the arbiters' and operators' only: the public
      // reads /events/public (docs/broadcast.md).
      {
        path: '/events',
        name: 'events',
        stream: (req, res) => hub.handle(req, res),
        ...(config.broadcast.delayMinutes > 0 ? { roles: LIVE_ROLES } : {}),
      },
      ...(publicHub === undefined
        ? []
        : [{ path: PUBLIC_EVENTS_PATH, name: 'events', stream: publicHub.handle.bind(publicHub) }]),
      { path: '/ui/vendor/mqtt.esm.js', name: 'vendor', reply: req => mqttJs(req.headers) },
      // The catalogs' list with the venue's default language (http.language).
      {
        path: '/ui/shared/i18n/languages.json',
        name: 'static',
        reply: () =>
          jsonReply(
            200,
            { default: config.http.language, languages: LANGUAGES },
            { 'cache-control': 'no-cache' },
          ),
      },
    ],
    arbiter: {
      ...secrets.value,
      gate: deps.gate,
      // A pairings upload carries a whole TRF file (upload_pairings allows 1 000 000 characters).
      maxBodyBytes: 4 * 1024 * 1024,
      ...(deps.users === undefined ? {} : { users: deps.users }),
      actions: makeArbiterActions({
        games: deps.games,
        boards: deps.boards,
        config,
        log: deps.log('bridge:requests'),
      }),
    },
    // The delay and where the public pages read from; the push's state (docs/broadcast.md).
    ...(broadcast === undefined ? {} : { broadcast: () => broadcast.info() }),
    health: () => ({
      ok: connection.isConnected,
      mqtt: connection.isConnected,
      games: deps.games.open().length,
      degraded: degradedReasons({
        boards: deps.boards,
        publisher: deps.publisher,
        journalProblem: deps.journalProblem(),
      }).concat(broadcast?.problems() ?? []),
    }),
  });
  deps.started({ http });
  const where = await http.start();
  const host = where.address.includes(':') ? `[${where.address}]` : where.address;
  const address = `${deps.tls === undefined ? 'http' : 'https'}://${host}:${where.port}`;
  const { token, password } = secrets.value;
  const methods = [
    ...(token === undefined ? [] : ['token']),
    ...(password === undefined ? [] : ['password']),
  ];
  log.info(
    `HTTP on ${address} (pages under /ui/, live PGN, /healthz, /metrics); arbiter actions ${
      methods.length === 0 ? 'off (no http.arbiter credentials)' : `with a ${methods.join(' or a ')}`
    }${deps.tls === undefined ? '' : `; certificate ${describeCertificate(deps.tls.leaf)}`}`,
  );
  return { address, port: where.port };
};
