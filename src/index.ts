/**
 * aintern: the runtime for the tools that LLM agents call.
 *
 * define -> register -> advertise -> parse -> validate -> decide -> execute -> record -> answer
 *
 * Each folder's `index.ts` lists its exports explicitly; the root gathers them. Test helpers
 * (`MockTool`) live in the `aintern/testing` subpath.
 *
 * @packageDocumentation
 */

export * from "./approval/index.js";
export * from "./builtin/index.js";
export * from "./calls/index.js";
export {
  type ApprovalFlag,
  flagApprovalHandler,
  type RunTurnOptions,
  type RunTurnResult,
  runTurn,
  TerminalApprovalHandler,
  type TerminalApprovalHandlerConfig,
} from "./cli/index.js";
export * from "./context/index.js";
export * from "./core/index.js";
export * from "./execution/index.js";
export * from "./registry/index.js";
export * from "./result/index.js";
export * from "./sandbox/index.js";
export * from "./schema/index.js";
export * from "./shell/index.js";
export * from "./store/index.js";
export * from "./telemetry/index.js";
export * from "./tools/index.js";
export * from "./validation/index.js";
