/**
 * Serves the files of one folder (the web display and arbiter console pages) under a URL prefix,
 * refusing every way out of the folder: `..` and `.` segments, their percent-encoded forms
 * (%2e%2e), encoded slashes and backslashes, NUL bytes, absolute paths and drive letters (400), and
 * symbolic links that resolve outside the folder, hidden files and missing files (404).
 *
 *   const pages = new StaticFiles({ root: 'web', prefix: '/ui/' });
 *   await pages.reply('/ui/display.html', req.headers); // 200 with ETag, 304, 400 or 404
 *
 * The raw request path is checked before any normalisation: URL parsers resolve `..` themselves,
 * which would hide an attack instead of refusing it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Stats } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';
import { makeEtag } from '../feed/etag.js';
import { type HttpReply, errorReply, redirectReply, representationReply } from './reply.js';

export interface StaticOptions {
  /** Folder whose files are served. */
  readonly root: string;
  /** URL prefix, starting and ending with '/', e.g. '/ui/'. */
  readonly prefix: string;
  /** Largest file served, in bytes (default 16 MiB). */
  readonly maxBytes?: number;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.pgn': 'application/x-chess-pgn; charset=utf-8',
};

export type PathProblem = { readonly kind: 'badPath'; readonly reason: string };
export type PathError = PathProblem & Error;

const bad = (reason: string): Result<never, PathError> =>
  Result.err(dataError<PathProblem>({ kind: 'badPath', reason }, reason));

/**
 * Splits the part of a raw request path after the prefix into safe segments, or says why not.
 * An empty list is the folder itself; a trailing '/' asks for a folder's index.html.
 */
export const parseStaticPath = (rest: string): Result<{ segments: string[]; folder: boolean }, PathError> => {
  if (rest.startsWith('/')) return bad('absolute path');
  const raw = rest === '' ? [] : rest.split('/');
  const folder = rest === '' || rest.endsWith('/');
  if (folder) raw.pop();
  const segments: string[] = [];
  for (const part of raw) {
    let seg: string;
    try {
      seg = decodeURIComponent(part);
    } catch {
      return bad('malformed percent-encoding');
    }
    if (seg === '') return bad('empty path segment');
    if (seg === '.' || seg === '..') return bad('dot segment');
    if (/[/\\\0]/.test(seg)) return bad('slash, backslash or NUL in a segment');
    if (/^[A-Za-z]:/.test(seg)) return bad('drive letter');
    segments.push(seg);
  }
  return Result.ok({ segments, folder });
};

const notFound = (): HttpReply => errorReply(404, 'not found', 'text');

/** The content type of a file name, by its extension. */
export const contentTypeOf = (file: string): string =>
  TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

/** A file's bytes as a representation: ETag (cached by path, time and size), Last-Modified, 304. */
const fileRepresentationReply = (
  real: string,
  info: Stats,
  body: Buffer,
  headers: IncomingHttpHeaders,
  etags: Map<string, string>,
): HttpReply => {
  const stamp = `${real}\u0000${info.mtimeMs}\u0000${info.size}`;
  let etag = etags.get(stamp);
  if (etag === undefined) {
    etag = makeEtag(body);
    if (etags.size > 5000) etags.clear();
    etags.set(stamp, etag);
  }
  return representationReply(headers, {
    body,
    contentType: contentTypeOf(real),
    etag,
    lastModified: info.mtimeMs,
    lastModifiedShared: false,
  });
};

/**
 * One file at a fixed route, outside any served folder (the MQTT.js bundle the pages import), with
 * the same validators and conditional GET as the folder's files; 404 when it cannot be read.
 *
 *   const mqttJs = makeFileReplier(MQTT_BROWSER_BUNDLE);
 *   await mqttJs(req.headers); // 200 text/javascript with ETag, or 304
 */
export const makeFileReplier = (file: string): ((headers: IncomingHttpHeaders) => Promise<HttpReply>) => {
  const etags = new Map<string, string>();
  return async headers => {
    try {
      const info = await stat(file);
      if (!info.isFile()) return notFound();
      return fileRepresentationReply(file, info, await readFile(file), headers, etags);
    } catch {
      return notFound();
    }
  };
};

export class StaticFiles {
  private rootReal: string | undefined;
  private readonly etags = new Map<string, string>();

  constructor(private readonly opts: StaticOptions) {}

  /** Whether a raw request path is under this folder's prefix (or is the prefix without its slash). */
  handles(rawPath: string): boolean {
    return rawPath.startsWith(this.opts.prefix) || rawPath === this.opts.prefix.slice(0, -1);
  }

  async reply(rawPath: string, headers: IncomingHttpHeaders): Promise<HttpReply> {
    if (rawPath === this.opts.prefix.slice(0, -1)) return redirectReply(this.opts.prefix);
    const parsed = parseStaticPath(rawPath.slice(this.opts.prefix.length));
    if (parsed.isErr) return errorReply(400, `bad path: ${parsed.error.reason}`, 'text');
    const { segments, folder } = parsed.value;
    if (segments.some(s => s.startsWith('.'))) return notFound();
    const root = await this.root();
    if (root === undefined) return notFound();
    const wanted = join(root, ...segments, ...(folder ? ['index.html'] : []));
    let real: string;
    let info: Stats;
    let body: Buffer;
    try {
      real = await realpath(wanted);
      if (real !== root && !real.startsWith(root + sep)) return notFound();
      info = await stat(real);
      if (info.isDirectory()) return redirectReply(`${rawPath}/`);
      if (!info.isFile() || info.size > (this.opts.maxBytes ?? 16 * 1024 * 1024)) return notFound();
      body = await readFile(real);
    } catch {
      return notFound(); // gone between the checks, or unreadable
    }
    return fileRepresentationReply(real, info, body, headers, this.etags);
  }

  private async root(): Promise<string | undefined> {
    if (this.rootReal === undefined) {
      try {
        this.rootReal = await realpath(this.opts.root);
      } catch {
        return undefined;
      }
    }
    return this.rootReal;
  }
}
