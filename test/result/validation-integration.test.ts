import { describe, expect, it } from "vitest";
import { ToolErrorCode } from "../../src/core/index.js";
import { ToolResult } from "../../src/result/index.js";
import { ToolValidationError, ToolValidationResult } from "../../src/validation/index.js";

describe("ToolResult.validationFailed with the validation folder's ToolValidationResult", () => {
  it("lists each ToolValidationError by parameter for the model", () => {
    const validation = ToolValidationResult.invalid(
      ToolValidationError.required("path"),
      ToolValidationError.invalidValue("limit", "limit must be at least 1"),
    );

    const result = ToolResult.validationFailed(validation);

    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.error).toBe(validation.errors.map((error) => error.message).join("; "));
    expect(result.data?.errors.map((entry) => entry.parameterName)).toEqual(["path", "limit"]);
    expect(result.toLlmContext()).toContain("Error Code: ValidationFailed");
  });
});
