/**
 * The daemon's composition: builds every component from the configuration, starts them in order
 * (journal → embedded broker → ack ledger → MQTT connection → publisher → games restored from
 * their journals → web) and stops them in reverse, and hands out the pipeline for `main` to
 * subscribe to. Constructors only assign; `start()` and `stop()` are idempotent; a start that
 * fails stops what it had started.
 *
 *   const daemon = new Daemon({ config, log, engine, scheduler: asyncScheduler, now: daemonClock, version });
 *   await daemon.start();
 *   const sub = daemon.pipeline$().pipe(takeUntil(shutdown$)).subscribe();   // main.ts
 *   await daemon.stop();
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { auditTime, interval, type Observable, type SchedulerLike, startWith, tap } from 'rxjs';
import type { Config } from '../config/index.js';
import { HttpServer } from '../http/server.js';
import { JournalStore } from '../journal/index.js';
import type { Logger } from '../logger.js';
import { AckLedger } from '../mqtt/ackLedger.js';
import { MqttConnection, type MqttTlsOptions } from '../mqtt/client.js';
import { BridgeMetrics } from '../http/metrics.js';
import { EmbeddedBroker } from '../mqtt/embeddedBroker.js';
import { EventPublisher } from '../mqtt/publisher.js';
import { serveRequests$ } from '../mqtt/requests.js';
import { RequestGate } from '../requestGate.js';
import { makeDaemonUser, readUsers } from '../security/configUsers.js';
import { UserDirectory } from '../security/users.js';
import { authorizeMqttRequest } from './authorize.js';
import { makePipeline$ } from './pipeline.js';
import type { SseHub } from '../web/sse.js';
import { BoardRegistry } from './boards.js';
import { type BoardOpener, makeBoardOpener } from './drivers.js';
import { notConnected } from './health.js';
import { BoardLeds } from './leds.js';
import type { SupervisorPort } from '../game/engine.js';
import { type PairingsWatch, watchPairingsFile } from './pairingsWatch.js';
import { GameRegistry } from './games.js';
import { DaemonOutputs } from './outputs.js';
import { PublicOutputs, readPushToken } from './publicOutputs.js';
import { makeRequestHandlers } from './requestHandlers.js';
import { restoreOperations } from './operatorHandlers.js';
import { restoreGames, type RestoreSummary } from './restore.js';
import { startWeb } from './web.js';
import type { LiveChessServer } from '../livechess/server.js';
import { type LiveChessBoards, makeLiveChessApi } from './liveChessBoards.js';
import { readTlsPairs, type TlsPair } from '../security/tlsFiles.js';

export interface DaemonContext {
  readonly config: Config;
  /** The root logger (`chessbridge`); components get children. */
  readonly log: Logger;
  readonly engine: SupervisorPort;
  readonly scheduler: SchedulerLike;
  /** The daemon's clock: ms since the epoch, monotonic (performance.timeOrigin + performance.now()). */
  readonly now: () => number;
  readonly version: string;
  /** Opens boards (default: serial ports and the configured drivers, with `leds`). */
  readonly openBoard?: BoardOpener;
  /** The boards' LEDs, fed from the published events (give the same one to `openBoard`'s opener). */
  readonly leds?: BoardLeds;
  /** Period of bridge/health (ms, default 30 000). */
  readonly healthMs?: number;
  /** Period of the line summing up refused requests (ms, default 10 000). */
  readonly refusalsLogMs?: number;
  /** Let the HTTP server listen on any free port (tests); default the configured one. */
  readonly httpPort?: number;
  /** Let the LiveChess API listen on any free port (tests); default the configured one. */
  readonly livechessPort?: number;
  /** Let the embedded broker listen on any free ports (tests, the demo's fallback). */
  readonly brokerPorts?: { readonly port: number; readonly wsPort: number };
  /** Milliseconds between two aggregate lines of failed MQTT logins (default 60 000). */
  readonly loginReportMs?: number;
}

