/**
 * Fuzz check of the Millennium, Certabo and Chessnut decoders.
 *
 * Feeds seeded random bytes into each decoder in random-size chunks (for Chessnut each chunk is
 * one HID report), with a recognisable valid frame planted after every run of garbage, and
 * checks: no exception; the buffer stays within its cap (the maximum is reported), also with a
 * small cap; every planted frame is decoded, in order; a valid frame sent after all the garbage
 * decodes; and for the serial boards, feeding the stream in one piece gives the same output.
 * Garbage runs alternate between uniform bytes and bytes drawn from the protocol's own alphabet
 * (reply letters and hex digits; digits, spaces and ':'), which reach the deeper error paths.
 *
 *   npx tsx scripts/fuzzBoards.ts [--bytes N] [--seed S] [--board millennium|certabo|chessnut]
 *   import { runBoardFuzz } from '../scripts/fuzzBoards.js'; // runBoardFuzz('certabo', { bytes: 100_000, seed: 1 })
 */
import { pathToFileURL } from 'node:url';
import { CertaboDecoder } from '../src/drivers/certabo/codec.js';
import { CertaboEmulator } from '../src/drivers/certabo/emulator.js';
import { makeLine } from '../src/drivers/certabo/frames.js';
import { makeTag } from '../src/drivers/certabo/protocol.js';
import { ChessnutDecoder } from '../src/drivers/chessnut/codec.js';
import { makeMessage as makeChessnutMessage } from '../src/drivers/chessnut/messages.js';
import { codeFromContent, NIBBLE_SQUARE } from '../src/drivers/chessnut/protocol.js';
import { MillenniumDecoder } from '../src/drivers/millennium/codec.js';
import { makeReply } from '../src/drivers/millennium/messages.js';
import { makeWire } from '../src/drivers/millennium/protocol.js';
import type { BoardObservation } from '../src/drivers/observationExtra.js';

export type BoardName = 'millennium' | 'certabo' | 'chessnut';

export const BOARDS: readonly BoardName[] = ['millennium', 'certabo', 'chessnut'];

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
  readonly board: BoardName;
  readonly garbageBytes: number;
  readonly chunks: number;
  readonly seconds: number;
  readonly observations: number;
  readonly protocolErrors: number;
  /** Protocol errors by reason, over all runs. */
  readonly errorKinds: Readonly<Record<string, number>>;
  readonly maxBuffered: number;
  readonly bufferCap: number;
  readonly plantedFrames: number;
  readonly plantedDecoded: number;
  readonly smallCap: number;
  readonly smallCapMaxBuffered: number;
  readonly smallCapPlantedDecoded: number;
  /** The board's variant run (see BoardSetup.variant). */
  readonly variant: string;
  readonly variantMaxBuffered: number;
  readonly variantBufferCap: number;
  readonly variantPlantedDecoded: number;
  readonly tailDecoded: boolean;
  /** Serial boards: same output whole or chunked. Chessnut: reports are the framing (always true). */
  readonly chunkingIndependent: boolean;
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

/** A decoder under test, seen through what the fuzz needs. */
interface Subject {
  push(chunk: Uint8Array, at: number): BoardObservation[];
  readonly buffered: number;
  readonly bufferHighWater: number;
  readonly bufferCap: number;
}

interface BoardSetup {
  readonly make: (smallCap: boolean) => Subject;
  /** Another way in (parity mode, readline lines, fragment joining), checked for exceptions and its buffer. */
  readonly variant: {
    readonly name: string;
    readonly run: (parts: readonly Uint8Array[], chunks: readonly Uint8Array[]) => Variant;
  };
  readonly smallCap: number;
  /** The n-th planted frame. */
  readonly plant: (n: number) => Uint8Array;
  /** The planted number an observation carries, if it is one. */
  readonly mark: (o: BoardObservation) => number | undefined;
  /** Bytes garbage runs draw from in "alphabet" runs. */
  readonly alphabet: readonly number[];
  /** Chessnut: each chunk is a report, so garbage and plants go in separately. */
  readonly reports: boolean;
}

interface Variant {
  readonly out: BoardObservation[];
  readonly maxBuffered: number;
  readonly bufferCap: number;
}

