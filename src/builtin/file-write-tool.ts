import { lstat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import { ToolArtifact, ToolResult } from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { resolveEntryPath, statIfExists } from "./workspace-paths.js";
import { makeDirectories, writeFileAtomic } from "./write-file-atomic.js";

/** The data of a successful `file-write`. */
export interface FileWriteData {
  /** The file, relative to the workspace root. */
  readonly path: string;
  /** Bytes written (UTF-8). */
  readonly size: number;
  /** True when the file did not exist before. */
  readonly created: boolean;
  /** `"sha256:<hex>"` of the content written. */
  readonly contentHash: string;
}

/** True when a path goes through a `.git` directory: hooks and config there run code. */
function touchesGitDirectory(path: string): boolean {
  return path.split(/[\\/]+/).some((segment) => segment.toLowerCase() === ".git");
}

/**
 * File names whose content a build or package manager runs as commands (npm's scripts, also on
 * `install`; make's recipes): creating one is no Low write. An approval of `npm test` would
 * otherwise run whatever scripts the model put in a new `sub/package.json`.
 */
const commandManifests = new Set(["package.json", "makefile", "gnumakefile"]);

function isCommandManifest(path: string): boolean {
  const name = path.split(/[\\/]+/).pop() ?? "";
  return commandManifests.has(name.toLowerCase());
}

/**
 * `file-write` (Low to create, Medium to overwrite or to create a `package.json` or
 * Makefile, High inside `.git/`): writes a UTF-8 text
 * file in the workspace. Creating and overwriting are told apart by the `overwrite` parameter,
 * so a person approves exactly one of them: without `overwrite: true` an existing file is never
 * replaced (checked atomically at commit). `createDirectories: true` creates missing parent
 * directories.
 *
 * Writes are atomic (a temporary file in the same directory, synced, then renamed or linked
 * over the target) and never follow a symbolic link: a target that is a link is refused, and
 * the parent directory is re-checked right before the commit (see `writeFileAtomic`).
 */
export class FileWriteTool extends BuiltinToolBase {
  readonly id = "file-write";
  readonly name = "Write File";
  readonly description =
    "Write a UTF-8 text file in the workspace. Set overwrite: true to replace an existing file " +
    "(otherwise the call fails if the file exists); set createDirectories: true to create " +
    "missing parent directories.";
  readonly category = ToolCategory.FileSystem;
  readonly inputSchema = JsonSchemaBuilder.create()
    .withDescription("Write a text file")
    .addPath("path", "File path, relative to the workspace root", { required: true })
    .addString("content", "The complete new content of the file", { required: true })
    .addBoolean("overwrite", "Replace the file if it exists (default false)")
    .addBoolean("createDirectories", "Create missing parent directories (default false)")
    .build();
  override get defaultRiskLevel(): RiskLevel {
    return RiskLevel.Low;
  }
  override get tags(): readonly string[] {
    return ["file", "write"];
  }

  /** `"Write 412 bytes to 'src/app.ts' (overwrite)"` or `"... (create)"`. */
  override getExecutionSummary(parameters: JsonObject): string {
    const content = typeof parameters.content === "string" ? parameters.content : "";
    const bytes = Buffer.byteLength(content);
    const mode = parameters.overwrite === true ? "overwrite" : "create";
    return `Write ${bytes} bytes to '${String(parameters.path)}' (${mode})`;
  }

  /**
   * Low to create, Medium to overwrite or to create a command manifest (`package.json`, a
   * Makefile), High for anything under a `.git` directory.
   */
  override getEffectiveRiskLevel(parameters: JsonObject): RiskLevel {
    if (typeof parameters.path === "string" && touchesGitDirectory(parameters.path)) {
      return RiskLevel.High;
    }
    if (typeof parameters.path === "string" && isCommandManifest(parameters.path)) {
      return RiskLevel.Medium;
    }
    return parameters.overwrite === true ? RiskLevel.Medium : RiskLevel.Low;
  }

  protected async run(
    context: ToolExecutionContext,
    _signal: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const path = context.getRequiredString("path");
    const content = context.getRequiredString("content");
    const overwrite = context.getOptionalBool("overwrite", false);
    const createDirectories = context.getOptionalBool("createDirectories", false);
    if (path.includes("\0")) {
      return ToolResult.failed(
        `Invalid path '${path.replaceAll("\0", "\\0")}': the path contains a NUL byte (InvalidPath).`,
        ToolErrorCode.ValidationFailed,
      );
    }
    const entry = resolveEntryPath(context, path);
    if (entry.isRoot) {
      return ToolResult.failed(
        `'${path}' is the workspace root, not a file.`,
        BuiltinToolErrorCode.WrongEntryType,
      );
    }

    const existing = await lstat(entry.absolute).catch(() => undefined);
    if (existing?.isSymbolicLink() === true) {
      // Say where the link leads when that is outside (the guard throws); refuse it either way.
      context.resolvePath(path);
      return ToolResult.failed(
        `'${entry.relative}' is a symbolic link; file-write never writes through a link. Write to the file it points to instead.`,
        BuiltinToolErrorCode.SymlinkRefused,
      );
    }

    const parent = await statIfExists(entry.parentReal);
    if (parent === undefined) {
      if (!createDirectories) {
        return ToolResult.failed(
          `The directory of '${entry.relative}' does not exist; pass createDirectories: true to create it.`,
          ToolErrorCode.PathNotFound,
        );
      }
      if (!(await makeDirectories(entry.rootReal, entry.parentReal))) {
        return ToolResult.failed(
          `The directories of '${entry.relative}' changed while they were created; write refused.`,
          BuiltinToolErrorCode.SymlinkRefused,
        );
      }
      // A link swapped into the new directories would change their real path: check again.
      const again = context.resolvePath(dirname(resolve(entry.rootReal, path)));
      if (again !== entry.parentReal) {
        return ToolResult.failed(
          `The directories of '${entry.relative}' changed while they were created; write refused.`,
          BuiltinToolErrorCode.SymlinkRefused,
        );
      }
    } else if (!parent.isDirectory()) {
      return ToolResult.failed(
        `The parent of '${entry.relative}' is not a directory.`,
        BuiltinToolErrorCode.WrongEntryType,
      );
    }

    const outcome = await writeFileAtomic({
      rootReal: entry.rootReal,
      parentReal: entry.parentReal,
      name: entry.name,
      displayPath: entry.relative,
      content,
      overwrite,
    });
    if (!outcome.ok) return ToolResult.failed(outcome.error, outcome.code);

    const contentHash = ToolArtifact.hashContent(content);
    const data: FileWriteData = {
      path: entry.relative,
      size: outcome.size,
      created: outcome.created,
      contentHash,
    };
    const artifact = ToolArtifact.file(entry.relative, {
      isNew: outcome.created,
      size: outcome.size,
      contentHash,
      description: outcome.created ? "Created" : "Overwritten",
    });
    const mode = outcome.created ? "created" : "overwritten";
    return ToolResult.succeededWithArtifacts(
      [artifact],
      data,
      `Wrote ${outcome.size} bytes to '${entry.relative}' (${mode})`,
    );
  }
}

/** The shared `file-write` instance (stateless). */
export const fileWriteTool = new FileWriteTool();
