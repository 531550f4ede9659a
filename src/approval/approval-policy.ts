import { realpathSync, statSync } from "node:fs";
import { posix } from "node:path";
import {
  defaultProtectedPathPatterns,
  type JsonObject,
  RiskLevel,
  RiskLevelMetadata,
  riskLevelName,
  ToolCategory,
} from "../core/index.js";
import {
  commandFileOperandDetails,
  matchCommandPattern,
  matchDenyPattern,
  relativeAfterCd,
} from "../shell/index.js";
import { globMatcher } from "./glob-matcher.js";
import {
  concretePathOf,
  expandGlob,
  foldersChangedWhole,
  guardedNames,
  holds,
  isNeverChanged,
  mayNameAfterCd,
  mentionsGuardedName,
} from "./never-changed.js";
import { type CallSubjects, callSubjects, type ParameterKindConfig } from "./parameter-kinds.js";
import { matchPathPattern } from "./path-pattern.js";
import { workspaceRelative } from "./workspace-relative.js";

/** Re-exported from core, where the built-in tools find it too. */
export { defaultProtectedPathPatterns };

/** What a policy setting says about calls it covers. */
export type ApprovalRequirement = "ask" | "allow";

/**
 * A rule that matches calls. Every member given must match (they are ANDed); a rule with none
 * matches every call. Patterns are matched with {@link matchPathPattern} (on path parameters,
 * resolved and confined to the workspace) and {@link matchCommandPattern} (on command
 * parameters); a rule with a pattern never matches a call without such a parameter.
 *
 * An allow rule's pattern must cover every path (every command, whole). A deny rule's pattern
 * refuses a call when it covers any one path, or any one simple command of a command line
 * (`rm *` refuses `npm test && rm -rf build`); a command a deny pattern cannot see through (one
 * with substitution, expansion, a subshell or comment, or that does not parse) asks instead.
 */
export interface ApprovalRule {
  /** Case-insensitive tool id. */
  readonly toolId?: string;
  readonly category?: ToolCategory;
  /** Only calls whose effective risk is at most this. */
  readonly maxRiskLevel?: RiskLevel;
  /** Every path parameter of the call must match this glob. */
  readonly pathPattern?: string;
  /** Every command parameter of the call must be covered by this pattern. */
  readonly commandPattern?: string;
  /** Shown when the rule decides a call. */
  readonly reason?: string;
}

/** Settings of an {@link ApprovalPolicy}. */
export interface ApprovalPolicyConfig extends ParameterKindConfig {
  /** Per tool id (case-insensitive): overrides category and risk defaults. */
  readonly tools?: Readonly<Record<string, ApprovalRequirement>>;
  /** Per category: overrides risk defaults. */
  readonly categories?: Readonly<Partial<Record<ToolCategory, ApprovalRequirement>>>;
  /** Per risk level name ("Safe" ... "High"): overrides RiskLevelMetadata.requiresApproval. */
  readonly riskLevels?: Readonly<
    Partial<Record<"Safe" | "Low" | "Medium" | "High", ApprovalRequirement>>
  >;
  /** Calls that never run. Deny wins over everything. */
  readonly deny?: readonly ApprovalRule[];
  /** Calls that run without asking (never Critical ones, never protected paths). */
  readonly allow?: readonly ApprovalRule[];
  /**
   * Paths (globs, workspace-relative) that always ask, whatever a rule or a remembered permission
   * says: the files that control code execution or aintern itself. Defaults to
   * {@link defaultProtectedPathPatterns}; extend it with your database and policy files.
   */
  readonly protectedPaths?: readonly string[];
}

/** What the policy needs to know about one call. */
export interface PolicyCall {
  readonly toolId: string;
  readonly category: ToolCategory;
  /** The call's effective risk (`tool.getEffectiveRiskLevel(parameters)`). */
  readonly riskLevel: RiskLevel;
  readonly parameters: JsonObject;
  /** The workspace path patterns are resolved in; without one, no path pattern matches. */
  readonly workspacePath?: string;
}

