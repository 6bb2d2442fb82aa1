/**
 * Certabo calibration (reference §2.6, errata 13): which RFID tag is which piece. `makeCalibration`
 * learns it from scans of the start position (the most common tag per square, a strict majority
 * required), plus spare queens on d6 / d3 when present; `extendCalibration` adds pieces of a
 * second set ("add piece" pass); `parseCalibration` checks a stored value; `makeCalibrationJson`
 * writes one with a stable key order. Failures are Result errors naming the square or tag.
 *
 *   const learned = makeCalibration(scans); // scans: rfid-scan observations' tags, ≥ 7 of them
 *   if (learned.isOk) save(makeCalibrationJson(learned.value.calibration));
 *   const cal = parseCalibration(JSON.parse(text)); // Result<Calibration, CalibrationError>
 */
import { Result } from '@badrap/result';
import { makeSquare, parseSquare, type Square, type SquareName } from 'chessops';
import { EMPTY, START_SQUARES, type SquareContent } from '../observation.js';
import {
  contentFromPieceLetter,
  isPieceLetter,
  makeProblem,
  PIECE_LETTERS,
  pieceLetterOf,
  type PieceLetter,
} from '../observationExtra.js';
import { isTag, type RfidTag } from './protocol.js';

export const CALIBRATION_VERSION = 1;

/** Tag → piece letter. JSON-serialisable as it is. */
export interface Calibration {
  readonly version: typeof CALIBRATION_VERSION;
  readonly pieces: Readonly<Record<RfidTag, PieceLetter>>;
}

/** A scan: index = chessops square (orientation applied), null = empty. */
export type RfidScan = readonly (RfidTag | null)[];

export type CalibrationProblem =
  | { readonly kind: 'too-few-samples'; readonly needed: number; readonly got: number }
  | { readonly kind: 'bad-sample'; readonly index: number; readonly length: number }
  /** No tag (or emptiness) holds a strict majority of the samples on this square. */
  | {
      readonly kind: 'no-majority';
      readonly square: SquareName;
      readonly best: number;
      readonly samples: number;
    }
  /** A square that must hold a piece reads empty in most samples. */
  | { readonly kind: 'empty-square'; readonly square: SquareName }
  /** One tag seen on two squares. */
  | { readonly kind: 'duplicate-tag'; readonly tag: RfidTag; readonly squares: readonly SquareName[] }
  /** A tag already calibrated as another piece. */
  | {
      readonly kind: 'conflict';
      readonly tag: RfidTag;
      readonly square: SquareName;
      readonly existing: PieceLetter;
      readonly wanted: PieceLetter;
    }
  | { readonly kind: 'bad-json'; readonly detail: string }
  | { readonly kind: 'bad-version'; readonly found: string }
  | { readonly kind: 'bad-value'; readonly path: string; readonly expected: string }
  /** A stored calibration without any tag for these pieces. */
  | { readonly kind: 'incomplete'; readonly missing: readonly PieceLetter[] };

export type CalibrationError = Error & CalibrationProblem;

const fail = <T>(message: string, problem: CalibrationProblem): Result<T, CalibrationError> =>
  Result.err(makeProblem(`calibration: ${message}`, problem));

/** Samples needed: picochess asks for at least 7 (Certabo's own software takes 15). */
export const DEFAULT_MIN_SAMPLES = 7;

/** Spare queens learned with the start position (Certabo 4.x, picochess; not haklein). */
export const SPARE_QUEENS: ReadonlyMap<Square, PieceLetter> = new Map([
  [parseSquare('d6'), 'q'],
  [parseSquare('d3'), 'Q'],
]);

export interface CalibrationOptions {
  readonly minSamples?: number;
  /**
   * 'detect' (default): learn a queen on d6 / d3 when a tag holds the majority there. 'require':
   * fail without them. 'ignore': never look (haklein's way).
   */
  readonly spareQueens?: 'detect' | 'require' | 'ignore';
}

export interface LearnedCalibration {
  readonly calibration: Calibration;
  /** The spare-queen squares learned. */
  readonly spares: readonly SquareName[];
}

