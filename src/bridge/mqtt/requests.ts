/**
 * The request/response API: requests arrive on `<base>/bridge/request/<action>`, are validated
 * against their TypeBox schema, routed through the handler table, and answered with one envelope
 * `{ status, data, error?, transaction? }` on `<base>/bridge/response/<action>` — or, when an
 * MQTT 5 request carries a response topic, on that topic with its correlation data. Malformed
 * JSON, unknown actions and wrong fields are answered with an error naming the problem
 * (`game_id: expected string`); a throwing handler is answered as an internal error. Nothing a
 * request contains can end the stream. With a `RequestGate`, a request is admitted before its
 * payload is even parsed: one the gate refuses is answered (QoS 0, while the gate allows
 * answering refusals) `rate limited: …` or `busy: …` and never reaches a handler; at most
 * `concurrency` requests are handled at once.
 *
 *   const outcomes$ = serveRequests$({ connection, handlers, log });
 *   outcomes$.pipe(takeUntil(shutdown$)).subscribe(o => metrics.count(o.action, o.status));  // in main.ts
 */
import { Result } from '@badrap/result';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { catchError, defer, filter, finalize, map, mergeMap, of, type Observable } from 'rxjs';
import { dataError } from '../../engine/types.js';
import type { RequestGate } from '../requestGate.js';
import { MQTT_NAMESPACE, type LogFn } from './log.js';
import type { IncomingMessage, PublishOptions } from './client.js';
import { type JsonObject, type ResponseEnvelope, type Topics } from './topics.js';
import { readRequestTopic, type RequestSender } from './brokerAccess.js';
import { type Refusal, refused, refusalFields } from '../wire/refusals.js';
import type { Actor } from '../security/roles.js';
import {
  isRequestAction,
  REQUEST_ACTIONS,
  REQUEST_SCHEMAS,
  type RequestAction,
  type RequestHandlers,
  type RequestMeta,
  type RequestOf,
} from './requestSchemas.js';

/** A request that passed validation, its action and fields correlated. */
export type ParsedRequest = {
  [A in RequestAction]: { readonly action: A; readonly request: RequestOf<A> };
}[RequestAction];

/** Why a request was refused before reaching a handler; `transaction` when one could be read. */
export type RequestError = Error & {
  readonly kind: 'malformedJson' | 'notAnObject' | 'unknownAction' | 'invalidFields';
  readonly transaction?: string | number;
};

/** What the service needs of a connection (MqttConnection implements it). */
export interface RequestPort {
  readonly topics: Topics;
  readonly isConnected: boolean;
  messages$(filter: string, qos?: 0 | 1 | 2): Observable<IncomingMessage>;
  publish(topic: string, payload: string | Buffer, options: PublishOptions): Promise<void>;
}

export interface RequestServiceContext {
  readonly connection: RequestPort;
  readonly handlers: RequestHandlers;
  readonly log: LogFn;
  /** Wall clock in ms (injected for tests). */
  readonly now?: () => number;
  /** Rate limits and the bound on pending requests; none: every request is handled. */
  readonly gate?: RequestGate;
  /** Requests handled at once (default 8). */
  readonly concurrency?: number;
  /**
   * Who sent a request, from what its topic says (see brokerAccess.ts), or why it is refused
   * before its handler (an unverified sender, an action the role may not make). Absent: nobody
   * is checked (unit tests of the service).
   */
  readonly authorize?: (sender: RequestSender, action: RequestAction) => Result<Actor, Error>;
}

/** One answered request, for logs and metrics. */
export interface RequestOutcome {
  /** The action as it appeared in the topic (may be unknown). */
  readonly action: string;
  readonly status: 'ok' | 'error';
  readonly error?: string;
  readonly transaction?: string | number;
  /** Where the response went. */
  readonly responseTopic: string;
  /** False when the response could not be published (logged). */
  readonly delivered: boolean;
}

const MAX_FIELD_ERRORS = 5;

/** The transaction of a payload that is at least an object, when it has a usable one. */
const readTransaction = (value: unknown): string | number | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const t: unknown = (value as { transaction?: unknown }).transaction;
  return typeof t === 'string' || typeof t === 'number' ? t : undefined;
};

