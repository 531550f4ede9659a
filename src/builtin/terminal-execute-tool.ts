import type { ToolExecutionContext } from "../context/index.js";
import {
  type JsonObject,
  packageFileUrl,
  RiskLevel,
  ToolCategory,
  ToolErrorCode,
} from "../core/index.js";
import { ToolArtifact, type ToolResult, ToolResultBuilder } from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { assessCommandRisk } from "../shell/assess-command-risk.js";
import type { ToolIsolation, ToolSource } from "../tools/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { withGitSafety } from "./git-safety-environment.js";
import { runShellCommand } from "./run-shell-command.js";
import { resolveInWorkspace, statIfExists } from "./workspace-paths.js";

/** Construction options of {@link TerminalExecuteTool}. */
export interface TerminalExecuteToolConfig {
  /** The most bytes of stdout plus stderr kept in the result (default 1 MiB). */
  readonly maxOutputBytes?: number;
  /** The timeout when a call gives none, in milliseconds (default 120000). */
  readonly defaultTimeoutMs?: number;
  /** The shell that runs the command with `-c` (default `/bin/sh`). */
  readonly shell?: string;
  /**
   * Variables added to the commands' environment (they win over the host's). The commands never
   * inherit the host's whole environment, only the harmless variables of
   * {@link terminalEnvironmentAllowList} and those named in `passEnv`.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * More host variables the commands inherit, by exact name (`["NODE_OPTIONS", "JAVA_HOME"]`),
   * besides {@link terminalEnvironmentAllowList}. Name only what the commands need: a secret named
   * here is readable by every command (`env`, `printenv`).
   */
  readonly passEnv?: readonly string[];
  /**
   * Where a process-isolating sandbox finds this instance. The shared `terminalExecuteTool`
   * has one; a configured instance has none unless given, because a child process would load
   * the shared instance and its defaults: export your instance from a module and name it here.
   */
  readonly source?: ToolSource;
}

/** The data of a `terminal-execute` result (success, non-zero exit or timeout). */
export interface TerminalExecuteData {
  readonly command: string;
  /** The working directory, relative to the workspace root. */
  readonly cwd: string;
  /** The exit code; absent when a signal ended the command. */
  readonly exitCode?: number;
  /** The signal that ended the command, when one did. */
  readonly signal?: string;
  readonly stdout: string;
  readonly stderr: string;
  /** True when output beyond the cap was dropped. */
  readonly truncated: boolean;
  /** All bytes the command wrote, kept or not. */
  readonly totalOutputBytes: number;
  readonly timedOut: boolean;
  /** Present when output was dropped. */
  readonly note?: string;
}

/**
 * The host variables `terminal-execute` passes to its commands by default: the ones programs need
 * to find themselves, their locale, terminal and temporary directory. Every other variable of the
 * server (API keys, tokens, `AINTERN_*`) is left out, so `env` or `printenv` cannot show it.
 * `LC_*` covers every locale variable. Add names with `passEnv`, values with `env`.
 */
export const terminalEnvironmentAllowList: readonly string[] = Object.freeze([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
  // Windows: what programs need to start at all.
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
]);

/**
 * The environment a command runs with: the host's variables named by the allow list or by
 * `passEnv` (case-insensitively on Windows, where names are), then `extra`, then git's
 * safety configuration ({@link withGitSafety}: implicit bare repositories refused).
 *
 * @internal
 */
export function terminalEnvironment(
  host: NodeJS.ProcessEnv,
  passEnv: readonly string[] = [],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const fold = (name: string) => (process.platform === "win32" ? name.toUpperCase() : name);
  const exact = new Set(
    [...terminalEnvironmentAllowList, ...passEnv].filter((n) => !n.endsWith("*")).map(fold),
  );
  const prefixes = terminalEnvironmentAllowList
    .filter((n) => n.endsWith("*"))
    .map((n) => fold(n.slice(0, -1)));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    const key = fold(name);
    if (exact.has(key) || prefixes.some((p) => key.startsWith(p))) env[name] = value;
  }
  return withGitSafety(Object.assign(env, extra));
}

