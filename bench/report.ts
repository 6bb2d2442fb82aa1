/**
 * Keeps docs/benchmarks.md as one file with a section per benchmark script: each script rewrites
 * only its own `## Title` section, so the figures of the other scripts stay as they were.
 *
 *   writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), 'Corpus replay', body));
 */
const HEADER = [
  '# Benchmarks',
  '',
  'Every figure here is written by a script in `bench/` or `scripts/`; rerun the script named in a',
  'section to refresh it. Figures are wall-clock and depend on the machine named in each section.',
  '',
].join('\n');

/** Replaces (or appends) the `## title` section of a Markdown document with `body`. */
export const replaceSection = (doc: string, title: string, body: string): string => {
  const base = doc.trim() === '' ? HEADER : doc;
  const heading = `## ${title}`;
  const block = `${heading}\n\n${body.trim()}\n`;
  const start = base.indexOf(`${heading}\n`);
  if (start < 0) return `${base.trimEnd()}\n\n${block}`;
  const next = base.indexOf('\n## ', start + heading.length);
  const end = next < 0 ? base.length : next + 1;
  return `${base.slice(0, start)}${block}${next < 0 ? '' : '\n'}${base.slice(end)}`;
};