/** The policy's verdict on one call. */
export type PolicyDecision =
  | { readonly kind: "deny"; readonly reason: string }
  | { readonly kind: "allow"; readonly reason: string }
  | {
      readonly kind: "ask";
      readonly reason: string;
      /** Set for Critical calls: the warning to show with the prompt. */
      readonly warning?: string;
      /** True when the call touches a protected path: remembered permissions must not apply. */
      readonly protectedPath?: boolean;
      /**
       * True when a deny rule may apply but the call could not be checked against it (a command
       * with substitution, say): remembered permissions must not apply.
       */
      readonly possiblyDenied?: boolean;
    };

/**
 * Decides which calls run, which are refused and which need a person (approvals issue).
 *
 * Order: a deny rule refuses (deny wins); a Critical call asks, with its warning; a call a deny
 * rule cannot be checked against asks; a call touching a protected path asks; an allow rule allows; then the most specific setting (tool, then
 * category, then risk level) decides; otherwise `RiskLevelMetadata.requiresApproval` does (Safe
 * and Low run, Medium and High ask).
 *
 * @example
 * ```ts
 * const policy = new ApprovalPolicy({
 *   tools: { "file-write": "allow" },
 *   deny: [{ commandPattern: "rm *", reason: "No deletions" }],
 * });
 * policy.decide({ toolId: "terminal-execute", category: "Terminal", riskLevel: RiskLevel.Medium, parameters: { command: "rm -rf x" } });
 * // { kind: "deny", reason: "No deletions" }
 * ```
 */
export class ApprovalPolicy {
  readonly config: ApprovalPolicyConfig;

  constructor(config: ApprovalPolicyConfig = {}) {
    this.config = config;
  }

  decide(call: PolicyCall): PolicyDecision {
    const { config } = this;
    // Read once: the deny rules, the protected paths and the command's files all look at them.
    const subjects = callSubjects(call.toolId, call.parameters, config);
    let unsure: ApprovalRule | undefined;
    for (const rule of config.deny ?? []) {
      const match = this.#denyMatch(rule, call, subjects);
      if (match === "match") {
        return {
          kind: "deny",
          reason: rule.reason ?? `Denied by policy rule ${describeRule(rule)}`,
        };
      }
      // What the model can never change is not left to an approval of a command that may name it.
      if (match === "unsure" && isNeverChanged(rule)) {
        const files = this.#commandFiles(call, subjects.commands);
        const why = files.opaque ?? files.unknown ?? "the call cannot be resolved";
        return {
          kind: "deny",
          reason:
            `${rule.reason ?? `Denied by policy rule ${describeRule(rule)}`}. ` +
            `The command may name it in a way that cannot be checked (${why}): name its files plainly ` +
            "(no variables or substitutions, and the cwd parameter rather than 'cd').",
        };
      }
      if (match === "unsure") unsure ??= rule;
    }
    if (call.riskLevel >= RiskLevel.Critical) {
      const info = RiskLevelMetadata.getInfo(RiskLevel.Critical);
      return {
        kind: "ask",
        reason: "Critical calls always need approval",
        warning: `${info.displayName}: ${info.description}. Review this call carefully before approving.`,
      };
    }
    if (unsure !== undefined) {
      return {
        kind: "ask",
        reason: `The call cannot be checked against deny rule ${describeRule(unsure)}`,
        possiblyDenied: true,
      };
    }
    if (this.#touchesProtectedPath(call, subjects.paths)) {
      return {
        kind: "ask",
        reason: "The call touches a protected path (code execution or aintern's own files)",
        protectedPath: true,
      };
    }
    const concern = this.#commandFileConcern(call, subjects.commands);
    if (concern !== undefined) return { kind: "ask", reason: concern, protectedPath: true };
    for (const rule of config.allow ?? []) {
      if (this.#matches(rule, call, subjects)) {
        return {
          kind: "allow",
          reason: rule.reason ?? `Allowed by policy rule ${describeRule(rule)}`,
        };
      }
    }
    const setting =
      findIgnoringCase(config.tools, call.toolId) ??
      config.categories?.[call.category] ??
      config.riskLevels?.[riskLevelName(call.riskLevel) as "Safe"];
    const requirement: ApprovalRequirement =
      setting ?? (RiskLevelMetadata.getInfo(call.riskLevel).requiresApproval ? "ask" : "allow");
    const label = RiskLevelMetadata.getInfo(call.riskLevel).displayName;
    return requirement === "allow"
      ? {
          kind: "allow",
          reason:
            setting === undefined ? `${label} calls run without approval` : "Allowed by policy",
        }
      : {
          kind: "ask",
          reason:
            setting === undefined ? `${label} calls need approval` : "The policy asks for approval",
        };
  }