const feedAll = (subject: Subject, chunks: readonly Uint8Array[]): Variant => {
  const out: BoardObservation[] = [];
  let maxBuffered = 0;
  chunks.forEach((c, t) => {
    for (const o of subject.push(c, t)) out.push(o);
    maxBuffered = Math.max(maxBuffered, subject.buffered);
  });
  return { out, maxBuffered: Math.max(maxBuffered, subject.bufferHighWater), bufferCap: subject.bufferCap };
};

const latin1 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};

const codes = (s: string): number[] => Array.from(s, c => c.charCodeAt(0));

const millennium: BoardSetup = {
  make: small => new MillenniumDecoder(small ? { bufferCap: 70 } : {}),
  variant: {
    name: "parity 'odd'",
    run: (_parts, chunks) => feedAll(new MillenniumDecoder({ parity: 'odd' }), chunks),
  },
  smallCap: 70,
  plant: n => makeWire(makeReply({ kind: 'version', major: (n >> 8) & 0xff, minor: n & 0xff })),
  mark: o =>
    o.type === 'identity' && o.firmware !== undefined ? parseInt(o.firmware.replace('.', ''), 16) : undefined,
  alphabet: codes('svlxwri0123456789ABCDEF.KQRBNPkqrbnp\n').flatMap(c => [c, c | 0x80]),
  reports: false,
};

const certaboCalibration = new CertaboEmulator().calibration;
const MARK_PREFIX = [0xf0, 0x0d];
const plantedTags = (n: number): (string | null)[] => [
  makeTag([...MARK_PREFIX, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]),
  ...new Array<null>(63).fill(null),
];

const certabo: BoardSetup = {
  make: small =>
    new CertaboDecoder(small ? { bufferCap: 1300, calibration: certaboCalibration, emitScans: true } : {}),
  smallCap: 1300,
  variant: {
    name: 'lines from a readline parser',
    run: parts => {
      const d = new CertaboDecoder();
      const lines = latin1(concat(parts)).split('\n');
      const out = lines.flatMap((l, t) => d.pushLine(l, t));
      return { out, maxBuffered: d.bufferHighWater, bufferCap: d.bufferCap };
    },
  },
  // A planted frame starts a new line, as every real frame does after the previous CR LF.
  plant: n => Uint8Array.from('\n' + makeLine({ kind: 'rfid', tags: plantedTags(n) }), c => c.charCodeAt(0)),
  mark: o => {
    if (o.type !== 'rfid-scan') return undefined;
    const tag = o.tags[56]; // a8: frame index 0
    return tag?.startsWith('F00D') === true ? parseInt(tag.slice(4), 16) : undefined;
  },
  alphabet: codes('0123456789 0123456789 :LD\r\n'),
  reports: false,
};

/** Position codes carrying n in base 13 on the first 6 nibbles. */
const plantedCodes = (n: number): number[] =>
  Array.from({ length: 64 }, (_, s) => (s < 6 ? Math.floor(n / 13 ** s) % 13 : 0));

const chessnut: BoardSetup = {
  make: small => new ChessnutDecoder(small ? { bufferCap: 64 } : {}),
  smallCap: 64,
  variant: {
    name: 'joinFragments',
    run: (_parts, chunks) => feedAll(new ChessnutDecoder({ joinFragments: true }), chunks),
  },
  plant: n =>
    makeChessnutMessage({
      kind: 'position',
      header: 0,
      codes: plantedCodes(n),
      trailer: [0xff, 0xff, 0xff, 0xff],
    }),
  mark: o => {
    if (o.type !== 'snapshot') return undefined;
    const digit = (s: number): number =>
      codeFromContent(o.squares[NIBBLE_SQUARE[s] ?? 0] ?? { kind: 'empty' }) ?? 0;
    return Array.from({ length: 6 }, (_, s) => digit(s) * 13 ** s).reduce((a, b) => a + b, 0);
  },
  alphabet: [0x01, 0x3d, 0x24, 0x2a, 0x02, 0x23, 0x00, 0x44, 0x77, 0xff, 0xee],
  reports: true,
};

