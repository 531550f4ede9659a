import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, parse, resolve, sep } from "node:path";
import { isCaseSensitiveFileSystem, isPrefixPath, isWithin } from "./case-sensitivity.js";
import { InvalidPathError, type InvalidPathReason } from "./invalid-path-error.js";
import { PathOutsideWorkspaceError } from "./path-outside-workspace-error.js";

/** Linux's MAXSYMLINKS: more hops than this is treated as a loop, as the kernel does. */
const maxSymlinkHops = 40;

/** A path made printable: a NUL byte would cut a log line or a terminal short. */
function display(value: unknown): string {
  if (typeof value === "string") return value.replaceAll("\0", "\\0");
  return `<${value === null ? "null" : typeof value}>`;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/** ENOENT or ENOTDIR: the path (or a directory in it) does not exist (yet). */
function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Why a string cannot be a path at all, or undefined when it can. */
function badPathReason(value: unknown): [InvalidPathReason, string] | undefined {
  if (typeof value !== "string")
    return ["not-a-string", `expected a string, got ${display(value)}`];
  if (value === "") return ["empty", "the path is empty"];
  if (value.includes("\0")) return ["nul-byte", "the path contains a NUL byte"];
  return undefined;
}

/** How many workspace roots' real paths are kept (a process serves a handful). */
const rootCacheSize = 64;
/** Workspace roots already resolved, by the string given: see {@link realWorkspaceRoot}. */
const resolvedRoots = new Map<string, string>();

/**
 * The workspace root, absolute and symlink-resolved; throws when it is not a directory: the
 * boundary every path of the workspace is checked against.
 *
 * A root is resolved once per process and then kept: a call resolves the root as many as five
 * times (policy, context, tool), and the boundary should not move while a process runs. A root
 * later swapped for a symlink to somewhere else keeps the boundary it had.
 */
export function realWorkspaceRoot(workspaceRoot: string): string {
  const known = resolvedRoots.get(workspaceRoot);
  if (known !== undefined) return known;
  const real = resolveWorkspaceRoot(workspaceRoot);
  // A relative root depends on the working directory, which may change: not kept.
  if (!isAbsolute(workspaceRoot)) return real;
  if (resolvedRoots.size >= rootCacheSize) {
    const oldest = resolvedRoots.keys().next().value;
    if (oldest !== undefined) resolvedRoots.delete(oldest);
  }
  resolvedRoots.set(workspaceRoot, real);
  return real;
}

function resolveWorkspaceRoot(workspaceRoot: string): string {
  const shownRoot = display(workspaceRoot);
  const bad = badPathReason(workspaceRoot);
  if (bad !== undefined) {
    throw new InvalidPathError(shownRoot, shownRoot, "invalid-workspace", bad[1]);
  }
  let real: string;
  try {
    real = realpathSync.native(resolve(workspaceRoot));
  } catch (error) {
    throw new InvalidPathError(
      shownRoot,
      shownRoot,
      "invalid-workspace",
      `the workspace root cannot be resolved (${errorCode(error) ?? "unknown error"}); open an existing directory as the workspace`,
      { cause: error },
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new InvalidPathError(
      shownRoot,
      shownRoot,
      "invalid-workspace",
      "the workspace root is not a directory",
    );
  }
  return real;
}

/** Splits a path below its root into segments, keeping `.` and `..` for physical resolution. */
function splitBelowRoot(path: string): { root: string; segments: string[] } {
  const { root } = parse(path);
  const separators = process.platform === "win32" ? /[\\/]+/ : /\/+/;
  return {
    root,
    segments: path
      .slice(root.length)
      .split(separators)
      .filter((s) => s !== ""),
  };
}

/**
 * Resolves `absolute` one segment at a time, as the kernel would: every symlink (dangling or
 * not) is replaced by its target, and `..` always steps up from a symlink-free directory, so it
 * is applied physically. Segments that do not exist are kept as they are.
 */
function walk(
  absolute: string,
  fail: (reason: InvalidPathReason, detail: string, cause?: unknown) => never,
): string {
  const start = splitBelowRoot(absolute);
  let current = start.root;
  const queue = start.segments;
  let hops = 0;
  for (let segment = queue.shift(); segment !== undefined; segment = queue.shift()) {
    if (segment === ".") continue;
    if (segment === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, segment);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (error) {
      if (!isMissing(error)) {
        fail(
          "unresolvable",
          `the file system refused it (${errorCode(error) ?? "unknown error"})`,
          error,
        );
      }
      current = next;
      continue;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > maxSymlinkHops) fail("symlink-loop", "too many levels of symbolic links");
    // A dangling link is followed too: creating a file through it would land at its target.
    let target: string;
    try {
      target = readlinkSync(next);
    } catch (error) {
      return fail(
        "unresolvable",
        `the symlink cannot be read (${errorCode(error) ?? "unknown error"})`,
        error,
      );
    }
    const linked = splitBelowRoot(target);
    if (isAbsolute(target)) current = linked.root;
    queue.unshift(...linked.segments);
  }
  return current;
}

/** Realpaths the deepest existing ancestor (for its canonical spelling) and re-appends the rest. */
function canonicalize(
  path: string,
  fail: (reason: InvalidPathReason, detail: string, cause?: unknown) => never,
): string {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync.native(current), ...rest);
    } catch (error) {
      const parent = dirname(current);
      if (!isMissing(error) || parent === current) {
        fail(
          "unresolvable",
          `the file system refused it (${errorCode(error) ?? "unknown error"})`,
          error,
        );
      }
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

function resolveReal(workspaceRoot: string, path: string): { rootReal: string; real: string } {
  const rootReal = realWorkspaceRoot(workspaceRoot);
  const fail = (reason: InvalidPathReason, detail: string, cause?: unknown): never => {
    throw new InvalidPathError(display(path), display(workspaceRoot), reason, detail, { cause });
  };
  const bad = badPathReason(path);
  if (bad !== undefined) fail(bad[0], bad[1]);
  // Lexical normalization first: afterwards `..` can only come from symlink targets.
  const absolute = resolve(rootReal, path);
  try {
    return { rootReal, real: realpathSync.native(absolute) };
  } catch (error) {
    if (errorCode(error) === "ELOOP")
      fail("symlink-loop", "too many levels of symbolic links", error);
    if (!isMissing(error)) {
      fail(
        "unresolvable",
        `the file system refused it (${errorCode(error) ?? "unknown error"})`,
        error,
      );
    }
  }
  return { rootReal, real: canonicalize(walk(absolute, fail), fail) };
}

function resolveInside(workspaceRoot: string, path: string): { rootReal: string; real: string } {
  const resolved = resolveReal(workspaceRoot, path);
  if (!isWithin(resolved.rootReal, resolved.real, isCaseSensitiveFileSystem(resolved.rootReal))) {
    throw new PathOutsideWorkspaceError(display(path), display(workspaceRoot), resolved.real);
  }
  return resolved;
}

/**
 * Resolves `path` inside a workspace and returns its absolute, symlink-resolved real path. This
 * is the workspace's security boundary: whatever the returned path names is inside the root.
 *
 * - A relative path resolves against the workspace root; an absolute path is taken as it is.
 * - The root itself is symlink-resolved, so a root given through a symlink works. An absolute
 *   root is resolved once per process: swapping it for a link later does not move the boundary.
 * - Symlinks are followed, including a dangling one (its target is where a new file would be
 *   created), so a new file cannot be created through a link that leads outside.
 * - A path that does not exist yet is allowed: its deepest existing ancestor is resolved and the
 *   missing segments are appended.
 * - Containment compares whole segments (`/srv/proj-evil` is not inside `/srv/proj`), folding
 *   case only where the file system is case-insensitive.
 *
 * Checks happen at call time; a file system changed afterwards (a symlink swapped in) is not
 * covered, so resolve right before use and use the returned path.
 *
 * @throws {PathOutsideWorkspaceError} the path leads outside the workspace root.
 * @throws {InvalidPathError} the path is not a string, is empty, holds a NUL byte, loops through
 *   symlinks or cannot be read; or the workspace root is not an existing directory.
 * @example
 * ```ts
 * resolveWorkspacePath("/srv/proj", "src/app.ts"); // "/srv/proj/src/app.ts"
 * resolveWorkspacePath("/srv/proj", "../secret");  // throws PathOutsideWorkspaceError
 * ```
 */
export function resolveWorkspacePath(workspaceRoot: string, path: string): string {
  return resolveInside(workspaceRoot, path).real;
}

/**
 * Like {@link resolveWorkspacePath}, but returns `undefined` instead of throwing a
 * `PathOutsideWorkspaceError` or an `InvalidPathError`.
 */
export function tryResolveWorkspacePath(workspaceRoot: string, path: string): string | undefined {
  try {
    return resolveWorkspacePath(workspaceRoot, path);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError || error instanceof InvalidPathError) {
      return undefined;
    }
    throw error;
  }
}

/**
 * True when `path` resolves (per {@link resolveWorkspacePath}) to the workspace root or a place
 * beneath it; false when it leads outside or cannot be resolved.
 */
export function isPathInWorkspace(workspaceRoot: string, path: string): boolean {
  return tryResolveWorkspacePath(workspaceRoot, path) !== undefined;
}

/**
 * The path of `path` relative to the workspace root, with the platform's separator (`/` on
 * POSIX, `\` on Windows); `"."` for the root itself. Resolves exactly as
 * {@link resolveWorkspacePath} does, so symlinks are followed first.
 *
 * @throws {PathOutsideWorkspaceError} the path leads outside the workspace root.
 * @throws {InvalidPathError} the path cannot be resolved.
 */
export function getWorkspaceRelativePath(workspaceRoot: string, path: string): string {
  const { rootReal, real } = resolveInside(workspaceRoot, path);
  if (real === rootReal) return ".";
  // Spelled as the root and a separator (the common case): the rest is the relative path.
  if (isPrefixPath(rootReal, real) && !rootReal.endsWith(sep)) {
    return real.slice(rootReal.length + 1);
  }
  // Otherwise (a case-insensitive match) cut by segment count, not by string length: case
  // folding may change lengths.
  const depth = rootReal.split(sep).filter((s) => s !== "").length;
  const relative = real
    .split(sep)
    .filter((s) => s !== "")
    .slice(depth)
    .join(sep);
  return relative === "" ? "." : relative;
}
