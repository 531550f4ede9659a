export { assessCommandRisk, type CommandRiskAssessment } from "./assess-command-risk.js";
export { assessCommandSyntax, type CommandSyntaxAssessment } from "./assess-command-syntax.js";
export {
  type CommandSegment,
  type CommandSyntaxFlags,
  type ParsedCommand,
  parseCommand,
} from "./command-parser.js";
export { matchCommandPattern, validateCommandPattern } from "./command-pattern.js";
export {
  type CommandFileOperandDetails,
  type CommandFileOperands,
  commandFileOperandDetails,
  commandFileOperands,
  relativeAfterCd,
} from "./file-operands.js";
export { type DenyPatternMatch, matchDenyPattern } from "./match-deny-pattern.js";
export { suggestCommandPattern } from "./suggest-command-pattern.js";