export interface DaemonAddresses {
  readonly mqtt: string;
  readonly ws: string | undefined;
  readonly http: string | undefined;
  /** ws://host:port/api/v1.0 when livechess.enabled. */
  readonly livechess?: string;
}

interface Parts {
  readonly journal: JournalStore;
  readonly broker: EmbeddedBroker | undefined;
  readonly ledger: AckLedger;
  readonly connection: MqttConnection;
  /** The connection requests come in on (and are answered on). */
  readonly requestConnection: MqttConnection;
  readonly publisher: EventPublisher;
  readonly boards: BoardRegistry;
  readonly games: GameRegistry;
  readonly outputs: DaemonOutputs;
  /** The outputs behind the broadcast delay: folder export, public topics, push to Lichess. */
  readonly broadcast: PublicOutputs;
  pairingsWatch: PairingsWatch | undefined;
  hub: SseHub | undefined;
  /** The delayed event stream of the public pages (with a broadcast delay). */
  publicHub: SseHub | undefined;
  http: HttpServer | undefined;
  livechess: LiveChessServer | undefined;
  liveChessBoards: LiveChessBoards | undefined;
  addresses: DaemonAddresses;
  restored: RestoreSummary | undefined;
}

const readTls = async (tls: Config['mqtt']['tls']): Promise<MqttTlsOptions | undefined> => {
  const files = { ca: tls.ca, cert: tls.cert, key: tls.key };
  const entries = await Promise.all(
    Object.entries(files).map(
      async ([k, path]) => [k, path === undefined ? undefined : await readFile(path)] as const,
    ),
  );
  const present = entries.filter(([, v]) => v !== undefined);
  if (present.length === 0 && tls.rejectUnauthorized) return undefined;
  return { ...Object.fromEntries(present), rejectUnauthorized: tls.rejectUnauthorized };
};

/** What has been built so far (a start that fails half-way stops just these). */
type Built = Partial<Parts> & Pick<Parts, 'journal' | 'boards' | 'games'>;

export class Daemon {
  private parts: Built | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly startedAt: number;
  private readonly leds: BoardLeds;
  private stopAsked = false;
  /** The journal's last problem (a full disk, a failed write), for /healthz. */
  private journalProblem: string | undefined;
  /** The counters /metrics shows, fed by the outputs and the publisher. */
  readonly metrics: BridgeMetrics;
  /** Rate limits and the request queue, shared by the MQTT requests and the HTTP arbiter actions. */
  readonly requestGate: RequestGate;
  private partsStopping: Promise<void> | undefined;
  /** The venue's users and the daemon's own, once started. */
  private users: UserDirectory | undefined;
  private httpPortBound: number | undefined;
  /** The HTTP server's certificate and key (http.tls), read at start. */
  private httpTls: TlsPair | undefined;

  constructor(private readonly ctx: DaemonContext) {
    this.startedAt = Date.now();
    this.metrics = new BridgeMetrics(this.startedAt, () => {
      const parts = this.parts;
      if (parts === undefined) return {};
      const pub = parts.publisher?.health();
      return {
        publishQueue: pub?.queued ?? 0,
        publishOldest: (pub?.oldestMs ?? 0) / 1000,
        publishStalled: pub?.stalled ?? 0,
        boardsConnected: parts.boards.all().length - notConnected(parts.boards).length,
      };
    });
    this.leds = ctx.leds ?? new BoardLeds();
    this.requestGate = new RequestGate({
      limits: ctx.config.requests,
      now: () => ctx.scheduler.now(),
      onRefused: (transport, reason) => this.metrics.countRefused(transport, reason),
    });
  }

  get addresses(): DaemonAddresses | undefined {
    return this.parts?.addresses;
  }

  get restored(): RestoreSummary | undefined {
    return this.parts?.restored;
  }

  /** The registries (tests and the demo read them). */
  get games(): GameRegistry | undefined {
    return this.parts?.games;
  }

  get boards(): BoardRegistry | undefined {
    return this.parts?.boards;
  }

