/**
 * Layering of profile data: applies partial layers (appendix rules, an event's overrides) onto a
 * complete body, keeps track of UNVERIFIED paths, and freezes the result.
 *
 *   const { value, leaves } = mergeLayer(body, { illegalMoves: { minutesToOpponent: 1 } }, 'override');
 *   leaves;                         // ['illegalMoves.minutesToOpponent']
 *   dropCovered(unverified, leaves) // unverified paths minus the ones now set
 *
 * Only keys that exist in the base may be set, with a value of the same kind (object vs. plain
 * value): a misspelt override is a programmer or configuration error and throws a TypeError.
 */

type Plain = { readonly [key: string]: unknown };

const isPlainObject = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Result of a merge: the new value and the dotted paths of every leaf the layer set. */
export interface Merged<T> {
  readonly value: T;
  readonly leaves: readonly string[];
}

const mergeAt = (base: Plain, layer: Plain, prefix: string, source: string, leaves: string[]): Plain => {
  const out: Record<string, unknown> = { ...base };
  for (const [key, next] of Object.entries(layer)) {
    if (next === undefined) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (!Object.hasOwn(base, key)) throw new TypeError(`${source}: unknown profile field '${path}'`);
    const current = base[key];
    if (isPlainObject(current) !== isPlainObject(next)) {
      throw new TypeError(
        `${source}: '${path}' must be ${isPlainObject(current) ? 'an object' : 'a plain value'}`,
      );
    }
    if (isPlainObject(current) && isPlainObject(next)) {
      out[key] = mergeAt(current, next, path, source, leaves);
    } else {
      out[key] = next;
      leaves.push(path);
    }
  }
  return out;
};

/**
 * Returns `base` with every defined value of `layer` written over it (recursively). `source` names
 * the layer in error messages. An `undefined` value in the layer means "not set".
 */
export const mergeLayer = <T extends object>(base: T, layer: object, source: string): Merged<T> => {
  const leaves: string[] = [];
  const value = mergeAt(base as Plain, layer as Plain, '', source, leaves) as T;
  return { value, leaves };
};

/** Drops the paths that a set leaf now covers (the path itself or anything below it). */
export const dropCovered = (paths: readonly string[], leaves: readonly string[]): string[] =>
  paths.filter(p => !leaves.some(leaf => p === leaf || p.startsWith(`${leaf}.`)));

/** Freezes an object graph in place and returns it typed as deeply readonly data. */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
};

/** Reads the value at a dotted path; undefined when any step is missing. */
export const valueAt = (root: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), root);

/** True when `path` names an existing field (even one holding `undefined`). */
export const hasPath = (root: unknown, path: string): boolean => {
  const keys = path.split('.');
  const last = keys.pop();
  const parent = keys.length === 0 ? root : valueAt(root, keys.join('.'));
  return last !== undefined && isPlainObject(parent) && Object.hasOwn(parent, last);
};
