/**
 * The replay digest: readable lines for a person, in a language of the catalogs (English unless
 * asked), made from the replay's events and their fields, not from their English `detail`.
 *
 *   formatReplayText(replayPgn(text, profile), 'es');
 *   // ['Partida 1: Anand - Carlsen (WCh)', '  1. e4 e5 …', '  jugada 113: partida terminada por …']
 */
import { DEFAULT_LANG, colorText, endText, localSan, t } from '../../i18n/messages.js';
import { wireWord } from '../../wire/words.js';
import type { ReplayEvent } from './pgn.js';

const moveNumber = (fen: string): string => {
  // The FEN after the move gives the side to move next and the move number.
  const [, turn, , , , full] = fen.split(' ');
  const fullmoves = Number(full);
  return turn === 'b' ? `${fullmoves}.` : `${fullmoves - 1}...`;
};

const article = (a: { readonly edition: string; readonly article: string }, lang: string): string =>
  `[${t(lang, 'article', { edition: a.edition, article: a.article })}]`;

/** Why a claim is possible, in words (the plies a position appeared at, the half-moves counted). */
const claimGround = (ev: Extract<ReplayEvent, { type: 'claimable' }>, lang: string): string =>
  ev.plies !== undefined
    ? t(lang, 'digest.claim.threefold', { plies: ev.plies.join(', ') })
    : ev.halfmoves !== undefined
      ? t(lang, 'digest.claim.fifty_moves', { halfmoves: ev.halfmoves })
      : ev.detail;

/** Readable lines for a person: one header per game, the moves, and what the rules decided. */
export const formatReplayText = (events: Iterable<ReplayEvent>, lang: string = DEFAULT_LANG): string[] => {
  const lines: string[] = [];
  let moves: string[] = [];
  const flushMoves = (): void => {
    if (moves.length > 0) lines.push(`  ${moves.join(' ')}`);
    moves = [];
  };
  for (const ev of events) {
    switch (ev.type) {
      case 'game':
        lines.push(
          t(lang, 'digest.game', {
            game: String(ev.game),
            white: ev.white,
            black: ev.black,
            event: ev.event,
          }),
        );
        break;
      case 'move': {
        const number = moveNumber(ev.fen);
        const prefix = number.endsWith('...') && moves.length > 0 ? '' : `${number} `;
        moves.push(
          `${prefix}${localSan(lang, ev.san)}${ev.afterEnd ? ` ${t(lang, 'digest.after_end')}` : ''}`,
        );
        if (moves.length >= 12) flushMoves();
        break;
      }
      case 'claimable':
        flushMoves();
        lines.push(
          `  ${t(lang, 'digest.claim', { ply: t(lang, 'ply', { ply: ev.ply }), by: colorText(lang, ev.by), claim: t(lang, `claim.${wireWord(ev.claim)}`) })}: ${claimGround(ev, lang)} ${article(ev.article, lang)}`,
        );
        break;
      case 'end':
        flushMoves();
        lines.push(
          `  ${t(lang, 'digest.end', { ply: t(lang, 'ply', { ply: ev.ply }), reason: endText(lang, wireWord(ev.reason)), result: ev.result })} ${article(ev.article, lang)}`,
        );
        break;
      case 'summary': {
        flushMoves();
        const plies = t(lang, 'plies', { plies: ev.plies });
        lines.push(
          ev.result === '*'
            ? `  ${t(lang, 'digest.summary.none', { plies, recorded: ev.recordedResult })}`
            : `  ${t(lang, 'digest.summary', { plies, result: ev.result, recorded: ev.recordedResult })}${ev.result === ev.recordedResult ? '' : ` ${t(lang, 'digest.differs')}`}`,
        );
        break;
      }
      case 'error':
        flushMoves();
        lines.push(t(lang, 'digest.rejected', { game: String(ev.game), message: ev.message }));
        break;
    }
  }
  flushMoves();
  return lines;
};