const SETUPS: Readonly<Record<BoardName, BoardSetup>> = { millennium, certabo, chessnut };

/** The garbage and planted frames as a list of parts (one report each for Chessnut). */
const makeParts = (
  rng: () => number,
  setup: BoardSetup,
  garbage: number,
  every: number,
  maxChunk: number,
): Uint8Array[] => {
  const parts: Uint8Array[] = [];
  let left = garbage;
  let n = 0;
  while (left > 0) {
    const run = Math.min(left, 1 + Math.floor(rng() * 2 * every));
    const mode = Math.floor(rng() * 3);
    const bytes = new Uint8Array(run);
    for (let i = 0; i < run; i++) {
      const b =
        mode === 0
          ? Math.floor(rng() * 256)
          : (setup.alphabet[Math.floor(rng() * setup.alphabet.length)] ?? 0);
      // Mode 2 drops line feeds and ':' so lines outgrow the cap (Certabo's overflow paths).
      bytes[i] = mode === 2 && (b === 0x0a || b === 0x3a) ? 0x20 : b;
    }
    left -= run;
    if (setup.reports) {
      for (let i = 0; i < run;) {
        const k = 1 + Math.floor(rng() * maxChunk);
        parts.push(bytes.subarray(i, i + k));
        i += k;
      }
    } else {
      parts.push(bytes);
    }
    parts.push(setup.plant(n++));
  }
  return parts;
};

/** How many planted marks appear in order (extra observations in between are allowed). */
const plantedInOrder = (setup: BoardSetup, out: readonly BoardObservation[], plants: number): number => {
  let next = 0;
  for (const o of out) if (next < plants && setup.mark(o) === next) next++;
  return next;
};

const strip = (o: BoardObservation): string => JSON.stringify({ ...o, at: 0 });

export const runBoardFuzz = (board: BoardName, options: FuzzOptions): FuzzReport => {
  const setup = SETUPS[board];
  const rng = makeRng(options.seed);
  const maxChunk = options.maxChunk ?? 64;
  const report: { -readonly [K in keyof FuzzReport]: FuzzReport[K] } = {
    board,
    garbageBytes: options.bytes,
    chunks: 0,
    seconds: 0,
    observations: 0,
    protocolErrors: 0,
    errorKinds: {},
    maxBuffered: 0,
    bufferCap: 0,
    plantedFrames: 0,
    plantedDecoded: 0,
    smallCap: setup.smallCap,
    smallCapMaxBuffered: 0,
    smallCapPlantedDecoded: 0,
    variant: setup.variant.name,
    variantMaxBuffered: 0,
    variantBufferCap: 0,
    variantPlantedDecoded: 0,
    tailDecoded: false,
    chunkingIndependent: false,
    exception: undefined,
  };
  try {
    const parts = makeParts(rng, setup, options.bytes, options.plantEvery ?? 2000, maxChunk);
    report.plantedFrames = countPlants(setup, parts);
    // For serial boards the parts are glued into one stream and cut at random points.
    const chunks: Uint8Array[] = setup.reports ? parts : cutRandomly(concat(parts), rng, maxChunk);
    const run = (small: boolean): Variant & { readonly subject: Subject } => {
      const subject = setup.make(small);
      return { ...feedAll(subject, chunks), subject };
    };
    const t0 = performance.now();
    const main = run(false);
    report.seconds = (performance.now() - t0) / 1000;
    report.chunks = chunks.length;
    report.observations = main.out.length;
    report.protocolErrors = main.out.filter(o => o.type === 'protocol-error').length;
    report.bufferCap = main.subject.bufferCap;
    report.maxBuffered = main.maxBuffered;
    report.plantedDecoded = plantedInOrder(setup, main.out, report.plantedFrames);

    const small = run(true);
    report.smallCapMaxBuffered = small.maxBuffered;
    report.smallCapPlantedDecoded = plantedInOrder(setup, small.out, report.plantedFrames);
    const variant = setup.variant.run(parts, chunks);
    report.variantMaxBuffered = variant.maxBuffered;
    report.variantBufferCap = variant.bufferCap;
    report.variantPlantedDecoded = plantedInOrder(setup, variant.out, report.plantedFrames);
    const kinds: Record<string, number> = {};
    for (const o of [...main.out, ...small.out, ...variant.out])
      if (o.type === 'protocol-error') kinds[o.reason.kind] = (kinds[o.reason.kind] ?? 0) + 1;
    report.errorKinds = kinds;

    // A valid frame after all the garbage: more garbage first, then one frame.
    const tailGarbage = Uint8Array.from({ length: 97 }, () => Math.floor(rng() * 256));
    const tailMark = 0x7abc;
    main.subject.push(tailGarbage, chunks.length);
    const tail = main.subject.push(setup.plant(tailMark), chunks.length + 1);
    report.tailDecoded = tail.some(o => setup.mark(o) === tailMark);

    if (setup.reports) {
      report.chunkingIndependent = true;
    } else {
      const whole = setup.make(false).push(concat(parts), 0);
      report.chunkingIndependent =
        whole.length === main.out.length && whole.every((o, i) => strip(o) === strip(main.out[i]!));
    }
  } catch (e) {
    report.exception = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  return report;
};

const countPlants = (setup: BoardSetup, parts: readonly Uint8Array[]): number => {
  let n = 0;
  for (const p of parts) {
    const plant = setup.plant(n);
    if (p.length === plant.length && p.every((b, i) => b === plant[i])) n++;
  }
  return n;
};

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

const cutRandomly = (stream: Uint8Array, rng: () => number, maxChunk: number): Uint8Array[] => {
  const out: Uint8Array[] = [];
  for (let i = 0; i < stream.length;) {
    const n = 1 + Math.floor(rng() * maxChunk);
    out.push(stream.subarray(i, i + n));
    i += n;
  }
  return out;
};

export const fuzzPassed = (r: FuzzReport): boolean =>
  r.exception === undefined &&
  r.maxBuffered <= r.bufferCap &&
  r.smallCapMaxBuffered <= r.smallCap &&
  r.plantedFrames > 0 &&
  r.plantedDecoded === r.plantedFrames &&
  r.smallCapPlantedDecoded === r.plantedFrames &&
  r.variantMaxBuffered <= r.variantBufferCap &&
  r.tailDecoded &&
  r.chunkingIndependent;

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};

