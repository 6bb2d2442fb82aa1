// Connects a page to the bridge's live data, over MQTT on a WebSocket (MQTT 3.1.1, which the
// embedded broker speaks) or over server-sent events, and feeds one GameStore: retained game
// snapshots, game events deduplicated by seq, alerts and request responses. When the store finds
// a gap it reads the game's retained snapshot again. A game's snapshot and events count only on
// that game's own topics, and a retained snapshot only until the live stream refutes it (store.js). Arbiter requests go out on
// `<base>/bridge/request/<user>/<action>` when the page logs in as a user (what an external
// broker's ACL lets that user write, and what the embedded broker accepts from its own user), else
// on `<base>/bridge/request/<action>`, with a transaction id; they resolve with the response envelope.
//
//   const live = new LiveConnection({ ...readSettings(), alerts: true });
//   live.onStatus(status => badge.textContent = status);
//   await live.start();
//   live.store.subscribe(({ game }) => render(live.store.get(game)));
//   const envelope = await live.request('restore_position', { game_id: 'r1-b1', ply: 24 });

import { ClockSkew } from './clock.js';
import { GameStore } from './store.js';

/** The MQTT.js browser bundle, served beside the pages by the bridge's HTTP server. */
const MQTT_BUNDLE = new URL('../vendor/mqtt.esm.js', import.meta.url).href;

/** Milliseconds between two re-reads of one game's snapshot. */
const RESYNC_INTERVAL_MS = 3000;
/** Milliseconds an MQTT request waits for its response. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The connection settings of a page from its address:
 * `?mqtt=ws://host:9001/mqtt` (default: port 9001 of the page's host), or `?sse=/events`
 * for server-sent events; `?base=chessbridge` (the topic base).
 */
export const readSettings = (href = window.location.href) => {
  const url = new URL(href);
  const q = url.searchParams;
  const base = (q.get('base') || 'chessbridge').replace(/\/+$/, '');
  const sse = q.get('sse');
  if (sse) return { transport: 'sse', url: new URL(sse, url).href, base };
  const scheme = url.protocol === 'https:' ? 'wss' : 'ws';
  const host = url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname || '127.0.0.1';
  return { transport: 'mqtt', url: q.get('mqtt') || `${scheme}://${host}:9001/mqtt`, base };
};

/** What the daemon says about the broadcast delay (docs/broadcast.md), beside the pages. */
const BROADCAST_INFO = new URL('../../api/broadcast', import.meta.url).href;
const SITE_ROOT = new URL('../../', import.meta.url).href;

/**
 * The settings of a public page (the display, not the console): while a broadcast delay is set,
 * the delayed snapshots under `<base>/public` (over MQTT, or the delayed event stream) instead of
 * the live topics, and `delayMs`. A page served without the daemon's API (a 404, or opened as a
 * file) keeps its settings. Any other failure (the daemon restarting, a proxy's 502, a network
 * error) is tried again, 1 s doubling to 30 s, and the page waits: reading the live topics
 * meanwhile would show moves a delay holds back.
 * @param {ReturnType<typeof readSettings>} settings
 * @param {() => Promise<Response>} [fetchInfo]
 * @param {(ms: number) => Promise<void>} [wait]
 * @param {string} [protocol] the page's own URL scheme
 */
export const publicSettings = async (
  settings,
  fetchInfo = () => fetch(BROADCAST_INFO, { cache: 'no-store' }),
  wait = ms => new Promise(resolve => setTimeout(resolve, ms)),
  protocol = window.location.protocol,
) => {
  if (protocol === 'file:') return settings;
  for (let attempt = 0; ; attempt++) {
    const info = await fetchInfo().then(
      async res => (res.status === 404 ? NO_API : res.ok ? res.json().catch(() => undefined) : undefined),
      () => undefined,
    );
    if (info === NO_API) return settings;
    if (info !== undefined) return settingsFrom(settings, info);
    await wait(Math.min(30_000, 1000 * 2 ** attempt));
  }
};

const NO_API = Symbol('no broadcast API');

/** The settings once the daemon has said what its broadcast delay is. */
const settingsFrom = (settings, info) => {
  if (typeof info?.public_base !== 'string' || typeof info.public_events !== 'string')
    return { ...settings, delayMs: 0 };
  return {
    ...settings,
    base: info.public_base,
    delayMs: Number(info.delay_ms) || 0,
    ...(settings.transport === 'sse'
      ? { url: new URL(info.public_events.replace(/^\/+/, ''), SITE_ROOT).href }
      : {}),
  };
};

const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(6)), b => b.toString(16).padStart(2, '0')).join('');

/**
 * Where a request goes: under the user's own name when logged in as one (docs/security.md).
 * @param {string} base
 * @param {string|undefined} username
 * @param {string} action
 */
