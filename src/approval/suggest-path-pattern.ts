import { matchPathPattern, validatePathPattern } from "./path-pattern.js";
import { workspaceRelative } from "./workspace-relative.js";

/** Characters a path pattern reads as glob syntax: a name holding one cannot be written as is. */
const globSyntax = /[*?[\]{}()!+@]/;

/**
 * A path pattern worth offering to remember for `path` in `workspace` (see
 * {@link matchPathPattern}), or undefined when none is narrow enough and sure to cover it.
 *
 * The pattern is made from where the path really leads, as the policy resolves it (relative to
 * the real workspace root, `..` applied, symlinks followed), so `src/../a.txt` and a link to
 * `lib/a.txt` get patterns that cover them. It is the path's folder and everything below it
 * (`src/app/**`); for a file at the workspace root, the root's direct children (`*`), never
 * `**`, which would be the whole workspace. When that does not cover the path (a name starting
 * with `.`, which `*` does not match), the path itself is offered instead. None is offered for a
 * path outside the workspace, the root itself, or a name with glob syntax in it
 * (`[draft].md`). The pattern returned always passes {@link validatePathPattern} and covers the
 * path.
 *
 * @example
 * ```ts
 * suggestPathPattern("src/app/main.ts", "/srv/proj"); // "src/app/**"
 * suggestPathPattern("README.md", "/srv/proj"); // "*"
 * suggestPathPattern("src/../.env", "/srv/proj"); // ".env"
 * ```
 */
export function suggestPathPattern(path: string, workspace: string): string | undefined {
  const posix = workspaceRelative(workspace, path);
  if (posix === undefined) return undefined;
  if (posix === "." || posix === "" || globSyntax.test(posix)) return undefined;
  const slash = posix.lastIndexOf("/");
  const folder = slash === -1 ? "*" : `${posix.slice(0, slash)}/**`;
  for (const pattern of [folder, posix]) {
    if (validatePathPattern(pattern) === undefined && matchPathPattern(pattern, path, workspace)) {
      return pattern;
    }
  }
  return undefined;
}