const defaults = { maxOutputBytes: 1024 * 1024, defaultTimeoutMs: 120_000 };
const maxTimeoutMs = 60 * 60 * 1000;
const progressIntervalMs = 500;
// Where a sandbox worker finds this tool: the aintern/tools entry, which exports it by name.
const defaultSource: ToolSource = Object.freeze({
  module: packageFileUrl("builtin/index.ts"),
  exportName: "terminalExecuteTool",
});

function lastLine(text: string): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return (lines.at(-1) ?? "").slice(0, 200);
}

/**
 * `terminal-execute` (Medium by default; Low to Critical by command): runs a shell command with
 * `/bin/sh -c` in a workspace directory and returns its exit code and output.
 *
 * - The risk comes from {@link assessCommandRisk}: read-only commands are Low, destructive ones
 *   High or Critical, a command that does not parse High. (Read-only commands are deliberately
 *   below the Medium default.)
 * - The working directory (`cwd`) is confined to the workspace; the command itself is not (a
 *   shell can `cd` anywhere): confinement of what it does is the risk assessment's, the
 *   approval's and, for real isolation, the process sandbox's job.
 * - The command does not inherit the server's environment: only the variables of
 *   {@link terminalEnvironmentAllowList}, those named in `passEnv`, and `env` (so `env` or
 *   `printenv` cannot show the server's API keys and tokens).
 * - The command runs in its own process group with stdin closed. The call's abort signal, or
 *   the call's `timeoutMs`, kills the whole group with SIGKILL; background processes left when
 *   the shell exits are killed too, so nothing outlives the call.
 * - Output (stdout plus stderr) is capped at `maxOutputBytes`; the rest is drained and dropped.
 *   stderr keeps up to half the cap and stdout the rest, whichever was written first, so a
 *   flood on stdout never hides the error.
 * - A non-zero exit is a failed result (`CommandFailed`) that still carries the output and the
 *   exit code (also in `metadata.exitCode`); a timeout is `ToolErrorCode.Timeout` with the
 *   output so far.
 * - `isolation: "process"`: a process-isolating sandbox runs it in a child process, loading it
 *   from `source`; it works in-process as well.
 */
export class TerminalExecuteTool extends BuiltinToolBase {
  readonly id = "terminal-execute";
  readonly name = "Run Terminal Command";
  readonly description =
    "Run a shell command (/bin/sh -c) in the workspace and return its exit code, stdout and " +
    "stderr. Give cwd to run in a subdirectory and timeoutMs to limit the run. stdin is closed; " +
    "background processes are stopped when the command ends.";
  readonly category = ToolCategory.Terminal;
  readonly inputSchema;
  readonly #maxOutputBytes: number;
  readonly #defaultTimeoutMs: number;
  readonly #shell: string;
  readonly #env: Readonly<Record<string, string>> | undefined;
  readonly #passEnv: readonly string[];
  readonly #source: ToolSource | undefined;