export const requestTopic = (base, username, action) =>
  username ? `${base}/bridge/request/${username}/${action}` : `${base}/bridge/request/${action}`;

/** MQTT CONNACK codes of a refusal: 4 bad user name or password, 5 not authorized. */
const REFUSED_CODES = new Set([4, 5, 134, 135]);

export class LiveConnection {
  /**
   * @param {object} options
   * @param {'mqtt'|'sse'} options.transport
   * @param {string} options.url broker WebSocket URL, or the event stream URL
   * @param {string} options.base topic base
   * @param {boolean} [options.alerts] also follow `<base>/alerts`
   * @param {boolean} [options.responses] also follow `<base>/bridge/response/+` (needed for request())
   * @param {boolean} [options.boards] also follow `<base>/boards/+/state` (the boards page)
   * @param {string} [options.username] MQTT credentials
   * @param {string} [options.password]
   */
  constructor(options) {
    this.options = options;
    this.store = new GameStore();
    this.skew = new ClockSkew();
    this.clientId = `web-${randomId()}`;
    this.status = 'connecting';
    this.daemon = 'unknown';
    this.listeners = { status: new Set(), alert: new Set(), response: new Set(), board: new Set() };
    this.pending = new Map();
    this.lastResync = new Map();
    this.counter = 0;
    this.client = null;
    this.source = null;
    /** SSE streams being replaced, closed once their successor is open. */
    this.retiring = new Set();
    this.store.subscribe(({ game, needsSnapshot }) => {
      if (needsSnapshot) this.resync(game);
    });
  }

  /** `listener(status)`: 'connecting' | 'live' | 'offline' | 'refused'. Returns the removal. */
  onStatus(listener) {
    return this.on('status', listener);
  }

  /** `listener(alert)` for every message on `<base>/alerts`. */
  onAlert(listener) {
    return this.on('alert', listener);
  }

  /** `listener(state)` for every board state on `<base>/boards/+/state` (needs `boards: true` over MQTT). */
  onBoard(listener) {
    return this.on('board', listener);
  }

  /** `listener(envelope, action)` for every response on `<base>/bridge/response/+`. */
  onResponse(listener) {
    return this.on('response', listener);
  }

  on(kind, listener) {
    this.listeners[kind].add(listener);
    return () => this.listeners[kind].delete(listener);
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.listeners.status.forEach(listener => listener(status));
  }

  /** Connects; resolves once live, rejects when the broker refuses the credentials. */
  start() {
    return this.options.transport === 'sse' ? this.startSse() : this.startMqtt();
  }

  /** Closes the connection; pending requests fail. */
  stop() {
    this.client?.end(true);
    this.client = null;
    this.source?.close();
    this.source = null;
    this.retiring.forEach(old => old.close());
    this.retiring.clear();
    this.pending.forEach(({ resolve, timer, transaction }) => {
      clearTimeout(timer);
      resolve({ status: 'error', data: {}, error: 'connection closed', transaction, local: true });
    });
    this.pending.clear();
    this.setStatus('offline');
  }

  filters() {
    const { base, alerts, responses, boards } = this.options;
    return [
      `${base}/games/+`,
      `${base}/games/+/events`,
      `${base}/bridge/state`,
      ...(alerts ? [`${base}/alerts`] : []),
      ...(responses ? [`${base}/bridge/response/+`] : []),
      ...(boards ? [`${base}/boards/+/state`] : []),
    ];
  }

  async startMqtt() {
    const { default: mqtt } = await import(MQTT_BUNDLE);
    const { url, username, password } = this.options;
    const client = mqtt.connect(url, {
      protocolVersion: 4,
      clientId: this.clientId,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      keepalive: 30,
      resubscribe: true,
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
    });
    this.client = client;
    client.on('message', (topic, payload, packet) =>
      this.handle(topic, payload.toString(), packet.retain === true),
    );
    client.on('offline', () => this.setStatus('offline'));
    client.on('reconnect', () => this.status !== 'refused' && this.setStatus('connecting'));
    return new Promise((resolve, reject) => {
      let settled = false;
      client.on('connect', () => {
        client.subscribe(this.filters(), { qos: 1 }, error => {
          if (error) return;
          this.setStatus('live');
          if (!settled) {
            settled = true;
            resolve();
          }
        });
      });
      client.on('error', error => {
        if (!REFUSED_CODES.has(error?.code)) return;
        client.end(true);
        this.setStatus('refused');
        if (!settled) {
          settled = true;
          reject(Object.assign(new Error('the broker refused the credentials'), { kind: 'refused' }));
        }
      });
    });
  }

