import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

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

async function readRules(...files: string[]): Promise<Ignore | undefined> {
  let rules: Ignore | undefined;
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      continue; // No such file (or unreadable): no rules from it.
    }
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
  private constructor(private readonly levels: readonly Level[]) {}

  /** No rules at all (for walks that do not honour `.gitignore`). */
  static none(): GitignoreRules {
    return new GitignoreRules([]);
  }

  /**
   * The rules in force in `directory`: those of the workspace root and of every directory
   * between it and `directory`, inclusive.
   */
  static async forDirectory(rootReal: string, directory: string): Promise<GitignoreRules> {
    const rootRules = await readRules(
      join(rootReal, ".gitignore"),
      join(rootReal, ".git", "info", "exclude"),
    );
    let rules = new GitignoreRules(
      rootRules === undefined ? [] : [{ directory: rootReal, rules: rootRules }],
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
    const own = await readRules(join(directory, ".gitignore"));
    return own === undefined
      ? this
      : new GitignoreRules([...this.levels, { directory, rules: own }]);
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
