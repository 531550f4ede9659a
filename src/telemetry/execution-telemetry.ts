import {
  type Counter,
  type Histogram,
  type Meter,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { ExecutionTelemetrySink } from "./execution-telemetry-sink.js";
import { GenAiAttributes, MetricNames, telemetryScope } from "./telemetry-names.js";

/** Settings of {@link ExecutionTelemetry}; both default to the global OpenTelemetry API. */
export interface ExecutionTelemetryConfig {
  readonly meter?: Meter;
  readonly tracer?: Tracer;
}

/**
 * Metrics and spans of tool executions. aintern depends only on `@opentelemetry/api`: without an
 * SDK installed by the application, every call here is a no-op.
 */
export class ExecutionTelemetry implements ExecutionTelemetrySink {
  readonly #tracer: Tracer;
  readonly #total: Counter;
  readonly #duration: Histogram;
  readonly #byStatus: Counter;
  readonly #byTool: Counter;
  readonly #timeouts: Counter;
  readonly #batches: Counter;
  readonly #batchSize: Histogram;

  constructor(config: ExecutionTelemetryConfig = {}) {
    const meter = config.meter ?? metrics.getMeter(telemetryScope);
    this.#tracer = config.tracer ?? trace.getTracer(telemetryScope);
    this.#total = meter.createCounter(MetricNames.executionsTotal, {
      description: "Total tool executions",
    });
    this.#duration = meter.createHistogram(MetricNames.executionsDuration, {
      description: "Tool execution duration",
      unit: "ms",
    });
    this.#byStatus = meter.createCounter(MetricNames.executionsByStatus, {
      description: "Tool executions by final status",
    });
    this.#byTool = meter.createCounter(MetricNames.executionsByTool, {
      description: "Tool executions per tool",
    });
    this.#timeouts = meter.createCounter(MetricNames.executionsTimeouts, {
      description: "Tool executions that timed out",
    });
    this.#batches = meter.createCounter(MetricNames.batchesTotal, {
      description: "Batch executions",
    });
    this.#batchSize = meter.createHistogram(MetricNames.batchesSize, {
      description: "Batch sizes",
      unit: "{call}",
    });
  }

  /** Starts the `execute_tool <name>` span of one execution. */
  startExecutionSpan(toolName: string, callId: string, description?: string): Span {
    const attributes: Record<string, string> = {
      [GenAiAttributes.operationName]: "execute_tool",
      [GenAiAttributes.toolName]: toolName,
      [GenAiAttributes.toolCallId]: callId,
      [GenAiAttributes.toolType]: "function",
    };
    if (description !== undefined) attributes[GenAiAttributes.toolDescription] = description;
    return this.#tracer.startSpan(`execute_tool ${toolName}`, {
      kind: SpanKind.INTERNAL,
      attributes,
    });
  }

  /** Ends an execution span; `errorType` (an error code) marks it as an error. */
  endExecutionSpan(span: Span, errorType: string | undefined): void {
    if (errorType !== undefined) {
      span.setAttribute(GenAiAttributes.errorType, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
    }
    span.end();
  }

  /** Records one finished execution. */
  recordExecution(toolName: string, status: string, durationMs: number): void {
    const attributes = { "tool.name": toolName, "execution.status": status };
    this.#total.add(1);
    this.#duration.record(durationMs, attributes);
    this.#byStatus.add(1, { "execution.status": status });
    this.#byTool.add(1, { "tool.name": toolName });
    if (status === "timeout") this.#timeouts.add(1, { "tool.name": toolName });
  }

  /** Records one batch. */
  recordBatch(size: number, isParallel: boolean): void {
    this.#batches.add(1, { "batch.parallel": isParallel });
    this.#batchSize.record(size, { "batch.parallel": isParallel });
  }
}
