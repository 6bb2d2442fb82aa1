/**
 * Direct push to Lichess broadcast rounds (config `broadcast.lichess`): after every feed change and
 * every release of the broadcast delay, the games of each configured round as the public sees them
 * are posted to `POST {url}/api/broadcast/round/{id}/push` with the bearer token, at most 100 games a
 * body, and only the bodies whose text changed since their last accepted push. A failed push (no
 * answer, a timeout, a status other than 2xx) is tried again after a backoff that doubles up to a
 * ceiling (a `Retry-After` is honoured). Errors Lichess reports per game in its reply
 * (`{ games: [{ tags, moves } | { tags, error }] }`) are logged and kept in `status()` for the
 * operator (`/api/broadcast`, `/healthz`). The token is sent in the header and never logged.
 *
 *   const push = new LichessPush({ url: 'https://lichess.org', rounds: [{ round: 1, id: 'abcdEFGH' }],
 *                                  token, feed: () => outputs.feed(), scheduler, now, log });
 *   push.changed();          // after the feed changed
 *   push.status();           // [{ round: 1, id: 'abcdEFGH', pushedAt, error, gameErrors, … }]
 *   await push.stop();
 */
import type { SchedulerLike } from 'rxjs';
import type { FeedState } from '../feed/feedState.js';
import { FeedFiles } from '../feed/feedFiles.js';
import { pushBodies } from '../feed/pushBodies.js';
import type { Logger } from '../logger.js';
import { FeedFollower } from './feedFollower.js';

export interface PushRound {
  /** The round of the tournament. */
  readonly round: number;
  /** The Lichess broadcast round id it goes to. */
  readonly id: string;
}

/** One game Lichess refused, from its reply. */
export interface PushGameError {
  /** The game's `Round` tag (`r.b`), or its place in the body when the reply has no tags. */
  readonly game: string;
  readonly error: string;
}

/** Where the push of one round stands (shown on `/api/broadcast`). */
export interface PushRoundStatus {
  readonly round: number;
  readonly id: string;
  /** When a body was last accepted (ms), or null. */
  readonly pushedAt: number | null;
  /** Bodies accepted since the start. */
  readonly pushes: number;
  /** Failed tries in a row. */
  readonly failures: number;
  /** The last failure, cleared by the next accepted push. */
  readonly error: string | null;
  /** When the next try is due after a failure (ms), or null. */
  readonly retryAt: number | null;
  /** Games Lichess refused in its last replies. */
  readonly gameErrors: readonly PushGameError[];
}

export interface LichessPushOptions {
  /** Lichess (or a compatible server): `https://lichess.org`. */
  readonly url: string;
  readonly rounds: readonly PushRound[];
  /** API token with the broadcast scope. */
  readonly token: string;
  readonly feed: () => FeedState;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly log: Logger;
  /** Backoff after a failure: first wait and ceiling, ms (default 2 s, 2 min). */
  readonly backoffMs?: { readonly first: number; readonly max: number };
  /** A push without an answer this long fails (ms, default 15 s). */
  readonly timeoutMs?: number;
  /** Games a body (default 100, Lichess's limit). */
  readonly maxGames?: number;
}

interface RoundState {
  status: {
    -readonly [K in keyof PushRoundStatus]: PushRoundStatus[K];
  };
  /** The key of each body as last accepted. */
  sent: string[];
  /** Per body: the games Lichess refused in its reply to it. */
  errors: PushGameError[][];
}

type PostOutcome =
  | { readonly ok: true; readonly gameErrors: PushGameError[]; readonly note: string | undefined }
  | { readonly ok: false; readonly error: string; readonly retryAfterMs: number | undefined };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The per-game errors of a reply (`{ games: [{ tags, error }] }`); undefined when it is not that shape. */
export const readPushReply = (text: string): PushGameError[] | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !Array.isArray(value.games)) return undefined;
  const out: PushGameError[] = [];
  value.games.forEach((g: unknown, i) => {
    if (!isObject(g) || typeof g.error !== 'string') return;
    const tags = isObject(g.tags) ? g.tags : {};
    out.push({ game: typeof tags.Round === 'string' ? tags.Round : `#${i + 1}`, error: g.error });
  });
  return out;
};

export class LichessPush {
  private readonly follower: FeedFollower;
  private readonly rounds: RoundState[];
  /** Renders each game once per change of what it shows. */
  private readonly files = new FeedFiles();

  constructor(private readonly opts: LichessPushOptions) {
    this.rounds = opts.rounds.map(r => ({
      status: {
        round: r.round,
        id: r.id,
        pushedAt: null,
        pushes: 0,
        failures: 0,
        error: null,
        retryAt: null,
        gameErrors: [],
      },
      sent: [],
      errors: [],
    }));
    this.follower = new FeedFollower({
      feed: opts.feed,
      scheduler: opts.scheduler,
      now: opts.now,
      sync: state => this.sync(state),
    });
  }

