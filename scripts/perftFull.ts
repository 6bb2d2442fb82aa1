/**
 * Runs the perft reference files at full depth (or up to a node cap) against the rules core and
 * reports per file and overall; exits 1 on any mismatch, 2 on bad arguments or unreadable data.
 * The unit tests check only counts up to 300,000 nodes; this is the long run.
 *
 *   npx tsx scripts/perftFull.ts --max-nodes 5000000
 *   npx tsx scripts/perftFull.ts --file tricky.perft --file perftsuite.epd --shared ../shared
 *   npx tsx scripts/perftFull.ts --file perft-random-marcel.epd --max-nodes 100000 --dry-run
 *
 * --file takes a name in <shared>/data/perft or a path; without it every file runs. The shared
 * folder defaults to $CHESSBRIDGE_SHARED, else `shared` beside the checkout (as the tests do).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type PerftEntry, parsePerftFile } from '../src/engine/epd.js';
import { parsePosition } from '../src/engine/game.js';
import { perft } from '../src/engine/perft.js';
import { cpus } from 'node:os';
import { makeRecorder, writeReportSection } from '../bench/report.js';

const rec = makeRecorder();

const FILES = [
  'perftsuite.epd',
  'tricky.perft',
  'perft-stress.epd',
  'perft-double-check-ferdy.epd',
  'perft-random-marcel.epd',
];
const HEARTBEAT_MS = 30_000;

const USAGE = `usage: tsx scripts/perftFull.ts [--max-nodes N] [--file F]... [--shared DIR] [--dry-run] [--report]
  --max-nodes N  check only counts of at most N nodes (default: every count)
  --file F       a file name in <shared>/data/perft, or a path (repeatable; default: all files)
  --shared DIR   the shared folder (default: $CHESSBRIDGE_SHARED or ../shared beside the checkout)
  --dry-run      list what would be checked without running perft`;

interface Tally {
  positions: number;
  checked: number;
  skipped: number;
  mismatches: number;
  nodes: number;
  seconds: number;
}

const emptyTally = (): Tally => ({
  positions: 0,
  checked: 0,
  skipped: 0,
  mismatches: 0,
  nodes: 0,
  seconds: 0,
});

const addTally = (a: Tally, b: Tally): Tally => ({
  positions: a.positions + b.positions,
  checked: a.checked + b.checked,
  skipped: a.skipped + b.skipped,
  mismatches: a.mismatches + b.mismatches,
  nodes: a.nodes + b.nodes,
  seconds: a.seconds + b.seconds,
});

const formatTally = (t: Tally, dryRun: boolean): string => {
  if (dryRun) {
    return `${t.positions} positions, ${t.checked} counts to check, ${t.skipped} over the cap, ${t.nodes.toLocaleString('en-US')} nodes`;
  }
  const nps = t.seconds > 0 ? Math.round(t.nodes / t.seconds) : 0;
  return (
    `${t.positions} positions, ${t.checked} counts checked, ${t.skipped} skipped, ${t.mismatches} mismatches, ` +
    `${t.nodes.toLocaleString('en-US')} nodes, ${t.seconds.toFixed(1)} s, ${nps.toLocaleString('en-US')} nodes/s`
  );
};

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

const parseOptions = (): {
  maxNodes: number;
  files: string[];
  shared: string;
  dryRun: boolean;
  report: boolean;
} => {
  const { values } = (() => {
    try {
      return parseArgs({
        options: {
          'max-nodes': { type: 'string' },
          file: { type: 'string', multiple: true },
          shared: { type: 'string' },
          'dry-run': { type: 'boolean', default: false },
          report: { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h', default: false },
        },
      });
    } catch (e) {
      return fail(`${(e as Error).message}\n${USAGE}`);
    }
  })();
  if (values.help) {
    rec.log(USAGE);
    process.exit(0);
  }
  const capText = values['max-nodes'];
  const maxNodes = capText === undefined ? Number.POSITIVE_INFINITY : Number(capText.replace(/_/g, ''));
  if (!(maxNodes > 0)) fail(`--max-nodes must be a positive number, got ${capText}\n${USAGE}`);
  const checkout = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const shared = values.shared ?? process.env.CHESSBRIDGE_SHARED ?? resolve(checkout, '..', 'shared');
  return { maxNodes, files: values.file ?? FILES, shared, dryRun: values['dry-run'], report: values.report };
};

const locate = (shared: string, file: string): string => {
  const inShared = join(shared, 'data', 'perft', file);
  if (existsSync(inShared)) return inShared;
  if (existsSync(file)) return file;
  return fail(
    `perft file not found: ${file} (looked in ${join(shared, 'data', 'perft')} and the current folder)`,
  );
};

/** Checks one entry's counts up to `maxNodes`; prints each mismatch. */
const runEntry = (file: string, entry: PerftEntry, maxNodes: number, dryRun: boolean): Tally => {
  const tally = { ...emptyTally(), positions: 1 };
  const wanted = entry.counts.filter(c => c.nodes <= maxNodes);
  tally.skipped = entry.counts.length - wanted.length;
  if (dryRun) return { ...tally, checked: wanted.length, nodes: wanted.reduce((n, c) => n + c.nodes, 0) };
  const pos = parsePosition(entry.fen);
  if (pos.isErr) {
    rec.log(`MISMATCH ${file} ${entry.id} (line ${entry.line}): ${pos.error.message}`);
    return { ...tally, mismatches: wanted.length };
  }
  for (const { depth, nodes: expected } of wanted) {
    const actual = perft(pos.value, depth);
    tally.checked += 1;
    tally.nodes += actual;
    if (actual !== expected) {
      tally.mismatches += 1;
      rec.log(
        `MISMATCH ${file} ${entry.id} (line ${entry.line}) ${entry.fen} depth ${depth}: expected ${expected}, got ${actual}`,
      );
    }
  }
  return tally;
};

