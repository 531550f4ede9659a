/**
 * `aintern/telemetry`: execution metrics and `execute_tool` spans on OpenTelemetry. The executor
 * reports to the global OpenTelemetry API by default; pass `telemetry: new ExecutionTelemetry({
 * meter, tracer })` (or just `{ meter, tracer }`) to report elsewhere.
 *
 * @packageDocumentation
 */
export { ExecutionTelemetry, type ExecutionTelemetryConfig } from "./execution-telemetry.js";
export type { ExecutionTelemetrySink } from "./execution-telemetry-sink.js";
export { GenAiAttributes, MetricNames, telemetryScope } from "./telemetry-names.js";
