import { realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { isPathInWorkspace } from "../context/index.js";
import { readAll, withRegularFile } from "./open-regular-file.js";

/** A `.gitignore` is read up to this many bytes; the rest is left out. */
const maxIgnoreFileBytes = 1024 * 1024;

/** The rules of one directory's `.gitignore` (and, at the root, `.git/info/exclude`). */
interface Level {
  /** The directory the rules are relative to, absolute. */
  readonly directory: string;
  readonly rules: Ignore;
}

function isOutside(rel: string): boolean {
  return rel === ".." || rel.startsWith(`..${sep}`);
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/**
 * The text of an ignore file, or undefined when there is none to read. A symbolic link is
 * followed only to a file inside the workspace; only a regular file is read (a FIFO never
 * blocks the walk), and only its first {@link maxIgnoreFileBytes}.
 */
async function readIgnoreFile(rootReal: string, file: string): Promise<string | undefined> {
  const readText = (path: string) =>
    withRegularFile(path, async (opened) =>
      (await readAll(opened, maxIgnoreFileBytes)).toString("utf8"),
    );
  try {
    // O_NOFOLLOW refuses a link: only then is it resolved, and followed if it stays inside.
    let read = await readText(file);
    if (!read.ok && read.problem === "symlink") {
      const target = await realpath(file);
      if (!isPathInWorkspace(rootReal, target)) return undefined;
      read = await readText(target);
    }
    return read.ok ? read.value : undefined;
  } catch {
    return undefined; // Unreadable: no rules from it.
  }
}

async function readRules(rootReal: string, ...files: string[]): Promise<Ignore | undefined> {
  let rules: Ignore | undefined;
  for (const file of files) {
    const text = await readIgnoreFile(rootReal, file);
    if (text === undefined) continue;
    rules ??= ignore();
    rules.add(text);
  }
  return rules;
}

/**
 * The `.gitignore` rules in force in one directory of a walk: those of every directory from the
 * workspace root down to it, each applied to paths relative to its own directory, the deepest
 * rule that decides winning (so a nested `!keep.log` re-includes what the root ignored). The
 * root also reads `.git/info/exclude`. Immutable: {@link GitignoreRules.enter} returns the rules
 * of a subdirectory.
 *
 * @internal
 */
export class GitignoreRules {
  private constructor(
    private readonly levels: readonly Level[],
    private readonly rootReal: string,
  ) {}

  /** No rules at all (for walks that do not honour `.gitignore`), in the workspace `rootReal`. */
  static none(rootReal: string): GitignoreRules {
    return new GitignoreRules([], rootReal);
  }

  /**
   * The rules in force in `directory`: those of the workspace root and of every directory
   * between it and `directory`, inclusive.
   */
  static async forDirectory(rootReal: string, directory: string): Promise<GitignoreRules> {
    const rootRules = await readRules(
      rootReal,
      join(rootReal, ".gitignore"),
      join(rootReal, ".git", "info", "exclude"),
    );
    let rules = new GitignoreRules(
      rootRules === undefined ? [] : [{ directory: rootReal, rules: rootRules }],
      rootReal,
    );
    const rel = relative(rootReal, directory);
    if (rel === "" || isOutside(rel)) return rules;
    let current = rootReal;
    for (const segment of rel.split(sep)) {
      current = join(current, segment);
      rules = await rules.enter(current);
    }
    return rules;
  }

  /** The rules in force in `directory`, a direct subdirectory of this one. */
  async enter(directory: string): Promise<GitignoreRules> {
    const own = await readRules(this.rootReal, join(directory, ".gitignore"));
    return own === undefined
      ? this
      : new GitignoreRules([...this.levels, { directory, rules: own }], this.rootReal);
  }

  /** Whether any rule applies at all. */
  get isEmpty(): boolean {
    return this.levels.length === 0;
  }

  /** Whether `absolute` (a file, or a directory when `isDirectory`) is ignored. */
  ignores(absolute: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const level of this.levels) {
      const rel = relative(level.directory, absolute);
      if (rel === "" || isOutside(rel)) continue;
      const result = level.rules.test(toPosix(rel) + (isDirectory ? "/" : ""));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