const runFile = (path: string, maxNodes: number, dryRun: boolean): Tally => {
  const name = basename(path);
  const entries = parsePerftFile(readFileSync(path, 'utf8'));
  if (entries.isErr) return fail(`${name}: ${entries.error.message}`);
  const started = performance.now();
  let lastBeat = started;
  let tally = emptyTally();
  for (const [i, entry] of entries.value.entries()) {
    tally = addTally(tally, runEntry(name, entry, maxNodes, dryRun));
    const now = performance.now();
    if (now - lastBeat >= HEARTBEAT_MS) {
      lastBeat = now;
      console.error(
        `  ${name}: ${i + 1}/${entries.value.length} positions, ${tally.nodes.toLocaleString('en-US')} nodes so far`,
      );
    }
  }
  return { ...tally, seconds: (performance.now() - started) / 1000 };
};

const main = (): void => {
  const { maxNodes, files, shared, dryRun, report } = parseOptions();
  const cap = Number.isFinite(maxNodes)
    ? `counts <= ${maxNodes.toLocaleString('en-US')} nodes`
    : 'every depth';
  rec.log(`perft ${dryRun ? '(dry run) ' : ''}of ${files.length} file(s), ${cap}`);
  let total = emptyTally();
  for (const file of files) {
    const tally = runFile(locate(shared, file), maxNodes, dryRun);
    rec.log(`${basename(file)}: ${formatTally(tally, dryRun)}`);
    total = addTally(total, tally);
  }
  rec.log(`TOTAL: ${formatTally(total, dryRun)}`);
  if (!dryRun) rec.log(total.mismatches === 0 ? 'all counts match' : `${total.mismatches} MISMATCHES`);
  process.exitCode = total.mismatches === 0 ? 0 : 1;
  if (report && !dryRun) {
    const args = process.argv.slice(2).join(' ');
    const body = [
      `Run: \`npx tsx scripts/perftFull.ts ${args}\` on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
      '',
      '```',
      ...rec.lines,
      '```',
    ].join('\n');
    const title = files.length === 1 ? `Perft: ${basename(files[0] ?? '')}` : 'Perft';
    writeReportSection(title, body);
  }
};

main();
