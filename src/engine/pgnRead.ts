/**
 * Reads PGN text into game records, one Result per game: a bad game (illegal move, bad FEN tag,
 * null move) is reported with what and where, and never stops the games after it.
 *
 *   for (const r of readPgn(text)) {
 *     if (r.isOk) console.log(r.value.game.length); else console.log(r.error.message);
 *   }
 *
 * chessops parses the movetext; we replay the main line (variations are ignored), accept moves in
 * SAN and, as pgn-extract does, in coordinate form (g1f3, e7e8q), and keep [%clk]/[%emt] readings
 * and comments on each move.
 */
import { Result } from '@badrap/result';
import { makeFen } from 'chessops/fen';
import { type Game as PgnGame, type PgnNodeData, PgnParser, parseComment } from 'chessops/pgn';
import { Game, type MoveMeta, parsePosition } from './game.js';
import { splitPgn } from './pgnLex.js';
import { dataError } from './types.js';

/** A game read from PGN. */
export interface ImportedGame {
  /** 1-based position of the game in the text. */
  readonly index: number;
  /** Tag pairs in file order. */
  readonly headers: ReadonlyMap<string, string>;
  readonly game: Game;
  /** The game termination marker or Result tag: '1-0', '0-1', '1/2-1/2' or '*'. */
  readonly result: string;
  /** Comment before the first move, if any. */
  readonly comment?: string;
}

export type PgnReadErrorDetail =
  | {
      readonly kind: 'badStartPosition';
      readonly game: number;
      readonly label: string;
      readonly fen: string;
      readonly reason: string;
    }
  | {
      readonly kind: 'unsupportedVariant';
      readonly game: number;
      readonly label: string;
      readonly variant: string;
    }
  | {
      readonly kind: 'illegalMove';
      readonly game: number;
      readonly label: string;
      /** The move as written. */
      readonly san: string;
      /** "30..." style move number. */
      readonly moveNumber: string;
      readonly ply: number;
      readonly fen: string;
    }
  | { readonly kind: 'parseError'; readonly game: number; readonly label: string; readonly reason: string }
  | {
      readonly kind: 'syntax';
      readonly game: number;
      readonly label: string;
      readonly line: number;
      readonly column: number;
      readonly token: string;
      readonly reason: string;
    };

export type PgnReadError = PgnReadErrorDetail & Error;

const describe = (e: PgnReadErrorDetail): string => {
  const where = `game ${e.game} (${e.label})`;
  switch (e.kind) {
    case 'badStartPosition':
      return `${where}: bad FEN tag "${e.fen}": ${e.reason}`;
    case 'unsupportedVariant':
      return `${where}: variant "${e.variant}" is not standard chess or Chess960`;
    case 'illegalMove':
      return `${where}: illegal move ${e.moveNumber} ${e.san} (ply ${e.ply}) in position ${e.fen}`;
    case 'parseError':
      return `${where}: ${e.reason}`;
    case 'syntax':
      return `${where}: ${e.reason}: '${e.token}' at line ${e.line}, column ${e.column}`;
  }
};

const readError = (detail: PgnReadErrorDetail): PgnReadError => dataError(detail, describe(detail));

const COORDINATE_MOVE = /^([a-h][1-8])-?([a-h][1-8])([qrbnQRBN])?$/;

/** "White - Black, Event" for messages. */
const labelOf = (headers: ReadonlyMap<string, string>): string =>
  `${headers.get('White') ?? '?'} - ${headers.get('Black') ?? '?'}`;

const moveNumberOf = (fullmoves: number, turn: 'white' | 'black'): string =>
  turn === 'white' ? `${fullmoves}.` : `${fullmoves}...`;

const startOf = (
  index: number,
  headers: ReadonlyMap<string, string>,
): Result<{ game: Game; chess960: boolean }, PgnReadError> => {
  const label = labelOf(headers);
  const variant = (headers.get('Variant') ?? '').trim().toLowerCase();
  const chess960 = /960|fischer/.test(variant);
  if (variant !== '' && !chess960 && !['standard', 'chess', 'from position', 'normal'].includes(variant)) {
    return Result.err(
      readError({ kind: 'unsupportedVariant', game: index, label, variant: headers.get('Variant') ?? '' }),
    );
  }
  const fen = headers.get('FEN');
  if (fen === undefined) return Result.ok({ game: Game.standard(), chess960 });
  const pos = parsePosition(fen);
  if (pos.isErr) {
    const reason = pos.error.message;
    return Result.err(readError({ kind: 'badStartPosition', game: index, label, fen, reason }));
  }
  return Result.ok({ game: Game.fromPosition(pos.value, { chess960 }), chess960 });
};