  /** Whether `rule` matches `call` (all of its given members). */
  matches(rule: ApprovalRule, call: PolicyCall): boolean {
    if (!matchesKind(rule, call)) return false;
    if (rule.pathPattern === undefined && rule.commandPattern === undefined) return true;
    return this.#matches(rule, call, callSubjects(call.toolId, call.parameters, this.config));
  }

  /** {@link matches} with the call's path and command parameters read already. */
  #matches(rule: ApprovalRule, call: PolicyCall, subjects: CallSubjects): boolean {
    if (!matchesKind(rule, call)) return false;
    if (rule.pathPattern !== undefined) {
      const workspace = call.workspacePath;
      if (workspace === undefined || subjects.paths.length === 0) return false;
      const pattern = rule.pathPattern;
      if (!subjects.paths.every((p) => matchPathPattern(pattern, p, workspace))) return false;
    }
    if (rule.commandPattern !== undefined) {
      const pattern = rule.commandPattern;
      if (subjects.commands.length === 0) return false;
      if (!subjects.commands.every((c) => matchCommandPattern(pattern, c))) return false;
    }
    return true;
  }

  /**
   * Whether any path parameter of the call falls under a protected path pattern. The path is
   * resolved and confined as for {@link matchPathPattern} (symlinks followed), but matched more
   * broadly, since over-matching only asks: `*` and `**` also match dot names
   * (`.cache/state.db`), and case is ignored.
   */
  touchesProtectedPath(call: PolicyCall): boolean {
    return this.#touchesProtectedPath(
      call,
      callSubjects(call.toolId, call.parameters, this.config).paths,
    );
  }

  /** {@link touchesProtectedPath} of the call's path parameters, `paths`. */
  #touchesProtectedPath(call: PolicyCall, paths: readonly string[]): boolean {
    const workspace = call.workspacePath;
    if (workspace === undefined || paths.length === 0) return false;
    const patterns = this.config.protectedPaths ?? defaultProtectedPathPatterns;
    const isProtected = globMatcher(patterns, { dot: true, nocase: true });
    return paths.some((p) => {
      const relative = workspaceRelative(workspace, p);
      return relative !== undefined && isProtected(relative);
    });
  }

  /**
   * What a tool that reads beyond the path it was called with (a search walking a tree, a
   * recursive listing) must leave alone, since the policy judges only that path: the protected
   * paths, and the path patterns of the deny rules that could refuse a read (`deniedPaths`: no
   * command pattern; no tool id, or `file-read`, `list-directory` or `search`; no category, or
   * FileSystem or Search); and what a recursive delete must not remove: the path patterns of the
   * deny rules that could refuse a change (`changeDeniedPaths`: no command pattern; no tool id,
   * or `file-write` or `file-delete`; no category, or FileSystem). Give it to `builtinTools()`
   * from `aintern/tools`.
   *
   * @example
   * ```ts
   * const tools = builtinTools({ ...policy.guardedPaths() });
   * ```
   */
  guardedPaths(): {
    readonly protectedPaths: readonly string[];
    readonly deniedPaths: readonly string[];
    readonly changeDeniedPaths: readonly string[];
  } {
    const deniedPaths: string[] = [];
    const changeDeniedPaths: string[] = [];
    for (const rule of this.config.deny ?? []) {
      if (rule.pathPattern === undefined || rule.commandPattern !== undefined) continue;
      if (rule.category !== undefined && rule.category !== ToolCategory.FileSystem) {
        if (readingCategories.includes(rule.category) && readsWith(rule)) {
          deniedPaths.push(rule.pathPattern);
        }
        continue;
      }
      if (readsWith(rule)) deniedPaths.push(rule.pathPattern);
      if (rule.toolId === undefined || changingToolIds.includes(rule.toolId.toLowerCase())) {
        changeDeniedPaths.push(rule.pathPattern);
      }
    }
    return {
      protectedPaths: this.config.protectedPaths ?? defaultProtectedPathPatterns,
      deniedPaths,
      changeDeniedPaths,
    };
  }

  /**
   * Why a command parameter of the call must ask, for the files it names (see
   * `commandFileOperands`: `cat x`, `sed -n p x`, `< x`, `> x`): one is a protected path,
   * one is outside the workspace (`/etc/shadow`, `~/.ssh/id_rsa`, `../x`), or one cannot be told
   * from the text (a glob, a variable, a path after `cd`). Undefined when none of these holds.
   * Relative names are read from the call's `cwd` parameter. `/dev/null` and the like are fine.
   */
  commandFileConcern(call: PolicyCall): string | undefined {
    return this.#commandFileConcern(
      call,
      callSubjects(call.toolId, call.parameters, this.config).commands,
    );
  }

  /** {@link commandFileConcern} of the call's command parameters, `commands`. */
  #commandFileConcern(call: PolicyCall, commands: readonly string[]): string | undefined {
    const files = this.#commandFiles(call, commands);
    if (files.unknown !== undefined) {
      return `The command may name a protected file or one outside the workspace: ${files.unknown}`;
    }
    if (files.paths.length === 0) return undefined;
    const patterns = this.config.protectedPaths ?? defaultProtectedPathPatterns;
    const isProtected = globMatcher(patterns, { dot: true, nocase: true });
    const workspace = call.workspacePath;
    for (const path of files.paths) {
      const relative =
        path.startsWith("~") || posix.isAbsolute(path)
          ? workspace === undefined
            ? undefined
            : workspaceRelative(workspace, path)
          : workspace === undefined
            ? plainRelative(path)
            : workspaceRelative(workspace, path);
      if (relative === undefined || path.startsWith("~")) {
        return `The command names '${path}', outside the workspace`;
      }
      if (isProtected(relative)) {
        return `The command names '${path}', a protected path (code execution, secrets or aintern's own files)`;
      }
    }
    // `diff . sub`, `git diff . other` outside a repository: every file of a folder is read.
    if (workspace === undefined) return undefined;
    // Git compares two paths without an index (`--no-index`) when no repository holds the
    // working directory, or when one of them lies outside the repository that does (a
    // repository nested in the workspace, and `..`).
    let outsideRepository = false;
    if (files.foldersOutsideRepository.length > 0) {
      const root = gitRepositoryRoot(posix.resolve(workspace, workingDirectory(call.parameters)));
      outsideRepository =
        root === undefined ||
        files.foldersOutsideRepository.some((folder) => {
          const at = posix.resolve(workspace, folder);
          return at !== root && !at.startsWith(root === "/" ? root : `${root}/`);
        });
    }
    for (const folder of [
      ...files.folders,
      ...(outsideRepository ? files.foldersOutsideRepository : []),
    ]) {
      if (isFolder(workspace, folder)) {
        return `The command reads every file of the folder '${folder}', which may hold protected files`;
      }
    }
    return undefined;
  }

  /**
   * The file operands of the call's command parameters, relative ones joined to its `cwd` (see
   * `commandFileOperandDetails` for `globs`, `opaque`, `removed` and `folders`). A path with
   * `..` is resolved as the kernel opens it (see {@link physicalPath}).
   */
  #commandFiles(call: PolicyCall, commands: readonly string[]): CommandFiles {
    if (commands.length === 0) return noCommandFiles;
    const cwd = workingDirectory(call.parameters);
    const paths: string[] = [];
    const globs: string[] = [];
    const optionGlobs: string[] = [];
    const removed: string[] = [];
    const folders: string[] = [];
    const foldersOutsideRepository: string[] = [];
    let unknown: string | undefined;
    let opaque: string | undefined;
    const workspace = call.workspacePath;
    const inCwd = (path: string): string => {
      if (path.startsWith("~")) return path;
      const joined = posix.isAbsolute(path) ? path : posix.join(cwd, path);
      if (workspace === undefined || !path.split("/").includes("..")) return joined;
      // Through a symbolic link, `..` leads elsewhere than the name says: judge where it leads.
      const from = posix.isAbsolute(path) ? "/" : posix.resolve(workspace, cwd);
      const physical = physicalPath(from, path);
      return physical === posix.resolve(workspace, joined) ? joined : physical;
    };
    for (const command of commands) {
      const operands = commandFileOperandDetails(command);
      unknown ??= operands.unknown;
      opaque ??= operands.opaque;
      for (const path of operands.paths) {
        if (!harmlessDevices.test(path)) paths.push(inCwd(path));
      }
      globs.push(...operands.globs.map(inCwd));
      optionGlobs.push(...operands.optionGlobs.map(inCwd));
      removed.push(...operands.removed.map(inCwd));
      folders.push(...operands.folders.map(inCwd));
      foldersOutsideRepository.push(...operands.foldersOutsideRepository.map(inCwd));
    }
    return {
      paths,
      unknown,
      globs,
      optionGlobs,
      opaque,
      removed,
      folders,
      foldersOutsideRepository,
    };
  }

  /**
   * Whether a deny rule refuses the call: its pattern covers any one path, or any one simple
   * command; "unsure" when a command cannot be read well enough to tell. A command's file
   * operands are paths of the call here (`cat .env` is refused by a `**\/.env*` rule).
   */
  #denyMatch(
    rule: ApprovalRule,
    call: PolicyCall,
    subjects: CallSubjects,
  ): "match" | "no-match" | "unsure" {
    if (!matchesKind(rule, call)) return "no-match";
    if (rule.pathPattern === undefined && rule.commandPattern === undefined) return "match";
    let unsure = false;
    if (rule.pathPattern !== undefined) {
      const pattern = rule.pathPattern;
      const workspace = call.workspacePath;
      if (
        workspace !== undefined &&
        isNeverChanged(rule) &&
        subjects.commands.some((command) =>
          commandReachesGuarded(pattern, command, workingDirectory(call.parameters), workspace),
        )
      ) {
        return "match";
      }
      const files = this.#commandFiles(call, subjects.commands);
      const paths = [...subjects.paths, ...files.paths];
      if (paths.length === 0 && files.unknown === undefined) return "no-match";
      if (workspace === undefined) unsure = true;
      else if (!paths.some((p) => matchPathPattern(pattern, p, workspace))) {
        if (isNeverChanged(rule) && rule.commandPattern === undefined) {
          return neverChangedMatch(pattern, call, subjects.paths, files, workspace);
        }
        if (files.unknown === undefined) return "no-match";
        unsure = true;
      }
    }
    if (rule.commandPattern !== undefined) {
      const pattern = rule.commandPattern;
      if (subjects.commands.length === 0) return "no-match";
      const found = subjects.commands.map((c) => commandHits(pattern, c));
      if (found.includes("match")) return unsure ? "unsure" : "match";
      if (found.includes("unsure")) return "unsure";
      return "no-match";
    }
    return unsure ? "unsure" : "match";
  }
}

