import { lstat, rm, unlink } from "node:fs/promises";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import { ToolArtifact, ToolResult } from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import {
  defaultPathGuard,
  type GuardReason,
  PathGuard,
  type PathGuardConfig,
} from "./path-guard.js";
import { walkDirectory } from "./walk-directory.js";
import { type EntryPath, resolveEntryPath, systemErrorCode } from "./workspace-paths.js";

/**
 * Construction options of {@link FileDeleteTool}: what a recursive delete must not remove below
 * the path it is called with (default: the default protected paths and aintern's store).
 */
export type FileDeleteToolConfig = Pick<PathGuardConfig, "protectedPaths" | "changeDeniedPaths">;

/** The data of a successful `file-delete`. */
export interface FileDeleteData {
  /** What was deleted, relative to the workspace root. */
  readonly path: string;
  /** What it was: a file, a symbolic link (its target kept), a directory, or something else. */
  readonly type: "file" | "symlink" | "directory" | "other";
  /** For a directory: the entries deleted under it (not counting the directory itself). */
  readonly entriesDeleted?: number;
}

const progressEvery = 1000;

/**
 * `file-delete` (High; Critical with `recursive: true`): deletes a file, a symbolic link or,
 * with `recursive: true`, a directory and everything in it. Never follows a symbolic link:
 * deleting a link deletes the link, not its target, and a recursive delete removes links inside
 * the directory without entering them. Refuses the workspace root.
 *
 * The policy judges only the call's own path: a recursive delete of a folder that holds a
 * protected path, a path a deny rule keeps from being changed (`changeDeniedPaths`) or aintern's
 * store (`.aintern/`) deletes nothing and says which it found; protected patterns the call's own
 * path is under are lifted (the policy asked about that path).
 *
 * The risk comes from the parameters alone (the executor asks before anything is looked at):
 * any recursive delete is Critical, since from the parameters a directory of two files and one
 * of twenty thousand look the same.
 */
export class FileDeleteTool extends BuiltinToolBase {
  readonly id = "file-delete";
  readonly name = "Delete File";
  readonly description =
    "Delete a file or symbolic link in the workspace. To delete a directory and everything " +
    "in it, set recursive: true. Links are deleted, never their targets.";
  readonly category = ToolCategory.FileSystem;
  readonly inputSchema = JsonSchemaBuilder.create()
    .withDescription("Delete a file")
    .addPath("path", "Path to delete, relative to the workspace root", {
      required: true,
      mustExist: true,
    })
    .addBoolean("recursive", "Delete a directory and everything in it (default false)")
    .build();

  readonly #guard: PathGuard;

  constructor(config: FileDeleteToolConfig = {}) {
    super();
    this.#guard =
      config.protectedPaths === undefined && config.changeDeniedPaths === undefined
        ? defaultPathGuard
        : new PathGuard({
            ...(config.protectedPaths === undefined
              ? {}
              : { protectedPaths: config.protectedPaths }),
            deniedPaths: config.changeDeniedPaths ?? [],
          });
  }

  override get defaultRiskLevel(): RiskLevel {
    return RiskLevel.High;
  }
  override get tags(): readonly string[] {
    return ["file", "delete", "destructive"];
  }

  /** `"Delete 'build/out.js'"`, or `"Delete 'build' and everything in it (recursive)"`. */
  override getExecutionSummary(parameters: JsonObject): string {
    const path = String(parameters.path);
    return parameters.recursive === true
      ? `Delete '${path}' and everything in it (recursive)`
      : `Delete '${path}'`;
  }

  /** High; Critical for a recursive delete. */
  override getEffectiveRiskLevel(parameters: JsonObject): RiskLevel {
    return parameters.recursive === true ? RiskLevel.Critical : RiskLevel.High;
  }

