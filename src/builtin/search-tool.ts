import { basename } from "node:path";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import { ArtifactAction, ArtifactType, ToolArtifact, ToolResult } from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { ToolValidationResult } from "../validation/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { compileGlob } from "./compile-glob.js";
import { readAll, withRegularFile } from "./open-regular-file.js";
import {
  defaultPathGuard,
  GuardedTally,
  type PathCheck,
  PathGuard,
  type PathGuardConfig,
} from "./path-guard.js";
import { RegexScanner } from "./regex-scanner.js";
import { looksLikeText, sniffLength } from "./sniff-text.js";
import { type WalkStats, walkDirectory } from "./walk-directory.js";
import { lstatIfExists, resolveInWorkspace } from "./workspace-paths.js";

/**
 * Construction options of {@link SearchTool}. `protectedPaths` and `deniedPaths` say which files
 * the search must not read (default: the default protected paths); `aintern mcp` gives its
 * policy's (`ApprovalPolicy.guardedPaths()`).
 */
export interface SearchToolConfig extends PathGuardConfig {
  /** The most results (matching lines, or files by name) a call returns by default (200). */
  readonly maxResults?: number;
  /** The most matching lines per file by default (20). */
  readonly maxMatchesPerFile?: number;
  /** Lines longer than this many characters are scanned only up to it (2000). */
  readonly maxLineLength?: number;
  /** The total time a content search may take, in milliseconds (10000). */
  readonly timeBudgetMs?: number;
  /** Files larger than this many bytes are not searched (4 MiB). */
  readonly maxFileBytes?: number;
}

/** One matching line of a content search. */
export interface SearchMatch {
  /** Relative to the workspace root, `/`-separated. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based column of the first match on the line. */
  readonly column: number;
  /** The line (a window of it when it is long). */
  readonly text: string;
}

/** The data of a successful `search`. */
export interface SearchData {
  /** `"content"` when `query` was given, else `"name"`. */
  readonly mode: "content" | "name";
  /** Content search: the matching lines, in path order. */
  readonly matches?: readonly SearchMatch[];
  /** Name search: the matching files, relative to the workspace root. */
  readonly files?: readonly string[];
  /** Files whose names matched (and, for a content search, that were read). */
  readonly filesSearched: number;
  /** True when results were left out (a cap, or the time budget). */
  readonly truncated: boolean;
  /** What was left out and why, when anything was. */
  readonly notes?: readonly string[];
  /**
   * Files not read and directories not entered because they are protected, a deny rule covers
   * them, or they are aintern's own store (`.aintern/`); named in `notes`. Set when any were.
   */
  readonly notSearched?: {
    readonly protected: number;
    readonly denied: number;
    readonly store: number;
  };
}

const limits = {
  maxResults: 200,
  maxMatchesPerFile: 20,
  maxLineLength: 2000,
  timeBudgetMs: 10_000,
  maxFileBytes: 4 * 1024 * 1024,
};
const maxResultsLimit = 5000;
const maxWalkDepth = 64;
const batchBytes = 1024 * 1024;
const batchFiles = 256;
/**
 * The longest one batch's scan may hold the thread, in ms: a query that backtracks
 * catastrophically held it for the whole time budget (10 s), every other call and connection of
 * the server waiting meanwhile. A usual query scans a batch (1 MB at most) in a few ms.
 */
const scanSliceMs = 500;
const progressEvery = 200;
const maxShownLength = 300;

interface PendingFile {
  readonly relativePath: string;
  readonly text: string;
}

/**
 * `search` (Safe): finds files by name (a picomatch glob) and lines by content (a JavaScript
 * regular expression), under a workspace directory. Honours `.gitignore` (the root's, nested
 * ones, `.git/info/exclude`) unless `respectGitignore` is false, always skips `.git/`, symbolic
 * links, binary files and files over the size limit. Results are relative to the workspace.
 *
 * The policy judges only the call's `path`; what the walk reaches beyond it is held to the same
 * protected paths and deny rules (`protectedPaths`, `deniedPaths`): such files are not read (a
 * name search still lists them: names are not contents), such directories are not entered, and
 * the result says how many and which, so the model can ask for one with `file-read`. aintern's
 * store (`.aintern/`) is never read.
 *
 * Catastrophic patterns are contained: long lines are scanned only up to a limit, and the
 * whole content search runs under a time budget that interrupts even a single backtracking
 * match; what was found before the budget ran out is returned with a note.
 */
