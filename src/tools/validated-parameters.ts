import { ToolValidationResult } from "../validation/index.js";
import type { Tool } from "./tool.js";

/**
 * Frozen parameter objects -> the tool they passed validation for (almost always one), or the
 * set of them when several tools validated the same object.
 */
const validatedFor = new WeakMap<object, Tool | WeakSet<Tool>>();

/**
 * Notes that `parameters` passed `tool`'s validation, so the executor and the tool itself need not
 * validate them again (a call is validated once, whoever validates it first). Only frozen objects
 * are noted: a mutable one could change after it was checked.
 */
export function markValidated(tool: Tool, parameters: unknown): void {
  if (typeof parameters !== "object" || parameters === null || !Object.isFrozen(parameters)) {
    return;
  }
  const known = validatedFor.get(parameters);
  if (known === undefined || known === tool) {
    validatedFor.set(parameters, tool);
  } else if (known instanceof WeakSet) {
    known.add(tool);
  } else {
    validatedFor.set(parameters, new WeakSet([known, tool]));
  }
}

/** Whether `parameters` (this very object) already passed `tool`'s validation. */
export function wasValidated(tool: Tool, parameters: unknown): boolean {
  if (typeof parameters !== "object" || parameters === null) return false;
  const known = validatedFor.get(parameters);
  return known === tool || (known instanceof WeakSet && known.has(tool));
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
