/** What MCP accepts as a tool name: 1 to 128 of `A-Z a-z 0-9 _ - .` (spec 2025-11-25). */
export const mcpToolNamePattern = /^[A-Za-z0-9_.-]{1,128}$/;

/** Whether `name` is a valid MCP tool name. */
export function isValidMcpToolName(name: string): boolean {
  return mcpToolNamePattern.test(name);
}

/**
 * The two-way map between aintern tool ids and the names an MCP client sees. A valid id is its
 * own name; any other character becomes `_` (cut to 128 characters), and a name already taken
 * gets `_2`, `_3`, ... so two ids never share a name. Lookups use `Map`s, never an object keyed
 * by what a client sent.
 *
 * @example
 * ```ts
 * const names = new McpToolNames(["file-read", "git:status"]);
 * names.nameOf("git:status"); // "git_status"
 * names.idOf("git_status");   // "git:status"
 * ```
 */
export class McpToolNames {
  readonly #nameById = new Map<string, string>();
  readonly #idByName = new Map<string, string>();

  constructor(ids: Iterable<string> = []) {
    // Valid ids first, so that a mapped name never takes the name of a tool that has it as is.
    const all = [...ids];
    for (const id of all) if (isValidMcpToolName(id)) this.add(id);
    for (const id of all) if (!isValidMcpToolName(id)) this.add(id);
  }

  /** Adds `id` (if new) and returns its MCP name. */
  add(id: string): string {
    const known = this.#nameById.get(id);
    if (known !== undefined) return known;
    const base = isValidMcpToolName(id) ? id : sanitize(id);
    let name = base;
    for (let n = 2; this.#idByName.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, 128 - suffix.length)}${suffix}`;
    }
    this.#nameById.set(id, name);
    this.#idByName.set(name, id);
    return name;
  }

  /** The MCP name of a tool id, or undefined when the id is unknown. */
  nameOf(id: string): string | undefined {
    return this.#nameById.get(id);
  }

  /** The tool id behind an MCP name, or undefined when no tool has that name. */
  idOf(name: string): string | undefined {
    return this.#idByName.get(name);
  }

  /** Every MCP name, in the order the ids were added. */
  get names(): readonly string[] {
    return [...this.#idByName.keys()];
  }
}

function sanitize(id: string): string {
  const replaced = id.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 128);
  return replaced === "" ? "tool" : replaced;
}
