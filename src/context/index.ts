export { isCaseSensitiveFileSystem } from "./case-sensitivity.js";
export { ContextErrorCode } from "./context-error-code.js";
export { InvalidPathError, type InvalidPathReason } from "./invalid-path-error.js";
export { NoWorkspaceError } from "./no-workspace-error.js";
export { PathOutsideWorkspaceError } from "./path-outside-workspace-error.js";
export {
  readOptional as readOptionalParameter,
  readParameter,
  readRequired as readRequiredParameter,
} from "./read-parameter.js";
export { ServiceContainer } from "./service-container.js";
export { ServiceNotRegisteredError } from "./service-not-registered-error.js";
export type { ServiceProvider } from "./service-provider.js";
export { createServiceToken, type ServiceToken } from "./service-token.js";
export {
  NIL_UUID,
  type ToolApprovalDetails,
  ToolExecutionContext,
  type ToolExecutionContextInit,
  type ToolProgressCallback,
} from "./tool-execution-context.js";
export { ToolExecutionContextBuilder } from "./tool-execution-context-builder.js";
export { type ExpectedParameterType, ToolParameterError } from "./tool-parameter-error.js";
export { ToolProgress, type ToolProgressInit, type ToolProgressJson } from "./tool-progress.js";
export {
  getWorkspaceRelativePath,
  isPathInWorkspace,
  resolveWorkspacePath,
  tryResolveWorkspacePath,
} from "./workspace-path.js";
