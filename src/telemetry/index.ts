/**
 * The telemetry folder's face. `ExecutionTelemetry` itself (which loads `@opentelemetry/api`)
 * is the `aintern/telemetry` entry (./open-telemetry.ts); the executor loads it on first need.
 */
export type { ExecutionTelemetryConfig } from "./execution-telemetry.js";
export type { ExecutionTelemetrySink } from "./execution-telemetry-sink.js";
export { LazyExecutionTelemetry } from "./lazy-execution-telemetry.js";
export { type Logger, type LogMethod, silentLogger } from "./logger.js";
export { GenAiAttributes, MetricNames, telemetryScope } from "./telemetry-names.js";