  /**
   * Starts every part in order. A failure stops what was started and rejects with it; so does a
   * stop() asked for meanwhile (a signal during the start), once the part being started gives up.
   */
  start(): Promise<void> {
    if (this.starting === undefined) this.partsStopping = undefined; // a new try, after a failed one
    this.starting ??= this.doStart().catch(async (e: unknown) => {
      // Not shutdown(): it waits for this very start, which would never end.
      await this.stopParts();
      // A later start() tries again from scratch.
      this.starting = undefined;
      throw e;
    });
    return this.starting;
  }

  /** Throws when a stop was asked for while starting, so no further part is started. */
  private checkNotStopped(): void {
    if (this.stopAsked) throw new Error('stopped before it had started');
  }

  /** The port the daemon's pages are served from (their WebSocket origin), once known. */
  private httpPort(): number | undefined {
    const { config } = this.ctx;
    if (!config.http.enabled) return undefined;
    return (
      this.httpPortBound ?? (this.ctx.httpPort === 0 ? undefined : (this.ctx.httpPort ?? config.http.port))
    );
  }

  private log(suffix: string): Logger {
    return this.ctx.log.child(suffix);
  }

  private async doStart(): Promise<void> {
    const { config } = this.ctx;
    const log = this.log('bridge:daemon');
    const journal = new JournalStore({
      dir: config.journal.dir,
      checkpointMs: config.journal.checkpointSeconds * 1000,
      onProblem: p => {
        const line = `${p.kind}: ${'error' in p ? p.error.message : JSON.stringify(p)}`;
        // Recovery problems at start (a torn tail, a gap) are logged, not a standing fault.
        if (p.kind === 'disk-full' || p.kind === 'checkpoint-failed') this.journalProblem = line;
        if (p.kind === 'disk-space-back') this.journalProblem = undefined;
        // A full disk holds every input back until it is written: the operator must act.
        if (p.kind === 'disk-full') this.log('bridge:journal').error(line);
        else this.log('bridge:journal').warn(line);
      },
    });
    const started = await journal.start();
    if (started.isErr) {
      await journal.stop();
      throw started.error;
    }
    log.info(
      `journal ${config.journal.dir}: ${started.value.games.length} unfinished games, ${started.value.finished} finished`,
    );
    const mqttLog = this.ctx.log.mqtt;
    const external = config.mqtt.url;
    const users = await readUsers(config.users);
    if (users.isErr) {
      await journal.stop();
      throw users.error;
    }
    // Certificates and keys are checked before anything listens: a bad file stops the start here.
    const tlsPairs = await readTlsPairs(
      {
        http: { files: config.http.enabled ? config.http.tls : undefined, at: 'http.tls' },
        broker: { files: external === undefined ? config.mqtt.broker.tls : undefined, at: 'mqtt.broker.tls' },
      },
      this.ctx.now(),
    );
    if (tlsPairs.isErr) {
      await journal.stop();
      throw tlsPairs.error;
    }
    const { http: httpTls, broker: brokerTls } = tlsPairs.value;
    this.httpTls = httpTls;
    const daemonUser = makeDaemonUser();
    const directory = new UserDirectory([...users.value, daemonUser.entry]);
    this.users = directory;
    const broker =
      external === undefined
        ? new EmbeddedBroker({
            log: mqttLog,
            host: config.mqtt.broker.host,
            port: this.ctx.brokerPorts?.port ?? config.mqtt.broker.port,
            ...(brokerTls === undefined ? {} : { tls: brokerTls }),
            wsPort:
              this.ctx.brokerPorts?.wsPort ??
              (config.mqtt.broker.wsPort === 0 ? null : config.mqtt.broker.wsPort),
            access: {
              users: directory,
              daemon: { user: daemonUser.name, clientId: config.mqtt.clientId },
              base: config.mqtt.baseTopic,
              anonymousRead: config.mqtt.broker.anonymousRead,
              delayed: config.broadcast.delayMinutes > 0,
              origins: config.mqtt.broker.origins,
              httpPort: () => this.httpPort(),
              ...(this.ctx.loginReportMs === undefined ? {} : { reportEveryMs: this.ctx.loginReportMs }),
            },
          })
        : undefined;
    const ledger = new AckLedger({ path: join(config.journal.dir, 'mqtt-acked.json'), log: mqttLog });
    const boards = new BoardRegistry(config.boards, this.ctx.now);
    const games = new GameRegistry({
      config,
      journal,
      boards,
      engine: this.ctx.engine,
      now: this.ctx.now,
      log: this.log('bridge:games'),
      onBoardBound: board => this.parts?.outputs?.boardState(board),
    });
    boards.watch({
      watch: config.watch,
      gameUnderWay: id => {
        const slot = games.get(id);
        return slot?.phase === 'open' && !slot.run.ended && slot.view.record.length > 0;
      },
      gamePlacement: id => {
        const view = games.get(id)?.view;
        return view?.record.fenAt(view.record.length).split(' ')[0];
      },
    });
    // Parts are kept as soon as they exist, so a start that fails stops what it had started.
    const partial: Built = { journal, ledger, boards, games, ...(broker === undefined ? {} : { broker }) };
    this.parts = partial;
    this.checkNotStopped();
    let brokerUrl = external;
    let wsUrl: string | undefined;
    if (broker !== undefined) {
      const where = await broker.start();
      this.checkNotStopped();
      brokerUrl = where.url;
      wsUrl = where.wsUrl;
    }
    const loaded = await ledger.load();
    if (loaded.isErr) log.warn(`${loaded.error.message}: every journaled event will be published again`);
    const mqtt = config.mqtt;
    const connectionContext = {
      url: brokerUrl ?? 'mqtt://127.0.0.1:1883',
      clientId: mqtt.clientId,
      base: mqtt.baseTopic,
      log: mqttLog,
      startTimeoutMs: mqtt.startTimeoutSeconds * 1000,
      ...(broker === undefined ? {} : { protocolVersion: 4 as const }),
      ...(external !== undefined && mqtt.username !== undefined ? { username: mqtt.username } : {}),
      ...(external !== undefined && mqtt.password !== undefined ? { password: mqtt.password } : {}),
      ...(broker === undefined ? {} : { username: daemonUser.name, password: daemonUser.secret }),
      // Its own broker's certificate, whatever names it holds: the daemon trusts exactly that one.
      ...(broker === undefined || brokerTls === undefined
        ? {}
        : { tls: { ca: brokerTls.cert, pinned: true } }),
      ...(external === undefined
        ? {}
        : await readTls(mqtt.tls).then(tls => (tls === undefined ? {} : { tls }))),
    };
    const connection = new MqttConnection(connectionContext);
    // Requests come in on a connection of their own, read at a bounded pace: a flood waits at the
    // broker instead of in front of the events' acknowledgements and the daemon's event loop.
    const requestConnection = new MqttConnection({
      ...connectionContext,
      clientId: `${mqtt.clientId}-requests`,
      announce: false,
      pace: () => this.requestGate.readDelayMs(),
    });
    const publisher = new EventPublisher({
      connection,
      log: mqttLog,
      ledger,
      onAcked: ms => this.metrics.observePublishLatency(ms / 1000),
    });
    const pushToken = await readPushToken(config.broadcast.lichess);
    if (pushToken.isErr) throw pushToken.error;
    // The public outputs follow the feed; they are made right after the outputs they read.
    const follow: { outputs?: PublicOutputs } = {};
    const outputs = new DaemonOutputs({
      publisher,
      topics: connection.topics,
      publishRaw: (topic, payload) => {
        if (connection.isConnected)
          connection.publish(topic, payload, { qos: 0, retain: false }).catch(() => undefined);
      },
      mqttHealth: () => connection.health(),
      config,
      boards,
      now: () => this.ctx.scheduler.now(),
      version: this.ctx.version,
      startedAt: this.startedAt,
      leds: this.leds,
      metrics: this.metrics,
      onFeedChange: () => follow.outputs?.changed(),
      onBoardChange: (board, view) => {
        if (view !== undefined) partial.liveChessBoards?.viewed(view);
        partial.livechess?.notify(board);
      },
    });
    const broadcast = new PublicOutputs({
      config,
      outputs,
      publishPublic: snapshot => publisher.retain(connection.topics.publicGame(snapshot.game), snapshot),
      clearPublic: game => publisher.clearRetained(connection.topics.publicGame(game)),
      token: pushToken.value,
      scheduler: this.ctx.scheduler,
      now: () => this.ctx.scheduler.now(),
      log: suffix => this.log(suffix),
    });
    follow.outputs = broadcast;
    Object.assign(partial, { connection, requestConnection, publisher, outputs, broadcast });
    await connection.start();
    this.checkNotStopped();
    await requestConnection.start();
    this.checkNotStopped();
    await publisher.start();
    log.info(`MQTT ${brokerUrl ?? ''} as ${mqtt.clientId}, topics under ${mqtt.baseTopic}/`);
    const restored = await restoreGames(started.value, {
      dir: config.journal.dir,
      games,
      engine: this.ctx.engine,
      outputs,
      republish: (game, events) => publisher.publishFrom(game, events),
      config,
      log: this.log('bridge:restore'),
      now: () => this.ctx.scheduler.now(),
    });
    this.checkNotStopped();
    partial.restored = restored;
    partial.addresses = { mqtt: brokerUrl ?? '', ws: wsUrl, http: undefined };
    if (config.http.enabled) await this.startWeb(partial, connection, outputs);
    const operations = await restoreOperations({ games, config, log: this.log('bridge:requests') });
    if (operations > 0) log.info(`operations journal: ${operations} operator actions done again`);
    if (config.livechess.enabled) await this.startLiveChess(partial);
    partial.pairingsWatch = watchPairingsFile({
      config,
      log: this.log('bridge:pairings'),
      scheduler: this.ctx.scheduler,
      apply: pairings => games.setPairings(pairings),
    });
    outputs.info(games.open().map(g => g.id));
    for (const id of boards.ids()) outputs.boardState(id);
  }