/** The most common reading of a square, with its count (null = empty). */
const majority = (
  scans: readonly RfidScan[],
  sq: Square,
): { readonly tag: RfidTag | null; readonly count: number } => {
  const counts = new Map<RfidTag | null, number>();
  for (const s of scans) counts.set(s[sq] ?? null, (counts.get(s[sq] ?? null) ?? 0) + 1);
  let best: { tag: RfidTag | null; count: number } = { tag: null, count: 0 };
  for (const [tag, count] of counts) if (count > best.count) best = { tag, count };
  return best;
};

const checkScans = (scans: readonly RfidScan[], minSamples: number): Result<true, CalibrationError> => {
  if (scans.length < minSamples)
    return fail(`${scans.length} samples, ${minSamples} needed`, {
      kind: 'too-few-samples',
      needed: minSamples,
      got: scans.length,
    });
  const bad = scans.findIndex(s => s.length !== 64);
  if (bad >= 0)
    return fail(`sample ${bad} has ${scans[bad]?.length} squares`, {
      kind: 'bad-sample',
      index: bad,
      length: scans[bad]?.length ?? 0,
    });
  return Result.ok(true);
};

/** Learns tags for the given squares; every square must hold a strict majority tag. */
const learn = (
  scans: readonly RfidScan[],
  wanted: ReadonlyMap<Square, PieceLetter>,
  optional: ReadonlySet<Square>,
): Result<Map<Square, RfidTag>, CalibrationError> => {
  const found = new Map<Square, RfidTag>();
  for (const sq of wanted.keys()) {
    const { tag, count } = majority(scans, sq);
    if (count * 2 <= scans.length) {
      if (optional.has(sq)) continue;
      return fail(`no majority on ${makeSquare(sq)}`, {
        kind: 'no-majority',
        square: makeSquare(sq),
        best: count,
        samples: scans.length,
      });
    }
    if (tag === null) {
      if (optional.has(sq)) continue;
      return fail(`${makeSquare(sq)} reads empty`, { kind: 'empty-square', square: makeSquare(sq) });
    }
    const other = [...found].find(([, t]) => t === tag);
    if (other !== undefined)
      return fail(`tag ${tag} on two squares`, {
        kind: 'duplicate-tag',
        tag,
        squares: [makeSquare(other[0]), makeSquare(sq)],
      });
    found.set(sq, tag);
  }
  return Result.ok(found);
};

/** The start position's pieces by square (game frame). */
export const START_PIECES: ReadonlyMap<Square, PieceLetter> = new Map(
  START_SQUARES.flatMap((c, sq): [Square, PieceLetter][] => {
    const l = pieceLetterOf(c);
    return l === undefined ? [] : [[sq, l]];
  }),
);

/** Learns a calibration from scans of the start position (plus optional spare queens on d6 / d3). */
export const makeCalibration = (
  scans: readonly RfidScan[],
  options: CalibrationOptions = {},
): Result<LearnedCalibration, CalibrationError> => {
  const checked = checkScans(scans, options.minSamples ?? DEFAULT_MIN_SAMPLES);
  if (checked.isErr) return Result.err(checked.error);
  const spareMode = options.spareQueens ?? 'detect';
  const wanted = new Map(START_PIECES);
  if (spareMode !== 'ignore') for (const [sq, l] of SPARE_QUEENS) wanted.set(sq, l);
  const optional = new Set(spareMode === 'detect' ? SPARE_QUEENS.keys() : []);
  const learned = learn(scans, wanted, optional);
  if (learned.isErr) return Result.err(learned.error);
  const pieces: Record<RfidTag, PieceLetter> = {};
  const spares: SquareName[] = [];
  for (const [sq, tag] of learned.value) {
    pieces[tag] = wanted.get(sq) ?? 'P';
    if (SPARE_QUEENS.has(sq)) spares.push(makeSquare(sq));
  }
  return Result.ok({ calibration: { version: CALIBRATION_VERSION, pieces }, spares });
};

/**
 * Adds the pieces standing on the given squares (a second set, spare pieces) to a calibration.
 * A tag already known as the same piece is fine; as another piece it is a conflict.
 */
