export * from "./builtin/index.js";
export { DefinedTool, type DefineToolConfig, defineTool } from "./define-tool.js";
export { isAbortError, ToolBase } from "./tool-base.js";
