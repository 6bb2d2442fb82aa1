/**
 * Where the daemon's results go: the MQTT publisher (events, alerts, retained snapshots, PGN,
 * board states, bridge info and health) and the live PGN feed the HTTP server renders. One
 * object, handed to the pipeline's publisher stages as plain functions.
 *
 *   const outputs = new DaemonOutputs({ publisher, topics, config, boards, now, startedAt });
 *   outputs.forGame('r1-b3').event(message);     // games/r1-b3/events, QoS 1
 *   outputs.boardState('b-03');                  // boards/b-03/state, retained
 *   outputs.feed();                              // the FeedState for the HTTP server
 */
import { makeFeedState, setRound, upsertGame } from '../feed/feedState.js';
import type { FeedState } from '../feed/feedState.js';
import type { Config } from '../config/index.js';
import type {
  AlertMessage,
  BridgeHealth,
  BridgeInfo,
  EventMessage,
  JsonObject,
  Topics,
} from '../mqtt/topics.js';
import type { BridgeMetrics } from '../http/metrics.js';
import type { PublisherHealth } from '../mqtt/publisher.js';
import type { MqttClientHealth } from '../mqtt/client.js';
import type { GameOutputs } from '../stages/publishGame.js';
import type { BoardRegistry } from './boards.js';
import type { BoardLeds } from './leds.js';
import { type GameView, liveGameOf, makeGamePgn, makeSnapshot } from '../game/gameView.js';
import type { WebAlert, WebGameSnapshot } from '../web/contract.js';
import { parseReadableTimeControl } from '../../engine/timeControl.js';

/** What the outputs need of the MQTT publisher (EventPublisher implements it). */
export interface PublisherPort {
  publishEvent(event: EventMessage): void;
  publishAlert(alert: AlertMessage): void;
  retain(topic: ReturnType<Topics['game']>, payload: WebGameSnapshot): void;
  retain(topic: ReturnType<Topics['gamePgn']>, payload: string): void;
  retain(
    topic: ReturnType<Topics['boardState']>,
    payload: NonNullable<ReturnType<BoardRegistry['stateOf']>>,
  ): void;
  retain(topic: ReturnType<Topics['bridgeInfo']>, payload: BridgeInfo): void;
  health(): PublisherHealth;
}

export interface DaemonOutputsContext {
  readonly publisher: PublisherPort;
  readonly topics: Topics;
  /** Publishes a non-retained message (bridge/health, QoS 0). */
  readonly publishRaw: (topic: string, payload: string) => void;
  readonly mqttHealth: () => MqttClientHealth;
  readonly config: Config;
  readonly boards: BoardRegistry;
  /** Wall clock, ms since the epoch. */
  readonly now: () => number;
  readonly version: string;
  readonly startedAt: number;
  /** The boards' LEDs (squares to fix); none: no LED requests. */
  readonly leds?: BoardLeds;
  /** The counters of /metrics: events and alerts published. */
  readonly metrics?: BridgeMetrics;
  /** Called after the feed changed (the folder export syncs). */
  readonly onFeedChange?: () => void;
  /** Called after a game's view or a board's state changed (the LiveChess feeds follow). */
  readonly onBoardChange?: (board: string, view?: GameView) => void;
}

/** Alerts about a position the board should not show; the console offers "restore to ply N" for them. */
const RESTORABLE: ReadonlySet<string> = new Set(['illegal_move', 'illegal_position', 'board_mismatch']);

/**
 * The ply the console's "restore" should offer: the game's length when the alert was raised, which
 * is the last legal position (the supervisor never records the illegal move). Without it the
 * console would offer the ply before that and drop a legal move.
 */
export const withRestorePly = (alert: WebAlert): WebAlert =>
  !RESTORABLE.has(alert.code) || alert.evidence?.restore_ply !== undefined
    ? alert
    : { ...alert, evidence: { ...alert.evidence, restore_ply: alert.ply } };

export class DaemonOutputs {
  private feedState: FeedState | undefined;
  /** The latest live snapshot of each game in the feed, by `round.board`. */
  private readonly liveSnapshots = new Map<string, WebGameSnapshot>();

  constructor(private readonly ctx: DaemonOutputsContext) {}

  /** The live feed as it stands (the HTTP server's `feed`). */
  feed(): FeedState {
    this.feedState ??= this.makeFeed();
    return this.feedState;
  }

