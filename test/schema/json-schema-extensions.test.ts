import { describe, expect, it } from "vitest";
import {
  getOptionalProperties,
  getProperty,
  getRequiredProperties,
  isRequired,
  JsonSchema,
  JsonSchemaBuilder,
  JsonSchemaExtensions,
} from "../../src/schema/index.js";

const schema = JsonSchemaBuilder.create()
  .addString("path", "Path", { required: true })
  .addInteger("limit", "Limit")
  .addBoolean("recursive", "Recursive", { required: true })
  .addString("encoding", "Encoding")
  .build();

describe("JsonSchemaExtensions", () => {
  it("gets a property by name, or undefined when there is none", () => {
    expect(getProperty(schema, "limit")).toEqual({ type: "integer", description: "Limit" });
    expect(getProperty(schema, "missing")).toBeUndefined();
  });

  it("does not find inherited members such as 'constructor', 'toString' or '__proto__'", () => {
    expect(getProperty(schema, "constructor")).toBeUndefined();
    expect(getProperty(schema, "toString")).toBeUndefined();
    expect(getProperty(schema, "__proto__")).toBeUndefined();
    expect(isRequired(schema, "constructor")).toBe(false);
  });

  it("finds properties that are really called 'constructor' and '__proto__'", () => {
    const odd = JsonSchemaBuilder.create()
      .addString("constructor", "C", { required: true })
      .addInteger("__proto__", "P")
      .build();
    expect(getProperty(odd, "constructor")).toEqual({ type: "string", description: "C" });
    expect(getProperty(odd, "__proto__")).toEqual({ type: "integer", description: "P" });
    expect(isRequired(odd, "constructor")).toBe(true);
    expect(getRequiredProperties(odd)).toEqual(["constructor"]);
    expect(getOptionalProperties(odd)).toEqual(["__proto__"]);
  });

  it("tells required from optional properties, in schema order", () => {
    expect(isRequired(schema, "path")).toBe(true);
    expect(isRequired(schema, "limit")).toBe(false);
    expect(getRequiredProperties(schema)).toEqual(["path", "recursive"]);
    expect(getOptionalProperties(schema)).toEqual(["limit", "encoding"]);
  });

  it("returns copies, so callers cannot change the schema's required list", () => {
    const required = getRequiredProperties(schema) as string[];
    required.push("limit");
    expect(schema.required).toEqual(["path", "recursive"]);
  });

  it("works on an empty schema and offers the same functions on one object", () => {
    const empty = JsonSchema.empty();
    expect(JsonSchemaExtensions.getRequiredProperties(empty)).toEqual([]);
    expect(JsonSchemaExtensions.getOptionalProperties(empty)).toEqual([]);
    expect(JsonSchemaExtensions.getProperty(empty, "x")).toBeUndefined();
    expect(JsonSchemaExtensions.isRequired(schema, "path")).toBe(true);
  });
});
