export { InProcessSandbox } from "./in-process-sandbox.js";
export type { MemoryLimitMethod } from "./process-launch.js";
export { detectMemoryLimitMethod } from "./process-launch.js";
export {
  ProcessSandbox,
  type ProcessSandboxConfig,
  processOutputMetadataKey,
} from "./process-sandbox.js";
export { RoutingSandbox, type RoutingSandboxConfig } from "./routing-sandbox.js";
export { SandboxError, SandboxErrorCode } from "./sandbox-error.js";
export { type IsolationPolicy, type SandboxChoice, selectSandbox } from "./select-sandbox.js";
export { toolProgressFromJson } from "./tool-progress-from-json.js";
export type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";
