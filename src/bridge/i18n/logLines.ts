/**
 * The daemon's log lines about a game's life, in the venue's language (`http.language`;
 * docs/i18n.md): a game started, a game finished. The game's id, the result and an end reason's
 * code stay as they are, for grep; an end reason the catalogs know is also said in words.
 *
 *   gameStartedLine('es', 'r1-b3', 'dgt-3');                    // 'partida r1-b3 empezada en el tablero dgt-3'
 *   gameFinishedLine('es', 'r1-b3', '1-0', 'checkmate');        // 'partida r1-b3 terminada: 1-0 (checkmate: jaque mate)'
 */
import { wireWord } from '../wire/words.js';
import { DEFAULT_LANG, catalog, endText, t } from './messages.js';

export const gameStartedLine = (lang: string, game: string, board: string | undefined): string =>
  lang === DEFAULT_LANG
    ? `game ${game} started${board === undefined ? '' : ` on board ${board}`}`
    : board === undefined
      ? t(lang, 'log.game_started', { game })
      : t(lang, 'log.game_started_on', { game, board });

export const gameFinishedLine = (lang: string, game: string, result: string, reason: string): string => {
  if (lang === DEFAULT_LANG) return `game ${game} finished: ${result} (${reason})`;
  const known = catalog(lang)[`end.${wireWord(reason)}`] !== undefined;
  return t(lang, 'log.game_finished', {
    game,
    result,
    reason: known ? `${reason}: ${endText(lang, wireWord(reason))}` : reason,
  });
};