/** Whether `call` is of the rule's tool, category and risk (what it says besides patterns). */
function matchesKind(rule: ApprovalRule, call: PolicyCall): boolean {
  if (rule.toolId !== undefined && rule.toolId.toLowerCase() !== call.toolId.toLowerCase())
    return false;
  if (rule.category !== undefined && rule.category !== call.category) return false;
  return rule.maxRiskLevel === undefined || call.riskLevel <= rule.maxRiskLevel;
}

/**
 * The file operands of a call's commands, relative ones joined to its `cwd` (see
 * `commandFileOperandDetails` for `globs`, `opaque`, `removed` and `folders`).
 */
interface CommandFiles {
  readonly paths: readonly string[];
  readonly unknown: string | undefined;
  readonly globs: readonly string[];
  readonly optionGlobs: readonly string[];
  readonly opaque: string | undefined;
  readonly removed: readonly string[];
  readonly folders: readonly string[];
  readonly foldersOutsideRepository: readonly string[];
}

/** What a call without a command names. */
const none: readonly string[] = Object.freeze([]);
const noCommandFiles: CommandFiles = Object.freeze({
  paths: none,
  unknown: undefined,
  globs: none,
  optionGlobs: none,
  opaque: undefined,
  removed: none,
  folders: none,
  foldersOutsideRepository: none,
});

