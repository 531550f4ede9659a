export {
  ExecutionTelemetry,
  type ExecutionTelemetryConfig,
  GenAiAttributes,
  MetricNames,
  telemetryScope,
} from "./execution-telemetry.js";
export { type Logger, type LogMethod, silentLogger } from "./logger.js";