  private async startWeb(parts: Built, connection: MqttConnection, outputs: DaemonOutputs): Promise<void> {
    const web = await startWeb({
      config: this.ctx.config,
      connection,
      outputs,
      games: parts.games,
      boards: parts.boards,
      broadcast: parts.broadcast,
      publisher: parts.publisher,
      metrics: this.metrics,
      port: this.ctx.httpPort ?? this.ctx.config.http.port,
      tls: this.httpTls,
      gate: this.requestGate,
      users: this.users,
      now: this.ctx.now,
      journalProblem: () => this.journalProblem,
      log: suffix => this.log(suffix),
      started: started => Object.assign(parts, started),
    });
    this.httpPortBound = web.port;
    parts.addresses = { mqtt: parts.addresses?.mqtt ?? '', ws: parts.addresses?.ws, http: web.address };
  }

  /** The LiveChess API (docs/livechess-api.md) on its own port. */
  private async startLiveChess(parts: Built): Promise<void> {
    const { config } = this.ctx;
    const api = makeLiveChessApi({
      config,
      games: parts.games,
      boards: parts.boards,
      users: this.users,
      log: this.log('bridge:livechess'),
      requestLog: this.log('bridge:requests'),
      ...(this.ctx.livechessPort === undefined ? {} : { port: this.ctx.livechessPort }),
    });
    parts.liveChessBoards = api.boards;
    parts.livechess = api.server;
    const address = await api.start();
    this.checkNotStopped();
    const { mqtt = '', ws, http } = parts.addresses ?? {};
    parts.addresses = { mqtt, ws, http, livechess: address };
  }

