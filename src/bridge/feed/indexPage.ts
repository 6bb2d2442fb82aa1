/**
 * The tournament index served at `/`: a plain HTML page listing each round with its games and the
 * links broadcast operators paste into their sites (round-N/games.pgn, round-N/game-K.pgn).
 *
 *   makeIndexPage(state, now); // '<!doctype html>…'
 */
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

export const makeIndexPage = (state: FeedState, now: number): string => {
  const title = escapeHtml(state.tournament.name);
  const lines = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title></head>`,
    '<body>',
    `<h1>${title}</h1>`,
    '<p><a href="tournament.json">tournament.json</a></p>',
  ];
  for (const [round, entry] of state.rounds) {
    const delay = entry.settings.delayMs ?? 0;
    const note = delay > 0 ? ` (broadcast delay ${Math.round(delay / 60_000)} min)` : '';
    lines.push(`<h2>Round ${round}${escapeHtml(note)}</h2>`);
    lines.push(
      `<p><a href="round-${round}/games.pgn">round-${round}/games.pgn</a> · <a href="round-${round}/index.json">round-${round}/index.json</a></p>`,
    );
    lines.push('<ol>');
    for (const g of roundGames(state, round)) {
      const view = viewGame(state, g, now);
      const { board, white, black } = g.live;
      lines.push(
        `<li value="${board}"><a href="round-${round}/game-${board}.pgn">${playerText(white)} – ${playerText(black)}</a> ${escapeHtml(view.result)}</li>`,
      );
    }
    lines.push('</ol>');
  }
  lines.push('</body>', '</html>', '');
  return lines.join('\n');
};
