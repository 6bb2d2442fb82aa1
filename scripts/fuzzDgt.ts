/**
 * Fuzz and throughput check of the DGT decoder.
 *
 * Feeds seeded random bytes (with a recognisable valid frame planted after every run of
 * garbage) into the single-board and bus decoders in random-size chunks, and checks: no
 * exception, the buffer never exceeds its cap (the maximum is reported), every planted frame
 * is decoded, a valid frame appended after all the garbage decodes, and the output does not
 * depend on the chunking. Then measures decode throughput next to the 9600-baud link limit.
 *
 *   npx tsx scripts/fuzzDgt.ts [--bytes N] [--seed S]
 *   import { runDgtFuzz } from '../scripts/fuzzDgt.js'; // from tests: runDgtFuzz({ bytes: 200_000, seed: 1 })
 */
import { pathToFileURL } from 'node:url';
import { DgtBusDecoder, makeBusMessage } from '../src/drivers/dgt/bus.js';
import { makeClockTimesPayload, makeDgtClockFace } from '../src/drivers/dgt/clock.js';
import { DgtDecoder } from '../src/drivers/dgt/codec.js';
import { LINK_BYTES_PER_SECOND } from '../src/drivers/dgt/constants.js';
import { makeMessage } from '../src/drivers/dgt/messages.js';
import type { Observation } from '../src/drivers/observation.js';
import { cpus } from 'node:os';
import { makeRecorder, writeReportSection } from '../bench/report.js';

const rec = makeRecorder();

export interface FuzzOptions {
  /** Random (garbage) bytes to feed. */
  readonly bytes: number;
  readonly seed: number;
  /** Largest chunk handed to push(). */
  readonly maxChunk?: number;
  /** Average garbage bytes between planted frames. */
  readonly plantEvery?: number;
}

export interface FuzzReport {
  readonly garbageBytes: number;
  readonly plantedFrames: number;
  readonly plantedDecoded: number;
  readonly chunks: number;
  readonly observations: number;
  readonly protocolErrors: number;
  /** Protocol errors by reason, over the default-cap and small-cap runs. */
  readonly errorKinds: Readonly<Record<string, number>>;
  readonly maxBuffered: number;
  readonly bufferCap: number;
  /** The same stream through a decoder with a small cap (overflow path). */
  readonly smallCap: number;
  readonly smallCapMaxBuffered: number;
  readonly smallCapPlantedDecoded: number;
  readonly tailDecoded: boolean;
  readonly chunkingIndependent: boolean;
  readonly busPlanted: number;
  readonly busPlantedDecoded: number;
  readonly busMaxBuffered: number;
  readonly exception: string | undefined;
}

/** mulberry32: a small seeded PRNG, good enough for fuzzing. */
export const makeRng = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const MARK = 'FUZZ#';
const planted = (n: number): Uint8Array => makeMessage({ kind: 'trademark', text: `${MARK}${n}` });
const SMALL_CAP = 256;

/** How many planted frames were decoded, in order. */
const plantedInOrder = (out: readonly Observation[]): number =>
  out
    .flatMap(o => (o.type === 'identity' && o.trademark?.startsWith(MARK) === true ? [o.trademark] : []))
    .filter((m, i) => m === `${MARK}${i}`).length;

/**
 * Random bytes with a planted frame after each garbage run; returns the stream and the count.
 * Half the runs are uniform bytes; the other half set bit 7 only on about one byte in 256, so
 * random headers are followed by long 7-bit payloads that fill the buffer.
 */
const makeStream = (
  rng: () => number,
  garbage: number,
  every: number,
  plant: (n: number) => Uint8Array,
): { stream: Uint8Array; plants: number } => {
  const parts: number[] = [];
  let plants = 0;
  let left = garbage;
  while (left > 0) {
    const run = Math.min(left, 1 + Math.floor(rng() * 2 * every));
    const sparse = rng() < 0.5;
    for (let i = 0; i < run; i++) {
      const b = Math.floor(rng() * 256);
      parts.push(sparse && rng() >= 1 / 256 ? b & 0x7f : b);
    }
    left -= run;
    for (const b of plant(plants)) parts.push(b);
    plants++;
  }
  return { stream: Uint8Array.from(parts), plants };
};

const feed = <T>(
  push: (chunk: Uint8Array) => T[],
  stream: Uint8Array,
  rng: () => number,
  maxChunk: number,
  after: () => void,
): { out: T[]; chunks: number } => {
  const out: T[] = [];
  let chunks = 0;
  for (let i = 0; i < stream.length;) {
    const n = 1 + Math.floor(rng() * maxChunk);
    for (const o of push(stream.subarray(i, i + n))) out.push(o);
    after();
    i += n;
    chunks++;
  }
  return { out, chunks };
};

const strip = (o: Observation): string => JSON.stringify({ ...o, at: 0 });

