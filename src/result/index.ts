export { ArtifactAction } from "./artifact-action.js";
export { ArtifactType } from "./artifact-type.js";
export { MimeCategory, MimeTypes } from "./mime-types.js";
export { circularMarker, safeJsonStringify, toJsonSafe } from "./safe-json.js";
export {
  type CustomArtifactOptions,
  type DirectoryArtifactOptions,
  type FileArtifactOptions,
  type FileWithContentOptions,
  ToolArtifact,
  type ToolArtifactJson,
} from "./tool-artifact.js";
export { type ToLlmContextOptions, ToolResult, type ToolResultJson } from "./tool-result.js";
export { ToolResultBuilder } from "./tool-result-builder.js";
export { toolArtifactFromJson, toolResultFromJson } from "./tool-result-from-json.js";
export { defaultMaxDataLength, truncateText, truncationMarker } from "./truncate-text.js";
export type {
  ValidationErrorLike,
  ValidationFailureData,
  ValidationFailureEntry,
  ValidationFailureSource,
  ValidationResultLike,
} from "./validation-failure.js";