  constructor(config: TerminalExecuteToolConfig = {}) {
    super();
    this.#maxOutputBytes = config.maxOutputBytes ?? defaults.maxOutputBytes;
    this.#defaultTimeoutMs = Math.min(
      config.defaultTimeoutMs ?? defaults.defaultTimeoutMs,
      maxTimeoutMs,
    );
    this.#shell = config.shell ?? "/bin/sh";
    this.#env = config.env;
    this.#passEnv = [...(config.passEnv ?? [])];
    const configured = Object.keys(config).some((key) => key !== "source");
    this.#source = config.source ?? (configured ? undefined : defaultSource);
    this.inputSchema = JsonSchemaBuilder.create()
      .withDescription("Run a shell command")
      .addString("command", "The command line, run with /bin/sh -c", {
        required: true,
        minLength: 1,
      })
      .addPath("cwd", "Working directory, relative to the workspace root (default: the root)")
      .addInteger(
        "timeoutMs",
        `Stop the command after this many milliseconds (default ${this.#defaultTimeoutMs})`,
        {
          minimum: 1,
          maximum: maxTimeoutMs,
        },
      )
      .build();
  }

  override get defaultRiskLevel(): RiskLevel {
    return RiskLevel.Medium;
  }
  override get tags(): readonly string[] {
    return ["terminal", "shell", "command"];
  }
  override get isolation(): ToolIsolation {
    return "process";
  }
  override get source(): ToolSource | undefined {
    return this.#source;
  }

  /** ``"Run `npm test` in 'packages/core'"``. */
  override getExecutionSummary(parameters: JsonObject): string {
    const cwd =
      typeof parameters.cwd === "string" && parameters.cwd !== "." ? ` in '${parameters.cwd}'` : "";
    return `Run \`${String(parameters.command)}\`${cwd}`;
  }

  /** From {@link assessCommandRisk}; High when there is no command string to assess. */
  override getEffectiveRiskLevel(parameters: JsonObject): RiskLevel {
    const command = parameters.command;
    if (typeof command !== "string") return RiskLevel.High;
    return assessCommandRisk(command).riskLevel;
  }

  protected async run(
    context: ToolExecutionContext,
    given: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const signal = given ?? context.signal;
    const command = context.getRequiredString("command");
    const cwdParameter = context.getOptionalString("cwd", ".");
    const timeoutMs = context.getOptionalInt("timeoutMs", this.#defaultTimeoutMs);
    const { real: cwd, relative: relativeCwd } = resolveInWorkspace(context, cwdParameter);
    const cwdStats = await statIfExists(cwd);
    if (cwdStats === undefined) {
      return ToolResultBuilder.create()
        .asFailure(
          `Working directory '${cwdParameter}' does not exist.`,
          ToolErrorCode.PathNotFound,
        )
        .build();
    }
    if (!cwdStats.isDirectory()) {
      return ToolResultBuilder.create()
        .asFailure(
          `Working directory '${cwdParameter}' is not a directory.`,
          BuiltinToolErrorCode.WrongEntryType,
        )
        .build();
    }

    const timeout = AbortSignal.timeout(timeoutMs);
    let lastProgress = 0;
    const outcome = await runShellCommand({
      command,
      cwd,
      maxOutputBytes: this.#maxOutputBytes,
      signal: AbortSignal.any([signal, timeout]),
      shell: this.#shell,
      // Never the host's whole environment: it holds the server's secrets.
      env: terminalEnvironment(process.env, this.#passEnv, this.#env),
      onOutput: (_stream, text, totalBytes) => {
        const now = performance.now();
        if (now - lastProgress < progressIntervalMs) return;
        lastProgress = now;
        context.reportOperation(`Running (${totalBytes} bytes of output)`, lastLine(text));
      },
    });
    // The caller's abort wins: ToolBase turns it into a cancelled result.
    signal.throwIfAborted();
    const timedOut = outcome.aborted && timeout.aborted;

    const note = outcome.truncated
      ? `Output cut at ${this.#maxOutputBytes} bytes of ${outcome.totalBytes}; redirect it to a file and read parts of it, or filter it (grep, head, tail).`
      : undefined;
    const data: TerminalExecuteData = {
      command,
      cwd: relativeCwd,
      ...(outcome.exitCode !== undefined && { exitCode: outcome.exitCode }),
      ...(outcome.exitSignal !== undefined && { signal: outcome.exitSignal }),
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      truncated: outcome.truncated,
      totalOutputBytes: outcome.totalBytes,
      timedOut,
      ...(note !== undefined && { note }),
    };
    const builder = ToolResultBuilder.create()
      .withData(data)
      .withArtifact(
        ToolArtifact.terminalOutput(outcome.stdout + outcome.stderr, `Output of \`${command}\``),
      )
      .withMetadata("exitCode", outcome.exitCode ?? null);
    if (timedOut) {
      return builder
        .asFailure(
          `Command timed out after ${timeoutMs} ms and was killed: ${command}`,
          ToolErrorCode.Timeout,
        )
        .build();
    }
    if (outcome.exitCode === 0) {
      return builder.asSuccess().withMessage(`Command exited with code 0: ${command}`).build();
    }
    const how =
      outcome.exitCode === undefined
        ? `was ended by ${outcome.exitSignal ?? "a signal"}`
        : `exited with code ${outcome.exitCode}`;
    return builder
      .asFailure(`Command ${how}: ${command}`, BuiltinToolErrorCode.CommandFailed)
      .build();
  }
}

/** The shared `terminal-execute` instance (stateless); a process sandbox loads it by this name. */
export const terminalExecuteTool = new TerminalExecuteTool();