export const runDgtFuzz = (options: FuzzOptions): FuzzReport => {
  const rng = makeRng(options.seed);
  const maxChunk = options.maxChunk ?? 64;
  const every = options.plantEvery ?? 2000;
  const report: { -readonly [K in keyof FuzzReport]: FuzzReport[K] } = {
    garbageBytes: options.bytes,
    plantedFrames: 0,
    plantedDecoded: 0,
    chunks: 0,
    observations: 0,
    protocolErrors: 0,
    errorKinds: {},
    maxBuffered: 0,
    bufferCap: 0,
    smallCap: SMALL_CAP,
    smallCapMaxBuffered: 0,
    smallCapPlantedDecoded: 0,
    tailDecoded: false,
    chunkingIndependent: false,
    busPlanted: 0,
    busPlantedDecoded: 0,
    busMaxBuffered: 0,
    exception: undefined,
  };
  try {
    const { stream, plants } = makeStream(rng, options.bytes, every, planted);
    report.plantedFrames = plants;
    const d = new DgtDecoder();
    report.bufferCap = d.bufferCap;
    let t = 0;
    const { out, chunks } = feed(
      c => d.push(c, t++),
      stream,
      rng,
      maxChunk,
      () => {
        report.maxBuffered = Math.max(report.maxBuffered, d.buffered);
      },
    );
    report.maxBuffered = Math.max(report.maxBuffered, d.bufferHighWater);
    report.chunks = chunks;
    report.observations = out.length;
    report.protocolErrors = out.filter(o => o.type === 'protocol-error').length;
    report.plantedDecoded = plantedInOrder(out);

    // A small cap: overflows are skipped, the planted (short) frames still decode.
    const small = new DgtDecoder({ bufferCap: SMALL_CAP });
    const smallOut = feed(
      c => small.push(c, 0),
      stream,
      rng,
      maxChunk,
      () => undefined,
    ).out;
    report.smallCapMaxBuffered = small.bufferHighWater;
    report.smallCapPlantedDecoded = plantedInOrder(smallOut);
    const kinds: Record<string, number> = {};
    for (const o of [...out, ...smallOut])
      if (o.type === 'protocol-error') kinds[o.reason.kind] = (kinds[o.reason.kind] ?? 0) + 1;
    report.errorKinds = kinds;

    // A valid frame after all the garbage (the stream ends with a planted frame, so add garbage first).
    const tailGarbage = Uint8Array.from({ length: 97 }, () => Math.floor(rng() * 256));
    d.push(tailGarbage, t++);
    const tail = d
      .push(makeMessage({ kind: 'field-update', field: 36, code: 1 }), t++)
      .filter(o => o.type !== 'protocol-error');
    report.tailDecoded = tail.length === 1 && tail[0]?.type === 'square';

    // The same stream in one chunk must give the same observations.
    const whole = new DgtDecoder().push(stream, 0);
    report.chunkingIndependent =
      whole.length === out.length && whole.every((o, i) => strip(o) === strip(out[i]!));

    // Bus mode: planted serial-number replies from board 1025 among the garbage.
    const bus = makeStream(rng, Math.floor(options.bytes / 4), every, n =>
      makeBusMessage(1025, { kind: 'serial', text: `${MARK}${n}` }),
    );
    report.busPlanted = bus.plants;
    const bd = new DgtBusDecoder();
    const busOut = feed(
      c => bd.push(c, 0),
      bus.stream,
      rng,
      maxChunk,
      () => undefined,
    ).out;
    report.busMaxBuffered = bd.bufferHighWater;
    const busMarks = busOut.flatMap(o =>
      o.address === 1025 && o.observation.type === 'identity' && o.observation.serial?.startsWith(MARK)
        ? [o.observation.serial]
        : [],
    );
    report.busPlantedDecoded = busMarks.filter((m, i) => m === `${MARK}${i}`).length;
  } catch (e) {
    report.exception = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  return report;
};

export const fuzzPassed = (r: FuzzReport): boolean =>
  r.exception === undefined &&
  r.maxBuffered <= r.bufferCap &&
  r.plantedDecoded === r.plantedFrames &&
  r.smallCapMaxBuffered <= r.smallCap &&
  r.smallCapPlantedDecoded === r.plantedFrames &&
  r.busPlantedDecoded === r.busPlanted &&
  r.tailDecoded &&
  r.chunkingIndependent;

export interface ThroughputReport {
  readonly name: string;
  readonly bytes: number;
  readonly seconds: number;
  readonly mbPerSecond: number;
  readonly observationsPerSecond: number;
  /** How many 9600-baud links one core could keep up with. */
  readonly linksPerCore: number;
}

/** Realistic traffic: field updates and clock messages, a board dump now and then. */
const makeTraffic = (bytes: number, rng: () => number): Uint8Array => {
  const dump = makeMessage({
    kind: 'board-dump',
    codes: Array.from({ length: 64 }, (_, i) => (i < 16 ? 7 : i >= 48 ? 1 : 0)),
  });
  const out = new Uint8Array(bytes + dump.length);
  let n = 0;
  let ms = 300_000;
  while (n < bytes) {
    const r = rng();
    const frame =
      r < 0.02
        ? dump
        : r < 0.7
          ? makeMessage({ kind: 'field-update', field: Math.floor(rng() * 64), code: Math.floor(rng() * 13) })
          : makeMessage({
              kind: 'clock',
              payload: Array.from(
                makeClockTimesPayload({
                  left: makeDgtClockFace((ms -= 1000)),
                  right: makeDgtClockFace(ms + 5000),
                  status: 0x01,
                }),
              ),
            });
    if (ms < 2000) ms = 300_000;
    out.set(frame, n);
    n += frame.length;
  }
  return out.subarray(0, n);
};

const measure = (name: string, stream: Uint8Array, chunk: number): ThroughputReport => {
  const run = (): { seconds: number; count: number } => {
    const d = new DgtDecoder();
    let count = 0;
    const t0 = performance.now();
    for (let i = 0; i < stream.length; i += chunk) count += d.push(stream.subarray(i, i + chunk), i).length;
    return { seconds: (performance.now() - t0) / 1000, count };
  };
  run(); // warm-up
  const { seconds, count } = run();
  const bytesPerSecond = stream.length / seconds;
  return {
    name,
    bytes: stream.length,
    seconds,
    mbPerSecond: bytesPerSecond / 1e6,
    observationsPerSecond: count / seconds,
    linksPerCore: Math.floor(bytesPerSecond / LINK_BYTES_PER_SECOND),
  };
};

export const measureThroughput = (bytes: number, seed: number): ThroughputReport[] => {
  const rng = makeRng(seed);
  const random = Uint8Array.from({ length: bytes }, () => Math.floor(rng() * 256));
  const traffic = makeTraffic(bytes, rng);
  return [
    measure('random bytes, 64-byte reads', random, 64),
    measure('game traffic, 64-byte reads', traffic, 64),
    measure('game traffic, 5-byte reads', traffic, 5),
  ];
};

const argValue = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  const v = i < 0 ? undefined : Number(process.argv[i + 1]);
  return v === undefined || !Number.isFinite(v) ? fallback : v;
};

