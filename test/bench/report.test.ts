import { describe, expect, it } from 'vitest';
import { replaceSection } from '../../bench/report.js';

describe('replaceSection', () => {
  it('creates the document with a header when empty', () => {
    const doc = replaceSection('', 'A', 'alpha');
    expect(doc.startsWith('# Benchmarks\n')).toBe(true);
    expect(doc.endsWith('## A\n\nalpha\n')).toBe(true);
  });
  it('replaces only its own section', () => {
    const doc = replaceSection(replaceSection(replaceSection('', 'A', 'alpha'), 'B', 'beta'), 'A', 'ALPHA');
    expect(doc).toContain('## A\n\nALPHA\n\n## B\n\nbeta\n');
    expect(doc.match(/## A/g)?.length).toBe(1);
  });
});
