import type { Span } from "@opentelemetry/api";
import type { ExecutionTelemetry, ExecutionTelemetryConfig } from "./execution-telemetry.js";
import type { ExecutionTelemetrySink } from "./execution-telemetry-sink.js";

// Where @opentelemetry/api 1.x keeps what an application registered (its SDK's providers).
const openTelemetryGlobal = Symbol.for("opentelemetry.js.api.1");

/**
 * The executor's default telemetry: an `ExecutionTelemetry`, loaded (with
 * `@opentelemetry/api`) in the background rather than when aintern is imported. Until it has
 * loaded, executions wait for it when something would record them (an OpenTelemetry SDK is
 * registered, or a meter or tracer was given); otherwise they report nothing, which is what the
 * API itself does with nothing registered.
 */
export class LazyExecutionTelemetry implements ExecutionTelemetrySink {
  readonly #config: ExecutionTelemetryConfig;
  readonly #load: Promise<void>;
  #telemetry: ExecutionTelemetry | undefined;

  constructor(config: ExecutionTelemetryConfig = {}) {
    this.#config = config;
    this.#load = import("./execution-telemetry.js").then(
      ({ ExecutionTelemetry }) => {
        this.#telemetry = new ExecutionTelemetry(this.#config);
      },
      // Nothing may be waiting for it (a short-lived process, a test that ended): a load that
      // fails leaves telemetry off, as with no OpenTelemetry SDK, instead of an unhandled rejection.
      () => undefined,
    );
  }

  get loading(): Promise<void> | undefined {
    if (this.#telemetry !== undefined) return undefined;
    const wanted =
      this.#config.meter !== undefined ||
      this.#config.tracer !== undefined ||
      (globalThis as Record<symbol, unknown>)[openTelemetryGlobal] !== undefined;
    return wanted ? this.#load : undefined;
  }

  startExecutionSpan(toolName: string, callId: string, description?: string): Span | undefined {
    return this.#telemetry?.startExecutionSpan(toolName, callId, description);
  }

  endExecutionSpan(span: Span, errorType: string | undefined): void {
    this.#telemetry?.endExecutionSpan(span, errorType);
  }

  recordExecution(toolName: string, status: string, durationMs: number): void {
    this.#telemetry?.recordExecution(toolName, status, durationMs);
  }

  recordBatch(size: number, isParallel: boolean): void {
    this.#telemetry?.recordBatch(size, isParallel);
  }
}
