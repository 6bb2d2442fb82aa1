/**
 * Replies as values: every route returns an `HttpReply` (status, headers, body) and the server
 * writes it, so routes are testable without sockets. Helpers build the common replies: a feed file
 * or other representation with validators and conditional GET, JSON, and errors.
 *
 *   return representationReply(req.headers, file, { cors: '*' }); // 200 with ETag, or 304
 *   return jsonReply(200, { rounds });
 *   return errorReply(404, 'no such round', 'json');
 */
import type { IncomingHttpHeaders } from 'node:http';
import { makeEtag } from '../feed/etag.js';
import type { Refusal } from '../wire/refusals.js';
import { type Validators, formatHttpDate, isNotModified } from './conditional.js';

export interface HttpReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Buffer;
}

/** A body with the validators that make conditional GET possible. */
export interface Representation extends Validators {
  readonly body: Buffer;
  readonly contentType: string;
}

export interface ReplyOptions {
  /** Access-Control-Allow-Origin value; undefined = no CORS headers. */
  readonly cors?: string | undefined;
}

const corsHeaders = (opts: ReplyOptions): Record<string, string> =>
  opts.cors === undefined
    ? {}
    : {
        'access-control-allow-origin': opts.cors,
        'access-control-expose-headers': 'ETag, Last-Modified',
      };

/**
 * 200 with the body, or 304 when the request's If-None-Match / If-Modified-Since show the client's
 * copy is current. Both carry ETag, Last-Modified and `Cache-Control: no-cache` (revalidate every time).
 */
export const representationReply = (
  headers: IncomingHttpHeaders,
  rep: Representation,
  opts: ReplyOptions = {},
): HttpReply => {
  const common = {
    etag: rep.etag,
    'last-modified': formatHttpDate(rep.lastModified),
    'cache-control': 'no-cache',
    ...corsHeaders(opts),
  };
  const conditional = {
    ifNoneMatch: headers['if-none-match'],
    ifModifiedSince: headers['if-modified-since'],
  };
  if (isNotModified(conditional, rep)) return { status: 304, headers: common };
  return {
    status: 200,
    headers: { ...common, 'content-type': rep.contentType, 'x-content-type-options': 'nosniff' },
    body: rep.body,
  };
};

/** A JSON body as a representation (strong ETag of its bytes). */
export const jsonRepresentation = (data: unknown, lastModified: number): Representation => {
  const body = Buffer.from(`${JSON.stringify(data)}\n`, 'utf8');
  return {
    body,
    contentType: 'application/json; charset=utf-8',
    etag: makeEtag(body),
    lastModified,
    lastModifiedShared: true,
  };
};

export const jsonReply = (
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): HttpReply => ({
  status,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  },
  body: Buffer.from(`${JSON.stringify(data)}\n`, 'utf8'),
});

export const textReply = (status: number, text: string, headers: Record<string, string> = {}): HttpReply => ({
  status,
  headers: {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  },
  body: Buffer.from(text.endsWith('\n') ? text : `${text}\n`, 'utf8'),
});

/**
 * An error as `{ status: 'error', error }` JSON (API routes) or plain text (file routes); with a
 * refusal, the JSON carries its `code` and `params` too (wire/refusals.ts).
 */
export const errorReply = (
  status: number,
  message: string,
  form: 'json' | 'text',
  headers: Record<string, string> = {},
  refusal?: Refusal,
): HttpReply =>
  form === 'json'
    ? jsonReply(
        status,
        {
          status: 'error',
          error: message,
          ...(refusal === undefined ? {} : { code: refusal.code, params: refusal.params }),
        },
        headers,
      )
    : textReply(status, message, headers);

export const methodNotAllowed = (allow: string, form: 'json' | 'text'): HttpReply =>
  errorReply(405, 'method not allowed', form, { allow });

export const redirectReply = (location: string): HttpReply => ({
  status: 301,
  headers: { location, 'cache-control': 'no-cache' },
});