  /** Everything the daemon runs, for main's one subscription. Call after start(). */
  pipeline$(extras: readonly Observable<unknown>[] = []): Observable<unknown> {
    const parts = this.parts;
    const { connection, requestConnection, outputs } = parts ?? {};
    if (
      parts === undefined ||
      connection === undefined ||
      requestConnection === undefined ||
      outputs === undefined
    )
      throw new TypeError('Daemon.pipeline$: call start() first');
    const { config, scheduler } = this.ctx;
    const openBoard =
      this.ctx.openBoard ??
      makeBoardOpener({
        now: this.ctx.now,
        scheduler,
        log: this.log('bridge:drivers'),
        boards: config.boards,
        calibrationDir: join(config.journal.dir, 'calibration'),
        leds: board => this.leds.of(board.id),
      });
    const requests$ = serveRequests$({
      connection: requestConnection,
      handlers: makeRequestHandlers({
        games: parts.games,
        boards: parts.boards,
        config,
        log: this.log('bridge:requests'),
      }),
      log: this.ctx.log.mqtt,
      gate: this.requestGate,
      concurrency: config.requests.concurrency,
      authorize: (sender, action) =>
        authorizeMqttRequest(sender, action, {
          roleOf: user => this.users?.roleOf(user),
          embedded: parts.broker !== undefined,
          usersConfigured: config.users.length > 0,
        }),
    }).pipe(
      tap(o => {
        const requests = this.log('bridge:requests');
        if (o.status === 'ok') requests.info(`${o.action}: ok`);
        else requests.warn(`${o.action}: ${o.error ?? 'error'}`);
      }),
    );
    const info$ = parts.games.changes$.pipe(
      startWith(undefined),
      auditTime(200, scheduler),
      tap(() => outputs.info(parts.games.open().map(g => g.id))),
    );
    const health$ = interval(this.ctx.healthMs ?? 30_000, scheduler).pipe(tap(() => outputs.health()));
    // Time alone makes a board not responding or its clock paused too long: judged every second.
    const watch$ = interval(1000, scheduler).pipe(
      tap(() => {
        for (const id of parts.boards.ids()) if (parts.boards.refresh(id)) outputs.boardState(id);
      }),
    );
    // Refused requests are said once per period, summed up, never once a request.
    const refusals$ = interval(this.ctx.refusalsLogMs ?? 10_000, scheduler).pipe(
      tap(() => {
        const line = this.requestGate.summary();
        if (line !== undefined) this.log('bridge:requests').warn(line);
      }),
    );
    return makePipeline$({
      boards: parts.boards,
      games: parts.games,
      engine: this.ctx.engine,
      journal: parts.journal,
      outputs,
      openBoard,
      scheduler,
      now: this.ctx.now,
      log: this.ctx.log.child('bridge'),
      language: config.http.language,
      extras: [requests$, info$, health$, watch$, refusals$, ...extras],
    });
  }

