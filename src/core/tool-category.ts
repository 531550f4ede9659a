/**
 * Categories for grouping tools in the UI and filtering (spec 001 a).
 *
 * @example
 * ```ts
 * if (tool.category === ToolCategory.FileSystem) { ... }
 * ```
 */
export const ToolCategory = {
  /** File system operations: read, write, delete, move, copy. */
  FileSystem: "FileSystem",
  /** Terminal / shell operations: execute commands, scripts. */
  Terminal: "Terminal",
  /** Code and content search: grep, find, regex search. */
  Search: "Search",
  /** Workspace operations: project structure, dependencies. */
  Workspace: "Workspace",
  /** Editor operations: navigate, refactor, format. */
  Editor: "Editor",
  /** Git operations: status, commit, push, branch. */
  Git: "Git",
  /** Network operations: HTTP requests, API calls. */
  Network: "Network",
  /** System operations: environment, processes. */
  System: "System",
  /** User-defined or plugin tools. */
  Custom: "Custom",
} as const;

/** One of the {@link ToolCategory} values. */
export type ToolCategory = (typeof ToolCategory)[keyof typeof ToolCategory];

/** Every category, in the spec's order. */
export const allToolCategories: readonly ToolCategory[] = Object.freeze(
  Object.values(ToolCategory),
);

/** True when `value` is one of the {@link ToolCategory} values. */
export function isToolCategory(value: unknown): value is ToolCategory {
  return typeof value === "string" && (allToolCategories as readonly string[]).includes(value);
}