  /** The feed changed: push what changed, now or once the push in flight has ended. */
  changed(): void {
    this.follower.changed();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
  }

  status(): PushRoundStatus[] {
    return this.rounds.map(r => ({ ...r.status, gameErrors: [...r.status.gameErrors] }));
  }

  /** What is wrong with the push, in words (for /healthz); empty when nothing is. */
  problems(): string[] {
    return this.rounds.flatMap(({ status: s }) => [
      ...(s.error === null ? [] : [`push to Lichess round ${s.id} (round ${s.round}): ${s.error}`]),
      ...(s.gameErrors.length === 0
        ? []
        : [
            `push to Lichess round ${s.id}: ${s.gameErrors.length} games refused (${s.gameErrors
              .slice(0, 3)
              .map(e => `${e.game}: ${e.error}`)
              .join('; ')}${s.gameErrors.length > 3 ? '; …' : ''})`,
          ]),
    ]);
  }

  private async sync(state: FeedState): Promise<number | undefined> {
    let retryAt: number | undefined;
    for (const round of this.rounds) {
      if (!state.rounds.has(round.status.round)) continue;
      const now = this.opts.now();
      if (round.status.retryAt !== null && now < round.status.retryAt) {
        retryAt = Math.min(retryAt ?? Infinity, round.status.retryAt);
        continue;
      }
      const due = await this.pushRound(round, state, now);
      if (due !== undefined) retryAt = Math.min(retryAt ?? Infinity, due);
    }
    return retryAt;
  }

  /** Pushes the bodies of one round that changed; returns when to try again after a failure. */
  private async pushRound(round: RoundState, state: FeedState, now: number): Promise<number | undefined> {
    const bodies = pushBodies(this.files, state, round.status.round, now, this.opts.maxGames);
    round.sent.length = Math.min(round.sent.length, bodies.length);
    round.errors.length = Math.min(round.errors.length, bodies.length);
    for (const [i, body] of bodies.entries()) {
      if (round.sent[i] === body.key) continue;
      const outcome = await this.post(round.status.id, body.text());
      const s = round.status;
      if (!outcome.ok) {
        s.failures += 1;
        const { first, max } = this.opts.backoffMs ?? { first: 2000, max: 120_000 };
        const wait = outcome.retryAfterMs ?? Math.min(max, first * 2 ** (s.failures - 1));
        if (outcome.error !== s.error)
          this.opts.log.error(
            `push to Lichess round ${s.id} (round ${s.round}) failed: ${outcome.error}; trying again in ${Math.round(wait / 1000)} s`,
          );
        s.error = outcome.error;
        s.retryAt = this.opts.now() + wait;
        return s.retryAt;
      }
      if (s.error !== null)
        this.opts.log.info(`push to Lichess round ${s.id} (round ${s.round}) works again`);
      if (outcome.note !== undefined) this.opts.log.warn(`push to Lichess round ${s.id}: ${outcome.note}`);
      const before = new Set((round.errors[i] ?? []).map(e => `${e.game} ${e.error}`));
      for (const e of outcome.gameErrors)
        if (!before.has(`${e.game} ${e.error}`))
          this.opts.log.warn(`push to Lichess round ${s.id}: game ${e.game} refused: ${e.error}`);
      round.sent[i] = body.key;
      round.errors[i] = outcome.gameErrors;
      s.gameErrors = round.errors.flat();
      s.failures = 0;
      s.error = null;
      s.retryAt = null;
      s.pushes += 1;
      s.pushedAt = this.opts.now();
    }
    return undefined;
  }

  private async post(id: string, body: string): Promise<PostOutcome> {
    const url = `${this.opts.url.replace(/\/+$/, '')}/api/broadcast/round/${encodeURIComponent(id)}/push`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.opts.token}`,
          'content-type': 'text/plain; charset=utf-8',
        },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
      text = await res.text();
    } catch (err) {
      const cause = err instanceof Error && isObject(err.cause) ? err.cause.message : undefined;
      const message = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        error: typeof cause === 'string' ? `${message} (${cause})` : message,
        retryAfterMs: undefined,
      };
    }
    if (res.status < 200 || res.status > 299) {
      const seconds = Number(res.headers.get('retry-after'));
      const detail = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      const what =
        res.status === 401 || res.status === 403
          ? 'the token was refused (it needs the broadcast scope and access to the round)'
          : res.status === 404
            ? 'no such round'
            : 'refused';
      return {
        ok: false,
        error: `HTTP ${res.status}, ${what}${detail === '' ? '' : `: ${detail}`}`,
        retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined,
      };
    }
    const gameErrors = readPushReply(text);
    return gameErrors === undefined
      ? { ok: true, gameErrors: [], note: 'the reply is not the expected { games: [...] } JSON' }
      : { ok: true, gameErrors, note: undefined };
  }
}