  /** Stops everything in reverse order: queued events drain (bounded), the journal is synced, `offline` published. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.stopAsked = true;
    // A start in progress is not waited for first: its parts are stopped (an MQTT connection
    // still being made is aborted), and it ends with them.
    await this.stopParts();
    if (this.starting !== undefined) await this.starting.catch(() => undefined);
  }

  /** Stops the parts built so far, once (start's failure and stop() may both ask). */
  private stopParts(): Promise<void> {
    if (this.parts === undefined) return Promise.resolve();
    this.partsStopping ??= this.doStopParts();
    return this.partsStopping;
  }

  private async doStopParts(): Promise<void> {
    const parts = this.parts;
    if (parts === undefined) return;
    const log = this.log('bridge:daemon');
    parts.pairingsWatch?.stop();
    parts.games.closeAll();
    parts.hub?.stop(); // ends the event streams, so the server need not wait for them
    await parts.livechess?.stop();
    parts.publicHub?.stop();
    await parts.http?.stop();
    await parts.broadcast?.stop();
    await parts.publisher?.stop();
    await parts.ledger?.stop();
    await parts.journal.stop();
    log.info('journal synced');
    await parts.requestConnection?.stop();
    await parts.connection?.stop();
    await parts.broker?.stop();
    log.info('stopped');
  }
}
