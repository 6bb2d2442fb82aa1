/**
 * Strong entity tags: a hash of the exact bytes, so equal bytes always give the same tag and any
 * change gives a new one, whichever process or restart computed it.
 *
 *   makeEtag(Buffer.from('1. e4 *\n')); // '"q3v1…"' (quoted, 27 base64url characters)
 */
import { createHash } from 'node:crypto';

export const makeEtag = (bytes: Uint8Array): string =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
