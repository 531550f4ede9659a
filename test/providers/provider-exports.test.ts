import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  toAnthropicTool,
  toGeminiFunctionDeclaration,
  toGeminiSchema,
  toOpenAiTool,
} from "../../src/providers/index.js";
import {
  dropStrictModeNulls,
  FunctionDefinition,
  InvalidFunctionNameError,
  InvalidSchemaError,
  isValidFunctionName,
  type JsonSchema,
  JsonSchemaBuilder,
  SchemaErrorCode,
  type ToolDefinitionSource,
  toJsonSchema,
  toStrictJsonSchema,
} from "../../src/schema/index.js";

function tool(inputSchema: JsonSchema, id = "file-read"): ToolDefinitionSource {
  return { id, name: "Read File", description: "Reads a file", inputSchema };
}

const readSchema = JsonSchemaBuilder.create()
  .addPath("path", "File to read", { required: true })
  .addInteger("limit", "Lines to read", { minimum: 1, defaultValue: 100 })
  .addEnum("encoding", "Encoding", ["utf8", "latin1"])
  .addObject("range", "Lines", (b) =>
    b.addInteger("start", "First", { required: true }).addInteger("end", "Last"),
  )
  .addArray("filters", "Filters", {
    type: "object",
    properties: { pattern: { type: "string" }, flags: { type: "string" } },
    required: ["pattern"],
  })
  .build();

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to throw");
}

describe("FunctionDefinition (spec 001 g)", () => {
  it("is made from a tool: the id as name, its description and its schema as parameters", () => {
    const schema = toJsonSchema(z.object({ path: z.string() }));
    const definition = FunctionDefinition.fromTool(tool(schema));
    expect(definition).toEqual({
      name: "file-read",
      description: "Reads a file",
      parameters: {
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path"],
      },
    });
    expect(Object.isFrozen(definition)).toBe(true);
    expect(schema.$schema).toBeDefined();
  });

  it("copies the parameters, so changing them does not change the tool", () => {
    const schema = JsonSchemaBuilder.create().addString("a", "A").build();
    const definition = FunctionDefinition.fromTool(tool(schema));
    (definition.parameters.properties as Record<string, unknown>).b = {};
    expect(Object.keys(schema.properties)).toEqual(["a"]);
  });

  it("serializes to compact JSON", () => {
    const definition = FunctionDefinition.fromTool(tool(JsonSchemaBuilder.create().build()));
    expect(FunctionDefinition.toJson(definition)).toBe(
      '{"name":"file-read","description":"Reads a file","parameters":' +
        '{"type":"object","properties":{},"required":[],"additionalProperties":false}}',
    );
  });
});

describe("function names", () => {
  it("accepts ids of letters, digits, '_' and '-' up to 64 characters", () => {
    expect(isValidFunctionName("file-read")).toBe(true);
    expect(isValidFunctionName("a".repeat(64))).toBe(true);
    expect(isValidFunctionName("a".repeat(65))).toBe(false);
    expect(isValidFunctionName("")).toBe(false);
    expect(isValidFunctionName("file.read")).toBe(false);
  });

  it("throws a clear error naming the tool id when it cannot be a function name", () => {
    const error = errorOf(() =>
      toOpenAiTool(tool(JsonSchemaBuilder.create().build(), "file read!")),
    );
    expect(error).toBeInstanceOf(InvalidFunctionNameError);
    expect((error as InvalidFunctionNameError).toolId).toBe("file read!");
    expect((error as InvalidFunctionNameError).code).toBe(SchemaErrorCode.InvalidFunctionName);
    expect(error.message).toBe(
      'Tool id "file read!" is not a valid OpenAI function name: it must be 1 to 64 letters, ' +
        "digits, '_' or '-' (^[a-zA-Z0-9_-]{1,64}$). Rename the tool, e.g. to 'file-read'.",
    );
    expect(errorOf(() => toAnthropicTool(tool(readSchema, "")))).toBeInstanceOf(
      InvalidFunctionNameError,
    );
    expect(errorOf(() => FunctionDefinition.fromTool(tool(readSchema, "!!"))).message).toMatch(
      /e\.g\. to 'my-tool'/,
    );
  });

  it("rejects for Gemini an id that does not start with a letter or '_'", () => {
    const error = errorOf(() => toGeminiFunctionDeclaration(tool(readSchema, "3d-render")));
    expect(error).toBeInstanceOf(InvalidFunctionNameError);
    expect(error.message).toBe(
      "Tool id '3d-render' is not a valid Gemini function name: it must start with a letter or '_'.",
    );
    expect(toOpenAiTool(tool(readSchema, "3d-render")).function.name).toBe("3d-render");
  });
});

