import type { ToolExecutionContext } from "../context/index.js";
import type { ToolResult } from "../result/index.js";
import { type Tool, takesSignal } from "../tools/index.js";
import {
  onRunAborted,
  runAborted,
  type SandboxOutcome,
  type SandboxRunOptions,
  type ToolSandbox,
} from "./tool-sandbox.js";

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
    if (runAborted(options)) return Promise.resolve(stoppedBeforeStart);
    return new Promise<SandboxOutcome>((resolve) => {
      const run = new InProcessRun(resolve);
      // Listening before the tool starts: a tool may abort its own signal synchronously.
      run.listen(options);
      let pending: Promise<ToolResult>;
      try {
        // Without the executor's cancellation the signal exists already (and may not be the
        // context's): every tool gets it. With one, only a tool that declares it does.
        pending =
          options.cancellation === undefined || takesSignal(tool)
            ? tool.execute(context, options.signal)
            : tool.execute(context);
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

/** One run waiting for either its tool or its cancellation, whichever comes first. */
class InProcessRun {
  readonly #resolve: (outcome: SandboxOutcome) => void;
  #stopListening: (() => void) | undefined;
  #wasAborted = false;
  #toolSettled = false;
  #done = false;

  constructor(resolve: (outcome: SandboxOutcome) => void) {
    this.#resolve = resolve;
  }

  /** Listens on the cancellation when there is one (no signal is made), else on the signal. */
  listen(options: SandboxRunOptions): void {
    this.#stopListening = onRunAborted(options, () => this.#aborted());
  }

  /** The tool returned or threw. Ignored once the run was aborted: the abort decides. */
  settled(outcome: SandboxOutcome): void {
    this.#toolSettled = true;
    if (this.#wasAborted) return;
    this.#finish(outcome);
  }

  /** Aborted. One macrotask of grace lets a cooperative tool be reported as stopped. */
  #aborted(): void {
    this.#wasAborted = true;
    setImmediate(() => this.#finish({ kind: "aborted", mayStillBeRunning: !this.#toolSettled }));
  }

  #finish(outcome: SandboxOutcome): void {
    if (this.#done) return;
    this.#done = true;
    this.#stopListening?.();
    this.#resolve(outcome);
  }
}
