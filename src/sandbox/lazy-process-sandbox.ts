import type { ToolExecutionContext } from "../context/index.js";
import type { Tool } from "../tools/index.js";
import type { ProcessSandbox, ProcessSandboxConfig } from "./process-sandbox.js";
import type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";

/**
 * A {@link ProcessSandbox} loaded on first use: the default process sandbox of a
 * `RoutingSandbox`, so that importing aintern (or building an executor) does not load process
 * isolation until a tool that needs it runs.
 */
export class LazyProcessSandbox implements ToolSandbox {
  readonly name = "process";
  readonly #config: ProcessSandboxConfig;
  #loading: Promise<ProcessSandbox> | undefined;
  #loaded: ProcessSandbox | undefined;
  #closed = false;

  constructor(config: ProcessSandboxConfig = {}) {
    this.#config = config;
  }

  run(
    tool: Tool,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
  ): Promise<SandboxOutcome> {
    if (this.#loaded !== undefined) return this.#loaded.run(tool, context, options);
    return this.#load().then(
      (sandbox) => sandbox.run(tool, context, options),
      (error: unknown): SandboxOutcome => ({ kind: "threw", error }),
    );
  }

  /** Closes the process sandbox if it was ever loaded. */
  async close(): Promise<void> {
    this.#closed = true;
    const sandbox = await this.#loading?.catch(() => undefined);
    await sandbox?.close();
  }

  #load(): Promise<ProcessSandbox> {
    this.#loading ??= import("./process-sandbox.js").then(({ ProcessSandbox }) => {
      const sandbox = new ProcessSandbox(this.#config);
      this.#loaded = sandbox;
      // A close that came while loading still closes what was loaded.
      if (this.#closed) void sandbox.close();
      return sandbox;
    });
    return this.#loading;
  }
}
