import { describe, expect, it } from "vitest";
import {
  ToolValidationError,
  ToolValidationWarning,
  ValidationErrorCode,
  ValidationWarningCode,
} from "../../src/validation/index.js";

describe("ToolValidationError", () => {
  it("required names the parameter and, when known, its type and description", () => {
    const bare = ToolValidationError.required("path");
    expect(bare).toMatchObject({
      parameterName: "path",
      errorCode: "required",
      message: "Missing required parameter 'path'",
    });
    const detailed = ToolValidationError.required("path", {
      type: "string",
      description: "File path",
    });
    expect(detailed.message).toBe("Missing required parameter 'path' (string: File path)");
    expect(detailed.expectedDescription).toBe("string");
  });

  it("typeMismatch says what was expected and what came, value included", () => {
    const error = ToolValidationError.typeMismatch("options.depth", "integer", "string", "3");
    expect(error.message).toBe(`Parameter 'options.depth' must be an integer, got string "3"`);
    expect(error.errorCode).toBe(ValidationErrorCode.TypeMismatch);
    expect(error.expectedDescription).toBe("integer");
    expect(error.providedValue).toBe("3");
    expect(ToolValidationError.typeMismatch("x", "string or null", "number").message).toBe(
      "Parameter 'x' must be a string or null, got number",
    );
    expect(ToolValidationError.typeMismatch("x", "Date", "string").message).toBe(
      "Parameter 'x' must be of type Date, got string",
    );
  });

  it("outOfRange shows the bounds that apply, exclusive ones with < and >", () => {
    expect(ToolValidationError.outOfRange("depth", 0, 1, 10).message).toBe(
      "Parameter 'depth' must be >= 1 and <= 10, got 0",
    );
    expect(
      ToolValidationError.outOfRange("n", 5, undefined, 5, { exclusiveMaximum: true }),
    ).toMatchObject({
      message: "Parameter 'n' must be < 5, got 5",
      expectedDescription: "< 5",
      providedValue: 5,
    });
    expect(
      ToolValidationError.outOfRange("n", -1, 0, null, { exclusiveMinimum: true }).message,
    ).toBe("Parameter 'n' must be > 0, got -1");
    expect(ToolValidationError.outOfRange("n", 1, null, null).expectedDescription).toBe(
      "within range",
    );
    expect(ToolValidationError.outOfRange("n", 0, 1, 2).errorCode).toBe("out_of_range");
  });

  it("patternMismatch shows the pattern and the value", () => {
    const error = ToolValidationError.patternMismatch("id", "ABC", "^[a-z]+$");
    expect(error).toMatchObject({
      errorCode: "pattern_mismatch",
      expectedDescription: "^[a-z]+$",
      providedValue: "ABC",
      message: `Parameter 'id' must match the pattern ^[a-z]+$, got "ABC"`,
    });
  });

  it("invalidEnum lists the allowed values as the model must send them", () => {
    const error = ToolValidationError.invalidEnum("mode", "delete", ["read", "write"]);
    expect(error.message).toBe(`Parameter 'mode' must be one of "read", "write"; got "delete"`);
    expect(error.expectedDescription).toBe(`"read", "write"`);
    expect(error.errorCode).toBe("invalid_enum");
    expect(ToolValidationError.invalidEnum("v", 2, [1]).message).toBe(
      "Parameter 'v' must be 1; got 2",
    );
  });

  it("invalidValue keeps the caller's message and value", () => {
    const error = ToolValidationError.invalidValue("limit", "limit must be at least 1", 0);
    expect(error).toMatchObject({
      parameterName: "limit",
      message: "limit must be at least 1",
      errorCode: "invalid_value",
      providedValue: 0,
    });
    expect(ToolValidationError.invalidValue("a", "b").providedValue).toBeUndefined();
  });

  it("pathNotFound and pathOutsideWorkspace carry the path", () => {
    expect(ToolValidationError.pathNotFound("path", "/nope")).toMatchObject({
      errorCode: "path_not_found",
      message: "Path does not exist: /nope",
      providedValue: "/nope",
    });
    expect(ToolValidationError.pathOutsideWorkspace("path", "../etc/passwd")).toMatchObject({
      errorCode: "path_outside_workspace",
      message: "Path is outside the workspace: ../etc/passwd",
    });
  });

  it("tooDeep, tooLarge and invalidSchema describe the limit", () => {
    expect(ToolValidationError.tooDeep("a", 64).message).toBe(
      "Parameter 'a' is nested more than 64 levels deep; flatten it",
    );
    expect(ToolValidationError.tooDeep("", 2).message).toMatch(/^The parameters are nested/);
    const large = ToolValidationError.tooLarge(
      "text",
      "a string of 20 characters",
      "10 characters",
    );
    expect(large.message).toBe(
      "Parameter 'text' is too large: a string of 20 characters; the limit is 10 characters",
    );
    expect(large.errorCode).toBe(ValidationErrorCode.TooLarge);
    expect(ToolValidationError.invalidSchema("bad $ref")).toMatchObject({
      parameterName: "",
      errorCode: "invalid_schema",
    });
  });

  it("is frozen", () => {
    const error = ToolValidationError.required("a");
    expect(Object.isFrozen(error)).toBe(true);
    expect(() => {
      (error as { message: string }).message = "changed";
    }).toThrow(TypeError);
  });

  it("keeps a truncated preview of a huge provided value, not the value", () => {
    const huge = "x".repeat(5_000_000);
    const error = ToolValidationError.invalidValue("text", "too long", huge);
    expect(typeof error.providedValue).toBe("string");
    expect((error.providedValue as string).length).toBeLessThan(300);
    expect(error.providedValue).toMatch(/… \(5000000 characters\)$/);

    const bigArray = Array.from({ length: 10_000 }, (_, i) => i);
    const arrayError = ToolValidationError.invalidValue("items", "too many", bigArray);
    expect(typeof arrayError.providedValue).toBe("string");
    expect(arrayError.providedValue).toMatch(/^\[0,1,2,.*…$/);
  });

  it("keeps a small object as a frozen copy the caller cannot change", () => {
    const value = { a: [1, 2], b: "x" };
    const error = ToolValidationError.invalidValue("v", "bad", value);
    value.a.push(3);
    expect(error.providedValue).toEqual({ a: [1, 2], b: "x" });
    expect(Object.isFrozen(error.providedValue)).toBe(true);
    expect(Object.isFrozen((error.providedValue as { a: unknown }).a)).toBe(true);
  });

  it("keeps a preview string for values JSON cannot carry", () => {
    expect(ToolValidationError.invalidValue("f", "bad", () => 1).providedValue).toBe("[function]");
    expect(ToolValidationError.invalidValue("n", "bad", { n: Number.NaN }).providedValue).toBe(
      '{"n":NaN}',
    );
    expect(ToolValidationError.invalidValue("b", "bad", 10n).providedValue).toBe("10n");
  });
});

describe("ToolValidationWarning", () => {
  it("deprecated mentions the alternative when there is one", () => {
    expect(ToolValidationWarning.deprecated("old")).toMatchObject({
      parameterName: "old",
      message: "Parameter 'old' is deprecated.",
      warningCode: ValidationWarningCode.Deprecated,
    });
    expect(ToolValidationWarning.deprecated("old", "new").message).toBe(
      "Parameter 'old' is deprecated. Use 'new' instead.",
    );
  });

  it("largeValue and slowOperation carry their codes", () => {
    expect(ToolValidationWarning.largeValue("content", "2 MB")).toMatchObject({
      message: "2 MB",
      warningCode: "large_value",
    });
    expect(ToolValidationWarning.slowOperation("path", "recursive search")).toMatchObject({
      message: "This may be slow: recursive search",
      warningCode: "slow_operation",
    });
    expect(Object.isFrozen(ToolValidationWarning.slowOperation("a", "b"))).toBe(true);
  });
});
