import { readdirSync } from "node:fs";
import { posix } from "node:path";
import picomatch from "picomatch";
import {
  getWorkspaceRelativePath,
  InvalidPathError,
  PathOutsideWorkspaceError,
  resolveWorkspacePath,
} from "../context/index.js";
import type { ApprovalRule } from "./approval-policy.js";
import { globMatcher } from "./glob-matcher.js";

/**
 * Deny rules that guard what the model can never change, approved or not (aintern's
 * configuration and store): a folder that holds one of their concrete paths is covered when a
 * call would remove or move it whole, and a command they cannot be checked against exactly is
 * refused rather than asked about. A user's own deny rules keep their plain meaning.
 */
const neverChangedRules = new WeakSet<ApprovalRule>();

/**
 * Marks `rule` (a deny rule with a path pattern) as guarding one of aintern's own files; returns
 * it. The mark is the rule object's, not a setting: a copy of the rule is a plain deny rule.
 *
 * @internal
 */
export function neverChanged(rule: ApprovalRule): ApprovalRule {
  neverChangedRules.add(rule);
  return rule;
}

/** Whether `rule` was made by {@link neverChanged}. @internal */
export function isNeverChanged(rule: ApprovalRule): boolean {
  return neverChangedRules.has(rule);
}

/**
 * The one file or folder a pattern names, relative to the workspace (`.aintern/**` names
 * `.aintern`), or undefined when it names many (`**\/aintern.config.json`).
 *
 * @internal
 */
export function concretePathOf(pattern: string): string | undefined {
  const path = pattern.endsWith("/**") ? pattern.slice(0, -3) : pattern;
  return path === "" || /[*?[\]{}()!]/.test(path) ? undefined : path;
}

/**
 * Whether `folder` (a path of a call, as written) is the workspace root or a folder above
 * `concrete` (workspace-relative): lexically, after resolving `folder` as the policy resolves
 * any path. Case is ignored: covering more is the safe direction.
 *
 * @internal
 */
export function holds(workspace: string, folder: string, concrete: string): boolean {
  const relative = relativeIn(workspace, folder);
  if (relative === undefined) return false;
  if (relative === ".") return true;
  return concrete.toLowerCase().startsWith(`${relative.toLowerCase()}/`);
}

/**
 * What a glob operand (`aintern.conf*.json`, `src/*.ts`: a wildcard in its last segment only)
 * matches now in its folder, as paths written like it (`src/a.ts`). Dot names and any case are
 * matched: a shell may be set to match them. A folder outside the workspace, or one that cannot
 * be read, matches nothing (the command then fails, or names nothing of the workspace's).
 *
 * @internal
 */
export function expandGlob(workspace: string, glob: string): string[] {
  const slash = glob.lastIndexOf("/");
  const folder = slash === -1 ? "." : glob.slice(0, slash + 1);
  const name = glob.slice(slash + 1);
  let names: string[];
  try {
    names = readdirSync(resolveWorkspacePath(workspace, folder));
  } catch {
    return [];
  }
  const matches = globMatcher(name, { dot: true, nocase: true });
  return names.filter((entry) => matches(entry)).map((entry) => posix.join(folder, entry));
}

function relativeIn(workspace: string, path: string): string | undefined {
  if (path.includes("\0") || workspace.includes("\0")) return undefined;
  try {
    const relative = getWorkspaceRelativePath(workspace, path);
    return process.platform === "win32" ? relative.replaceAll("\\", "/") : relative;
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError || error instanceof InvalidPathError) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Whether a relative path written after a change of directory (`cd sub && rm -rf proj`), which
 * may lead anywhere, could name what `pattern` covers: its last name is the pattern's last name,
 * or a folder on the way to the pattern's concrete path, or it climbs (`..`, `.`). Names are
 * compared ignoring case: covering more is the safe direction.
 *
 * @internal
 */
export function mayNameAfterCd(pattern: string, paths: readonly string[]): boolean {
  const patternNames = pattern.split("/").filter((name) => name !== "" && name !== "**");
  const last = patternNames.at(-1);
  if (last === undefined) return true;
  const lastMatches = picomatch(last, { dot: true, nocase: true });
  const concrete = concretePathOf(pattern);
  const folders = new Set(
    (concrete ?? "")
      .toLowerCase()
      .split("/")
      .filter((name) => name !== ""),
  );
  return paths.some((path) => {
    if (path.startsWith("/") || path.startsWith("~")) return false; // Not moved by 'cd'.
    const names = path.split("/").filter((name) => name !== "");
    if (names.length === 0 || names.some((name) => name === "." || name === "..")) return true;
    const name = names.at(-1) as string;
    return lastMatches(name) || folders.has(name.toLowerCase());
  });
}
