/**
 * The tournament index served at `/`: a plain HTML page listing each round with its games and the
 * links broadcast operators paste into their sites (round-N/games.pgn, round-N/game-K.pgn), in a
 * language of the catalogs (docs/i18n.md), with links to the page in the others (`?lang=`).
 *
 *   makeIndexPage(state, now, 'es'); // '<!doctype html>\n<html lang="es">…'
 */
import { DEFAULT_LANG, LANGUAGES, t } from '../i18n/messages.js';
import type { Player } from '../pairings/types.js';
import { type FeedState, roundGames } from './feedState.js';
import { viewGame } from './visible.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, c => ESCAPES[c] ?? c);

const playerText = (p: Player): string => escapeHtml(p.title ? `${p.title} ${p.name}` : p.name);

/** The switch: every language by its own name, the page's own marked as current. */
const languageLinks = (lang: string): string =>
  `<nav aria-label="${escapeHtml(t(lang, 'ui.language'))}">${Object.entries(LANGUAGES)
    .map(([code, name]) =>
      code === lang
        ? `<strong lang="${code}" aria-current="page">${escapeHtml(name)}</strong>`
        : `<a href="?lang=${code}" hreflang="${code}" lang="${code}">${escapeHtml(name)}</a>`,
    )
    .join(' · ')}</nav>`;

export const makeIndexPage = (state: FeedState, now: number, lang: string = DEFAULT_LANG): string => {
  const title = escapeHtml(state.tournament.name);
  const lines = [
    '<!doctype html>',
    `<html lang="${escapeHtml(lang)}">`,
    // No icon: a browser would ask for /favicon.ico, which the feed does not have.
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">',
    `<title>${title}</title></head>`,
    '<body>',
    languageLinks(lang),
    `<h1>${title}</h1>`,
    `<p>${escapeHtml(t(lang, 'index.files'))} <a href="tournament.json"><code>tournament.json</code></a></p>`,
  ];
  if (state.rounds.size === 0) lines.push(`<p>${escapeHtml(t(lang, 'index.no_rounds'))}</p>`);
  for (const [round, entry] of state.rounds) {
    const delay = entry.settings.delayMs ?? 0;
    const note = delay > 0 ? ` (${t(lang, 'index.delay', { minutes: Math.round(delay / 60_000) })})` : '';
    lines.push(`<h2>${escapeHtml(t(lang, 'index.round', { round: String(round) }) + note)}</h2>`);
    lines.push(
      `<p><a href="round-${round}/games.pgn"><code>round-${round}/games.pgn</code></a> · <a href="round-${round}/index.json"><code>round-${round}/index.json</code></a></p>`,
    );
    lines.push('<ol>');
    for (const g of roundGames(state, round)) {
      const view = viewGame(state, g, now);
      const { board, white, black } = g.live;
      lines.push(
        `<li value="${board}"><a href="round-${round}/game-${board}.pgn">${playerText(white)} – ${playerText(black)}</a> ${escapeHtml(view.result === '*' ? t(lang, 'index.result.pending') : view.result)}</li>`,
      );
    }
    lines.push('</ol>');
  }
  lines.push('</body>', '</html>', '');
  return lines.join('\n');
};
