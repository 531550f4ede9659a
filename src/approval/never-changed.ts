import { readdirSync, realpathSync } from "node:fs";
import { posix, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { resolveWorkspacePath } from "../context/index.js";
import { commandName } from "../shell/command-words.js";
import type { ShellWord } from "../shell/shell-scanner.js";
import { lexShellCommand } from "../shell/shell-syntax.js";
import { extractionFolders, gitWritesFilesNamedInside } from "../shell/unpacked-files.js";
import type { ApprovalRule } from "./approval-policy.js";
import { globMatcher } from "./glob-matcher.js";
import { workspaceRelative } from "./workspace-relative.js";

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
 * Whether `folder` (a path of a call, as written) is the workspace root, a folder above
 * `concrete` (workspace-relative), or a folder above the workspace itself (`..`, its parent
 * named absolutely): lexically, after resolving `folder` as the policy resolves any path. Case
 * is ignored: covering more is the safe direction.
 *
 * @internal
 */
export function holds(workspace: string, folder: string, concrete: string): boolean {
  const relative = workspaceRelative(workspace, folder);
  if (relative === undefined) return holdsWorkspace(workspace, folder);
  if (relative === ".") return true;
  return concrete.toLowerCase().startsWith(`${relative.toLowerCase()}/`);
}

/** Whether `folder` (relative to the workspace, or absolute) resolves to a folder above it. */
function holdsWorkspace(workspace: string, folder: string): boolean {
  if (folder.includes("\0")) return false;
  let real: string;
  try {
    real = realpathSync.native(resolve(workspace, folder));
  } catch {
    real = resolve(workspace, folder);
  }
  const root = realpathSync.native(workspace);
  return root === real || root.startsWith(real.endsWith(sep) ? real : `${real}${sep}`);
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

/**
 * The names that, written anywhere in a command, may name what `pattern` covers: its last name
 * without wildcards (`aintern.config.json`, `.aintern`, `calls.db` for `data/calls.db-*`), and
 * each name of its concrete path. Compared ignoring case.
 *
 * @internal
 */
export function guardedNames(pattern: string): string[] {
  const names = new Set<string>();
  const segments = pattern.split("/").filter((name) => name !== "" && name !== "**");
  const last = segments.at(-1);
  const literal = last?.split(/[*?[\]{}()!]/)[0];
  if (literal !== undefined && literal.length >= 3) names.add(literal.toLowerCase());
  return [...names];
}

/**
 * Whether `command` writes a guarded name anywhere, in its text or in a word once quotes are
 * taken away (`aintern.conf""ig.json`, `$'\x61intern.config.json'`). Used for the rules nothing
 * may change: a program aintern does not read the operands of (`curl -o`, `unlink`, `rsync`,
 * `sqlite3`, `git rm`) still cannot reach them unasked by name.
 *
 * @internal
 */
export function mentionsGuardedName(command: string, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  const texts = [command.toLowerCase()];
  for (const words of segmentsOf(command) ?? []) {
    for (const word of words) texts.push(word.value.toLowerCase());
  }
  return texts.some((text) => names.some((name) => text.includes(name)));
}

/**
 * The folders a command changes without naming what is in them, per simple command: its working
 * folder for `git clean`, `git apply` and `git am`, and for a program writing the files an
 * archive or patch names (`tar -x`, `unzip`, `cpio -i`, `patch`, ...: see
 * `writesFilesNamedInside`) without a folder option (the folder when given: `tar -C DIR`, `unzip
 * -d DIR`), the destination of `rsync --delete`, and every source of a hard link (`cp -l`, `cp -al`,
 * `cp --link`, `ln` without `-s`), whose files can then be written through the link elsewhere.
 *
 * @internal
 */
export function foldersChangedWhole(command: string, workingFolder: string): string[] {
  const segments = segmentsOf(command);
  if (segments === undefined) return [];
  const folders: string[] = [];
  for (const words of segments) {
    const values = words.map((word) => word.value);
    const name = values[0] === undefined ? "" : commandName(values[0]);
    const args = values.slice(1);
    const options = args.filter((arg) => arg.startsWith("-"));
    const operands = args.filter((arg) => !arg.startsWith("-"));
    const patches = ["apply", "am"].find((sub) => name === "git" && args.includes(sub));
    const extracted = extractionFolders(name, words.slice(1));
    if (name === "git" && args.includes("clean")) folders.push(workingFolder);
    else if (
      patches !== undefined &&
      gitWritesFilesNamedInside(patches, words.slice(args.indexOf(patches) + 2)) !== undefined
    ) {
      folders.push(workingFolder);
    } else if (extracted !== undefined) {
      folders.push(...(extracted.length > 0 ? extracted : [workingFolder]));
    } else if (name === "rsync" && options.some((o) => o.startsWith("--delete"))) {
      const destination = operands.at(-1);
      if (destination !== undefined) folders.push(destination);
    } else if (
      (name === "cp" && options.some((o) => /^-[A-Za-z]*l/.test(o) || o === "--link")) ||
      (name === "ln" && !options.some((o) => /^-[A-Za-z]*s/.test(o) || o === "--symbolic"))
    ) {
      folders.push(...operands.slice(0, -1));
    }
  }
  return folders;
}

/** The last command lexed, and its simple commands: every never-changed rule reads the same one. */
let lexed: { command: string; segments: readonly (readonly ShellWord[])[] | undefined } | undefined;

/** `command`'s simple commands as words, or undefined when it does not lex. */
function segmentsOf(command: string): readonly (readonly ShellWord[])[] | undefined {
  if (lexed?.command !== command) {
    const syntax = lexShellCommand(command);
    lexed = { command, segments: syntax.ok ? syntax.segments : undefined };
  }
  return lexed.segments;
}
