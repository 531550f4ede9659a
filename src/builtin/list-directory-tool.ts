import { lstatSync, readlinkSync, statSync } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import { ArtifactAction, ArtifactType, ToolArtifact, ToolResult } from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { compileGlob } from "./compile-glob.js";
import { defaultPathGuard, GuardedTally, PathGuard, type PathGuardConfig } from "./path-guard.js";
import { type EntryKind, type WalkStats, walkDirectory } from "./walk-directory.js";
import { resolveInWorkspace } from "./workspace-paths.js";

/**
 * Construction options of {@link ListDirectoryTool}. `protectedPaths` and `deniedPaths` name the
 * directories a recursive listing does not enter (default: the default protected paths).
 */
export interface ListDirectoryToolConfig extends PathGuardConfig {
  /** The most entries a call returns unless it asks for fewer (default 1000). */
  readonly maxEntries?: number;
}

/** One entry of a `list-directory` result. */
export interface DirectoryEntryData {
  /** Relative to the workspace root, `/`-separated. */
  readonly path: string;
  readonly name: string;
  /** `"file"`, `"directory"`, `"symlink"` (never followed) or `"other"`. */
  readonly type: EntryKind;
  /** Size in bytes, for files. */
  readonly size?: number;
  /** Where a symbolic link points, as stored in the link. */
  readonly target?: string;
}

/** The data of a successful `list-directory`. */
export interface ListDirectoryData {
  /** The directory listed, relative to the workspace root. */
  readonly path: string;
  readonly entries: readonly DirectoryEntryData[];
  /** True when the listing stopped at `maxEntries`. */
  readonly truncated: boolean;
  /** Entries left out by `.gitignore` rules. */
  readonly ignoredCount: number;
  /** What was left out and how to see it, when anything was. */
  readonly note?: string;
}

const defaultMaxEntries = 1000;
const maxMaxEntries = 10_000;
const maxDepthLimit = 20;
const progressEvery = 500;
/** Entries of a listing described synchronously before the rest go through the thread pool. */
const syncDescribedEntries = 256;

/**
 * `list-directory` (Safe): the entries of a workspace directory with their type and size,
 * optionally recursive (`depth`), filtered by a glob (`pattern`), honouring `.gitignore`
 * (`respectGitignore`, default true) and capped at `maxEntries` with a note. Symbolic links are
 * listed with their target and never followed; `.git` is listed but never entered.
 *
 * The policy judges only the call's `path`: a directory below it that is a protected path or
 * that a deny rule covers (`protectedPaths`, `deniedPaths`) is listed by name but not entered,
 * with a note; aintern's store (`.aintern/`) is never listed, even when named.
 */
export class ListDirectoryTool extends BuiltinToolBase {
  readonly id = "list-directory";
  readonly name = "List Directory";
  readonly description =
    "List the files and directories in a workspace directory, with type and size. Use depth " +
    "for subdirectories and pattern (a glob such as '*.ts' or 'src/**/*.json') to filter. " +
    ".gitignore is honoured unless respectGitignore is false.";
  readonly category = ToolCategory.FileSystem;
  readonly inputSchema;
  readonly #maxEntries: number;
  readonly #guard: PathGuard;

  constructor(config: ListDirectoryToolConfig = {}) {
    super();
    this.#guard =
      config.protectedPaths === undefined && config.deniedPaths === undefined
        ? defaultPathGuard
        : new PathGuard(config);
    this.#maxEntries = Math.min(config.maxEntries ?? defaultMaxEntries, maxMaxEntries);
    this.inputSchema = JsonSchemaBuilder.create()
      .withDescription("List a directory")
      .addPath("path", "Directory, relative to the workspace root (default: the root)")
      .addInteger("depth", "How many levels to list: 1 = this directory only (default 1)", {
        minimum: 1,
        maximum: maxDepthLimit,
      })
      .addString("pattern", "Only entries whose name (or path, if it has a '/') matches this glob")
      .addBoolean("respectGitignore", "Leave out what .gitignore ignores (default true)")
      .addInteger("maxEntries", `Most entries to return (default ${this.#maxEntries})`, {
        minimum: 1,
        maximum: maxMaxEntries,
      })
      .build();
  }

  override get defaultRiskLevel(): RiskLevel {
    return RiskLevel.Safe;
  }
  override get tags(): readonly string[] {
    return ["file", "directory", "read"];
  }

  /** `"List directory 'src' (3 levels)"`. */
  override getExecutionSummary(parameters: JsonObject): string {
    const path = typeof parameters.path === "string" ? parameters.path : ".";
    const depth = typeof parameters.depth === "number" ? parameters.depth : 1;
    const levels = depth > 1 ? ` (${depth} levels)` : "";
    const filter =
      typeof parameters.pattern === "string" ? ` matching '${parameters.pattern}'` : "";
    return `List directory '${path}'${levels}${filter}`;
  }

