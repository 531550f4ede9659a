import type { Stats } from "node:fs";
import { lstat, stat } from "node:fs/promises";
import { basename, dirname, relative, resolve, sep } from "node:path";
import {
  ContextErrorCode,
  PathOutsideWorkspaceError,
  type ToolExecutionContext,
} from "../context/index.js";
// Deep import on purpose: the resolved root is the path guard's own, not public API.
import { realWorkspaceRoot } from "../context/workspace-path.js";
import { AinternError, ToolErrorCode } from "../core/index.js";
import { ToolResult } from "../result/index.js";

/**
 * A path as the built-in tools show it: relative to the workspace root, with `/` separators,
 * `"."` for the root itself.
 *
 * @internal
 */
export function toWorkspaceRelative(rootReal: string, absolute: string): string {
  const rel = relative(rootReal, absolute);
  if (rel === "") return ".";
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/**
 * `path` through the context's path guard: its real path, the workspace root's, and the path as
 * the built-in tools show it.
 *
 * @throws as `context.resolvePath` does.
 * @internal
 */
export function resolveInWorkspace(
  context: ToolExecutionContext,
  path: string,
): { readonly real: string; readonly rootReal: string; readonly relative: string } {
  const real = context.resolvePath(path);
  // The boundary `real` was just checked against (resolved once per process), rather than a
  // second resolution of the root for every call.
  const rootReal = realWorkspaceRoot(context.workspacePath as string);
  return { real, rootReal, relative: toWorkspaceRelative(rootReal, real) };
}

/**
 * A path whose last component is not followed: the real (symlink-resolved, workspace-confined)
 * parent directory and the entry's name in it. What a write or a delete acts on, so a symbolic
 * link is acted on as a link, never as its target.
 *
 * @internal
 */
export interface EntryPath {
  /** The workspace root, absolute and symlink-resolved. */
  readonly rootReal: string;
  /** The real path of the parent directory (inside the workspace; may not exist yet). */
  readonly parentReal: string;
  /** The entry's name in its parent. */
  readonly name: string;
  /** `parentReal` joined with `name`. */
  readonly absolute: string;
  /** The entry relative to the workspace root, `/`-separated. */
  readonly relative: string;
  /** True when the path names the workspace root itself (`"."`, `""`, the root's own path). */
  readonly isRoot: boolean;
}

/**
 * Resolves `path` to an {@link EntryPath}: the parent goes through the context's path guard
 * (every symbolic link in it followed and checked), the last component is kept as written.
 *
 * @throws PathOutsideWorkspaceError (naming `path`), InvalidPathError or NoWorkspaceError, as
 *   `context.resolvePath` does.
 * @internal
 */
export function resolveEntryPath(context: ToolExecutionContext, path: string): EntryPath {
  const rootReal = context.resolvePath(".");
  // Lexical normalization first, as the guard itself does: `a/../b` names `b`.
  const lexical = resolve(rootReal, path);
  const given = context.workspacePath === undefined ? rootReal : resolve(context.workspacePath);
  if (lexical === rootReal || lexical === given) {
    return {
      rootReal,
      parentReal: rootReal,
      name: "",
      absolute: rootReal,
      relative: ".",
      isRoot: true,
    };
  }
  const name = basename(lexical);
  let parentReal: string;
  try {
    parentReal = context.resolvePath(dirname(lexical));
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) {
      // Name the path the caller gave, not its parent.
      throw new PathOutsideWorkspaceError(
        path,
        error.workspaceRoot,
        resolve(error.resolvedPath, name),
      );
    }
    throw error;
  }
  const absolute = resolve(parentReal, name);
  return {
    rootReal,
    parentReal,
    name,
    absolute,
    relative: toWorkspaceRelative(rootReal, absolute),
    isRoot: false,
  };
}

/** The `code` of a Node.js system error (`"ENOENT"`), or undefined. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/** `stat(path)`, or undefined when nothing is there (ENOENT). @internal */
export function statIfExists(path: string): Promise<Stats | undefined> {
  return stat(path).catch(undefinedIfMissing);
}

/** `lstat(path)` (links not followed), or undefined when nothing is there (ENOENT). @internal */
export function lstatIfExists(path: string): Promise<Stats | undefined> {
  return lstat(path).catch(undefinedIfMissing);
}

function undefinedIfMissing(error: unknown): undefined {
  if (systemErrorCode(error) === "ENOENT") return undefined;
  throw error;
}

/**
 * The failed result a path error thrown by the context's guard stands for, or undefined when
 * `error` is not one: outside the workspace → `PathOutsideWorkspace`; no workspace (or a root
 * that is not a directory) → `NotAvailable`; an unusable path → `ValidationFailed`.
 *
 * @internal
 */
export function pathErrorResult(error: unknown): ToolResult | undefined {
  if (!AinternError.isInstance(error)) return undefined;
  switch (error.code) {
    case ContextErrorCode.PathOutsideWorkspace:
      return ToolResult.failed(error.message, ToolErrorCode.PathOutsideWorkspace);
    case ContextErrorCode.NoWorkspace:
      return ToolResult.notAvailable(error.message);
    case ContextErrorCode.InvalidPath:
      return (error as { reason?: unknown }).reason === "invalid-workspace"
        ? ToolResult.notAvailable(error.message)
        : ToolResult.failed(error.message, ToolErrorCode.ValidationFailed);
    default:
      return undefined;
  }
}