/** The built-in tools that read files (their deny rules also bind what a walk reads). */
const readingToolIds: readonly string[] = ["file-read", "list-directory", "search"];
const readingCategories: readonly string[] = [ToolCategory.FileSystem, ToolCategory.Search];
/** The built-in tools that change files (their deny rules also bind what a recursive delete removes). */
const changingToolIds: readonly string[] = ["file-write", "file-delete"];

/** Whether a deny rule's tool id, if any, is one of the tools that read files. */
function readsWith(rule: ApprovalRule): boolean {
  return rule.toolId === undefined || readingToolIds.includes(rule.toolId.toLowerCase());
}

/**
 * A never-changed rule's verdict on a call none of whose paths its pattern covers: a match when
 * a path that removes or moves a whole folder (a path parameter of a call with `recursive: true`,
 * an `rm` or `mv` operand) holds the rule's concrete path, or when a glob operand matches, now,
 * a path the pattern covers or a folder holding it; unsure when some operand cannot be read
 * at all (a variable, a substitution, a path after `cd`), or a glob where an option may be
 * (`optionGlobs`) matches, now, a name that starts with `-`.
 */
function neverChangedMatch(
  pattern: string,
  call: PolicyCall,
  callPaths: readonly string[],
  files: {
    paths: readonly string[];
    globs: readonly string[];
    optionGlobs: readonly string[];
    opaque: string | undefined;
    removed: readonly string[];
  },
  workspace: string,
): "match" | "no-match" | "unsure" {
  const concrete = concretePathOf(pattern);
  const removedWhole = [...(call.parameters.recursive === true ? callPaths : []), ...files.removed];
  if (concrete !== undefined && removedWhole.some((p) => holds(workspace, p, concrete))) {
    return "match";
  }
  for (const glob of files.globs) {
    for (const path of expandGlob(workspace, glob)) {
      if (matchPathPattern(pattern, path, workspace, { dot: true, nocase: true })) return "match";
      if (concrete !== undefined && holds(workspace, path, concrete)) return "match";
    }
  }
  // `tar czf a.tgz *` beside a file `--checkpoint-action=exec=CMD`: CMD may change anything.
  for (const glob of files.optionGlobs) {
    if (expandGlob(workspace, glob).some((path) => posix.basename(path).startsWith("-"))) {
      return "unsure";
    }
  }
  if (files.opaque === undefined) return "no-match";
  // Only where relative paths lead after 'cd' is unknown: their names tell whether they can
  // reach what the rule covers (`cd src && cat a.ts` cannot name aintern.config.json).
  if (files.opaque === relativeAfterCd && !mayNameAfterCd(pattern, files.paths)) {
    return "no-match";
  }
  return "unsure";
}

