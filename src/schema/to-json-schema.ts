import type {
  StandardJSONSchemaV1,
  StandardSchemaV1,
  StandardTypedV1,
} from "@standard-schema/spec";
import { toJSONSchema } from "zod";
import type { $ZodType } from "zod/v4/core";
import type { JsonObject } from "../core/index.js";
import type { JsonSchema } from "./json-schema.js";
import { InvalidSchemaError } from "./schema-error.js";

/**
 * What a tool's input schema may be given as: a zod 4 schema, any Standard Schema that also
 * implements Standard JSON Schema (`~standard.jsonSchema`), or a plain object {@link JsonSchema}.
 */
export type ToolInputSchema = StandardSchemaV1 | StandardJSONSchemaV1 | JsonSchema;

/**
 * The parameters type a tool's `execute` receives for input schema `S`: the parsed (output) type
 * of a zod or Standard Schema, and a plain {@link JsonObject} for a JSON Schema.
 *
 * @example
 * ```ts
 * const input = z.object({ path: z.string(), limit: z.number().default(100) });
 * type Input = InferToolInput<typeof input>; // { path: string; limit: number }
 * ```
 */
export type InferToolInput<S> = S extends StandardTypedV1
  ? StandardTypedV1.InferOutput<S>
  : JsonObject;

const draft2020Uri = "https://json-schema.org/draft/2020-12/schema";

/** True for any Standard Schema (v1): an object or function with a `~standard.validate`. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = standardProps(value);
  return (
    props !== undefined && typeof (props as Partial<StandardSchemaV1.Props>).validate === "function"
  );
}

/**
 * True for a plain object JSON Schema that can describe tool parameters: `type: "object"`,
 * `properties` (if present) an object and `required` (if present) a list of strings. Standard
 * Schemas are not JSON Schemas, even when they can produce one.
 */
export function isJsonSchema(value: unknown): value is JsonSchema {
  if (!isPlainRecord(value) || "~standard" in value || value.type !== "object") return false;
  const { properties, required } = value;
  return (
    (properties === undefined || isPlainRecord(properties)) &&
    (required === undefined ||
      (Array.isArray(required) && required.every((name) => typeof name === "string")))
  );
}

/**
 * The JSON Schema of a tool's parameters, in place of .NET's `JsonSchemaGenerator`.
 *
 * - a zod 4 schema: `z.toJSONSchema(schema, { target: "draft-7", io: "input" })`, so optional
 *   and defaulted properties are not required, and `.describe()` texts become descriptions;
 * - another Standard Schema: its `~standard.jsonSchema.input`, draft-07 if the library supports
 *   it, else draft 2020-12 (with `$schema` set so the validator picks that dialect);
 * - a {@link JsonSchema}: returned as is (missing `properties` / `required` filled in on a copy).
 *
 * `$schema` is kept for the validator; the provider exports remove it.
 *
 * @throws InvalidSchemaError when the result is not an object schema, a Standard Schema cannot
 *   produce JSON Schema, or the value is no schema at all.
 */
export function toJsonSchema(schema: ToolInputSchema): JsonSchema {
  if (isZod4(schema)) {
    let converted: Record<string, unknown>;
    try {
      converted = toJSONSchema(schema, { target: "draft-7", io: "input" });
    } catch (error) {
      throw new InvalidSchemaError(
        `The zod schema cannot be converted to JSON Schema: ${messageOf(error)}`,
        { cause: error },
      );
    }
    return asObjectSchema(converted, "The zod schema");
  }
  const props = standardProps(schema);
  if (props !== undefined) {
    return asObjectSchema(fromStandardJsonSchema(props), `The ${props.vendor} schema`);
  }
  if (isJsonSchema(schema)) {
    return schema.properties !== undefined && schema.required !== undefined
      ? schema
      : { ...schema, properties: schema.properties ?? {}, required: schema.required ?? [] };
  }
  if (isPlainRecord(schema)) return asObjectSchema(schema, "The JSON Schema");
  throw new InvalidSchemaError(
    `Expected a zod schema, a Standard Schema or a JSON Schema object; got ${describeValue(schema)}.`,
  );
}

/** The spec's `JsonSchemaGenerator`, generating from zod / Standard Schemas instead of types. */
export const JsonSchemaGenerator = {
  /** Same as {@link toJsonSchema}. */
  generate: toJsonSchema,
} as const;

function fromStandardJsonSchema(props: StandardTypedV1.Props): Record<string, unknown> {
  const converter = (props as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (converter === undefined || typeof converter.input !== "function") {
    throw new InvalidSchemaError(
      `The ${props.vendor} schema does not implement Standard JSON Schema (~standard.jsonSchema); ` +
        "use a library version that does, or pass a JSON Schema.",
    );
  }
  try {
    return converter.input({ target: "draft-07" });
  } catch (draft07Error) {
    let converted: Record<string, unknown>;
    try {
      converted = converter.input({ target: "draft-2020-12" });
    } catch {
      throw new InvalidSchemaError(
        `The ${props.vendor} schema cannot be converted to JSON Schema: ${messageOf(draft07Error)}`,
        { cause: draft07Error },
      );
    }
    return converted.$schema === undefined ? { $schema: draft2020Uri, ...converted } : converted;
  }
}

function asObjectSchema(result: Record<string, unknown>, source: string): JsonSchema {
  // A plain copy: zod's result also carries a non-enumerable `~standard`, which is not JSON.
  const converted = { ...result };
  if (!isJsonSchema(converted)) {
    throw new InvalidSchemaError(
      `${source} must describe an object (JSON Schema type "object") to be a tool's parameters; ` +
        `it is ${describeSchema(converted)}. Wrap the input in an object, e.g. z.object({ ... }).`,
    );
  }
  return {
    ...converted,
    properties: converted.properties ?? {},
    required: converted.required ?? [],
  };
}

function describeSchema(schema: Record<string, unknown>): string {
  if (schema.type !== undefined) return `type ${JSON.stringify(schema.type)}`;
  for (const keyword of ["anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not"]) {
    if (keyword in schema) return `a schema with "${keyword}" and no type "object"`;
  }
  return "a schema without a type";
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function standardProps(value: unknown): StandardTypedV1.Props | undefined {
  if ((typeof value !== "object" && typeof value !== "function") || value === null)
    return undefined;
  if (!("~standard" in value)) return undefined;
  const props = (value as StandardTypedV1)["~standard"];
  return typeof props === "object" && props !== null && props.version === 1 ? props : undefined;
}

function isZod4(value: unknown): value is $ZodType {
  return standardProps(value)?.vendor === "zod" && "_zod" in (value as object);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
