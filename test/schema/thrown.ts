import { expect } from "vitest";
import { InvalidSchemaError } from "../../src/schema/index.js";

/** The `InvalidSchemaError` that `fn` throws; fails the test when it throws nothing or another error. */
export function thrown(fn: () => unknown): InvalidSchemaError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSchemaError);
    return error as InvalidSchemaError;
  }
  throw new Error("expected the call to throw");
}
