/**
 * Replay of recorded games through the rules core: turns each game of a PGN text into the events
 * the supervisor would have published (moves, claims that became possible, the automatic end of the
 * game), with a per-game `seq`, as JSON objects or readable text.
 *
 *   for (const ev of replayPgn(text, profile)) console.log(JSON.stringify(ev));
 *   formatReplayText(replayPgn(text, profile)); // lines for a person
 */
import type { EditionProfile } from '../engine/editions.js';
import { type Outcome, makeResultToken } from '../engine/outcome.js';
import { readPgn } from '../engine/pgnRead.js';
import { evaluateGame } from '../engine/status.js';

/** Article reference as written in events: edition and article number. */
interface WireArticle {
  readonly edition: string;
  readonly article: string;
}

export type ReplayEvent =
  | {
      readonly type: 'game';
      readonly game: number;
      readonly seq: number;
      readonly white: string;
      readonly black: string;
      readonly event: string;
      readonly fen: string;
      readonly recordedResult: string;
    }
  | {
      readonly type: 'move';
      readonly game: number;
      readonly seq: number;
      readonly ply: number;
      readonly san: string;
      readonly uci: string;
      readonly fen: string;
      readonly clockMs?: number;
      /** The game had already ended before this move (the record goes on). */
      readonly afterEnd?: true;
    }
  | {
      readonly type: 'claimable';
      readonly game: number;
      readonly seq: number;
      readonly ply: number;
      readonly claim: 'threefold' | 'fiftyMoves';
      readonly by: string;
      readonly detail: string;
      readonly article: WireArticle;
    }
  | {
      readonly type: 'end';
      readonly game: number;
      readonly seq: number;
      readonly ply: number;
      readonly result: string;
      readonly reason: Outcome['kind'];
      readonly winner?: string;
      readonly article: WireArticle;
    }
  | {
      readonly type: 'summary';
      readonly game: number;
      readonly seq: number;
      readonly plies: number;
      /** Result decided by the rules, or '*' when the game did not end on the board. */
      readonly result: string;
      readonly recordedResult: string;
    }
  | {
      readonly type: 'error';
      readonly game: number;
      readonly seq: number;
      readonly kind: string;
      readonly message: string;
    };

/** Replays every game of a PGN text under `profile`; a bad game yields an `error` event and the rest go on. */
export function* replayPgn(text: string, profile: EditionProfile): Generator<ReplayEvent> {
  for (const r of readPgn(text)) {
    if (r.isErr) {
      yield { type: 'error', game: r.error.game, seq: 1, kind: r.error.kind, message: r.error.message };
      continue;
    }
    const { index, headers, game, result } = r.value;
    let seq = 0;
    yield {
      type: 'game',
      game: index,
      seq: ++seq,
      white: headers.get('White') ?? '?',
      black: headers.get('Black') ?? '?',
      event: headers.get('Event') ?? '?',
      fen: game.start.fen,
      recordedResult: result,
    };
    const statuses = evaluateGame(game, profile);
    const seenClaims = new Set<string>();
    let decided: Outcome | undefined;
    for (const status of statuses) {
      const rec = status.ply > 0 ? game.moves[status.ply - 1] : undefined;
      if (rec) {
        yield {
          type: 'move',
          game: index,
          seq: ++seq,
          ply: rec.ply,
          san: rec.san,
          uci: rec.uci,
          fen: rec.fen,
          ...(rec.clockMs !== undefined ? { clockMs: rec.clockMs } : {}),
          ...(status.afterEnd ? { afterEnd: true as const } : {}),
        };
      }
      for (const claim of status.claims) {
        // Report a claim when it becomes possible, not again on every later ply.
        const id = claim.kind === 'threefold' ? `3:${status.key}:${claim.plies.length}` : `50`;
        if (seenClaims.has(id)) continue;
        seenClaims.add(id);
        const detail =
          claim.kind === 'threefold'
            ? `position appeared at plies ${claim.plies.join(', ')}`
            : `${claim.halfmoves} half-moves without a capture or pawn move`;
        yield {
          type: 'claimable',
          game: index,
          seq: ++seq,
          ply: status.ply,
          claim: claim.kind,
          by: claim.by,
          detail,
          article: { edition: claim.article.edition, article: claim.article.article },
        };
      }
      if (status.end) {
        decided = status.end;
        yield {
          type: 'end',
          game: index,
          seq: ++seq,
          ply: status.ply,
          result: makeResultToken(status.end),
          reason: status.end.kind,
          ...(status.end.winner ? { winner: status.end.winner } : {}),
          article: { edition: status.end.article.edition, article: status.end.article.article },
        };
      }
    }
    yield {
      type: 'summary',
      game: index,
      seq: ++seq,
      plies: game.length,
      result: makeResultToken(decided),
      recordedResult: result,
    };
  }
}

