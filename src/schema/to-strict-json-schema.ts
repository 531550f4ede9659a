import type { JsonSchema } from "./json-schema.js";
import { InvalidSchemaError } from "./schema-error.js";
import {
  acceptsNull,
  appendNote,
  isRecord,
  mapValues,
  type SchemaNode,
  withoutSchemaUri,
} from "./schema-nodes.js";

/**
 * The schema rewritten for OpenAI strict mode (Structured Outputs), recursively through nested
 * objects, array items, unions and definitions:
 *
 * - every property is required; those that were optional become nullable (`type: [t, "null"]`,
 *   with `null` added to an `enum`, or `anyOf: [schema, { type: "null" }]` when there is no simple
 *   type), so the model sends `null` where it would have left the property out (undo that with
 *   `dropStrictModeNulls`);
 * - every object gets `additionalProperties: false`;
 * - `default`, which strict mode rejects, moves into the description as "(default: ...)";
 * - `$schema` is removed.
 *
 * @throws InvalidSchemaError when an object allows additional properties, which strict mode
 *   cannot express; use non-strict mode for such a tool.
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  return strictNode(withoutSchemaUri(schema), "parameters") as JsonSchema;
}

function strictNode(node: unknown, path: string): unknown {
  if (!isRecord(node)) return node;
  let out: SchemaNode = { ...node };
  if (Object.hasOwn(out, "default")) {
    const { default: defaultValue, ...rest } = out;
    out = {
      ...rest,
      description: appendNote(rest.description, `(default: ${JSON.stringify(defaultValue)})`),
    };
  }
  if (isObjectNode(out)) {
    const { additionalProperties } = out;
    if (additionalProperties !== undefined && additionalProperties !== false) {
      throw new InvalidSchemaError(
        `OpenAI strict mode needs additionalProperties false on every object, but ${path} allows ` +
          "additional properties. Forbid them or use non-strict mode for this tool.",
        { propertyName: path },
      );
    }
    const properties = isRecord(out.properties) ? out.properties : {};
    const required = new Set(Array.isArray(out.required) ? out.required : []);
    out.properties = mapValues(properties, (property, name) => {
      const converted = strictNode(property, `${path}.${name}`);
      return required.has(name) ? converted : makeNullable(converted);
    });
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (Array.isArray(out.items)) {
    out.items = out.items.map((item, index) => strictNode(item, `${path}[${index}]`));
  } else if (out.items !== undefined) {
    out.items = strictNode(out.items, `${path}[]`);
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = out[keyword];
    if (Array.isArray(branches)) out[keyword] = branches.map((branch) => strictNode(branch, path));
  }
  for (const keyword of ["definitions", "$defs"]) {
    const definitions = out[keyword];
    if (isRecord(definitions)) {
      out[keyword] = mapValues(definitions, (definition, name) =>
        strictNode(definition, `${keyword}.${name}`),
      );
    }
  }
  return out;
}

function isObjectNode(node: SchemaNode): boolean {
  const { type } = node;
  return (
    type === "object" ||
    (Array.isArray(type) && type.includes("object")) ||
    isRecord(node.properties)
  );
}

function makeNullable(node: unknown): unknown {
  if (!isRecord(node) || acceptsNull(node)) return node;
  const { type } = node;
  const simpleType = typeof type === "string" || Array.isArray(type);
  if (simpleType && !Object.hasOwn(node, "const") && !Object.hasOwn(node, "$ref")) {
    const types = typeof type === "string" ? [type] : [...(type as unknown[])];
    return {
      ...node,
      type: [...types, "null"],
      ...(Array.isArray(node.enum) ? { enum: [...node.enum, null] } : {}),
    };
  }
  const { description, ...inner } = node;
  const keys = Object.keys(inner);
  if (keys.length === 1 && keys[0] === "anyOf" && Array.isArray(inner.anyOf)) {
    return { ...node, anyOf: [...inner.anyOf, { type: "null" }] };
  }
  return {
    anyOf: [inner, { type: "null" }],
    ...(description === undefined ? {} : { description }),
  };
}