describe("toOpenAiTool", () => {
  it("gives the OpenAI function shape without strict when not asked", () => {
    const zodSchema = toJsonSchema(z.object({ path: z.string() }));
    expect(toOpenAiTool(tool(zodSchema))).toEqual({
      type: "function",
      function: {
        name: "file-read",
        description: "Reads a file",
        parameters: {
          type: "object",
          properties: { path: { type: "string" } },
          required: ["path"],
        },
      },
    });
    expect(toOpenAiTool(tool(zodSchema), { strict: false }).function.strict).toBe(false);
  });

  it("in strict mode makes every property required and the optional ones nullable, recursively", () => {
    const result = toOpenAiTool(tool(readSchema), { strict: true });
    expect(result.function.strict).toBe(true);
    expect(result.function.parameters).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "File to read" },
        limit: {
          type: ["integer", "null"],
          description: "Lines to read (default: 100)",
          minimum: 1,
        },
        encoding: {
          type: ["string", "null"],
          description: "Encoding",
          enum: ["utf8", "latin1", null],
        },
        range: {
          type: ["object", "null"],
          description: "Lines",
          properties: {
            start: { type: "integer", description: "First" },
            end: { type: ["integer", "null"], description: "Last" },
          },
          required: ["start", "end"],
          additionalProperties: false,
        },
        filters: {
          type: ["array", "null"],
          description: "Filters",
          items: {
            type: "object",
            properties: { pattern: { type: "string" }, flags: { type: ["string", "null"] } },
            required: ["pattern", "flags"],
            additionalProperties: false,
          },
        },
      },
      required: ["path", "limit", "encoding", "range", "filters"],
      additionalProperties: false,
    });
  });

  it("produces a strict schema that accepts null for optional values and rejects missing ones", () => {
    const validate = new Ajv({ strict: false }).compile(toStrictJsonSchema(readSchema));
    const all = { path: "a", limit: null, encoding: null, range: null, filters: null };
    expect(validate(all)).toBe(true);
    expect(validate({ ...all, range: { start: 1, end: null } })).toBe(true);
    expect(validate({ ...all, encoding: "ascii" })).toBe(false);
    expect(validate({ path: "a" })).toBe(false);
    expect(validate({ ...all, path: null })).toBe(false);
  });

  it("wraps in anyOf with null an optional property that has no simple type", () => {
    const schema = toJsonSchema(
      z.object({
        kind: z.literal("file").optional().describe("Kind"),
        target: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]).optional(),
        either: z.union([z.string(), z.number()]).optional(),
        already: z.string().nullable().optional(),
      }),
    );
    const strict = toStrictJsonSchema(schema);
    expect(strict.$schema).toBeUndefined();
    expect(strict.required).toEqual(["kind", "target", "either", "already"]);
    expect(strict.properties.kind).toEqual({
      anyOf: [{ type: "string", const: "file" }, { type: "null" }],
      description: "Kind",
    });
    expect(strict.properties.target).toEqual({
      anyOf: [
        {
          type: "object",
          properties: { a: { type: "string" } },
          required: ["a"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { b: { type: "number" } },
          required: ["b"],
          additionalProperties: false,
        },
        { type: "null" },
      ],
    });
    expect(strict.properties.either).toEqual({ type: ["string", "number", "null"] });
    expect(strict.properties.already).toEqual({ type: ["string", "null"] });
  });

  it("makes $ref properties nullable with anyOf and converts the definitions they point to", () => {
    const node = z.object({
      name: z.string(),
      get next() {
        return node.optional();
      },
    });
    const schema = toJsonSchema(z.object({ head: node }));
    const strict = toStrictJsonSchema(schema);
    const validate = new Ajv({ strict: false }).compile(strict);
    expect(validate({ head: { name: "a", next: { name: "b", next: null } } })).toBe(true);
    expect(validate({ head: { name: "a" } })).toBe(false);
    expect(validate({ head: { name: "a", next: null, extra: 1 } })).toBe(false);
  });

  it("rejects in strict mode a schema that allows additional properties", () => {
    const open = JsonSchemaBuilder.create()
      .addObject("meta", "Meta", (b) => b.allowAdditionalProperties())
      .build();
    const error = errorOf(() => toOpenAiTool(tool(open), { strict: true }));
    expect(error).toBeInstanceOf(InvalidSchemaError);
    expect((error as InvalidSchemaError).propertyName).toBe("parameters.meta");
    expect(error.message).toMatch(/parameters\.meta allows additional properties/);
    expect(() => toOpenAiTool(tool(open))).not.toThrow();
  });

  it("converts tuple items and definitions under $defs", () => {
    const strict = toStrictJsonSchema({
      type: "object",
      properties: {
        pair: { type: "array", items: [{ type: "object", properties: { x: { type: "number" } } }] },
        ref: { $ref: "#/$defs/point" },
      },
      required: ["pair", "ref"],
      $defs: { point: { type: "object", properties: { y: { type: "number" } } } },
    } as unknown as JsonSchema);
    expect(strict.properties.pair?.items).toEqual([
      {
        type: "object",
        properties: { x: { type: ["number", "null"] } },
        required: ["x"],
        additionalProperties: false,
      },
    ]);
    expect(strict.$defs).toEqual({
      point: {
        type: "object",
        properties: { y: { type: ["number", "null"] } },
        required: ["y"],
        additionalProperties: false,
      },
    });
  });

  it("keeps a property named 'constructor' or '__proto__' as an own property", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("constructor", "C")
      .addString("__proto__", "P")
      .build();
    const strict = toStrictJsonSchema(schema);
    expect(Object.hasOwn(strict.properties, "constructor")).toBe(true);
    expect(Object.hasOwn(strict.properties, "__proto__")).toBe(true);
    expect(strict.required).toEqual(["constructor", "__proto__"]);
    expect(
      Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(strict)).properties, "__proto__")
        ?.value.type,
    ).toEqual(["string", "null"]);
  });
});

