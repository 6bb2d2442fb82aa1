/**
 * Replay of recorded games through the rules core: turns each game of a PGN text into the events
 * the supervisor would have published (moves, claims that became possible, the automatic end of the
 * game), with a per-game `seq`, as lines of the wire (docs/wire.md: the game events in the shape
 * of every other replay and of MQTT, between a `replay_game` and a `replay_summary` line) or as
 * readable text.
 *
 *   for (const ev of replayPgn(text, profile)) console.log(JSON.stringify(makeReplayLine(ev, 'opera.pgn')));
 *   formatReplayText(replayPgn(text, profile), 'es'); // lines for a person (digest.ts)
 */
import type { EditionProfile } from '../../../engine/editions.js';
import type { GameEvent } from '../../../engine/events.js';
import { type Outcome, type PgnResult, makeResultToken } from '../../../engine/outcome.js';
import type { ArticleRef, Color } from '../../../engine/types.js';
import { readPgn } from '../../../engine/pgnRead.js';
import { evaluateGame } from '../../../engine/status.js';
import { makeEventMessage } from '../../wire/events.js';
import type { ReplayLine } from '../../wire/schema.js';
import { wireWord } from '../../wire/words.js';

type WireArticle = ArticleRef;

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
      /** Both clocks after the move, once the record has given a reading of each (%clk). */
      readonly clocks?: { readonly whiteMs: number; readonly blackMs: number };
      /** The game had already ended before this move (the record goes on). */
      readonly afterEnd?: true;
    }
  | {
      readonly type: 'claimable';
      readonly game: number;
      readonly seq: number;
      readonly ply: number;
      readonly claim: 'threefold' | 'fiftyMoves';
      readonly by: Color;
      readonly detail: string;
      /** What makes it claimable: the plies the position appeared at, or the half-move count. */
      readonly plies?: readonly number[];
      readonly halfmoves?: number;
      readonly article: WireArticle;
    }
  | {
      readonly type: 'end';
      readonly game: number;
      readonly seq: number;
      readonly ply: number;
      readonly result: PgnResult;
      readonly reason: Outcome['kind'];
      readonly winner?: Color;
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
      /** The ply the rules ended the game at, when they did. */
      readonly endedAt?: number;
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
    // Only the game's events count in seq (the header and the summary are no events).
    let seq = 0;
    yield {
      type: 'game',
      game: index,
      seq: 0,
      white: headers.get('White') ?? '?',
      black: headers.get('Black') ?? '?',
      event: headers.get('Event') ?? '?',
      fen: game.start.fen,
      recordedResult: result,
    };
    const statuses = evaluateGame(game, profile);
    const seenClaims = new Set<string>();
    let decided: Outcome | undefined;
    let endedAt: number | undefined;
    const last: { white?: number; black?: number } = {};
    for (const status of statuses) {
      const rec = status.ply > 0 ? game.moves[status.ply - 1] : undefined;
      if (rec) {
        if (rec.clockMs !== undefined) last[rec.fen.split(' ')[1] === 'b' ? 'white' : 'black'] = rec.clockMs;
        const clocks =
          last.white === undefined || last.black === undefined
            ? undefined
            : { whiteMs: last.white, blackMs: last.black };
        yield {
          type: 'move',
          game: index,
          seq: ++seq,
          ply: rec.ply,
          san: rec.san,
          uci: rec.uci,
          fen: rec.fen,
          ...(rec.clockMs !== undefined ? { clockMs: rec.clockMs } : {}),
          ...(clocks ? { clocks } : {}),
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
          ...(claim.kind === 'threefold' ? { plies: claim.plies } : { halfmoves: claim.halfmoves }),
          article: { edition: claim.article.edition, article: claim.article.article },
        };
      }
      if (status.end) {
        decided = status.end;
        endedAt = status.ply;
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
      seq,
      plies: game.length,
      result: makeResultToken(decided),
      recordedResult: result,
      ...(endedAt === undefined ? {} : { endedAt }),
    };
  }
}

/**
 * A replayed event as a line of the wire. Game events are the event messages of MQTT (through the
 * one serializer), named `<source>#<game number>`; `at` is 0 (a PGN has no times) and only the
 * events count in `seq`. The game's header and summary are `replay_game` and `replay_summary`.
 */
export const makeReplayLine = (ev: ReplayEvent, source: string): ReplayLine => {
  const game = `${source}#${ev.game}`;
  const env = { game, seq: ev.seq, at: 0 };
  const event = (e: GameEvent): ReplayLine => makeEventMessage(e);
  switch (ev.type) {
    case 'game':
      return {
        type: 'replay_game',
        game,
        white: ev.white,
        black: ev.black,
        event: ev.event,
        fen: ev.fen,
        recorded_result: ev.recordedResult,
      };
    case 'move':
      return event({
        ...env,
        type: 'move',
        ply: ev.ply,
        san: ev.san,
        uci: ev.uci,
        fen: ev.fen,
        ...(ev.clocks ? { clocks: ev.clocks } : {}),
      });
    case 'claimable':
      return event({
        ...env,
        type: 'claim',
        by: ev.by,
        claim: ev.claim,
        status: 'available',
        article: ev.article,
        detail: ev.detail,
      });
    case 'end':
      return event({
        ...env,
        type: 'end',
        result: ev.result,
        reason: ev.reason,
        ...(ev.winner ? { winner: ev.winner } : {}),
        article: ev.article,
      });
    case 'summary':
      return {
        type: 'replay_summary',
        game,
        plies: ev.plies,
        result: ev.result,
        recorded_result: ev.recordedResult,
        ended_at_ply: ev.endedAt ?? null,
      };
    case 'error':
      return { type: 'replay_error', game, kind: wireWord(ev.kind), message: ev.message };
  }
};
