import { appendIndex, appendKey } from "./parameter-path.js";
import { ToolValidationError } from "./tool-validation-error.js";
import { beFor, subjectOf } from "./value-preview.js";

/** The size limits a value must fit before schema validation looks at it. */
export interface ValueLimits {
  /** The most levels of nested objects and arrays; the validated object itself is level 1. */
  readonly maxDepth: number;
  /** The longest string (value or property name), in UTF-16 code units. */
  readonly maxStringLength: number;
  /** The most values (including every object, array and property) in one call. */
  readonly maxNodes: number;
  /** The most characters of text (strings and property names together) in one call. */
  readonly maxTotalSize: number;
}

/** Running totals of a limits check, shared by the parts of one call's check. */
export interface LimitTally {
  nodes: number;
  size: number;
}

/**
 * Whether `root` fits `limits` and holds only JSON-representable values (no functions, symbols,
 * bigints, NaN or Infinity). An iterative walk that allocates little for a flat object; a cycle
 * fails it (as too deep) instead of hanging it. Run {@link findLimitProblem} to learn what is
 * wrong when this says false.
 */
export function fitsLimits(root: unknown, limits: ValueLimits): boolean {
  const tally: LimitTally = { nodes: 0, size: 0 };
  return subtreeFits(root, limits, 1, tally) && tallyFits(tally, limits);
}

/** Whether the running totals are within `limits`. */
function tallyFits(tally: LimitTally, limits: ValueLimits): boolean {
  return tally.nodes <= limits.maxNodes && tally.size <= limits.maxTotalSize;
}

/**
 * {@link fitsLimits} for a part of a value: `value` sits at nesting `level` (the level it has if
 * it is an object or array) and adds its values and text to `tally`.
 */
export function subtreeFits(
  value: unknown,
  limits: ValueLimits,
  level: number,
  tally: LimitTally,
): boolean {
  tally.nodes++;
  if (typeof value !== "object" || value === null) {
    if (typeof value === "string") tally.size += value.length;
    return scalarFits(value, limits);
  }
  const { maxDepth, maxStringLength, maxNodes, maxTotalSize } = limits;
  if (level > maxDepth) return false;
  let nodes = tally.nodes;
  let size = tally.size;
  // Containers still to visit, each followed by its level; made only when one is found.
  let pending: (object | number)[] | undefined;
  let node: object = value;
  let nodeLevel = level;
  for (;;) {
    if (Array.isArray(node)) {
      const length = node.length;
      nodes += length;
      if (nodes > maxNodes) return false;
      for (let i = 0; i < length; i++) {
        const item: unknown = node[i];
        const text = itemText(item, maxStringLength);
        if (text >= 0) size += text;
        else if (text === NOT_JSON_OR_TOO_LONG || nodeLevel >= maxDepth) return false;
        else pending = visitLater(pending, item as object, nodeLevel + 1);
      }
    } else {
      for (const key in node) {
        if (++nodes > maxNodes || key.length > maxStringLength) return false;
        size += key.length;
        const item: unknown = (node as Record<string, unknown>)[key];
        const text = itemText(item, maxStringLength);
        if (text >= 0) size += text;
        else if (text === NOT_JSON_OR_TOO_LONG || nodeLevel >= maxDepth) return false;
        else pending = visitLater(pending, item as object, nodeLevel + 1);
      }
    }
    if (size > maxTotalSize) return false;
    if (pending === undefined || pending.length === 0) break;
    nodeLevel = pending.pop() as number;
    node = pending.pop() as object;
  }
  tally.nodes = nodes;
  tally.size = size;
  return true;
}

/**
 * The first thing in `root` that breaks `limits`, as an error at its path under `basePath`, or
 * `undefined` when it fits. Slower than {@link fitsLimits} (it tracks paths and ancestors, so it
 * tells a cycle from a deep value); meant for the failure path. Iterative, never recursive.
 */
