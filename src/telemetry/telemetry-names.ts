/** The instrumentation scope aintern reports under. */
export const telemetryScope = "aintern";

/** The metric names of the Lexichord spec (section 7). */
export const MetricNames = {
  executionsTotal: "tools.executions.total",
  executionsDuration: "tools.executions.duration",
  executionsByStatus: "tools.executions.by_status",
  executionsByTool: "tools.executions.by_tool",
  executionsTimeouts: "tools.executions.timeouts",
  batchesTotal: "tools.batches.total",
  batchesSize: "tools.batches.size",
} as const;

/** Attributes of the OpenTelemetry GenAI semantic conventions used on execute_tool spans. */
export const GenAiAttributes = {
  operationName: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolDescription: "gen_ai.tool.description",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
} as const;