export const extendCalibration = (
  calibration: Calibration,
  scans: readonly RfidScan[],
  pieces: Readonly<Partial<Record<SquareName, PieceLetter>>>,
  options: Pick<CalibrationOptions, 'minSamples'> = {},
): Result<{ readonly calibration: Calibration; readonly added: readonly RfidTag[] }, CalibrationError> => {
  const checked = checkScans(scans, options.minSamples ?? DEFAULT_MIN_SAMPLES);
  if (checked.isErr) return Result.err(checked.error);
  const wanted = new Map<Square, PieceLetter>();
  for (const [name, l] of Object.entries(pieces)) {
    const sq = parseSquare(name);
    if (sq === undefined || !isPieceLetter(l))
      return fail(`bad square or piece ${name}`, {
        kind: 'bad-value',
        path: name,
        expected: 'a square name → a piece letter',
      });
    wanted.set(sq, l);
  }
  const learned = learn(scans, wanted, new Set());
  if (learned.isErr) return Result.err(learned.error);
  const next: Record<RfidTag, PieceLetter> = { ...calibration.pieces };
  const added: RfidTag[] = [];
  for (const [sq, tag] of learned.value) {
    const l = wanted.get(sq) ?? 'P';
    const existing = next[tag];
    if (existing !== undefined && existing !== l)
      return fail(`tag ${tag} is already ${existing}`, {
        kind: 'conflict',
        tag,
        square: makeSquare(sq),
        existing,
        wanted: l,
      });
    if (existing === undefined) added.push(tag);
    next[tag] = l;
  }
  return Result.ok({ calibration: { version: CALIBRATION_VERSION, pieces: next }, added });
};

/** The piece a tag stands for; unknown tags and null are empty (errata 2). */
export const lookupTag = (calibration: Calibration, tag: RfidTag | null): SquareContent =>
  tag === null ? EMPTY : (contentFromPieceLetter(calibration.pieces[tag] ?? '') ?? EMPTY);

export const isKnownTag = (calibration: Calibration, tag: RfidTag): boolean =>
  Object.hasOwn(calibration.pieces, tag);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a stored calibration: a JSON text or an already parsed value. */
export const parseCalibration = (value: unknown): Result<Calibration, CalibrationError> => {
  let v = value;
  if (typeof value === 'string') {
    try {
      v = JSON.parse(value) as unknown;
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      return fail(`not JSON: ${detail}`, { kind: 'bad-json', detail });
    }
  }
  if (!isRecord(v)) return fail('not an object', { kind: 'bad-value', path: '', expected: 'an object' });
  if (v.version !== CALIBRATION_VERSION)
    return fail(`version ${JSON.stringify(v.version)}`, {
      kind: 'bad-version',
      found: String(JSON.stringify(v.version)),
    });
  const pieces = v.pieces;
  if (!isRecord(pieces))
    return fail('pieces is not an object', { kind: 'bad-value', path: 'pieces', expected: 'an object' });
  const out: Record<RfidTag, PieceLetter> = {};
  for (const [tag, l] of Object.entries(pieces)) {
    if (!isTag(tag))
      return fail(`bad tag "${tag}"`, {
        kind: 'bad-value',
        path: `pieces.${tag}`,
        expected: 'a tag of 10 upper-case hex digits',
      });
    if (typeof l !== 'string' || !isPieceLetter(l))
      return fail(`bad piece for ${tag}`, {
        kind: 'bad-value',
        path: `pieces.${tag}`,
        expected: 'one of KQRBNPkqrbnp',
      });
    out[tag] = l;
  }
  const present = new Set(Object.values(out));
  const missing = PIECE_LETTERS.filter(l => !present.has(l));
  if (missing.length > 0) return fail(`no tag for ${missing.join('')}`, { kind: 'incomplete', missing });
  return Result.ok({ version: CALIBRATION_VERSION, pieces: out });
};

/** A calibration as JSON text, tags sorted, for storage. */
export const makeCalibrationJson = (calibration: Calibration): string => {
  const pieces: Record<RfidTag, PieceLetter> = {};
  for (const tag of Object.keys(calibration.pieces).sort()) {
    const l = calibration.pieces[tag];
    if (l !== undefined) pieces[tag] = l;
  }
  return `${JSON.stringify({ version: calibration.version, pieces }, null, 2)}\n`;
};