  startSse() {
    return new Promise(resolve => {
      const open = () => {
        const source = new EventSource(this.options.url);
        this.source = source;
        source.onopen = () => {
          // The new stream is registered at the server: the one it replaces may go now.
          this.retiring.forEach(old => old !== source && old.close());
          this.retiring.clear();
          this.setStatus('live');
          resolve();
        };
        source.onerror = () => {
          if (this.source === source)
            this.setStatus(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
        };
        source.onmessage = message => {
          let data;
          try {
            data = JSON.parse(message.data);
          } catch {
            return;
          }
          if (typeof data?.topic === 'string' && typeof data.payload === 'string')
            this.handle(data.topic, data.payload, data.retained === true);
        };
      };
      // Reading the retained snapshots again means a new stream. The old one stays open until the
      // new one is, so a message sent meanwhile (alerts are not retained) comes on one of them; the
      // store and the console drop what comes twice.
      this.reopenSse = () => {
        if (this.source) this.retiring.add(this.source);
        open();
      };
      open();
    });
  }

  /** Routes one message by topic. */
  handle(topic, text, retained) {
    const { base } = this.options;
    if (!topic.startsWith(`${base}/`)) return;
    const rel = topic.slice(base.length + 1);
    const receivedAt = Date.now();
    let match;
    if ((match = /^games\/([^/]+)$/.exec(rel))) {
      if (text === '') {
        this.store.remove(match[1]);
        return;
      }
      const snapshot = parseJson(text);
      // A game's state comes from its own topic only (the broker lets only the daemon write there).
      if (!snapshot || snapshot.game !== match[1]) return;
      if (!retained) this.skew.sample(snapshot.at, receivedAt);
      this.store.applySnapshot(snapshot, { retained });
    } else if ((match = /^games\/([^/]+)\/events$/.exec(rel))) {
      const event = parseJson(text);
      if (!event || event.game !== match[1]) return;
      if (!retained) this.skew.sample(event.at, receivedAt);
      this.store.applyEvent(event);
    } else if (rel === 'alerts') {
      const alert = parseJson(text);
      if (!alert || typeof alert.code !== 'string') return;
      if (!retained) this.skew.sample(alert.at, receivedAt);
      this.listeners.alert.forEach(listener => listener(alert));
    } else if ((match = /^bridge\/response\/([^/]+)$/.exec(rel))) {
      const envelope = parseJson(text);
      if (!envelope || (envelope.status !== 'ok' && envelope.status !== 'error')) return;
      const waiting = this.pending.get(String(envelope.transaction));
      if (waiting) {
        clearTimeout(waiting.timer);
        this.pending.delete(String(envelope.transaction));
        waiting.resolve(envelope);
      }
      this.listeners.response.forEach(listener => listener(envelope, match[1]));
    } else if (/^boards\/[^/]+\/state$/.test(rel)) {
      const state = parseJson(text);
      if (!state || typeof state.board !== 'string') return;
      this.listeners.board.forEach(listener => listener(state));
    } else if (rel === 'bridge/state') {
      this.daemon = parseJson(text)?.state ?? 'unknown';
      this.listeners.status.forEach(listener => listener(this.status));
    }
  }

  /** Reads a game's retained snapshot again (at most every few seconds per game). */
  resync(game) {
    const now = Date.now();
    if (now - (this.lastResync.get(game) ?? 0) < RESYNC_INTERVAL_MS) return;
    this.lastResync.set(game, now);
    if (this.client?.connected) {
      // Subscribing to the exact topic makes the broker send its retained snapshot.
      const topic = `${this.options.base}/games/${game}`;
      this.client.subscribe(topic, { qos: 1 });
      setTimeout(() => this.client?.connected && this.client.unsubscribe(topic), RESYNC_INTERVAL_MS);
    } else if (this.source) {
      this.reopenSse?.();
    }
  }

  /**
   * Sends an MQTT request and resolves with its response envelope (an error envelope with
   * `local: true` when it could not be sent or no answer came in time). Needs `responses: true`.
   */
  request(action, fields, timeoutMs = REQUEST_TIMEOUT_MS) {
    this.counter += 1;
    const transaction = `${this.clientId}-${this.counter}`;
    const local = error => Promise.resolve({ status: 'error', data: {}, error, transaction, local: true });
    if (!this.client?.connected) return local('not connected to the broker');
    if (!/^[a-z_]+$/.test(action)) return local(`not an action: ${action}`);
    return new Promise(resolve => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        resolve({
          status: 'error',
          data: {},
          error: `no answer within ${timeoutMs / 1000} s`,
          transaction,
          local: true,
        });
      }, timeoutMs);
      this.pending.set(transaction, { resolve, timer, transaction });
      const topic = requestTopic(this.options.base, this.options.username, action);
      this.client.publish(topic, JSON.stringify({ ...fields, transaction }), { qos: 1 }, error => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(transaction);
        resolve({ status: 'error', data: {}, error: `not sent: ${error.message}`, transaction, local: true });
      });
    });
  }
}

const parseJson = text => {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
};
