import { isJsonObject } from "../core/index.js";
import { ArtifactAction } from "./artifact-action.js";
import { ToolArtifact, type ToolArtifactJson } from "./tool-artifact.js";
import type { ToolResult, ToolResultJson } from "./tool-result.js";
import { ToolResultBuilder } from "./tool-result-builder.js";
import { defaultMaxDataLength } from "./truncate-text.js";

// Rebuilds results and artifacts from their JSON forms (`toJSON()`), checking every member: the
// JSON may come from another process (a sandboxed tool wrote it) or from a database.

function fail(what: string, detail: string): never {
  throw new TypeError(`Invalid ${what} JSON: ${detail}`);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (!isJsonObject(value)) fail(what, "not an object");
  return value;
}

function optional<T>(
  value: unknown,
  check: (item: unknown) => item is T,
  what: string,
  member: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!check(value)) fail(what, `'${member}' has the wrong type`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isFiniteNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
const isNonNegative = (value: unknown): value is number => isFiniteNumber(value) && value >= 0;
const actions: readonly unknown[] = Object.values(ArtifactAction);
const isAction = (value: unknown): value is ArtifactAction => actions.includes(value);

/**
 * A {@link ToolArtifact} from its JSON form. Everything but the timestamp is kept: a rebuilt
 * artifact is stamped when it is rebuilt.
 *
 * @throws TypeError when `json` is not the JSON form of an artifact.
 */
export function toolArtifactFromJson(json: ToolArtifactJson | unknown): ToolArtifact {
  const what = "artifact";
  const artifact = record(json, what);
  const type = optional(artifact.type, isString, what, "type") ?? fail(what, "no 'type'");
  const path = optional(artifact.path, isString, what, "path") ?? fail(what, "no 'path'");
  const description = optional(artifact.description, isString, what, "description");
  const size = optional(artifact.size, isNonNegative, what, "size");
  const mimeType = optional(artifact.mimeType, isString, what, "mimeType");
  const contentHash = optional(artifact.contentHash, isString, what, "contentHash");
  const isNew = optional(artifact.isNew, isBoolean, what, "isNew");
  const action = optional(artifact.action, isAction, what, "action");
  return ToolArtifact.custom(type, path, {
    ...(description !== undefined && { description }),
    ...(size !== undefined && { size }),
    ...(mimeType !== undefined && { mimeType }),
    ...(contentHash !== undefined && { contentHash }),
    ...(isNew !== undefined && { isNew }),
    ...(action !== undefined && { action }),
  });
}

/**
 * A {@link ToolResult} from its JSON form (`result.toJSON()`): the same success, data, message,
 * error, code, artifacts, duration, follow-ups, truncation and metadata. The data and metadata
 * are the JSON-safe values the JSON form holds (a `Date` comes back as its ISO string). The
 * exception, which the JSON form leaves out, may be given separately.
 *
 * @throws TypeError when `json` is not the JSON form of a result.
 */
export function toolResultFromJson(json: ToolResultJson | unknown, exception?: Error): ToolResult {
  const what = "result";
  const result = record(json, what);
  const success = optional(result.success, isBoolean, what, "success");
  if (success === undefined) fail(what, "no 'success'");
  const message = optional(result.message, isString, what, "message") ?? "";
  const error = optional(result.error, isString, what, "error");
  const errorCode = optional(result.errorCode, isString, what, "errorCode");
  const durationMs = optional(result.durationMs, isNonNegative, what, "durationMs");
  const shouldTruncate = optional(result.shouldTruncate, isBoolean, what, "shouldTruncate");
  const maxDataLength = optional(result.maxDataLength, isNonNegative, what, "maxDataLength");
  const textField = optional(result.textField, isString, what, "textField");

  const builder = ToolResultBuilder.create();
  if (success) builder.asSuccess();
  else builder.asFailure(error ?? message, errorCode);
  builder.withMessage(message);
  if (Object.hasOwn(result, "data")) builder.withData(result.data);
  if (result.artifacts !== undefined) {
    if (!Array.isArray(result.artifacts)) fail(what, "'artifacts' is not an array");
    builder.withArtifacts(result.artifacts.map(toolArtifactFromJson));
  }
  if (durationMs !== undefined) builder.withDuration(durationMs);
  if (result.suggestedFollowUps !== undefined) {
    const followUps = result.suggestedFollowUps;
    if (!Array.isArray(followUps) || !followUps.every(isString)) {
      fail(what, "'suggestedFollowUps' is not an array of strings");
    }
    builder.withSuggestions(followUps);
  }
  if (shouldTruncate === true) builder.withTruncation(maxDataLength ?? defaultMaxDataLength);
  if (textField !== undefined) builder.withTextField(textField);
  if (result.metadata !== undefined) {
    for (const [key, value] of Object.entries(record(result.metadata, "result metadata"))) {
      builder.withMetadata(key, value);
    }
  }
  if (!success && exception !== undefined) builder.withException(exception);
  return builder.build();
}
