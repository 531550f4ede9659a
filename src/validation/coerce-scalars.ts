import type { JsonObject, JsonValue } from "../core/index.js";
import { ToolValidationWarning } from "./tool-validation-warning.js";
import { ValidationWarningCode } from "./validation-warning-code.js";

/** What {@link coerceScalarParameters} did. */
export interface CoercedParameters {
  /** The parameters with coerced values (the same object when nothing was coerced). */
  readonly parameters: JsonObject;
  /** One warning per coerced value, for the model. */
  readonly warnings: readonly ToolValidationWarning[];
}

const integerText = /^[+-]?\d+$/;
const numberText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Converts string values to the scalar type their property schema expects, as spec 003 says
 * ("values are coerced to the expected types"): `"5"` for an `integer` becomes 5, `"2.5"` for a
 * `number` 2.5, `"true"` / `"false"` for a `boolean` true / false. Only a property with exactly
 * one such type is coerced, only from a string that says the value exactly; objects and arrays
 * are never coerced (nested object properties are visited). Each coercion is a warning the model
 * sees, so it can send the right type next time.
 */
export function coerceScalarParameters(schema: unknown, parameters: JsonObject): CoercedParameters {
  const warnings: ToolValidationWarning[] = [];
  const coerced = coerceObject(schema, parameters, "", warnings, 0);
  return { parameters: coerced, warnings };
}

function coerceObject(
  schema: unknown,
  value: JsonObject,
  path: string,
  warnings: ToolValidationWarning[],
  depth: number,
): JsonObject {
  if (depth > 32 || typeof schema !== "object" || schema === null) return value;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== "object" || properties === null) return value;
  let copy: JsonObject | undefined;
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(properties, name)) continue;
    const property = (properties as Record<string, unknown>)[name];
    const current = value[name]!;
    const at = path === "" ? name : `${path}.${name}`;
    let next: JsonValue = current;
    if (typeof current === "string") {
      next = coerceString(property, current);
      if (next !== current) {
        warnings.push(
          new ToolValidationWarning({
            parameterName: at,
            message: `Parameter '${at}' was converted from string ${JSON.stringify(current)} to ${typeof next} ${JSON.stringify(next)}; send a ${expectedType(property)} next time.`,
            warningCode: ValidationWarningCode.Coerced,
          }),
        );
      }
    } else if (current !== null && typeof current === "object" && !Array.isArray(current)) {
      next = coerceObject(property, current, at, warnings, depth + 1);
    }
    if (next !== current) {
      copy ??= { ...value };
      Object.defineProperty(copy, name, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return copy ?? value;
}

function expectedType(property: unknown): string {
  return String((property as { type?: unknown }).type);
}

function coerceString(property: unknown, text: string): JsonValue {
  if (typeof property !== "object" || property === null) return text;
  const type = (property as { type?: unknown }).type;
  if (type === "integer" && integerText.test(text)) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : text;
  }
  if (type === "number" && numberText.test(text)) {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  if (type === "boolean") {
    if (text === "true") return true;
    if (text === "false") return false;
  }
  return text;
}