  protected async run(
    context: ToolExecutionContext,
    given: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const signal = given ?? context.signal;
    const path = context.getOptionalString("path", ".");
    const depth = context.getOptionalInt("depth", 1);
    const pattern = context.getOptionalString("pattern");
    const respectGitignore = context.getOptionalBool("respectGitignore", true);
    const maxEntries = context.getOptionalInt("maxEntries", this.#maxEntries);
    const { real: start, rootReal, relative } = resolveInWorkspace(context, path);

    // Synchronous, like the guard's own resolution of this path a moment ago.
    const startStats = statSync(start, { throwIfNoEntry: false });
    if (startStats === undefined) {
      return ToolResult.failed(`Directory '${path}' does not exist.`, ToolErrorCode.PathNotFound);
    }
    if (!startStats.isDirectory() && !startStats.isFile()) {
      return ToolResult.failed(
        `'${path}' is not a directory (a FIFO, socket or device); list-directory lists directories.`,
        BuiltinToolErrorCode.NotARegularFile,
      );
    }
    if (!startStats.isDirectory()) {
      return ToolResult.failed(
        `'${path}' is a file, not a directory. Use file-read to read it.`,
        BuiltinToolErrorCode.WrongEntryType,
      );
    }

    if (this.#guard.inStore(relative)) {
      return ToolResult.failed(
        `'${path}' is in aintern's own store (.aintern/: the audit log and its journal), which list-directory never lists.`,
        ToolErrorCode.Denied,
      );
    }
    const check = this.#guard.checkFrom(relative);
    const guarded = new GuardedTally();
    const enter = guarded.enterUnless(check);
    const matches = pattern === undefined ? undefined : compileGlob(pattern);
    const stats: WalkStats = { unreadableDirectories: 0, ignoredEntries: 0 };
    const entries: DirectoryEntryData[] = [];
    let visited = 0;
    let truncated = false;
    for await (const entry of walkDirectory(
      { rootReal, start, maxDepth: depth, respectGitignore, gitDirectory: "list", enter, signal },
      stats,
    )) {
      visited++;
      if (visited % progressEvery === 0) {
        context.reportProgress(`Visited ${visited} entries, listed ${entries.length}`);
      }
      if (matches !== undefined && !matches(entry.pathFromStart)) continue;
      if (entries.length >= maxEntries) {
        truncated = true;
        break;
      }
      const described = describeEntry(
        entry.absolutePath,
        entry.relativePath,
        entry.name,
        entry.kind,
        entries.length < syncDescribedEntries,
      );
      entries.push(described instanceof Promise ? await described : described);
    }

    const notes: string[] = [];
    if (truncated) {
      notes.push(
        `Listing stopped at ${maxEntries} entries; narrow it with path, depth or pattern, or raise maxEntries.`,
      );
    }
    if (stats.unreadableDirectories > 0) {
      notes.push(`${stats.unreadableDirectories} directories could not be read.`);
    }
    notes.push(...guarded.notes({ file: "not read", directory: "listed but not entered" }));
    const data: ListDirectoryData = {
      path: relative,
      entries,
      truncated,
      ignoredCount: stats.ignoredEntries,
      ...(notes.length > 0 && { note: notes.join(" ") }),
    };
    const artifact = ToolArtifact.custom(ArtifactType.Directory, relative, {
      action: ArtifactAction.Accessed,
      description: `Listed ${entries.length} entries`,
    });
    const message = `Listed ${entries.length} entries in '${relative}'${truncated ? " (truncated)" : ""}`;
    return ToolResult.succeededWithArtifacts([artifact], data, message);
  }
}

/**
 * An entry with its size (files) or target (links). The first {@link syncDescribedEntries} of a
 * listing are looked up synchronously (one lstat or readlink each costs less than a thread-pool
 * round trip, and a few hundred hold the event loop well under a millisecond); the rest through
 * the thread pool, so a listing of thousands does not hold it.
 */
function describeEntry(
  absolute: string,
  path: string,
  name: string,
  kind: EntryKind,
  sync: boolean,
): DirectoryEntryData | Promise<DirectoryEntryData> {
  if (kind !== "file" && kind !== "symlink") return { path, name, type: kind };
  if (!sync) return describeEntryAsync(absolute, path, name, kind);
  try {
    if (kind === "file") return { path, name, type: kind, size: lstatSync(absolute).size };
    return { path, name, type: kind, target: readlinkSync(absolute) };
  } catch {
    // Removed while listing: report what the directory said.
    return { path, name, type: kind };
  }
}

async function describeEntryAsync(
  absolute: string,
  path: string,
  name: string,
  kind: EntryKind,
): Promise<DirectoryEntryData> {
  try {
    if (kind === "file") return { path, name, type: kind, size: (await lstat(absolute)).size };
    if (kind === "symlink") return { path, name, type: kind, target: await readlink(absolute) };
  } catch {
    // Removed while listing: report what the directory said.
  }
  return { path, name, type: kind };
}

/** The shared `list-directory` instance (stateless). */
export const listDirectoryTool = new ListDirectoryTool();
