import type { ExecutionTelemetrySink } from "../telemetry/index.js";
import type { Execution } from "./execution.js";
import type { ExecutionObserver } from "./execution-observer.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";

/** Metrics and the `execute_tool` span of each execution (OpenTelemetry, spec 003 section 7). */
export class TelemetryObserver implements ExecutionObserver {
  readonly #telemetry: ExecutionTelemetrySink;

  constructor(telemetry: ExecutionTelemetrySink) {
    this.#telemetry = telemetry;
  }

  onStarted(execution: Execution): void {
    execution.span = this.#telemetry.startExecutionSpan(
      execution.plan.toolName,
      execution.plan.executionId,
    );
  }

  onFinished(execution: Execution, result: ToolExecutionResult): void {
    this.#telemetry.recordExecution(result.toolId, result.status, result.durationMs);
    const span = execution.span;
    if (span !== undefined) {
      this.#telemetry.endExecutionSpan(
        span,
        result.success ? undefined : (result.errorCode ?? result.status),
      );
    }
  }
}