const REASON_TEXT: Record<Outcome['kind'], string> = {
  checkmate: 'checkmate',
  resignation: 'resignation',
  flag: 'flag fall',
  illegalMoves: 'illegal moves',
  defaultTime: 'default time',
  forfeit: 'forfeit',
  stalemate: 'stalemate',
  deadPosition: 'dead position',
  threefold: 'threefold repetition',
  fiftyMoves: 'fifty-move rule',
  fivefold: 'fivefold repetition',
  seventyFiveMoves: 'seventy-five-move rule',
  agreement: 'agreement',
  flagVsCannotMate: 'flag fall, opponent cannot checkmate',
  bothFlags: 'both flags fallen',
  illegalMovesVsCannotMate: 'illegal moves, opponent cannot checkmate',
  resignationVsCannotMate: 'resignation, opponent cannot checkmate',
  illegalPosition: 'illegal position',
  quickplayFinish: 'quickplay finish',
  bothLose: 'both players lose',
};

const moveNumber = (fen: string): string => {
  // The FEN after the move gives the side to move next and the move number.
  const [, turn, , , , full] = fen.split(' ');
  const fullmoves = Number(full);
  return turn === 'b' ? `${fullmoves}.` : `${fullmoves - 1}...`;
};

/** Readable lines for a person: one header per game, the moves, and what the rules decided. */
export const formatReplayText = (events: Iterable<ReplayEvent>): string[] => {
  const lines: string[] = [];
  let moves: string[] = [];
  const flushMoves = (): void => {
    if (moves.length > 0) lines.push(`  ${moves.join(' ')}`);
    moves = [];
  };
  for (const ev of events) {
    switch (ev.type) {
      case 'game':
        lines.push(`Game ${ev.game}: ${ev.white} - ${ev.black} (${ev.event})`);
        break;
      case 'move': {
        const number = moveNumber(ev.fen);
        const prefix = number.endsWith('...') && moves.length > 0 ? '' : `${number} `;
        moves.push(`${prefix}${ev.san}${ev.afterEnd ? ' (after the end)' : ''}`);
        if (moves.length >= 12) flushMoves();
        break;
      }
      case 'claimable':
        flushMoves();
        lines.push(
          `  ply ${ev.ply}: ${ev.by} may claim a draw by ${ev.claim === 'threefold' ? 'threefold repetition' : 'the fifty-move rule'}: ${ev.detail} [${ev.article.edition} art. ${ev.article.article}]`,
        );
        break;
      case 'end':
        flushMoves();
        lines.push(
          `  ply ${ev.ply}: game over by ${REASON_TEXT[ev.reason]}, ${ev.result} [${ev.article.edition} art. ${ev.article.article}]`,
        );
        break;
      case 'summary':
        flushMoves();
        lines.push(
          ev.result === '*'
            ? `  ${ev.plies} plies; no automatic end on the board; recorded result ${ev.recordedResult}`
            : `  ${ev.plies} plies; result by the rules ${ev.result}; recorded result ${ev.recordedResult}${ev.result === ev.recordedResult ? '' : ' (differs)'}`,
        );
        break;
      case 'error':
        flushMoves();
        lines.push(`Game ${ev.game}: rejected: ${ev.message}`);
        break;
    }
  }
  flushMoves();
  return lines;
};
