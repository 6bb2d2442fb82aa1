/**
 * Keeps docs/benchmarks.md as one file with a section per benchmark script: each script rewrites
 * only its own `## Title` section, so the figures of the other scripts stay as they were.
 *
 *   writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), 'Corpus replay', body));
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Rewrites the `## title` section of docs/benchmarks.md (path relative to the project root). */
export const writeReportSection = (title: string, body: string): string => {
  const path = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'docs', 'benchmarks.md');
  writeFileSync(path, replaceSection(existsSync(path) ? readFileSync(path, 'utf8') : '', title, body));
  return path;
};

/** A console logger that also keeps the lines, for scripts that can write their output as a report. */
export const makeRecorder = (): { log: (line: string) => void; lines: string[] } => {
  const lines: string[] = [];
  return {
    lines,
    log: (line: string) => {
      console.log(line);
      lines.push(line);
    },
  };
};