/**
 * Whether `command` reaches what a never-changed rule's `pattern` guards without its operands
 * being read: it writes a guarded name anywhere (`curl -o aintern.config.json`, `unlink`,
 * `sqlite3 .aintern/audit.db`), or changes a folder holding the rule's concrete path without
 * naming what is in it (`git clean`, `tar -x`, `unzip`, `rsync --delete`, a hard link's source).
 */
function commandReachesGuarded(
  pattern: string,
  command: string,
  workingFolder: string,
  workspace: string,
): boolean {
  if (mentionsGuardedName(command, guardedNames(pattern))) return true;
  const concrete = concretePathOf(pattern);
  if (concrete === undefined) return false;
  return foldersChangedWhole(command, workingFolder).some((folder) =>
    holds(
      workspace,
      posix.isAbsolute(folder) ? folder : posix.join(workingFolder, folder),
      concrete,
    ),
  );
}

/** Devices a command may read or write anywhere: `2>/dev/null`, `cat /dev/stdin`. */
const harmlessDevices = /^\/dev\/(null|zero|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$/;

/**
 * `path` resolved from the folder `from` with each `..` applied as the kernel applies it: to
 * where the folder before it leads, symbolic links followed (`link/../x`, with `link` a link to
 * `/etc/ssl`, opens `/etc/x`), not by dropping the segment before it as `posix.join` does.
 */
function physicalPath(from: string, path: string): string {
  let current = from;
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") {
      current = posix.join(current, segment);
      continue;
    }
    let real = current;
    try {
      real = realpathSync.native(current);
    } catch {
      // A folder that does not exist: the kernel fails there, the name is judged as written.
    }
    current = posix.dirname(real);
  }
  return current;
}

