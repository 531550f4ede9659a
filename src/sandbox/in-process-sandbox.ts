import type { ToolExecutionContext } from "../context/index.js";
import type { Tool } from "../core/index.js";
import type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";

/**
 * Runs tools in the host process: the default, for trusted tools. Cancellation is cooperative:
 * the tool gets the abort signal and should stop. When the signal aborts, the run resolves at
 * once either way; if the tool has not settled by the next turn of the event loop, the outcome
 * says it may still be running (a tool that ignores its signal cannot be stopped in-process: use
 * process isolation for those).
 */
export class InProcessSandbox implements ToolSandbox {
  readonly name = "in-process";

  run(
    tool: Tool,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
  ): Promise<SandboxOutcome> {
    const { signal } = options;
    if (signal.aborted) return Promise.resolve({ kind: "aborted", mayStillBeRunning: false });
    return new Promise<SandboxOutcome>((resolve) => {
      let settled = false;
      let toolSettled = false;
      const finish = (outcome: SandboxOutcome): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onAbort = (): void => {
        // One macrotask of grace lets a cooperative tool that stops on abort be reported as stopped.
        setImmediate(() => finish({ kind: "aborted", mayStillBeRunning: !toolSettled }));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      let pending: Promise<unknown>;
      try {
        pending = Promise.resolve(tool.execute(context, signal));
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (result) => {
          toolSettled = true;
          if (!signal.aborted) finish({ kind: "completed", result: result as never });
        },
        (error: unknown) => {
          toolSettled = true;
          if (!signal.aborted) finish({ kind: "threw", error });
        },
      );
    });
  }
}