export function findLimitProblem(
  root: unknown,
  limits: ValueLimits,
  basePath = "",
): ToolValidationError | undefined {
  if (typeof root !== "object" || root === null) return scalarProblem(root, limits, basePath);
  if (limits.maxDepth < 1) return ToolValidationError.tooDeep(basePath, limits.maxDepth);
  interface Frame {
    readonly node: object;
    readonly keys: readonly string[] | undefined;
    readonly path: string;
    readonly level: number;
    next: number;
  }
  const frameOf = (node: object, path: string, level: number): Frame => {
    let keys: string[] | undefined;
    if (!Array.isArray(node)) {
      keys = [];
      for (const key in node) keys.push(key);
    }
    return { node, keys, path, level, next: 0 };
  };
  const ancestors = new Map<object, string>([[root, basePath]]);
  const frames: Frame[] = [frameOf(root, basePath, 1)];
  let nodes = 1;
  let size = 0;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { node, keys } = frame;
    const count = keys === undefined ? (node as unknown[]).length : keys.length;
    if (frame.next >= count) {
      frames.pop();
      ancestors.delete(node);
      continue;
    }
    const index = frame.next++;
    if (++nodes > limits.maxNodes) {
      return ToolValidationError.tooLarge(
        basePath,
        "too many values",
        `${limits.maxNodes} values (properties, items and nested values) per call`,
      );
    }
    let value: unknown;
    let path: string;
    if (keys === undefined) {
      value = (node as unknown[])[index];
      path = appendIndex(frame.path, index);
    } else {
      const key = keys[index]!;
      if (key.length > limits.maxStringLength) {
        return ToolValidationError.tooLarge(
          frame.path,
          `a property name of ${key.length} characters`,
          `${limits.maxStringLength} characters`,
        );
      }
      size += key.length;
      value = (node as Record<string, unknown>)[key];
      path = appendKey(frame.path, key);
    }
    if (typeof value !== "object" || value === null) {
      const problem = scalarProblem(value, limits, path);
      if (problem !== undefined) return problem;
      if (typeof value === "string") size += value.length;
    }
    if (size > limits.maxTotalSize) {
      return ToolValidationError.tooLarge(
        basePath,
        "too much text",
        `${limits.maxTotalSize} characters of strings and property names per call`,
      );
    }
    if (typeof value !== "object" || value === null) continue;
    const ancestorPath = ancestors.get(value);
    if (ancestorPath !== undefined) {
      return ToolValidationError.invalidValue(
        path,
        `Parameter '${path}' refers back to ${ancestorPath === "" ? "the parameters themselves" : `'${ancestorPath}'`} (a circular reference); parameters must be plain JSON`,
      );
    }
    if (frame.level >= limits.maxDepth) return ToolValidationError.tooDeep(path, limits.maxDepth);
    ancestors.set(value, path);
    frames.push(frameOf(value, path, frame.level + 1));
  }
  return undefined;
}

/** What {@link itemText} gives for an object or array (to be visited). */
const NESTED = -1;
/** What {@link itemText} gives for a string over the limit or a value JSON cannot carry. */
const NOT_JSON_OR_TOO_LONG = -2;

/**
 * The text an item inside a container adds to a walk (a string's length, 0 for other scalars),
 * {@link NESTED} for an object or array, or {@link NOT_JSON_OR_TOO_LONG}.
 */
function itemText(item: unknown, maxStringLength: number): number {
  if (typeof item === "string") {
    return item.length > maxStringLength ? NOT_JSON_OR_TOO_LONG : item.length;
  }
  if (typeof item === "object") return item === null ? 0 : NESTED;
  if (typeof item === "number") return item - item === 0 ? 0 : NOT_JSON_OR_TOO_LONG; // NaN, ±Infinity
  return typeof item === "boolean" || item === undefined ? 0 : NOT_JSON_OR_TOO_LONG;
}

/** Adds a container and its level to the walk's to-do list, making the list on first use. */
function visitLater(
  pending: (object | number)[] | undefined,
  container: object,
  level: number,
): (object | number)[] {
  if (pending === undefined) return [container, level];
  pending.push(container, level);
  return pending;
}

function scalarFits(value: unknown, limits: ValueLimits): boolean {
  switch (typeof value) {
    case "string":
      return value.length <= limits.maxStringLength && value.length <= limits.maxTotalSize;
    case "number":
      return Number.isFinite(value);
    case "boolean":
    case "undefined":
      return true;
    default:
      return value === null;
  }
}

function scalarProblem(
  value: unknown,
  limits: ValueLimits,
  path: string,
): ToolValidationError | undefined {
  if (scalarFits(value, limits)) return undefined;
  if (typeof value === "string") {
    return ToolValidationError.tooLarge(
      path,
      `a string of ${value.length} characters`,
      `${Math.min(limits.maxStringLength, limits.maxTotalSize)} characters`,
    );
  }
  const what = typeof value === "number" ? String(value) : `a ${typeof value}`;
  return ToolValidationError.invalidValue(
    path,
    `${subjectOf(path)} ${beFor(path)} ${what}, which is not a JSON value`,
  );
}