/** `/clock/white_ms` → `clock.white_ms`; the root is `payload`. */
const fieldName = (path: string): string => (path === '' ? 'payload' : path.slice(1).replace(/\//g, '.'));

/** Describes an expected-union schema: `one of "1-0", "0-1"` or `string or number`. */
const describeUnion = (schema: TSchema): string | undefined => {
  const members = (schema as { anyOf?: readonly TSchema[] }).anyOf;
  if (!members) return undefined;
  const consts = members.map(m => (m as { const?: unknown }).const);
  if (consts.every(c => c !== undefined))
    return `expected one of ${consts.map(c => JSON.stringify(c)).join(', ')}`;
  const types = members.map(m => (m as { type?: unknown }).type);
  if (types.every(t => typeof t === 'string')) return `expected ${types.join(' or ')}`;
  return undefined;
};

/** One validation error as `field: problem`. */
export const describeValueError = (error: ValueError): string => {
  const field = fieldName(error.path);
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return `${field}: unknown field`;
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `${field}: required`;
  const union = error.type === ValueErrorType.Union ? describeUnion(error.schema) : undefined;
  const hint: unknown = (error.schema as { patternHint?: unknown }).patternHint;
  const pattern =
    error.type === ValueErrorType.StringPattern && typeof hint === 'string' ? `expected ${hint}` : undefined;
  const problem = union ?? pattern ?? error.message.charAt(0).toLowerCase() + error.message.slice(1);
  return `${field}: ${problem}`;
};

/** Every distinct field problem of a value against a schema (at most a few), joined by `; `. */
export const describeValueErrors = (schema: TSchema, value: unknown): string | undefined => {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const error of Value.Errors(schema, value)) {
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    parts.push(describeValueError(error));
    if (parts.length === MAX_FIELD_ERRORS) break;
  }
  return parts.length === 0 ? undefined : parts.join('; ');
};

/** The fields a value gets wrong against a schema, as a refusal (`invalid_fields`). */
export const invalidFields = (schema: TSchema, value: unknown): Refusal => {
  const fields = [...new Set([...Value.Errors(schema, value)].map(e => fieldName(e.path)))];
  return { code: 'invalid_fields', params: { fields: fields.slice(0, MAX_FIELD_ERRORS).join(', ') } };
};

const refuse = (
  kind: RequestError['kind'],
  message: string,
  transaction: string | number | undefined,
  refusal: Refusal,
) =>
  Result.err<RequestError>(
    dataError({ kind, refusal, ...(transaction === undefined ? {} : { transaction }) }, message),
  );

/** Parses and validates one request payload for an action. */
export const parseRequest = (
  action: string,
  payload: Buffer | string,
): Result<ParsedRequest, RequestError> => {
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = text.trim() === '' ? 'empty payload' : (error as Error).message;
    return refuse('malformedJson', `malformed JSON: ${detail}`, undefined, { code: 'bad_json', params: {} });
  }
  const transaction = readTransaction(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('notAnObject', 'payload: expected a JSON object', undefined, {
      code: 'not_an_object',
      params: {},
    });
  }
  if (!isRequestAction(action)) {
    return refuse(
      'unknownAction',
      `unknown action "${action}" (known: ${REQUEST_ACTIONS.join(', ')})`,
      transaction,
      { code: 'unknown_action', params: { action } },
    );
  }
  const schema = REQUEST_SCHEMAS[action];
  const problems = describeValueErrors(schema, value);
  if (problems !== undefined)
    return refuse('invalidFields', problems, transaction, invalidFields(schema, value));
  return Result.ok({ action, request: value } as ParsedRequest);
};

/** Builds the response envelope. */
export const makeResponse = (
  result: Result<JsonObject, Error>,
  transaction: string | number | undefined,
): ResponseEnvelope => ({
  ...(result.isOk
    ? { status: 'ok', data: result.value }
    : { status: 'error', data: {}, error: result.error.message, ...refusalFields(result.error) }),
  ...(transaction === undefined ? {} : { transaction }),
});

/** The validated request handed to its own handler (keeps action and request correlated). */
const dispatch = <A extends RequestAction>(
  handlers: RequestHandlers,
  action: A,
  request: RequestOf<A>,
  meta: RequestMeta,
): Promise<Result<JsonObject, Error>> => {
  return handlers[action](request, meta);
};

