import type { Dirent } from "node:fs";
import { lstat, readdir, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import { ToolArtifact, ToolResult } from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { resolveEntryPath, systemErrorCode } from "./workspace-paths.js";

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
    const count = await countEntries(entry.absolute, context, signal);
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

/** Entries under `directory` (not following links), reporting progress as it counts. */
async function countEntries(
  directory: string,
  context: ToolExecutionContext,
  signal: AbortSignal,
): Promise<number> {
  let count = 0;
  const pending = [directory];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    signal.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(next, { withFileTypes: true });
    } catch {
      continue; // Unreadable: rm reports it if it cannot delete it either.
    }
    for (const entry of entries) {
      count++;
      if (count % progressEvery === 0) context.reportProgress(`Counted ${count} entries to delete`);
      if (entry.isDirectory()) pending.push(join(next, entry.name));
    }
  }
  return count;
}

/** The shared `file-delete` instance (stateless). */
export const fileDeleteTool = new FileDeleteTool();
