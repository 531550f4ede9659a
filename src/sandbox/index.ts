export { InProcessSandbox } from "./in-process-sandbox.js";
export type { SandboxOutcome, SandboxRunOptions, ToolSandbox } from "./tool-sandbox.js";