  /**
   * Walks the tree to delete (links not followed, `.git` and ignored entries included): the
   * entries in it, or the first few guarded paths found, which stop the walk.
   */
  async #survey(
    entry: EntryPath,
    context: ToolExecutionContext,
    signal: AbortSignal,
  ): Promise<{ count: number; guarded: GuardedEntry[] }> {
    const check = this.#guard.checkFrom(entry.relative);
    const guarded: GuardedEntry[] = [];
    let count = 0;
    for await (const found of walkDirectory({
      rootReal: entry.rootReal,
      start: entry.absolute,
      maxDepth: Number.POSITIVE_INFINITY,
      respectGitignore: false,
      gitDirectory: "enter",
      // A guarded folder is named, not entered: one path is enough to refuse.
      enter: (relativePath) => check(relativePath) === undefined,
      signal,
    })) {
      const reason = check(found.relativePath);
      if (reason !== undefined) {
        guarded.push({ path: found.relativePath, reason });
        if (guarded.length >= maxGuardedNamed) break;
      }
      count++;
      if (count % progressEvery === 0) context.reportProgress(`Counted ${count} entries to delete`);
    }
    return { count, guarded };
  }

  protected async run(
    context: ToolExecutionContext,
    given: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const signal = given ?? context.signal;
    const path = context.getRequiredString("path");
    const recursive = context.getOptionalBool("recursive", false);
    const entry = resolveEntryPath(context, path);
    if (entry.isRoot) {
      return ToolResult.failed(
        `'${path}' is the workspace root; file-delete never deletes the workspace itself.`,
        BuiltinToolErrorCode.WrongEntryType,
      );
    }
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(entry.absolute);
    } catch (error) {
      if (systemErrorCode(error) === "ENOENT") {
        return ToolResult.failed(`'${entry.relative}' does not exist.`, ToolErrorCode.PathNotFound);
      }
      throw error;
    }

    if (!stats.isDirectory()) {
      const type = stats.isSymbolicLink() ? "symlink" : stats.isFile() ? "file" : "other";
      await unlink(entry.absolute);
      const description =
        type === "symlink" ? "Deleted symbolic link (its target was kept)" : "Deleted";
      const data: FileDeleteData = { path: entry.relative, type };
      return ToolResult.succeededWithArtifacts(
        [ToolArtifact.deletedFile(entry.relative, description)],
        data,
        `Deleted ${type === "symlink" ? "symbolic link" : "file"} '${entry.relative}'`,
      );
    }

    if (!recursive) {
      return ToolResult.failed(
        `'${entry.relative}' is a directory; pass recursive: true to delete it and everything in it.`,
        BuiltinToolErrorCode.WrongEntryType,
      );
    }
    const { count, guarded } = await this.#survey(entry, context, signal);
    if (guarded.length > 0) {
      return ToolResult.failed(refusal(entry.relative, guarded), ToolErrorCode.Denied);
    }
    context.reportProgress(`Deleting '${entry.relative}' (${count} entries)`);
    signal.throwIfAborted();
    // fs.rm removes links inside the tree as links; it does not enter them.
    await rm(entry.absolute, { recursive: true });
    const data: FileDeleteData = { path: entry.relative, type: "directory", entriesDeleted: count };
    return ToolResult.succeededWithArtifacts(
      [ToolArtifact.deletedFile(entry.relative, `Deleted directory with ${count} entries`)],
      data,
      `Deleted directory '${entry.relative}' and ${count} entries in it`,
    );
  }
}

/** The most guarded paths a refused delete names (the walk stops once it has found them). */
const maxGuardedNamed = 3;

/** What a refused recursive delete found, first found first. */
interface GuardedEntry {
  readonly path: string;
  readonly reason: GuardReason;
}

/**
 * "'proj' holds 'proj/aintern.config.json', a protected path: ...": the guarded paths found, by
 * the gravest reason among them, and what to do instead.
 */
function refusal(folder: string, guarded: readonly GuardedEntry[]): string {
  const names = guarded.map((g) => `'${g.path}'`);
  const listed =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  const more = guarded.length >= maxGuardedNamed ? " (perhaps among others)" : "";
  const holds = `'${folder}' holds ${listed}${more}`;
  const one = guarded.length === 1;
  if (guarded.some((g) => g.reason === "store")) {
    return (
      `${holds}, ${one ? "part of aintern's own store" : "which include aintern's own store"} (the audit log): ` +
      "a recursive delete never removes it, and nothing was deleted. Delete the other entries on their own, or leave the folder."
    );
  }
  if (guarded.some((g) => g.reason === "denied")) {
    return (
      `${holds}, ${one ? "which a policy deny rule keeps" : "which include paths a policy deny rule keeps"} from being changed: ` +
      "a recursive delete does not remove them, and nothing was deleted. Delete the other entries on their own, or leave the folder."
    );
  }
  return (
    `${holds}, ${one ? "a protected path" : "protected paths"}: a recursive delete does not remove protected paths, and nothing was deleted. ` +
    "Delete them on their own (each is asked) or leave them."
  );
}

/** The shared `file-delete` instance (stateless). */
export const fileDeleteTool = new FileDeleteTool();
