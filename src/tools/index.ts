export { DefinedTool, type DefineToolConfig, defineTool } from "./define-tool.js";
export {
  type Tool,
  type ToolConstraints,
  type ToolIsolation,
  type ToolSource,
  takesSignal,
} from "./tool.js";
export { isAbortError, ToolBase } from "./tool-base.js";
export {
  fingerprintDigest,
  toolDefinitionDigest,
  toolDefinitionFingerprint,
} from "./tool-definition.js";
export { markValidated, validateOnce, wasValidated } from "./validated-parameters.js";