const main = (): void => {
  const bytes = Number(argValue('--bytes') ?? 1_000_000);
  const seed = Number(argValue('--seed') ?? 1);
  const only = argValue('--board');
  const boards = BOARDS.filter(b => only === undefined || b === only);
  let ok = boards.length > 0;
  for (const board of boards) {
    const r = runBoardFuzz(board, { bytes, seed });
    const passed = fuzzPassed(r);
    ok &&= passed;
    console.log(
      `${board} decoder fuzz: ${bytes} random bytes, seed ${seed}, ${r.chunks} chunks (${r.seconds.toFixed(2)} s)`,
    );
    console.log(`  exception:               ${r.exception ?? 'none'}`);
    console.log(`  observations:            ${r.observations} (${r.protocolErrors} protocol errors)`);
    console.log(
      `  error reasons (all runs): ${Object.entries(r.errorKinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    console.log(`  max buffered bytes:      ${r.maxBuffered} (cap ${r.bufferCap})`);
    console.log(`  planted frames decoded:  ${r.plantedDecoded} / ${r.plantedFrames}`);
    console.log(
      `  with a ${r.smallCap}-byte cap:   max buffered ${r.smallCapMaxBuffered}, planted decoded ${r.smallCapPlantedDecoded} / ${r.plantedFrames}`,
    );
    console.log(
      `  variant (${r.variant}): max buffered ${r.variantMaxBuffered} (cap ${r.variantBufferCap}), planted decoded ${r.variantPlantedDecoded} / ${r.plantedFrames}`,
    );
    console.log(`  frame after garbage:     ${r.tailDecoded ? 'decoded' : 'LOST'}`);
    console.log(`  chunking-independent:    ${r.chunkingIndependent ? 'yes' : 'NO'}`);
    console.log(`  ${passed ? 'PASS' : 'FAIL'}`);
  }
  process.exitCode = ok ? 0 : 1;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
