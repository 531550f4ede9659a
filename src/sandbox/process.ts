/**
 * `aintern/sandbox`: process isolation. A tool run here is in a separate Node.js process that a
 * timeout or a cancel kills (its whole process group), with memory and output limits.
 *
 * @packageDocumentation
 */
export { InProcessSandbox } from "./in-process-sandbox.js";
export { LazyProcessSandbox } from "./lazy-process-sandbox.js";
export { detectMemoryLimitMethod, type MemoryLimitMethod } from "./process-launch.js";
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
