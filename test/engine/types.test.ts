import { describe, expect, it } from 'vitest';
import { EDITIONS, cite, isEdition, isGameType } from '../../src/engine/types.js';

describe('engine vocabulary', () => {
  it('lists the editions in chronological order', () => {
    expect(EDITIONS).toEqual(['E97', 'E09', 'E14', 'E17', 'E18', 'E23']);
  });
  it('recognises edition and game-type names', () => {
    expect(isEdition('E14')).toBe(true);
    expect(isEdition('E15')).toBe(false);
    expect(isGameType('blitz')).toBe(true);
    expect(isGameType('bullet')).toBe(false);
  });
  it('builds article references', () => {
    expect(cite('E23', '9.6.1')).toEqual({ edition: 'E23', article: '9.6.1' });
  });
});
