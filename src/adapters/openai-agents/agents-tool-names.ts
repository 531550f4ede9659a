/** Longest function name the OpenAI API accepts. */
const maxNameLength = 64;

/**
 * Names the OpenAI Agents SDK keeps as they are, one per tool id: the SDK's `tool()` rewrites
 * every character other than a letter or digit to `_` (`file-read` becomes `file_read`), so the
 * adapter does it first and remembers the way back. Ids that would collide (`file-read` and
 * `file_read`) get `_2`, `_3`, ... Returns name -> tool id.
 */
export function agentsToolNames(toolIds: readonly string[]): Map<string, string> {
  const byName = new Map<string, string>();
  const taken = new Set<string>();
  for (const id of toolIds) {
    const base = id.replace(/[^a-zA-Z0-9]/g, "_").slice(0, maxNameLength) || "tool";
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, maxNameLength - suffix.length)}${suffix}`;
    }
    taken.add(name.toLowerCase());
    byName.set(name, id);
  }
  return byName;
}
