import { describe, expect, it } from "vitest";
import {
  ToolValidationError,
  ToolValidationResult,
  ToolValidationWarning,
  ValidationErrorCode,
} from "../../src/validation/index.js";

describe("ToolValidationResult", () => {
  it("valid() is one frozen, shared instance with no errors or warnings", () => {
    const result = ToolValidationResult.valid();
    expect(result).toBe(ToolValidationResult.valid());
    expect(result.isValid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.errors)).toBe(true);
  });

  it("validWithWarnings keeps the warnings and stays valid", () => {
    const warning = ToolValidationWarning.deprecated("old", "new");
    const result = ToolValidationResult.validWithWarnings(warning);
    expect(result.isValid).toBe(true);
    expect(result.warnings).toEqual([warning]);
    expect(result.getErrorMessage()).toBe("");
  });

  it("validWithWarnings with no warnings is the shared valid result", () => {
    expect(ToolValidationResult.validWithWarnings()).toBe(ToolValidationResult.valid());
  });

  it("invalid carries its errors in a frozen copy", () => {
    const errors = [ToolValidationError.required("path")];
    const result = ToolValidationResult.invalid(...errors);
    errors.push(ToolValidationError.required("other"));
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.errors)).toBe(true);
    expect(() => {
      (result as { isValid: boolean }).isValid = true;
    }).toThrow(TypeError);
  });

  it("invalidWithWarnings carries both lists", () => {
    const result = ToolValidationResult.invalidWithWarnings(
      [ToolValidationError.required("a")],
      [ToolValidationWarning.slowOperation("b", "large directory")],
    );
    expect(result.isValid).toBe(false);
    expect(result.errors[0]?.parameterName).toBe("a");
    expect(result.warnings[0]?.message).toBe("This may be slow: large directory");
  });

  it("missingRequired is an invalid result with one required error", () => {
    const result = ToolValidationResult.missingRequired("path");
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.errorCode).toBe(ValidationErrorCode.Required);
    expect(result.errors[0]?.parameterName).toBe("path");
  });

  it("invalidValue is an invalid result with the given message", () => {
    const result = ToolValidationResult.invalidValue("limit", "limit must be at least 1");
    expect(result.errors[0]?.errorCode).toBe(ValidationErrorCode.InvalidValue);
    expect(result.errors[0]?.message).toBe("limit must be at least 1");
  });

  it("combine gathers every error and warning and is valid only without errors", () => {
    const warning = ToolValidationWarning.largeValue("content", "2 MB of text");
    const combined = ToolValidationResult.combine(
      ToolValidationResult.valid(),
      ToolValidationResult.validWithWarnings(warning),
      ToolValidationResult.missingRequired("a"),
      ToolValidationResult.invalidValue("b", "bad"),
    );
    expect(combined.isValid).toBe(false);
    expect(combined.errors.map((e) => e.parameterName)).toEqual(["a", "b"]);
    expect(combined.warnings).toEqual([warning]);

    const onlyWarnings = ToolValidationResult.combine(
      ToolValidationResult.validWithWarnings(warning),
    );
    expect(onlyWarnings.isValid).toBe(true);
    expect(onlyWarnings.warnings).toEqual([warning]);
    expect(ToolValidationResult.combine()).toBe(ToolValidationResult.valid());
  });

  it("getErrorMessage lists one '- parameter: message' line per error", () => {
    const result = ToolValidationResult.invalid(
      ToolValidationError.required("path"),
      ToolValidationError.invalidValue("limit", "limit must be at least 1"),
      ToolValidationError.invalidValue("", "No parameters are accepted"),
    );
    expect(result.getErrorMessage()).toBe(
      [
        "- path: Missing required parameter 'path'",
        "- limit: limit must be at least 1",
        "- No parameters are accepted",
      ].join("\n"),
    );
    expect(ToolValidationResult.valid().getErrorMessage()).toBe("");
  });
});
