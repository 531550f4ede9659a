import { ToolValidationResult } from "../validation/index.js";
import type { Tool } from "./tool.js";

/** Frozen parameter objects -> the tools they passed validation for. */
const validatedFor = new WeakMap<object, WeakSet<object>>();

/**
 * Notes that `parameters` passed `tool`'s validation, so the executor and the tool itself need not
 * validate them again (a call is validated once, whoever validates it first). Only frozen objects
 * are noted: a mutable one could change after it was checked.
 */
export function markValidated(tool: Tool, parameters: unknown): void {
  if (typeof parameters !== "object" || parameters === null || !Object.isFrozen(parameters)) {
    return;
  }
  let tools = validatedFor.get(parameters);
  if (tools === undefined) {
    tools = new WeakSet();
    validatedFor.set(parameters, tools);
  }
  tools.add(tool);
}

/** Whether `parameters` (this very object) already passed `tool`'s validation. */
export function wasValidated(tool: Tool, parameters: unknown): boolean {
  return (
    typeof parameters === "object" &&
    parameters !== null &&
    validatedFor.get(parameters)?.has(tool) === true
  );
}

/**
 * `tool.validate(parameters)`, unless these parameters already passed it (then valid, at no
 * cost); a pass is noted for the next step of the same call.
 */
export function validateOnce(tool: Tool, parameters: unknown): ToolValidationResult {
  if (wasValidated(tool, parameters)) return ToolValidationResult.valid();
  const result = tool.validate(parameters);
  if (result.isValid) markValidated(tool, parameters);
  return result;
}