export class SearchTool extends BuiltinToolBase {
  readonly id = "search";
  readonly name = "Search";
  readonly description =
    "Search the workspace: files by name with glob (e.g. '*.ts', 'src/**/*.json'), and lines " +
    "by content with query (a JavaScript regular expression). Give either or both. Honours " +
    ".gitignore; results are relative to the workspace root. Protected files (.env, .npmrc, " +
    ".git, ...) are not searched: ask for one with file-read.";
  readonly category = ToolCategory.Search;
  readonly inputSchema;
  readonly #limits: typeof limits;
  readonly #guard: PathGuard;

  constructor(config: SearchToolConfig = {}) {
    super();
    this.#guard =
      config.protectedPaths === undefined && config.deniedPaths === undefined
        ? defaultPathGuard
        : new PathGuard(config);
    this.#limits = {
      maxResults: Math.min(config.maxResults ?? limits.maxResults, maxResultsLimit),
      maxMatchesPerFile: config.maxMatchesPerFile ?? limits.maxMatchesPerFile,
      maxLineLength: config.maxLineLength ?? limits.maxLineLength,
      timeBudgetMs: config.timeBudgetMs ?? limits.timeBudgetMs,
      maxFileBytes: config.maxFileBytes ?? limits.maxFileBytes,
    };
    this.inputSchema = JsonSchemaBuilder.create()
      .withDescription("Search files by name and content")
      .addString("query", "A JavaScript regular expression to find in file contents")
      .addString("glob", "Only files whose name (or path from 'path', if it has a '/') matches")
      .addPath(
        "path",
        "Directory or file to search, relative to the workspace root (default: the root)",
      )
      .addBoolean("ignoreCase", "Match the query case-insensitively (default false)")
      .addBoolean("respectGitignore", "Leave out what .gitignore ignores (default true)")
      .addInteger("maxResults", `Most results to return (default ${this.#limits.maxResults})`, {
        minimum: 1,
        maximum: maxResultsLimit,
      })
      .addInteger(
        "maxMatchesPerFile",
        `Most matching lines per file (default ${this.#limits.maxMatchesPerFile})`,
        { minimum: 1, maximum: maxResultsLimit },
      )
      .build();
  }

  override get defaultRiskLevel(): RiskLevel {
    return RiskLevel.Safe;
  }
  override get tags(): readonly string[] {
    return ["search", "grep", "find", "read"];
  }

  /** The schema's checks, plus: `query` or `glob` given, and `query` a valid regular expression. */
  override validate(parameters: unknown): ToolValidationResult {
    const result = super.validate(parameters);
    if (!result.isValid) return result;
    const { query, glob, ignoreCase } = parameters as JsonObject;
    if (query === undefined && glob === undefined) {
      return ToolValidationResult.invalidValue(
        "query",
        "Give query (a regular expression to find in contents), glob (a file name pattern), or both",
      );
    }
    if (typeof query === "string") {
      try {
        new RegExp(query, ignoreCase === true ? "i" : "");
      } catch (error) {
        return ToolValidationResult.invalidValue(
          "query",
          `Invalid regular expression: ${(error as Error).message}`,
        );
      }
    }
    return result;
  }

  /** `"Search for /TODO/ in '*.ts' files under 'src'"` or `"Find files matching '*.ts' under '.'"`. */
  override getExecutionSummary(parameters: JsonObject): string {
    const path = typeof parameters.path === "string" ? parameters.path : ".";
    const glob = typeof parameters.glob === "string" ? parameters.glob : undefined;
    if (typeof parameters.query === "string") {
      const flags = parameters.ignoreCase === true ? "i" : "";
      const files = glob === undefined ? "" : ` in '${glob}' files`;
      return `Search for /${parameters.query}/${flags}${files} under '${path}'`;
    }
    return `Find files matching '${glob ?? "*"}' under '${path}'`;
  }

  protected async run(
    context: ToolExecutionContext,
    given: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const signal = given ?? context.signal;
    const query = context.getOptionalString("query");
    const glob = context.getOptionalString("glob");
    const path = context.getOptionalString("path", ".");
    const ignoreCase = context.getOptionalBool("ignoreCase", false);
    const respectGitignore = context.getOptionalBool("respectGitignore", true);
    const maxResults = context.getOptionalInt("maxResults", this.#limits.maxResults);
    const maxMatchesPerFile = context.getOptionalInt(
      "maxMatchesPerFile",
      this.#limits.maxMatchesPerFile,
    );
    const started = performance.now();
    const { real: start, rootReal, relative: relativeStart } = resolveInWorkspace(context, path);
    const startStats = await lstatIfExists(start);
    if (startStats === undefined) {
      return ToolResult.failed(`Path '${path}' does not exist.`, ToolErrorCode.PathNotFound);
    }

    if (this.#guard.inStore(relativeStart)) {
      return ToolResult.failed(
        `'${path}' is in aintern's own store (.aintern/: the audit log and its journal), which search never reads.`,
        ToolErrorCode.Denied,
      );
    }
    if (!startStats.isFile() && !startStats.isDirectory()) {
      return ToolResult.failed(
        `'${path}' is not a regular file or a directory (a FIFO, socket, device or link); search reads regular files only.`,
        BuiltinToolErrorCode.NotARegularFile,
      );
    }

    const matchesName = glob === undefined ? () => true : compileGlob(glob);
    const scanner =
      query === undefined
        ? undefined
        : new RegexScanner(query, ignoreCase ? "i" : "", {
            maxLineLength: this.#limits.maxLineLength,
            maxMatchesPerText: maxMatchesPerFile,
            maxShownLength,
          });
    const deadline = started + this.#limits.timeBudgetMs;
    // What the walk reaches beyond the call's own path respects the protected paths and deny
    // rules the policy applied to that path: such files are not read, such directories not entered.
    const check: PathCheck = this.#guard.checkFrom(relativeStart);
    const guarded = new GuardedTally();
    const enter = guarded.enterUnless(check);

    const files: string[] = [];
    const matches: SearchMatch[] = [];
    let filesSearched = 0;
    let truncated = false;
    let timedOut = false;
    let slowQuery = false;
    let longLines = 0;
    let cappedFiles = 0;
    let skippedLarge = 0;
    let skippedBinary = 0;
    let pending: PendingFile[] = [];
    let pendingBytes = 0;

    const flush = (): void => {
      if (scanner === undefined || pending.length === 0 || timedOut) return;
      const room = maxResults - matches.length;
      const left = deadline - performance.now();
      const scan = scanner.scan(
        pending.map((file) => file.text),
        room,
        Math.min(left, scanSliceMs),
      );
      if (scan.timedOut) {
        timedOut = true;
        truncated = true;
        slowQuery = left > scanSliceMs;
      }
      for (const match of scan.matches) {
        const file = pending[match.textIndex] as PendingFile;
        matches.push({
          path: file.relativePath,
          line: match.line,
          column: match.column,
          text: match.text,
        });
      }
      longLines += scan.longLines;
      cappedFiles += scan.cappedTexts.length;
      if (matches.length >= maxResults) truncated = true;
      pending = [];
      pendingBytes = 0;
    };

    const candidates = startStats.isFile()
      ? singleFile(start, relativeStart, basename(start))
      : walkFiles(rootReal, start, respectGitignore, enter, signal);
    const stats: WalkStats = { unreadableDirectories: 0, ignoredEntries: 0 };
    for await (const file of candidates(stats)) {
      signal.throwIfAborted();
      if (!matchesName(file.pathFromStart)) continue;
      if (scanner === undefined) {
        if (files.length >= maxResults) {
          truncated = true;
          break;
        }
        files.push(file.relativePath);
        filesSearched++;
        continue;
      }
      if (truncated) break;
      const reason = check(file.relativePath);
      if (reason !== undefined) {
        guarded.add(reason, file.relativePath, "file");
        continue;
      }
      if (performance.now() >= deadline) {
        timedOut = true;
        truncated = true;
        break;
      }
      const text = await readText(file.absolutePath, this.#limits.maxFileBytes);
      if (text === "large") {
        skippedLarge++;
        continue;
      }
      if (text === "binary") {
        skippedBinary++;
        continue;
      }
      if (text === undefined) continue;
      filesSearched++;
      pending.push({ relativePath: file.relativePath, text });
      pendingBytes += text.length;
      if (pendingBytes >= batchBytes || pending.length >= batchFiles) flush();
      if (filesSearched % progressEvery === 0) {
        context.reportProgress(`Searched ${filesSearched} files, ${matches.length} matches`);
      }
    }
    flush();

    const notes: string[] = [];
    if (slowQuery) {
      notes.push(
        `The search stopped: its query took more than ${scanSliceMs} ms on one batch of files; results are partial. ` +
          "Simplify the query (nested quantifiers such as (a+)+ backtrack catastrophically), or narrow path or glob.",
      );
    } else if (timedOut) {
      notes.push(
        `The search stopped after its ${this.#limits.timeBudgetMs} ms time budget; results are partial. ` +
          "Narrow path or glob, or simplify the query (nested quantifiers such as (a+)+ backtrack catastrophically).",
      );
    } else if (truncated) {
      notes.push(`Stopped at ${maxResults} results; narrow the search or raise maxResults.`);
    }
    if (cappedFiles > 0) {
      notes.push(
        `${cappedFiles} files had more than ${maxMatchesPerFile} matching lines; only the first are shown.`,
      );
    }
    if (longLines > 0) {
      notes.push(
        `${longLines} lines longer than ${this.#limits.maxLineLength} characters were searched only up to that length.`,
      );
    }
    if (skippedLarge > 0) {
      notes.push(
        `${skippedLarge} files larger than ${this.#limits.maxFileBytes} bytes were not searched.`,
      );
    }
    if (skippedBinary > 0) notes.push(`${skippedBinary} binary files were not searched.`);
    if (stats.unreadableDirectories > 0) {
      notes.push(`${stats.unreadableDirectories} directories could not be read.`);
    }
    notes.push(...guarded.notes({ file: "not searched", directory: "not entered" }));
    const notSearched =
      guarded.count("protected") + guarded.count("denied") + guarded.count("store") > 0
        ? {
            protected: guarded.count("protected"),
            denied: guarded.count("denied"),
            store: guarded.count("store"),
          }
        : undefined;

    const data: SearchData = {
      mode: scanner === undefined ? "name" : "content",
      ...(scanner === undefined ? { files } : { matches }),
      filesSearched,
      truncated,
      ...(notes.length > 0 && { notes }),
      ...(notSearched !== undefined && { notSearched }),
    };
    const artifact = ToolArtifact.custom(ArtifactType.Directory, relativeStart, {
      action: ArtifactAction.Accessed,
      description: `Searched ${filesSearched} files`,
    });
    const found =
      scanner === undefined
        ? `Found ${files.length} files matching '${glob}'`
        : `Found ${matches.length} matches in ${new Set(matches.map((m) => m.path)).size} files`;
    const message = `${found} under '${relativeStart}'${truncated ? " (partial)" : ""}`;
    return ToolResult.succeededWithArtifacts([artifact], data, message);
  }
}

interface Candidate {
  readonly absolutePath: string;
  readonly relativePath: string;
  readonly pathFromStart: string;
}

function singleFile(absolutePath: string, relativePath: string, name: string) {
  return async function* (): AsyncGenerator<Candidate> {
    yield { absolutePath, relativePath, pathFromStart: name };
  };
}

function walkFiles(
  rootReal: string,
  start: string,
  respectGitignore: boolean,
  enter: (relativePath: string) => boolean,
  signal: AbortSignal,
) {
  return async function* (stats: WalkStats): AsyncGenerator<Candidate> {
    for await (const entry of walkDirectory(
      {
        rootReal,
        start,
        maxDepth: maxWalkDepth,
        respectGitignore,
        gitDirectory: "skip",
        enter,
        signal,
      },
      stats,
    )) {
      // Symbolic links are not followed: one could lead out of the workspace.
      if (entry.kind === "file") yield entry;
    }
  };
}

/** The file's text; `"large"` / `"binary"` when it is not searched; undefined if unreadable. */
async function readText(
  absolute: string,
  maxBytes: number,
): Promise<string | "large" | "binary" | undefined> {
  // O_NONBLOCK | O_NOFOLLOW, then fstat: a FIFO, socket or device, or a file swapped for a link
  // since the walk saw it, is skipped without blocking (see openRegularFile).
  try {
    const read = await withRegularFile(absolute, async (file) => {
      if (file.stats.size > maxBytes) return "large";
      // Through the thread pool (no synchronous part): a search reads file after file, and each
      // read gives the event loop a turn, however many files the walk finds.
      const bytes = await readAll(file, maxBytes + 1, 0);
      if (bytes.length > maxBytes) return "large";
      if (!looksLikeText(bytes.subarray(0, sniffLength))) return "binary";
      return bytes.toString("utf8");
    });
    return read.ok ? read.value : undefined;
  } catch {
    return undefined; // Unreadable.
  }
}

/** The shared `search` instance (stateless). */
export const searchTool = new SearchTool();
