import type { Span } from "@opentelemetry/api";

/**
 * Where the executor reports metrics and `execute_tool` spans. `ExecutionTelemetry` reports to
 * OpenTelemetry; the executor's default loads it only when it is first needed.
 */
export interface ExecutionTelemetrySink {
  /**
   * While the sink is still loading and must not miss what happens (an OpenTelemetry SDK is
   * registered, or a meter or tracer was given): the load; the executor waits for it once.
   */
  readonly loading?: Promise<void> | undefined;
  /** Starts the `execute_tool <name>` span of one execution, if spans are recorded. */
  startExecutionSpan(toolName: string, callId: string, description?: string): Span | undefined;
  /** Ends an execution span; `errorType` (an error code) marks it as an error. */
  endExecutionSpan(span: Span, errorType: string | undefined): void;
  /** Records one finished execution. */
  recordExecution(toolName: string, status: string, durationMs: number): void;
  /** Records one batch. */
  recordBatch(size: number, isParallel: boolean): void;
}