describe("dropStrictModeNulls", () => {
  it("removes the nulls a strict-mode model sent for optional properties, recursively", () => {
    const args = {
      path: "a.txt",
      limit: null,
      encoding: "utf8",
      range: { start: 1, end: null },
      filters: [{ pattern: "x", flags: null }],
      unknown: null,
    };
    expect(dropStrictModeNulls(readSchema, args)).toEqual({
      path: "a.txt",
      encoding: "utf8",
      range: { start: 1 },
      filters: [{ pattern: "x" }],
      unknown: null,
    });
    expect(args.limit).toBeNull();
  });

  it("keeps nulls for required or nullable properties", () => {
    const schema = toJsonSchema(
      z.object({ a: z.string().nullable(), b: z.string().nullable().optional() }),
    );
    expect(dropStrictModeNulls(schema, { a: null, b: null })).toEqual({ a: null, b: null });
  });

  it("does not treat inherited names such as 'constructor' as properties", () => {
    const schema = JsonSchemaBuilder.create().addString("path", "P").build();
    expect(dropStrictModeNulls(schema, { constructor: null, path: null })).toEqual({
      constructor: null,
    });
  });
});

describe("toAnthropicTool", () => {
  it("gives { name, description, input_schema } without $schema", () => {
    const schema = toJsonSchema(z.object({ query: z.string().describe("Search text") }));
    expect(toAnthropicTool(tool(schema, "search"))).toEqual({
      name: "search",
      description: "Reads a file",
      input_schema: {
        type: "object",
        properties: { query: { type: "string", description: "Search text" } },
        required: ["query"],
      },
    });
  });
});

