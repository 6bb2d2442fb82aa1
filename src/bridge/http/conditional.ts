/**
 * Conditional GET (RFC 9110 section 13): decides whether a poller's copy is still current from
 * If-None-Match (entity tags, weak comparison) or, when that is absent, If-Modified-Since (an HTTP
 * date, one-second resolution). Pure: headers and the representation's validators in, a verdict out.
 *
 *   isNotModified({ ifNoneMatch: '"abc"' }, { etag: '"abc"', lastModified, lastModifiedShared: false }); // true
 *   formatHttpDate(0); // 'Thu, 01 Jan 1970 00:00:00 GMT'
 */

export interface Validators {
  readonly etag: string;
  readonly lastModified: number;
  /** Another version had a Last-Modified in the same second (see FeedFile). */
  readonly lastModifiedShared: boolean;
}

export interface ConditionalHeaders {
  readonly ifNoneMatch?: string | undefined;
  readonly ifModifiedSince?: string | undefined;
}

/** IMF-fixdate, the preferred HTTP date format. */
export const formatHttpDate = (ms: number): string => new Date(ms).toUTCString();

/** Parses an HTTP date (IMF-fixdate, and the obsolete RFC 850 and asctime forms Date.parse reads). */
export const parseHttpDate = (text: string): number | undefined => {
  if (!/GMT$|^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text.trim())) return undefined;
  const ms = Date.parse(text.trim().endsWith('GMT') ? text : `${text} GMT`);
  return Number.isNaN(ms) ? undefined : ms;
};

/** The opaque tags of an If-None-Match list, without W/ prefixes; '*' stays '*'. */
export const parseEntityTags = (header: string): string[] => {
  const tags: string[] = [];
  for (const m of header.matchAll(/\s*(\*|(?:W\/)?"[^"]*")\s*(?:,|$)/g)) {
    const tag = m[1] as string;
    tags.push(tag.startsWith('W/') ? tag.slice(2) : tag);
  }
  return tags;
};

const opaque = (etag: string): string => (etag.startsWith('W/') ? etag.slice(2) : etag);

/**
 * True when the client's copy is current (answer 304). If-None-Match wins over If-Modified-Since;
 * an unreadable date is ignored. A Last-Modified second shared by two versions never matches.
 */
export const isNotModified = (headers: ConditionalHeaders, v: Validators): boolean => {
  if (headers.ifNoneMatch !== undefined) {
    const tags = parseEntityTags(headers.ifNoneMatch);
    return tags.includes('*') || tags.includes(opaque(v.etag));
  }
  if (headers.ifModifiedSince === undefined) return false;
  const since = parseHttpDate(headers.ifModifiedSince);
  if (since === undefined) return false;
  const second = Math.floor(v.lastModified / 1000) * 1000;
  return second < since || (second === since && !v.lastModifiedShared);
};
