export type {
  ApprovalAnswer,
  ApprovalHandler,
  ApprovalPromptDetails,
  ApprovalRequest,
} from "./approval-handler.js";
export {
  ApprovalPolicy,
  type ApprovalPolicyConfig,
  type ApprovalRequirement,
  type ApprovalRule,
  defaultProtectedPathPatterns,
  type PolicyCall,
  type PolicyDecision,
} from "./approval-policy.js";
export {
  type CallSubjects,
  callSubjects,
  defaultCommandParameterNames,
  defaultPathParameterNames,
  type ParameterKindConfig,
} from "./parameter-kinds.js";
export {
  matchPathPattern,
  type PathPatternOptions,
  validatePathPattern,
} from "./path-pattern.js";
export {
  MemoryPermissionStore,
  type PermissionFilter,
  type PermissionGrant,
  type PermissionPatternKind,
  type PermissionScope,
  type PermissionStore,
} from "./permission-grant.js";
export { rememberedCoverage } from "./remembered-coverage.js";
export {
  InvalidRememberPatternError,
  RememberedPermissions,
  type RememberedPermissionsConfig,
  type RememberRequest,
} from "./remembered-permissions.js";
export { suggestPathPattern } from "./suggest-path-pattern.js";
