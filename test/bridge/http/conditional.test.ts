import { describe, expect, it } from 'vitest';
import {
  formatHttpDate,
  isNotModified,
  parseEntityTags,
  parseHttpDate,
} from '../../../src/bridge/http/conditional.js';
import { escapeLabel } from '../../../src/bridge/http/metrics.js';

const LM = Date.UTC(2025, 2, 1, 14, 0, 7, 450); // 14:00:07.450
const v = { etag: '"abc"', lastModified: LM, lastModifiedShared: false };

describe('conditional GET', () => {
  it('matches If-None-Match by weak comparison over a list, and * for any version', () => {
    expect(parseEntityTags('"a", W/"b" ,"c,d"')).toEqual(['"a"', '"b"', '"c,d"']);
    expect(isNotModified({ ifNoneMatch: '"abc"' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: 'W/"abc"' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"x", "abc"' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '*' }, v)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"abcd"' }, v)).toBe(false);
    expect(isNotModified({ ifNoneMatch: 'abc' }, v)).toBe(false); // unquoted: not an entity tag
  });

  it('lets If-None-Match win over If-Modified-Since (RFC 9110 13.1.3)', () => {
    const since = formatHttpDate(LM + 60_000);
    expect(isNotModified({ ifNoneMatch: '"old"', ifModifiedSince: since }, v)).toBe(false);
  });

  it('compares If-Modified-Since at one-second resolution, refusing a second two versions shared', () => {
    expect(formatHttpDate(LM)).toBe('Sat, 01 Mar 2025 14:00:07 GMT');
    expect(isNotModified({ ifModifiedSince: 'Sat, 01 Mar 2025 14:00:07 GMT' }, v)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Sat, 01 Mar 2025 14:00:08 GMT' }, v)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Sat, 01 Mar 2025 14:00:06 GMT' }, v)).toBe(false);
    expect(
      isNotModified({ ifModifiedSince: 'Sat, 01 Mar 2025 14:00:07 GMT' }, { ...v, lastModifiedShared: true }),
    ).toBe(false);
    expect(isNotModified({ ifModifiedSince: 'yesterday' }, v)).toBe(false);
  });

  it('reads the three HTTP date forms', () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(t);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(t);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(t);
    expect(parseHttpDate('2025-03-01')).toBeUndefined();
  });
});

describe('Prometheus labels', () => {
  it('escapes backslash, quote and newline', () => {
    expect(escapeLabel('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });
});
