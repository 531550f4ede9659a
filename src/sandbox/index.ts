/**
 * The sandbox folder's light face: what the executor needs to run tools in-process and to route
 * isolated ones. Process isolation itself (`ProcessSandbox`) is the `aintern/sandbox` entry
 * (./process.ts), loaded by the default routing only when a tool needs it.
 */
export { InProcessSandbox } from "./in-process-sandbox.js";
export { LazyProcessSandbox } from "./lazy-process-sandbox.js";
export { RoutingSandbox, type RoutingSandboxConfig } from "./routing-sandbox.js";
export { SandboxError, SandboxErrorCode } from "./sandbox-error.js";
export { type IsolationPolicy, type SandboxChoice, selectSandbox } from "./select-sandbox.js";
export type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";
