/**
 * The request API's handler table, typed by the request schemas (src/bridge/wire/requestSchema.ts,
 * re-exported here): whoever wires the daemon fills it in, and adding an action there makes every
 * handler table that forgot it fail to compile.
 *
 *   const handlers: RequestHandlers = { start_game: async req => Result.ok({ game_id: req.game_id }), … };
 */
import type { Result } from '@badrap/result';
import type { RequestAction, RequestOf } from '../wire/requestSchema.js';
import type { JsonObject } from './topics.js';
import type { Actor } from '../security/roles.js';

export {
  CLAIMS,
  isRequestAction,
  PENALTIES,
  REQUEST_ACTIONS,
  REQUEST_SCHEMAS,
  RESULTS,
  type RequestAction,
  type RequestOf,
} from '../wire/requestSchema.js';

/** Where a request came from, for handlers that log or audit. */
export interface RequestMeta {
  readonly action: RequestAction;
  readonly topic: string;
  /** Milliseconds since the Unix epoch when it arrived. */
  readonly receivedAt: number;
  /** Who made it, once authorised (absent where nobody checks, as in unit tests). */
  readonly actor?: Actor;
}

/**
 * A handler: an expected failure (unknown game, position not reachable) is `Result.err` with an
 * Error whose message reaches the caller; a thrown exception is a bug, answered as an internal
 * error and logged.
 */
export type RequestHandler<A extends RequestAction> = (
  request: RequestOf<A>,
  meta: RequestMeta,
) => Promise<Result<JsonObject, Error>>;

/** One handler per action; exhaustive by construction. */
export type RequestHandlers = { readonly [A in RequestAction]: RequestHandler<A> };