describe("toGeminiFunctionDeclaration", () => {
  it("gives { name, description, parameters } in Gemini's subset", () => {
    const declaration = toGeminiFunctionDeclaration(tool(readSchema));
    expect(declaration).toEqual({
      name: "file-read",
      description: "Reads a file",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string", description: "File to read" },
          limit: { type: "integer", description: "Lines to read", minimum: 1, default: 100 },
          encoding: { type: "string", description: "Encoding", enum: ["utf8", "latin1"] },
          range: {
            type: "object",
            description: "Lines",
            properties: {
              start: { type: "integer", description: "First" },
              end: { type: "integer", description: "Last" },
            },
            required: ["start"],
          },
          filters: {
            type: "array",
            description: "Filters",
            items: {
              type: "object",
              properties: { pattern: { type: "string" }, flags: { type: "string" } },
              required: ["pattern"],
            },
          },
        },
        required: ["path"],
      },
    });
    expect(JSON.stringify(declaration)).not.toMatch(/additionalProperties|\$schema/);
  });

  it("leaves parameters out for a tool without parameters", () => {
    expect(toGeminiFunctionDeclaration(tool(JsonSchemaBuilder.create().build()))).toEqual({
      name: "file-read",
      description: "Reads a file",
    });
  });

  it("rewrites const, nullable types, unions, formats and bounds Gemini rejects", () => {
    const schema = toJsonSchema(
      z.object({
        kind: z.literal("file"),
        note: z.string().nullable(),
        id: z.union([z.string(), z.number()]),
        owner: z.union([z.object({ name: z.string() }), z.null()]),
        mode: z.union([z.literal(1), z.literal(2)]),
        level: z.union([z.literal("low"), z.literal("high"), z.null()]),
        email: z.email(),
        when: z.iso.datetime(),
        count: z.number().int().positive(),
        ratio: z.number().gt(0).lt(1),
        small: z.number().int().lt(10),
      }),
    );
    const gemini = toGeminiSchema(schema);
    const p = gemini.properties ?? {};
    expect(p.kind).toEqual({ type: "string", enum: ["file"] });
    expect(p.note).toEqual({ type: "string", nullable: true });
    expect(p.id).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(p.owner).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      nullable: true,
    });
    expect(p.mode).toEqual({ type: "number", description: "(allowed values: 1, 2)" });
    expect(p.level).toEqual({ type: "string", enum: ["low", "high"], nullable: true });
    expect(p.email?.format).toBeUndefined();
    expect(p.email?.description).toBe("(format: email)");
    expect(p.email?.pattern).toBeDefined();
    expect(p.when?.format).toBe("date-time");
    expect(p.count?.minimum).toBe(1);
    expect(p.ratio).toEqual({
      type: "number",
      minimum: 0,
      maximum: 1,
      description: "(greater than 0) (less than 1)",
    });
    expect(p.small?.maximum).toBe(9);
    expect(JSON.stringify(gemini)).not.toMatch(/"const"|exclusiveM|"\$schema"|"oneOf"/);
  });

  it("resolves $ref inline and stops at recursion with a plain object", () => {
    const category = z.object({
      name: z.string().describe("Category name"),
      get children() {
        return z.array(category).optional();
      },
    });
    const schema = toJsonSchema(z.object({ root: category }));
    const gemini = toGeminiSchema(schema);
    const root = gemini.properties?.root;
    expect(root?.type).toBe("object");
    expect(root?.properties?.name).toEqual({ type: "string", description: "Category name" });
    expect(root?.properties?.children?.items).toEqual({
      type: "object",
      description: "(recursive: same structure as the enclosing value)",
    });
    expect(JSON.stringify(gemini)).not.toMatch(/\$ref|definitions|\$defs/);
  });

  it("merges allOf, turns oneOf into anyOf and examples into example", () => {
    const gemini = toGeminiSchema({
      type: "object",
      properties: {
        both: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { $ref: "#/definitions/b" },
          ],
        },
        one: { oneOf: [{ type: "string" }, { type: "integer" }], description: "One" },
        sample: { type: "string", examples: ["x", "y"], title: "Sample" },
        missing: { $ref: "#/definitions/nope", description: "Gone" },
        external: { $ref: "https://example.com/schema.json" },
        tuple: { type: "array", items: [{ type: "string" }, { type: "number" }] },
        single: { type: "array", items: [{ type: "string" }] },
        mixed: { enum: ["a", null] },
        anything: true,
        letters: { anyOf: [{ enum: ["a", "b"] }, { const: "c" }] },
        mixed2: {
          anyOf: [
            { type: "string", const: "a" },
            { type: "integer", const: 1 },
          ],
        },
        loose: { anyOf: [{ enum: ["a"] }, { type: "string", minLength: 2 }] },
      },
      required: ["both", "ghost"],
      definitions: {
        b: { type: "object", properties: { b: { type: "number" } }, required: ["b"] },
      },
    } as unknown as JsonSchema);
    const p = gemini.properties ?? {};
    expect(p.both).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(p.one).toEqual({ anyOf: [{ type: "string" }, { type: "integer" }], description: "One" });
    expect(p.sample).toEqual({ type: "string", title: "Sample", example: "x" });
    expect(p.missing).toEqual({ description: "Gone (see #/definitions/nope)" });
    expect(p.external).toEqual({ description: "(see https://example.com/schema.json)" });
    expect(p.tuple?.items).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(p.single?.items).toEqual({ type: "string" });
    expect(p.mixed).toEqual({ type: "string", enum: ["a"], nullable: true });
    expect(p.anything).toEqual({});
    expect(p.letters).toEqual({ type: "string", enum: ["a", "b", "c"] });
    expect(p.mixed2).toEqual({ description: '(allowed values: "a", 1)' });
    expect(p.loose).toEqual({
      anyOf: [
        { type: "string", enum: ["a"] },
        { type: "string", minLength: 2 },
      ],
    });
    expect(gemini.required).toEqual(["both"]);
  });

  it("keeps 'constructor' and '__proto__' property names as own properties", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("constructor", "C", { required: true })
      .addString("__proto__", "P")
      .build();
    const gemini = toGeminiSchema(schema);
    expect(Object.hasOwn(gemini.properties ?? {}, "constructor")).toBe(true);
    expect(Object.hasOwn(gemini.properties ?? {}, "__proto__")).toBe(true);
    expect(gemini.required).toEqual(["constructor"]);
  });
});