const main = (): void => {
  const bytes = argValue('--bytes', 1_000_000);
  const seed = argValue('--seed', 1);
  const t0 = performance.now();
  const r = runDgtFuzz({ bytes, seed });
  const ok = fuzzPassed(r);
  rec.log(
    `DGT decoder fuzz: ${bytes} random bytes, seed ${seed}, ${r.chunks} chunks (${((performance.now() - t0) / 1000).toFixed(2)} s)`,
  );
  rec.log(`  exception:               ${r.exception ?? 'none'}`);
  rec.log(`  observations:            ${r.observations} (${r.protocolErrors} protocol errors)`);
  rec.log(
    `  error reasons (both caps): ${Object.entries(r.errorKinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  rec.log(`  max buffered bytes:      ${r.maxBuffered} (cap ${r.bufferCap})`);
  rec.log(`  planted frames decoded:  ${r.plantedDecoded} / ${r.plantedFrames}`);
  rec.log(
    `  with a ${r.smallCap}-byte cap:      max buffered ${r.smallCapMaxBuffered}, planted decoded ${r.smallCapPlantedDecoded} / ${r.plantedFrames}`,
  );
  rec.log(`  frame after garbage:     ${r.tailDecoded ? 'decoded' : 'LOST'}`);
  rec.log(`  chunking-independent:    ${r.chunkingIndependent ? 'yes' : 'NO'}`);
  rec.log(
    `  bus: planted replies:    ${r.busPlantedDecoded} / ${r.busPlanted} (max buffered ${r.busMaxBuffered})`,
  );
  rec.log(`Throughput (link limit at 9600 baud: ${LINK_BYTES_PER_SECOND} bytes/s):`);
  for (const t of measureThroughput(bytes, seed)) {
    rec.log(
      `  ${t.name.padEnd(30)} ${t.mbPerSecond.toFixed(1).padStart(7)} MB/s  ${Math.round(t.observationsPerSecond).toLocaleString('en').padStart(12)} observations/s  = ${t.linksPerCore.toLocaleString('en')} links`,
    );
  }
  rec.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
  if (process.argv.includes('--report')) {
    const body = [
      `Run: \`npx tsx scripts/fuzzDgt.ts ${process.argv.slice(2).join(' ')}\` on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
      '',
      '```',
      ...rec.lines,
      '```',
    ].join('\n');
    writeReportSection('DGT decoder: fuzz and throughput', body);
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
