import type { JsonValue } from "../core/index.js";
import type { JsonSchema } from "../schema/index.js";
import {
  appendNote,
  functionNameOf,
  isRecord,
  mapValues,
  type SchemaNode,
  type ToolDefinitionSource,
} from "../schema/index.js";

/**
 * A schema in the OpenAPI 3.0 subset that Gemini function declarations accept. Types are written
 * in lowercase, which Gemini accepts.
 */
export interface GeminiSchema {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  /** Gemini enums are string enums. */
  enum?: string[];
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  items?: GeminiSchema;
  anyOf?: GeminiSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minProperties?: number;
  maxProperties?: number;
  default?: JsonValue;
  example?: JsonValue;
  propertyOrdering?: string[];
}

/** A tool definition in the shape of Gemini `functionDeclarations` entries. */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  /** Left out when the tool takes no parameters (Gemini rejects an object with no properties). */
  readonly parameters?: GeminiSchema;
}

/**
 * The Gemini function declaration of `tool`: `{ name, description, parameters }`, named by the
 * tool id, with the schema converted by {@link toGeminiSchema}.
 *
 * @throws InvalidFunctionNameError when the tool id does not match `^[a-zA-Z0-9_-]{1,64}$` or
 *   does not start with a letter or `_`.
 */
export function toGeminiFunctionDeclaration(tool: ToolDefinitionSource): GeminiFunctionDeclaration {
  const name = functionNameOf(tool, "Gemini");
  const parameters = toGeminiSchema(tool.inputSchema);
  return {
    name,
    description: tool.description,
    ...(parameters.properties === undefined ? {} : { parameters }),
  };
}

/**
 * `schema` in Gemini's OpenAPI subset. Keywords Gemini rejects are dropped or rewritten:
 * `$schema`, `additionalProperties` and other unsupported keywords are dropped; `$ref`s are
 * resolved inline (a recursive reference becomes a plain object, noted in its description);
 * `allOf` is merged; `oneOf` becomes `anyOf`; `const` becomes a one-value `enum`; `null` in a type
 * list, an enum or a union becomes `nullable: true`; type lists become `anyOf`; non-string enums,
 * unsupported formats and exclusive bounds are kept as notes in the description; `examples[0]`
 * becomes `example`; empty `properties` are left out.
 */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  return convert(schema, { root: schema, expanding: [] });
}

interface Context {
  readonly root: SchemaNode;
  /** The `$ref`s being expanded above this node, to stop at recursion. */
  readonly expanding: readonly string[];
}

const geminiTypes = new Set(["string", "number", "integer", "boolean", "array", "object"]);
const copiedKeywords = [
  "title",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "minProperties",
  "maxProperties",
  "default",
  "example",
  "propertyOrdering",
] as const;
const geminiFormats: Record<string, readonly string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

function convert(input: unknown, context: Context): GeminiSchema {
  if (!isRecord(input)) return {};
  if (typeof input.$ref === "string") return convertRef(input, input.$ref, context);
  if (Array.isArray(input.allOf)) {
    const { allOf, ...rest } = input;
    return allOf.reduce<GeminiSchema>(
      (merged, branch) => mergeSchemas(merged, convert(branch, context)),
      convert(rest, context),
    );
  }
  return convertPlain(input, context);
}

function convertRef(node: SchemaNode, ref: string, context: Context): GeminiSchema {
  const { $ref: _ref, ...siblings } = node;
  const target = resolvePointer(context.root, ref);
  if (target === undefined) {
    const converted = convert(siblings, context);
    return { ...converted, description: appendNote(converted.description, `(see ${ref})`) };
  }
  if (context.expanding.includes(ref)) {
    const type =
      typeof target.type === "string" && geminiTypes.has(target.type) ? target.type : undefined;
    const description = siblings.description ?? target.description;
    return {
      ...(type === undefined ? {} : { type: type as GeminiSchema["type"] }),
      description: appendNote(description, "(recursive: same structure as the enclosing value)"),
    };
  }
  return convert(
    { ...target, ...siblings },
    { ...context, expanding: [...context.expanding, ref] },
  );
}

function resolvePointer(root: SchemaNode, ref: string): SchemaNode | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return isRecord(current) ? current : undefined;
}

