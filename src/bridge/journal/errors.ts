/**
 * The journal's failures, as typed values: each names the file and the cause, so an operator
 * reading a log line knows which disk, which folder and what to do (free space, remount, fix
 * permissions). I/O errors from Node are mapped by their `code`.
 *
 *   const r = await store.append('r1-b3', entry);
 *   if (r.isErr && r.error.kind === 'no-space') alert(`journal disk full: ${r.error.file}`);
 *   ioError('/srv/journal/wal/1.wal', 'appending to', e); // { kind: 'no-space', file, code: 'ENOSPC', … }
 */
import { dataError } from '../../engine/types.js';

export type JournalErrorDetail =
  /** The disk or the user's quota is full. Nothing acknowledged was lost; torn bytes were cut off. */
  | { readonly kind: 'no-space'; readonly file: string; readonly code: string; readonly doing: string }
  /** The folder is on a read-only filesystem. */
  | { readonly kind: 'read-only'; readonly file: string; readonly code: string; readonly doing: string }
  /** The daemon's user may not write there. */
  | { readonly kind: 'permission'; readonly file: string; readonly code: string; readonly doing: string }
  /** Any other system error (`code` as Node gives it, e.g. EIO). */
  | {
      readonly kind: 'io';
      readonly file: string;
      readonly code: string | undefined;
      readonly doing: string;
      readonly detail: string;
    }
  /** A damaged line that is not at the end of the file (1-based line number). */
  | { readonly kind: 'corrupt'; readonly file: string; readonly line: number; readonly detail: string }
  /** The file has no valid header line: not a journal, or created and cut off at once. */
  | { readonly kind: 'bad-header'; readonly file: string; readonly detail: string }
  /** A game id that cannot be a file name (ids are letters, digits, - and _). */
  | { readonly kind: 'bad-id'; readonly game: string }
  | { readonly kind: 'unknown-game'; readonly game: string }
  | { readonly kind: 'game-exists'; readonly game: string; readonly file: string }
  | { readonly kind: 'game-finished'; readonly game: string; readonly file: string }
  /** The store is not started, or stopped. */
  | { readonly kind: 'closed' };

export type JournalError = JournalErrorDetail & Error;

export const journalError = (detail: JournalErrorDetail): JournalError => {
  const text = ((): string => {
    switch (detail.kind) {
      case 'no-space':
        return `disk full (${detail.code}) while ${detail.doing} ${detail.file}`;
      case 'read-only':
        return `read-only filesystem (${detail.code}) while ${detail.doing} ${detail.file}`;
      case 'permission':
        return `permission denied (${detail.code}) while ${detail.doing} ${detail.file}`;
      case 'io':
        return `${detail.detail} while ${detail.doing} ${detail.file}`;
      case 'corrupt':
        return `${detail.file}:${detail.line}: ${detail.detail}`;
      case 'bad-header':
        return `${detail.file}:1: not a journal header: ${detail.detail}`;
      case 'bad-id':
        return `game id ${JSON.stringify(detail.game)} cannot name a file (use letters, digits, - and _)`;
      case 'unknown-game':
        return `no open game ${JSON.stringify(detail.game)}`;
      case 'game-exists':
        return `game ${JSON.stringify(detail.game)} already has a journal: ${detail.file}`;
      case 'game-finished':
        return `game ${JSON.stringify(detail.game)} is finished: ${detail.file}`;
      case 'closed':
        return 'the journal is not running';
    }
  })();
  return dataError(detail, `journal: ${text}`);
};

const codeOf = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;

const KIND_OF_CODE: Readonly<Record<string, 'no-space' | 'read-only' | 'permission'>> = {
  ENOSPC: 'no-space',
  EDQUOT: 'no-space',
  EFBIG: 'no-space',
  EROFS: 'read-only',
  EACCES: 'permission',
  EPERM: 'permission',
};

/** Maps a Node system error to a journal error about `file`; `doing` reads "while <doing> <file>". */
export const ioError = (file: string, doing: string, e: unknown): JournalError => {
  const code = codeOf(e);
  const kind = code === undefined ? undefined : KIND_OF_CODE[code];
  if (code !== undefined && kind !== undefined) return journalError({ kind, file, code, doing });
  return journalError({ kind: 'io', file, code, doing, detail: e instanceof Error ? e.message : String(e) });
};
