/**
 * Certabo line throughput: how long the decoder takes per frame line, and the emulator to write
 * one. A Certabo board streams a frame line about twice a second (reference §2.3: an RFID line is
 * 320 numbers, up to 1,283 bytes), so a hall of RFID boards is thousands of lines a second on the
 * daemon's one thread. The lines are the emulator's: the start position with noise tags on empty
 * squares (six, as on a noisy set: reference §2.4), each decoded through a calibration and the three-frame vote,
 * as the daemon does. Every decoded frame is checked to be a snapshot; anything else fails.
 *
 *   npx tsx bench/certaboFrames.ts                  # 20,000 lines, best of 5 rounds
 *   npx tsx bench/certaboFrames.ts --lines 5000 --rounds 3
 *   npx tsx bench/certaboFrames.ts --report         # writes "Certabo line throughput" in docs/benchmarks.md
 *
 * Times are CPU time of this process (other load on the machine does not inflate them).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CertaboDecoder } from '../src/drivers/certabo/codec.js';
import { CertaboEmulator } from '../src/drivers/certabo/emulator.js';
import { makeRecorder, writeReportSection } from './report.js';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    report: { type: 'boolean', default: false },
  },
});
const lines = Number(values.lines);
const rounds = Number(values.rounds);
if (!Number.isInteger(lines) || lines < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: tsx bench/certaboFrames.ts [--lines N] [--rounds R] [--report]');
  process.exit(2);
}

/** CPU microseconds (user + system) `work` takes, per item. */
const cpuPer = (items: number, work: () => void): number => {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / items;
};

const rec = makeRecorder();
const emulator = new CertaboEmulator({ noise: { seed: 7, squares: 6 } });
let frames: Uint8Array[] = [];
const write: number[] = [];
const read: number[] = [];
for (let r = 0; r < rounds; r++) {
  write.push(
    cpuPer(lines, () => {
      frames = Array.from({ length: lines }, () => emulator.frame());
    }),
  );
  const decoder = new CertaboDecoder({ calibration: emulator.calibration });
  let snapshots = 0;
  read.push(
    cpuPer(lines, () => {
      for (const f of frames) for (const o of decoder.push(f, 0)) if (o.type === 'snapshot') snapshots++;
    }),
  );
  if (snapshots !== lines) {
    console.error(`round ${r + 1}: ${snapshots} snapshots from ${lines} lines`);
    process.exit(1);
  }
}
const best = (xs: number[]): number => Math.min(...xs);
const bytes = frames[0]?.length ?? 0;
const decodeUs = best(read);
rec.log(
  `Run: \`npx tsx bench/certaboFrames.ts\` (${lines} lines of ${bytes} bytes, best of ${rounds} rounds, CPU time), on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${loadavg()[0]?.toFixed(2)} at the start.`,
);
rec.log('');
rec.log('| step | µs per line | lines per CPU second | boards per core at 2 lines/s (this step alone) |');
rec.log('|---|---:|---:|---:|');
const row = (what: string, us: number): void =>
  rec.log(
    `| ${what} | ${us.toFixed(1)} | ${Math.round(1e6 / us).toLocaleString('en')} | ${Math.round(1e6 / us / 2).toLocaleString('en')} |`,
  );
row('decode (calibrated, three-frame vote)', decodeUs);
row("emulator's line", best(write));
if (values.report)
  console.log(`report written to ${writeReportSection('Certabo line throughput', rec.lines.join('\n'))}`);