function convertPlain(node: SchemaNode, context: Context): GeminiSchema {
  const out: GeminiSchema = {};
  let description = typeof node.description === "string" ? node.description : undefined;
  let nullable = node.nullable === true;
  const anyOf: GeminiSchema[] = [];
  let single: GeminiSchema | undefined;

  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter(
    (type): type is string => typeof type === "string",
  );
  if (types.includes("null")) nullable = true;
  const nonNullTypes = types.filter((type) => geminiTypes.has(type)) as GeminiSchema["type"][];
  if (nonNullTypes.length === 1) {
    out.type = nonNullTypes[0];
  } else if (nonNullTypes.length > 1) {
    const { description: _d, title: _t, default: _df, examples: _e, nullable: _n, ...rest } = node;
    for (const type of nonNullTypes) anyOf.push(convertPlain({ ...rest, type }, context));
  }

  const values = Object.hasOwn(node, "const")
    ? [node.const]
    : Array.isArray(node.enum)
      ? node.enum
      : undefined;
  if (values !== undefined) {
    if (values.includes(null)) nullable = true;
    const nonNull = values.filter((value) => value !== null);
    if (nonNull.length > 0 && nonNull.every((value) => typeof value === "string")) {
      out.enum = nonNull;
      if (out.type === undefined && anyOf.length === 0) out.type = "string";
    } else if (nonNull.length > 0) {
      const list = nonNull.map((value) => JSON.stringify(value)).join(", ");
      description = appendNote(description, `(allowed values: ${list})`);
    }
  }

  const branches = [node.anyOf, node.oneOf].flatMap((list) => (Array.isArray(list) ? list : []));
  if (branches.length > 0) {
    const nonNull = branches.filter((branch) => !(isRecord(branch) && branch.type === "null"));
    if (nonNull.length < branches.length) nullable = true;
    const literals = literalUnion(nonNull);
    const converted =
      literals === undefined
        ? nonNull.map((branch) => convert(branch, context))
        : [convertPlain(literals, context)];
    if (converted.length === 1) single = converted[0];
    else anyOf.push(...converted);
  }
  if (anyOf.length > 0) out.anyOf = anyOf;

  if (typeof node.format === "string") {
    const allowed = out.type === undefined ? undefined : geminiFormats[out.type];
    if (allowed?.includes(node.format)) out.format = node.format;
    else description = appendNote(description, `(format: ${node.format})`);
  }
  description = convertExclusiveBound(node, out, "exclusiveMinimum", description);
  description = convertExclusiveBound(node, out, "exclusiveMaximum", description);

  if (isRecord(node.properties)) {
    const properties = mapValues(node.properties, (property) => convert(property, context));
    if (Object.keys(properties).length > 0) {
      out.properties = properties as Record<string, GeminiSchema>;
      const required = (Array.isArray(node.required) ? node.required : []).filter(
        (name): name is string => typeof name === "string" && Object.hasOwn(properties, name),
      );
      if (required.length > 0) out.required = required;
    }
  }
  if (Array.isArray(node.items)) {
    const items = node.items.map((item) => convert(item, context));
    out.items = items.length === 1 ? (items[0] as GeminiSchema) : { anyOf: items };
  } else if (isRecord(node.items)) {
    out.items = convert(node.items, context);
  }

  for (const keyword of copiedKeywords) {
    if (node[keyword] !== undefined && out[keyword] === undefined) {
      (out as Record<string, unknown>)[keyword] = node[keyword];
    }
  }
  if (out.example === undefined && Array.isArray(node.examples) && node.examples.length > 0) {
    out.example = node.examples[0] as JsonValue;
  }
  if (description !== undefined) out.description = description;
  if (nullable) out.nullable = true;
  return single === undefined ? out : mergeSchemas(out, single);
}

/** A union of bare literals (`{ const }` / `{ enum }` with at most a type) as one enum node. */
function literalUnion(branches: readonly unknown[]): SchemaNode | undefined {
  if (branches.length < 2) return undefined;
  const values: unknown[] = [];
  const types = new Set<unknown>();
  for (const branch of branches) {
    if (!isRecord(branch)) return undefined;
    if (Object.keys(branch).some((key) => !["type", "const", "enum"].includes(key)))
      return undefined;
    if (Object.hasOwn(branch, "const")) values.push(branch.const);
    else if (Array.isArray(branch.enum)) values.push(...branch.enum);
    else return undefined;
    types.add(branch.type);
  }
  const [type] = types;
  return types.size === 1 && type !== undefined ? { type, enum: values } : { enum: values };
}

function convertExclusiveBound(
  node: SchemaNode,
  out: GeminiSchema,
  keyword: "exclusiveMinimum" | "exclusiveMaximum",
  description: string | undefined,
): string | undefined {
  const bound = node[keyword];
  if (typeof bound !== "number") return description;
  const isMinimum = keyword === "exclusiveMinimum";
  if (out.type === "integer" && Number.isInteger(bound)) {
    const inclusive = isMinimum ? bound + 1 : bound - 1;
    if (isMinimum) out.minimum = Math.max(inclusive, numberOr(node.minimum, inclusive));
    else out.maximum = Math.min(inclusive, numberOr(node.maximum, inclusive));
    return description;
  }
  if (isMinimum && typeof node.minimum !== "number") out.minimum = bound;
  if (!isMinimum && typeof node.maximum !== "number") out.maximum = bound;
  return appendNote(description, `(${isMinimum ? "greater" : "less"} than ${bound})`);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

/** `base` with `extra` merged in: `base` wins on plain keywords; properties and required unite. */
function mergeSchemas(base: GeminiSchema, extra: GeminiSchema): GeminiSchema {
  const merged: GeminiSchema = { ...extra, ...withoutUndefined(base) };
  if (base.properties !== undefined || extra.properties !== undefined) {
    merged.properties = { ...extra.properties, ...base.properties };
  }
  if (base.required !== undefined || extra.required !== undefined) {
    merged.required = [...new Set([...(base.required ?? []), ...(extra.required ?? [])])];
  }
  if (base.nullable === true || extra.nullable === true) merged.nullable = true;
  return merged;
}

function withoutUndefined(schema: GeminiSchema): GeminiSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}