/** Whether `path` (relative to the workspace, or absolute) is a folder, links followed. */
function isFolder(workspace: string, path: string): boolean {
  if (path.startsWith("~")) return false;
  try {
    return statSync(posix.resolve(workspace, path)).isDirectory();
  } catch {
    return false;
  }
}

/** The git work tree holding `folder`: it or the nearest folder above it with a `.git`. */
function gitRepositoryRoot(folder: string): string | undefined {
  for (let current = folder; ; current = posix.dirname(current)) {
    try {
      statSync(posix.join(current, ".git"));
      return current;
    } catch {
      // Not here: look further up.
    }
    if (posix.dirname(current) === current) return undefined;
  }
}

/** The call's working directory parameter (`cwd`, `workingDirectory`), or `.`. */
function workingDirectory(parameters: JsonObject): string {
  for (const name of ["cwd", "workingDirectory", "working_directory"]) {
    const value = Object.hasOwn(parameters, name) ? parameters[name] : undefined;
    if (typeof value === "string" && value !== "") return value.replaceAll("\\", "/");
  }
  return ".";
}

/** A relative path normalized, or undefined when it climbs out (`../x`); without a workspace. */
function plainRelative(path: string): string | undefined {
  const normalized = posix.normalize(path);
  return normalized === ".." || normalized.startsWith("../") ? undefined : normalized;
}

/**
 * Whether a deny pattern hits any command `command` would run (see `matchDenyPattern`: compound
 * commands, scripts, wrappers and absolute paths are looked through; a program built by
 * expansion that could be the denied one counts as a hit).
 */
function commandHits(pattern: string, command: string): "match" | "no-match" | "unsure" {
  return matchDenyPattern(pattern, command);
}

function findIgnoringCase<T>(
  map: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  if (map === undefined) return undefined;
  const wanted = key.toLowerCase();
  for (const [k, v] of Object.entries(map)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

function describeRule(rule: ApprovalRule): string {
  const parts = Object.entries(rule)
    .filter(([k, v]) => k !== "reason" && v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return parts.length === 0 ? "(matches all)" : `(${parts.join(", ")})`;
}