/** Answers one request message; never rejects. */
const answer = async (
  ctx: RequestServiceContext,
  message: IncomingMessage,
): Promise<RequestOutcome | undefined> => {
  const log = (level: 'warning' | 'info' | 'debug' | 'error', text: string) =>
    ctx.log(level, text, `${MQTT_NAMESPACE}:requests`);
  const sender = readRequestTopic(ctx.connection.topics.base, message.topic);
  if (sender === undefined) {
    log('warning', `request on ${message.topic} ignored: not a request topic`);
    return undefined;
  }
  const action = sender.action;
  const responseTopic = pickResponseTopic(ctx.connection.topics, action, message.responseTopic);
  if (responseTopic === undefined) {
    log('warning', `request on ${message.topic} ignored: no valid response topic`);
    return undefined;
  }
  const parsed = parseRequest(action, message.payload);
  let result: Result<JsonObject, Error>;
  let transaction: string | number | undefined;
  if (parsed.isErr) {
    result = Result.err(parsed.error);
    transaction = parsed.error.transaction;
  } else {
    const { action: known, request } = parsed.value;
    transaction = request.transaction;
    const actor = ctx.authorize?.(sender, known);
    const meta: RequestMeta = {
      action: known,
      topic: message.topic,
      receivedAt: (ctx.now ?? Date.now)(),
      ...(actor?.isOk === true ? { actor: actor.value } : {}),
    };
    try {
      result =
        actor?.isErr === true ? Result.err(actor.error) : await dispatch(ctx.handlers, known, request, meta);
    } catch (error) {
      log(
        'error',
        `handler ${known} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      result = Result.err(refused('internal', { action: known }, `internal error in ${known}`));
    }
  }
  const envelope = makeResponse(result, transaction);
  let delivered = true;
  try {
    await ctx.connection.publish(responseTopic, JSON.stringify(envelope), {
      qos: 1,
      retain: false,
      ...(message.correlationData === undefined ? {} : { correlationData: message.correlationData }),
    });
  } catch (error) {
    delivered = false;
    log('warning', `response to ${action} on ${responseTopic} not delivered: ${String(error)}`);
  }
  // The daemon logs each outcome; here it is detail.
  if (envelope.status === 'error') log('debug', `request ${action} refused: ${envelope.error ?? ''}`);
  else log('debug', `request ${action} done`);
  return {
    action,
    status: envelope.status,
    ...(envelope.error === undefined ? {} : { error: envelope.error }),
    ...(transaction === undefined ? {} : { transaction }),
    responseTopic,
    delivered,
  };
};

/** The MQTT 5 response topic when valid, else `<base>/bridge/response/<action>` (undefined if unusable). */
const pickResponseTopic = (
  topics: Topics,
  action: string,
  requested: string | undefined,
): string | undefined => {
  if (requested !== undefined && requested.length > 0 && !/[+#\u0000]/.test(requested)) return requested;
  try {
    return topics.response(action).name;
  } catch {
    return undefined;
  }
};

/**
 * Answers a request the gate refused, when the gate allows answering one now: QoS 0 (no packet
 * id, no acknowledgement to wait for), the transaction echoed when the payload has one.
 */
const answerRefusal = (ctx: RequestServiceContext, message: IncomingMessage, error: string): void => {
  if (ctx.gate?.answerRefusal() !== true || !ctx.connection.isConnected) return;
  const action = message.topic.slice(message.topic.lastIndexOf('/') + 1);
  const responseTopic = pickResponseTopic(ctx.connection.topics, action, message.responseTopic);
  if (responseTopic === undefined) return;
  let transaction: string | number | undefined;
  try {
    transaction = readTransaction(JSON.parse(message.payload.toString('utf8')));
  } catch {
    transaction = undefined;
  }
  const envelope = makeResponse(Result.err(new Error(error)), transaction);
  ctx.connection
    .publish(responseTopic, JSON.stringify(envelope), {
      qos: 0,
      retain: false,
      ...(message.correlationData === undefined ? {} : { correlationData: message.correlationData }),
    })
    .catch(() => undefined);
};

/**
 * Serves requests for as long as it is subscribed: cold, one outcome per answered request (a
 * request the gate refuses has none: the gate counts it and sums refusals up).
 * Retained requests are ignored (a retained command would run again at every subscription).
 */
export const serveRequests$ = (ctx: RequestServiceContext): Observable<RequestOutcome> =>
  ctx.connection.messages$(ctx.connection.topics.requestFilter, 1).pipe(
    filter(message => {
      if (message.retain)
        ctx.log('warning', `retained request on ${message.topic} ignored`, `${MQTT_NAMESPACE}:requests`);
      return !message.retain;
    }),
    // Admission comes before mergeMap: mergeMap buffers what waits for a free place, and only
    // admitted requests may wait (at most the gate's queue).
    map(message => {
      // The embedded broker writes the verified user and the client into the topic.
      const who = readRequestTopic(ctx.connection.topics.base, message.topic);
      return {
        message,
        ticket: ctx.gate?.admit({
          transport: 'mqtt',
          ...(who?.user === undefined ? {} : { user: who.user }),
          ...(who?.sender === undefined ? {} : { clientId: who.sender }),
          ...(message.responseTopic === undefined ? {} : { responseTopic: message.responseTopic }),
        }),
      };
    }),
    filter(({ message, ticket }) => {
      if (ticket?.ok !== false) return true;
      answerRefusal(ctx, message, ticket.message);
      return false;
    }),
    mergeMap(
      ({ message, ticket }) =>
        defer(() => answer(ctx, message)).pipe(
          catchError((error: unknown) => {
            ctx.log(
              'error',
              `request on ${message.topic} failed: ${String(error)}`,
              `${MQTT_NAMESPACE}:requests`,
            );
            return of(undefined);
          }),
          finalize(() => {
            if (ticket?.ok === true) ticket.release();
          }),
        ),
      ctx.concurrency ?? 8,
    ),
    filter((outcome): outcome is RequestOutcome => outcome !== undefined),
  );
