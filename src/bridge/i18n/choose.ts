/**
 * The language a server-rendered page is written in: `?lang=` in the address, else the first of
 * the reader's languages (`Accept-Language`, by preference) with a catalog, else the venue's
 * default (`http.language`). The scripted pages choose the same way in the browser
 * (web/shared/i18n.js), with the reader's switch kept in the browser's storage as well.
 *
 *   pageLanguage({ query: 'lang=es', acceptLanguage: undefined, venue: 'en' }); // 'es'
 *   pageLanguage({ query: '', acceptLanguage: 'de-DE, es;q=0.8, en;q=0.5', venue: 'en' }); // 'es'
 */
import { DEFAULT_LANG, languageOf } from './messages.js';

/** The reader's languages with a catalog, most wanted first (`q=0` excluded). */
export const acceptedLanguages = (header: string | undefined): string[] => {
  if (header === undefined) return [];
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...attrs] = part.split(';').map(s => s.trim());
      const q = attrs.find(a => a.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag, weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter(x => x.tag !== '' && x.tag !== '*' && x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  const out: string[] = [];
  for (const { tag } of ranked) {
    const lang = languageOf(tag);
    if (lang !== undefined && !out.includes(lang)) out.push(lang);
  }
  return out;
};

export const pageLanguage = (ask: {
  readonly query: string;
  readonly acceptLanguage: string | undefined;
  readonly venue: string | undefined;
}): string => {
  const asked = new URLSearchParams(ask.query).get('lang');
  const fromQuery = asked === null ? undefined : languageOf(asked);
  return (
    fromQuery ??
    acceptedLanguages(ask.acceptLanguage)[0] ??
    (ask.venue === undefined ? undefined : languageOf(ask.venue)) ??
    DEFAULT_LANG
  );
};