  private makeFeed(): FeedState {
    const { tournament, laws } = this.ctx.config;
    const tc = parseReadableTimeControl(laws.timeControl);
    return makeFeedState(
      {
        name: tournament.name,
        ...(tournament.site === '' ? {} : { site: tournament.site }),
        ...(tc.isOk ? { timeControl: tc.value } : {}),
      },
      this.ctx.now(),
    );
  }

  /** The publisher functions of one game's lane. */
  forGame(): GameOutputs {
    return {
      event: m => {
        this.ctx.metrics?.countEvent(m.type);
        this.ctx.publisher.publishEvent(m);
      },
      alert: m => {
        this.ctx.metrics?.countAlert(m.code);
        // The board status shows the mismatch until the board shows the game's position again.
        if (m.code === 'board_mismatch' && m.board !== undefined) {
          this.ctx.boards.markMismatch(m.board);
          this.boardState(m.board);
        }
        this.ctx.publisher.publishAlert(withRestorePly(m));
      },
      view: v => this.view(v),
      ...(this.ctx.leds === undefined ? {} : { boardEvent: this.ctx.leds.onEvent.bind(this.ctx.leds) }),
    };
  }

  /** The latest live snapshot of the game on board `board` of round `round` (the public snapshots start from it). */
  liveSnapshot(round: number, board: number): WebGameSnapshot | undefined {
    return this.liveSnapshots.get(`${round}.${board}`);
  }

  /** A game as it now stands: retained snapshot and PGN, and the feed. */
  view(view: GameView): void {
    const { topics, publisher } = this.ctx;
    const snapshot = makeSnapshot(view);
    publisher.retain(topics.game(view.info.game), snapshot);
    publisher.retain(topics.gamePgn(view.info.game), makeGamePgn(view));
    if (view.info.board !== undefined) this.ctx.onBoardChange?.(view.info.board, view);
    const live = liveGameOf(view);
    if (live === undefined) return;
    this.liveSnapshots.set(`${live.round}.${live.board}`, snapshot);
    const now = this.ctx.now();
    // The broadcast delay holds the public outputs back; the live topics (above) and the console stay live.
    const { delayMinutes, delayResults } = this.ctx.config.broadcast;
    const delayMs = delayMinutes * 60_000;
    const feed =
      delayMs > 0 ? setRound(this.feed(), live.round, { delayMs, delayResults }, now) : this.feed();
    // The serial the board reports (index.json names it, for tools that map boards to games).
    const board = view.info.board === undefined ? undefined : this.ctx.boards.get(view.info.board);
    const serial = board?.status.serial ?? board?.config.serial;
    this.feedState = upsertGame(feed, serial === undefined ? live : { ...live, boardSerial: serial }, now);
    this.ctx.onFeedChange?.();
  }

  /** The retained state of a board. */
  boardState(id: string): void {
    const state = this.ctx.boards.stateOf(id);
    if (state !== undefined) this.ctx.publisher.retain(this.ctx.topics.boardState(id), state);
    this.ctx.onBoardChange?.(id);
  }

  /** The retained `bridge/info`. */
  info(games: readonly string[]): void {
    this.ctx.publisher.retain(this.ctx.topics.bridgeInfo(), {
      version: this.ctx.version,
      client_id: this.ctx.config.mqtt.clientId,
      started_at: new Date(this.ctx.startedAt).toISOString(),
      boards: this.ctx.boards.ids(),
      games: [...games],
    });
  }

  /** The periodic `bridge/health`. */
  health(): BridgeHealth {
    const now = this.ctx.now();
    const mqtt = this.ctx.mqttHealth();
    const pub = this.ctx.publisher.health();
    const boards: Record<string, JsonObject> = {};
    for (const slot of this.ctx.boards.all()) {
      const s = slot.status;
      boards[slot.config.id] = {
        link: s.link,
        game: s.game ?? null,
        observations: s.observations,
        protocol_errors: s.protocolErrors,
        link_losses: s.linkLosses,
      };
    }
    const health: BridgeHealth = {
      at: new Date(now).toISOString(),
      uptime_s: Math.round((now - this.ctx.startedAt) / 1000),
      mqtt: {
        connected: mqtt.connected,
        reconnects: mqtt.reconnects,
        published: mqtt.published,
        queued: pub.queued,
        acked: pub.acked,
        dropped: pub.dropped + mqtt.dropped,
      },
      boards,
    };
    this.ctx.publishRaw(this.ctx.topics.bridgeHealth().name, JSON.stringify(health));
    return health;
  }
}
