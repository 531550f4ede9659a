import type { ToolExecutionContext } from "../context/index.js";
import type { JsonObject } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import { InProcessSandbox } from "./in-process-sandbox.js";
import { LazyProcessSandbox } from "./lazy-process-sandbox.js";
import { SandboxError, SandboxErrorCode } from "./sandbox-error.js";
import { type IsolationPolicy, selectSandbox } from "./select-sandbox.js";
import type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";

/** Construction options of a {@link RoutingSandbox}; every member has a default. */
export interface RoutingSandboxConfig {
  /** Which tools must be isolated beyond those that ask for it (default: none). */
  readonly policy?: IsolationPolicy;
  /** Runs the other tools (default a new `InProcessSandbox`). */
  readonly inProcess?: ToolSandbox;
  /**
   * Runs isolated tools (default: a `ProcessSandbox` with its defaults, loaded from
   * `aintern/sandbox` the first time a call needs it).
   */
  readonly process?: ToolSandbox;
}

/**
 * The sandbox an executor uses when some tools need process isolation: each call goes to the
 * process sandbox when {@link selectSandbox} says so (the tool has `isolation: "process"`, or the
 * policy matches its category or the call's risk), and to the in-process sandbox otherwise.
 *
 * A call the policy requires to isolate, of a tool without `source`, is not run at all: it ends
 * `threw` with a {@link SandboxError} (`ISOLATION_REQUIRED`) saying why, never silently in-process.
 *
 * @example
 * ```ts
 * const sandbox = new RoutingSandbox({
 *   policy: { requireProcessFor: { riskLevelAtLeast: RiskLevel.High } },
 * });
 * const executor = new ToolExecutor({ registry, sandbox });
 * ```
 */
export class RoutingSandbox implements ToolSandbox {
  readonly name = "routing";
  readonly policy: IsolationPolicy;
  readonly inProcess: ToolSandbox;
  readonly process: ToolSandbox;

  constructor(config: RoutingSandboxConfig = {}) {
    this.policy = config.policy ?? {};
    this.inProcess = config.inProcess ?? new InProcessSandbox();
    // Loaded, and its first process started, only when a call needs isolation.
    this.process = config.process ?? new LazyProcessSandbox();
  }

  run(
    tool: Tool,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
  ): Promise<SandboxOutcome> {
    let choice: ReturnType<typeof selectSandbox>;
    try {
      choice = selectSandbox(tool, this.policy, context.effectiveParameters);
    } catch (error) {
      return Promise.resolve({ kind: "threw", error });
    }
    if (choice.sandbox === "in-process") return this.inProcess.run(tool, context, options);
    if (tool.source === undefined && tool.isolation !== "process") {
      return Promise.resolve({
        kind: "threw",
        error: new SandboxError(
          SandboxErrorCode.IsolationRequired,
          `Tool '${tool.id}' must run in process isolation (${choice.reason}), but it has no ` +
            "source, so a child process cannot load it; it was not run. Set " +
            "`source: { module, exportName }` in its definition, or change the isolation policy.",
          { toolId: tool.id },
        ),
      });
    }
    return this.process.run(tool, context, options);
  }

  /** `in-process` or `process`: where {@link run} sends this call (`routing` if it cannot tell). */
  sandboxFor(tool: Tool, parameters: JsonObject): string {
    try {
      const choice = selectSandbox(tool, this.policy, parameters);
      return choice.sandbox === "in-process" ? this.inProcess.name : this.process.name;
    } catch {
      return this.name;
    }
  }

  /** Closes both sandboxes. */
  async close(): Promise<void> {
    await Promise.all([this.inProcess.close?.(), this.process.close?.()]);
  }
}
