/**
 * The pages' message catalogs read by a browser test, and the check that a page shows no text of
 * the other language: every fixed part (between the slots, longer than two letters) of a text the
 * two languages say differently must be absent, as a whole word, from what the reader sees.
 *
 *   await page.goto(stack.pageUrl('console/boards.html', { lang: 'es' }));
 *   await expectNoForeignText(page, 'en');   // no English left on the Spanish page
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

type Catalog = Record<string, string | Record<string, string>>;

export const catalogOf = (lang: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../web/shared/i18n/${lang}.json`, import.meta.url), 'utf8')) as Catalog;

export const CATALOGS = { en: catalogOf('en'), es: catalogOf('es') };

/** The fixed parts of `lang`'s texts that the other language says otherwise. */
export const foreignParts = (lang: 'en' | 'es'): { key: string; part: string }[] => {
  const other = CATALOGS[lang === 'en' ? 'es' : 'en'];
  return Object.entries(CATALOGS[lang]).flatMap(([key, message]) => {
    if (JSON.stringify(message) === JSON.stringify(other[key]) || key === 'piece.letters') return [];
    const texts = typeof message === 'string' ? [message] : Object.values(message);
    return texts.flatMap(text =>
      text
        .split(/\{\w+\}/)
        .map(part => part.trim())
        .filter(part => part.length > 2)
        .map(part => ({ key, part })),
    );
  });
};

/** Fails naming each text of `lang`'s catalog (that the other language words differently) on the page. */
export const expectNoForeignText = async (page: Page, lang: 'en' | 'es'): Promise<void> => {
  const shown = await page.locator('body').innerText();
  // Whole words only: `event` is in `evento`, `Nota` in `Notation`.
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = foreignParts(lang)
    .filter(({ part }) => new RegExp(`(^|[^\\p{L}])${escape(part)}($|[^\\p{L}])`, 'u').test(shown))
    .map(
      ({ key, part }) =>
        `${key}: "${part}" in …${shown.slice(Math.max(0, shown.indexOf(part) - 40), shown.indexOf(part) + 40)}…`,
    );
  expect(found).toEqual([]);
};
