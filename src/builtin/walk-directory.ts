import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { GitignoreRules } from "./gitignore-rules.js";
import { toWorkspaceRelative } from "./workspace-paths.js";

/** What a directory entry is, without following symbolic links. */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** One entry a walk visits. */
export interface WalkEntry {
  /** Absolute path (under the walk's real start directory). */
  readonly absolutePath: string;
  /** Relative to the workspace root, `/`-separated. */
  readonly relativePath: string;
  /** Relative to the walk's start directory, `/`-separated. */
  readonly pathFromStart: string;
  readonly name: string;
  readonly kind: EntryKind;
  /** 1 for the start directory's own entries, 2 for theirs, and so on. */
  readonly depth: number;
}

/** Options of {@link walkDirectory}. */
export interface WalkOptions {
  /** The workspace root, absolute and symlink-resolved. */
  readonly rootReal: string;
  /** The directory to walk, absolute and symlink-resolved, inside the root. */
  readonly start: string;
  /** How deep to go: 1 lists the start directory only. */
  readonly maxDepth: number;
  /** Honour `.gitignore` files (the root's, nested ones, and `.git/info/exclude`). */
  readonly respectGitignore: boolean;
  /**
   * `"skip"`: never yield `.git` directories; `"list"`: yield them, never descend into them;
   * `"enter"`: treat them as any other directory (a recursive delete must see all it removes).
   */
  readonly gitDirectory: "skip" | "list" | "enter";
  /**
   * Whether to enter a directory below the start (given its workspace-relative path); one it
   * refuses is still yielded. Default: every directory. Asked only where the walk would go deeper.
   */
  readonly enter?: (relativePath: string) => boolean;
  readonly signal?: AbortSignal;
}

/** Counters a walk fills in while it runs. */
export interface WalkStats {
  /** Directories that could not be read (permissions, removed during the walk). */
  unreadableDirectories: number;
  /** Entries left out because a `.gitignore` rule ignores them. */
  ignoredEntries: number;
}

function kindOf(entry: Dirent): EntryKind {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  if (entry.isFile()) return "file";
  return "other";
}

/**
 * Walks a directory depth-first, entries in name order, never following symbolic links (a link
 * is yielded as a `"symlink"` and not entered, so a walk cannot leave the workspace). Honours
 * `.gitignore` when asked; an ignored directory is not entered. When the start directory is
 * itself ignored (the caller named it explicitly), the rules of the directories above it are
 * not applied, as `git` tools do for an explicit path.
 *
 * @internal
 */
export async function* walkDirectory(
  options: WalkOptions,
  stats: WalkStats = { unreadableDirectories: 0, ignoredEntries: 0 },
): AsyncGenerator<WalkEntry> {
  const { rootReal, start, maxDepth, respectGitignore, gitDirectory, enter, signal } = options;
  let rules = GitignoreRules.none(rootReal);
  if (respectGitignore) {
    rules = await GitignoreRules.forDirectory(rootReal, start);
    if (start !== rootReal && rules.ignores(start, true)) {
      rules = await GitignoreRules.none(rootReal).enter(start);
    }
  }
  // Entries' workspace-relative paths are derived from the start's, not recomputed per entry.
  const startRelative = toWorkspaceRelative(rootReal, start);
  const prefixFromRoot = startRelative === "." ? "" : `${startRelative}/`;
  yield* walkLevel(start, "", 1, rules);

  async function* walkLevel(
    directory: string,
    prefix: string,
    depth: number,
    levelRules: GitignoreRules,
  ): AsyncGenerator<WalkEntry> {
    signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      stats.unreadableDirectories++;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const kind = kindOf(entry);
      const absolutePath = join(directory, entry.name);
      const isGit = entry.name === ".git";
      if (isGit && gitDirectory === "skip") continue;
      if (respectGitignore && !isGit && levelRules.ignores(absolutePath, kind === "directory")) {
        stats.ignoredEntries++;
        continue;
      }
      const pathFromStart = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const relativePath = prefixFromRoot + pathFromStart;
      yield { absolutePath, relativePath, pathFromStart, name: entry.name, kind, depth };
      if (
        kind === "directory" &&
        (!isGit || gitDirectory === "enter") &&
        depth < maxDepth &&
        (enter === undefined || enter(relativePath))
      ) {
        const inner = respectGitignore ? await levelRules.enter(absolutePath) : levelRules;
        yield* walkLevel(absolutePath, pathFromStart, depth + 1, inner);
      }
    }
  }
}
