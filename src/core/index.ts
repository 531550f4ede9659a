export { AinternError } from "./aintern-error.js";
export { Cancellation } from "./cancellation.js";
export { closestNames, editDistance } from "./closest-names.js";
export {
  codePointNote,
  type DisplayTextOptions,
  displayText,
  hiddenCharacters,
  jsonLine,
  jsonTextForEditing,
} from "./display-text.js";
export { ToolErrorCode } from "./error-codes.js";
export { LONG_TURN_MS, turnIsLong, yieldToEventLoop } from "./event-loop-turn.js";
export { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
export { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from "./json-depth.js";
export { keyTextProblem, MAX_KEY_LENGTH, replaceControlCharacters } from "./key-text.js";
export { isRunningFromSource, packageFileUrl } from "./package-file.js";
export { defaultProtectedPathPatterns } from "./protected-paths.js";
export {
  allRiskLevels,
  isRiskLevel,
  maxRiskLevel,
  RiskLevel,
  riskLevelName,
} from "./risk-level.js";
export { type RiskInfo, RiskLevelMetadata } from "./risk-level-metadata.js";
export { timeOrderedUuid } from "./time-ordered-uuid.js";
export { allToolCategories, isToolCategory, ToolCategory } from "./tool-category.js";
export { type CategoryInfo, ToolCategoryMetadata } from "./tool-category-metadata.js";
export { type EventListener, TypedEventEmitter } from "./typed-event-emitter.js";