const metaOf = (comments: readonly string[] | undefined): MoveMeta => {
  if (!comments || comments.length === 0) return {};
  let clockMs: number | undefined;
  let elapsedMs: number | undefined;
  const texts: string[] = [];
  for (const c of comments) {
    const parsed = parseComment(c);
    if (parsed.clock !== undefined) clockMs = Math.round(parsed.clock * 1000);
    if (parsed.emt !== undefined) elapsedMs = Math.round(parsed.emt * 1000);
    const text = parsed.text.trim();
    if (text) texts.push(text);
  }
  return {
    ...(clockMs !== undefined ? { clockMs } : {}),
    ...(elapsedMs !== undefined ? { elapsedMs } : {}),
    ...(texts.length > 0 ? { comment: texts.join(' ') } : {}),
  };
};

/** Replays one parsed game's main line into a record. */
export const importGame = (
  index: number,
  pgnGame: PgnGame<PgnNodeData>,
): Result<ImportedGame, PgnReadError> => {
  const headers = pgnGame.headers;
  const started = startOf(index, headers);
  if (started.isErr) return Result.err(started.error);
  let game = started.value.game;
  for (const node of pgnGame.moves.mainline()) {
    const meta = metaOf(node.comments);
    let next = game.playSan(node.san, meta);
    if (next.isErr) {
      const coord = COORDINATE_MOVE.exec(node.san);
      if (coord) next = game.playUci(`${coord[1]}${coord[2]}${(coord[3] ?? '').toLowerCase()}`, meta);
    }
    if (next.isErr) {
      const pos = game.position();
      return Result.err(
        readError({
          kind: 'illegalMove',
          game: index,
          label: labelOf(headers),
          san: node.san,
          moveNumber: moveNumberOf(pos.fullmoves, pos.turn),
          ply: game.length + 1,
          fen: makeFen(pos.toSetup()),
        }),
      );
    }
    game = next.value;
  }
  const marker = headers.get('Result') ?? '*';
  const comment = pgnGame.comments
    ?.map(c => parseComment(c).text.trim())
    .filter(Boolean)
    .join(' ');
  return Result.ok({
    index,
    headers,
    game,
    result: ['1-0', '0-1', '1/2-1/2', '*'].includes(marker) ? marker : '*',
    ...(comment ? { comment } : {}),
  });
};

/** Tag values of a game's text, read without the full parser (for error labels). */
const quickHeaders = (text: string): Map<string, string> => {
  const headers = new Map<string, string>();
  for (const m of text.matchAll(/^\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/gm))
    headers.set(m[1] ?? '', m[2] ?? '');
  return headers;
};

/**
 * Parses every game of a PGN text. Games come back in order, each a Result: a syntax error
 * (with line and column), a bad FEN tag or an illegal move rejects that game only.
 */
export const readPgn = (text: string): Result<ImportedGame, PgnReadError>[] => {
  const out: Result<ImportedGame, PgnReadError>[] = [];
  for (const chunk of splitPgn(text)) {
    if (chunk.syntaxError) {
      const e = chunk.syntaxError;
      const label = labelOf(quickHeaders(chunk.text));
      out.push(Result.err(readError({ kind: 'syntax', game: out.length + 1, label, ...e })));
      continue;
    }
    const parser = new PgnParser((pgnGame, err) => {
      const index = out.length + 1;
      if (err) {
        const label = labelOf(pgnGame.headers);
        out.push(Result.err(readError({ kind: 'parseError', game: index, label, reason: err.message })));
        return;
      }
      out.push(importGame(index, pgnGame));
    });
    parser.parse(chunk.text);
  }
  return out;
};

/**
 * Decodes PGN file bytes: UTF-8 when the bytes are valid UTF-8 (a BOM is dropped), otherwise
 * Latin-1, the encoding of the PGN standard and of many older databases.
 */
export const decodePgnBytes = (bytes: Uint8Array): string => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
};
