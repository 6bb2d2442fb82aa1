/**
 * A WebSocket client of the LiveChess API for tests: it keeps every message it receives, parsed,
 * and waits for the one a test needs; an upgrade refused rejects with its HTTP status.
 *
 *   const c = await LcClient.open('ws://127.0.0.1:1982/api/v1.0', LcClient.basic({ user, secret }));
 *   c.send({ id: 1, call: 'eboards' });
 *   const reply = await c.next(m => m.id === 1, 'the eboards reply');
 */
import WebSocket from 'ws';
import { waitFor } from './mosquitto.js';

/** A message the API sent, as parsed JSON. */
export type LcMessage = Record<string, unknown> & { response?: string; id?: number | null; param?: unknown };

export class LcClient {
  readonly messages: LcMessage[] = [];
  private closedWith: number | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', data => this.messages.push(JSON.parse((data as Buffer).toString('utf8')) as LcMessage));
    ws.on('close', code => (this.closedWith = code));
  }

  /** Opens a connection; rejects with the HTTP status when the upgrade is refused. */
  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<LcClient> {
    const ws = new WebSocket(url, options);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new LcClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  static basic(who: { user: string; secret: string }): WebSocket.ClientOptions {
    return {
      headers: { authorization: `Basic ${Buffer.from(`${who.user}:${who.secret}`).toString('base64')}` },
    };
  }

  get closed(): number | undefined {
    return this.closedWith;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message from index `from` on that matches. */
  async next(
    match: (m: LcMessage) => boolean,
    what: string,
    from = 0,
    timeoutMs = 10_000,
  ): Promise<LcMessage> {
    let found: LcMessage | undefined;
    await waitFor(
      () => (found = this.messages.slice(from).find(match)) !== undefined,
      timeoutMs,
      () => `${what} (got ${JSON.stringify(this.messages.slice(-5))})`,
    );
    return found as LcMessage;
  }

  feeds(id: number): LcMessage[] {
    return this.messages.filter(m => m.response === 'feed' && m.id === id);
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise(resolve => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
