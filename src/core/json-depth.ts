/**
 * How deep tool-call arguments may nest. Copying, freezing, validating and storing them walks
 * them recursively, and a few thousand levels overflow the stack (`Maximum call stack size
 * exceeded`, with no audit row); no tool's arguments need more than a few dozen.
 */
export const MAX_ARGUMENT_DEPTH = 256;

/**
 * True when `value` nests objects or arrays more than `max` levels deep. Iterative, and stops at
 * the first path that goes too deep: safe on any value, however deep (or cyclic).
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null || seen.has(item)) continue;
    if (depth >= max) return true;
    seen.add(item);
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
