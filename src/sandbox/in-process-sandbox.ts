import type { ToolExecutionContext } from "../context/index.js";
import type { Tool } from "../core/index.js";
import type { ToolResult } from "../result/index.js";
import type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";

const stoppedBeforeStart: SandboxOutcome = Object.freeze({
  kind: "aborted",
  mayStillBeRunning: false,
});

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
    if (signal.aborted) return Promise.resolve(stoppedBeforeStart);
    return new Promise<SandboxOutcome>((resolve) => {
      const run = new InProcessRun(signal, resolve);
      // Listening before the tool starts: a tool may abort its own signal synchronously.
      signal.addEventListener("abort", run, { once: true });
      let pending: Promise<ToolResult>;
      try {
        pending = tool.execute(context, signal);
      } catch (error) {
        run.settled({ kind: "threw", error });
        return;
      }
      Promise.resolve(pending).then(
        (result) => run.settled({ kind: "completed", result }),
        (error: unknown) => run.settled({ kind: "threw", error }),
      );
    });
  }
}

/**
 * One run waiting for either its tool or its signal. It is the abort listener itself (an
 * EventListener object), so a run costs one object rather than a closure per outcome.
 */
class InProcessRun {
  readonly #signal: AbortSignal;
  readonly #resolve: (outcome: SandboxOutcome) => void;
  #toolSettled = false;
  #done = false;

  constructor(signal: AbortSignal, resolve: (outcome: SandboxOutcome) => void) {
    this.#signal = signal;
    this.#resolve = resolve;
  }

  /** The tool returned or threw. Ignored once the signal has aborted: the abort decides. */
  settled(outcome: SandboxOutcome): void {
    this.#toolSettled = true;
    if (this.#signal.aborted) return;
    this.#finish(outcome);
  }

  /** The signal aborted. One macrotask of grace lets a cooperative tool be reported as stopped. */
  handleEvent(): void {
    setImmediate(() => this.#finish({ kind: "aborted", mayStillBeRunning: !this.#toolSettled }));
  }

  #finish(outcome: SandboxOutcome): void {
    if (this.#done) return;
    this.#done = true;
    this.#signal.removeEventListener("abort", this);
    this.#resolve(outcome);
  }
}
