/**
 * A game event in words for a person, in a language of the catalogs: codes and articles as they
 * are (for grep), the sentences, claims, offers and endings from the catalogs, moves with the
 * language's piece letters. The replay's text and the daemon's log lines use it in every language
 * but English, where their own English lines stay as they were.
 *
 *   eventText('es', move);  // '2. Cf3'
 *   eventText('es', alert); // 'ALERTA touch_move [E23 art. 4.3.1] Blancas tocaron primero …'
 */
import type { GameEvent } from '../../engine/events.js';
import type { Sentence } from '../../engine/texts.js';
import type { ArticleRef } from '../../engine/types.js';
import { wireAlertCode } from '../wire/events.js';
import { wireWord } from '../wire/words.js';
import { claimText, detailText, endText, localSan, offerText, t } from './messages.js';

/**
 * One line for a person in another language than English: codes and articles as they are, the
 * sentences, claims, offers and endings from the catalogs, moves with the language's letters.
 */
export const eventText = (lang: string, e: GameEvent): string => {
  const said = (x: { readonly detail?: string; readonly text?: readonly Sentence[] }): string =>
    x.text === undefined || x.text.length === 0 ? (x.detail ?? '') : detailText(lang, x.text);
  const cite = (a: ArticleRef): string =>
    `[${t(lang, 'article', { edition: a.edition, article: a.article })}]`;
  switch (e.type) {
    case 'move':
      return `${Math.ceil(e.ply / 2)}${e.ply % 2 === 1 ? '.' : '...'} ${localSan(lang, e.san)}`;
    case 'alert':
      return `${t(lang, 'ui.alert').toUpperCase()} ${wireAlertCode(e.code)} ${cite(e.article)} ${said(e)}`;
    case 'finding':
      return `${t(lang, 'ply', { ply: e.ply })}: ${wireAlertCode(e.code)} ${cite(e.article)} ${said(e)}`;
    case 'claim':
      return `${claimText(lang, { by: e.by, claim: wireWord(e.claim), status: e.status })} ${cite(e.article)}${e.detail === undefined ? '' : ` ${said(e)}`}`;
    case 'offer':
      return offerText(lang, e);
    case 'end':
      return `${t(lang, 'end.line', { reason: endText(lang, wireWord(e.reason)), result: e.result })} ${cite(e.article)}`;
    case 'correction':
      return t(lang, 'digest.correction', {
        ply: e.fromPly,
        reason: t(lang, `correction.${wireWord(e.reason)}`),
        moves: e.moves.map(m => localSan(lang, m.san)).join(' ') || t(lang, 'digest.plies_removed'),
      });
    case 'clock':
      return t(lang, 'digest.clock', {
        white: `${Math.round(e.whiteMs / 1000)} s`,
        black: `${Math.round(e.blackMs / 1000)} s`,
        running:
          e.running === undefined
            ? t(lang, 'digest.clock.stopped')
            : t(lang, 'digest.clock.running', { color: t(lang, `color.${e.running}`) }),
      });
    case 'alert-withdrawn':
      return t(lang, 'digest.alert_withdrawn', {
        alert: String(e.alert),
        code: wireAlertCode(e.code),
        reason: t(lang, `withdrawn.${e.reason}`),
      });
  }
};
