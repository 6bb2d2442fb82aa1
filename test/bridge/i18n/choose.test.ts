import { describe, expect, it } from 'vitest';
import { acceptedLanguages, pageLanguage } from '../../../src/bridge/i18n/choose.js';

describe('the language of a server-rendered page', () => {
  it('reads Accept-Language by preference, keeping languages with a catalog', () => {
    expect(acceptedLanguages('de-DE, es;q=0.8, en;q=0.5')).toEqual(['es', 'en']);
    expect(acceptedLanguages('en;q=0.2, es-AR;q=0.9, es;q=0.8')).toEqual(['es', 'en']);
    expect(acceptedLanguages('es;q=0, fr')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('takes ?lang= first, then the reader’s languages, then the venue’s, then English', () => {
    expect(pageLanguage({ query: 'lang=es', acceptLanguage: 'en-GB', venue: 'en' })).toBe('es');
    expect(pageLanguage({ query: 'lang=xx', acceptLanguage: 'en-GB', venue: 'es' })).toBe('en');
    expect(pageLanguage({ query: '', acceptLanguage: 'de-DE', venue: 'es' })).toBe('es');
    expect(pageLanguage({ query: '', acceptLanguage: undefined, venue: undefined })).toBe('en');
  });
});
