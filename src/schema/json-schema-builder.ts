import type { JsonValue } from "../core/index.js";
import type { JsonSchema, JsonSchemaProperty } from "./json-schema.js";
import { InvalidSchemaError } from "./schema-error.js";

/** Options every `add...` method takes. */
export interface PropertyOptions {
  /** Whether the model must supply the property (default false). */
  required?: boolean;
}

/** Options of {@link JsonSchemaBuilder.addString}. */
export interface StringPropertyOptions extends PropertyOptions {
  defaultValue?: string;
  /** An ECMAScript regular expression (validated with the `u` flag, as Ajv does). */
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  /** Valid values that show the model the expected format. */
  examples?: readonly string[];
}

/** Options of {@link JsonSchemaBuilder.addEnum}. */
export interface EnumPropertyOptions extends PropertyOptions {
  /** Must be one of the values. */
  defaultValue?: string;
}

/** Options of {@link JsonSchemaBuilder.addPath}. */
export interface PathPropertyOptions extends PropertyOptions {
  /** Adds "(must exist)" to the description, as a hint to the model. */
  mustExist?: boolean;
}

/** Options of {@link JsonSchemaBuilder.addInteger}; every number must be an integer. */
export interface IntegerPropertyOptions extends PropertyOptions {
  defaultValue?: number;
  minimum?: number;
  maximum?: number;
}

/** Options of {@link JsonSchemaBuilder.addNumber}. */
export interface NumberPropertyOptions extends PropertyOptions {
  defaultValue?: number;
  minimum?: number;
  maximum?: number;
}

/** Options of {@link JsonSchemaBuilder.addBoolean}. */
export interface BooleanPropertyOptions extends PropertyOptions {
  defaultValue?: boolean;
}

/** Options of {@link JsonSchemaBuilder.addStringArray}. */
export interface StringArrayPropertyOptions extends PropertyOptions {
  minItems?: number;
  maxItems?: number;
  /** Whether the strings must all differ (default false). */
  uniqueItems?: boolean;
}

/** Options of {@link JsonSchemaBuilder.addArray}. */
export interface ArrayPropertyOptions extends PropertyOptions {
  minItems?: number;
  maxItems?: number;
}

/**
 * Fluent builder for the {@link JsonSchema} of a tool's parameters (spec 001 `JsonSchemaBuilder`).
 *
 * Unlike the spec's builder, bad input throws an {@link InvalidSchemaError} naming the property:
 * a duplicate or empty name, a minimum above its maximum, a negative length, a default that breaks
 * the property's own constraints, an invalid pattern.
 *
 * @example
 * ```ts
 * const schema = JsonSchemaBuilder.create()
 *   .withDescription("Read a file")
 *   .addString("path", "File path", { required: true, maxLength: 4096 })
 *   .addInteger("maxLines", "Lines to read", { minimum: 1, defaultValue: 200 })
 *   .build();
 * ```
 */
export class JsonSchemaBuilder {
  readonly #properties = new Map<string, JsonSchemaProperty>();
  readonly #required: string[] = [];
  #description: string | undefined;
  #additionalProperties = false;

  /** Creates a new, empty schema builder. */
  static create(): JsonSchemaBuilder {
    return new JsonSchemaBuilder();
  }

  /** Sets the description of the parameters object. */
  withDescription(description: string): this {
    this.#description = description;
    return this;
  }

  /** Allows (or, with `false`, forbids again) properties the schema does not define. */
  allowAdditionalProperties(allow = true): this {
    this.#additionalProperties = allow;
    return this;
  }

  /** Adds a string property. */
  addString(name: string, description: string, options: StringPropertyOptions = {}): this {
    const { defaultValue, pattern, minLength, maxLength, examples } = options;
    checkLength(name, "minLength", minLength);
    checkLength(name, "maxLength", maxLength);
    checkOrder(name, "minLength", minLength, "maxLength", maxLength);
    const regex = pattern === undefined ? undefined : compilePattern(name, pattern);
    for (const value of [
      ...(defaultValue === undefined ? [] : [defaultValue]),
      ...(examples ?? []),
    ]) {
      checkString(name, value, { minLength, maxLength, regex, pattern });
    }
    return this.#add(name, options, {
      type: "string",
      description,
      default: defaultValue,
      pattern,
      minLength,
      maxLength,
      examples: examples === undefined ? undefined : [...examples],
    });
  }

  /** Adds a string property whose value must be one of `values`. */
  addEnum(
    name: string,
    description: string,
    values: readonly string[],
    options: EnumPropertyOptions = {},
  ): this {
    const { defaultValue } = options;
    if (values.length === 0) {
      throw propertyError(name, "needs at least one enum value");
    }
    const seen = new Set<string>();
    for (const value of values) {
      if (seen.has(value)) throw propertyError(name, `lists enum value '${value}' twice`);
      seen.add(value);
    }
    if (defaultValue !== undefined && !seen.has(defaultValue)) {
      throw propertyError(
        name,
        `has default '${defaultValue}', which is not one of ${values.map((v) => `'${v}'`).join(", ")}`,
      );
    }
    return this.#add(name, options, {
      type: "string",
      description,
      enum: [...values],
      default: defaultValue,
    });
  }

  /** Adds a file path property; `mustExist` adds "(must exist)" to the description. */
  addPath(name: string, description: string, options: PathPropertyOptions = {}): this {
    const text = options.mustExist === true ? `${description} (must exist)` : description;
    return this.#add(name, options, { type: "string", description: text });
  }

  /** Adds an integer property; the default and bounds must be integers. */
  addInteger(name: string, description: string, options: IntegerPropertyOptions = {}): this {
    return this.#addNumeric("integer", name, description, options);
  }

  /** Adds a (floating point) number property. */
  addNumber(name: string, description: string, options: NumberPropertyOptions = {}): this {
    return this.#addNumeric("number", name, description, options);
  }

  /** Adds a boolean property. */
  addBoolean(name: string, description: string, options: BooleanPropertyOptions = {}): this {
    return this.#add(name, options, {
      type: "boolean",
      description,
      default: options.defaultValue,
    });
  }

  /** Adds an array of strings. */
  addStringArray(
    name: string,
    description: string,
    options: StringArrayPropertyOptions = {},
  ): this {
    const { minItems, maxItems, uniqueItems } = options;
    checkItemCounts(name, minItems, maxItems);
    return this.#add(name, options, {
      type: "array",
      description,
      items: { type: "string" },
      minItems,
      maxItems,
      uniqueItems: uniqueItems === true ? true : undefined,
    });
  }

  /** Adds an array whose items follow `itemSchema` (copied, so later changes to it do not leak). */
  addArray(
    name: string,
    description: string,
    itemSchema: JsonSchemaProperty,
    options: ArrayPropertyOptions = {},
  ): this {
    const { minItems, maxItems } = options;
    checkItemCounts(name, minItems, maxItems);
    return this.#add(name, options, {
      type: "array",
      description,
      items: structuredClone(itemSchema),
      minItems,
      maxItems,
    });
  }

  /**
   * Adds a nested object whose properties `configure` declares on a fresh builder. The nested
   * object forbids unknown properties unless `configure` calls `allowAdditionalProperties()`.
   *
   * @example
   * ```ts
   * builder.addObject("range", "Lines to read", (b) =>
   *   b.addInteger("start", "First line", { required: true }).addInteger("end", "Last line"),
   * );
   * ```
   */
  addObject(
    name: string,
    description: string,
    configure: (builder: JsonSchemaBuilder) => void,
    options: PropertyOptions = {},
  ): this {
    const nested = new JsonSchemaBuilder();
    let schema: JsonSchema;
    try {
      configure(nested);
      schema = nested.build();
    } catch (error) {
      if (error instanceof InvalidSchemaError && error.propertyName !== undefined) {
        const path = `${name}.${error.propertyName}`;
        throw new InvalidSchemaError(
          error.message.replace(`Property '${error.propertyName}'`, `Property '${path}'`),
          { propertyName: path, cause: error },
        );
      }
      throw error;
    }
    return this.#add(name, options, {
      type: "object",
      description,
      properties: schema.properties,
      required: schema.required.length > 0 ? schema.required : undefined,
      additionalProperties: schema.additionalProperties,
    });
  }

  /**
   * Adds a property with a schema the other methods do not cover (a union, a `format`, a
   * `$ref`). The schema is copied.
   */
  addProperty(name: string, property: JsonSchemaProperty, options: PropertyOptions = {}): this {
    return this.#add(name, options, structuredClone(property));
  }

  /**
   * Builds the schema. Each call returns a fresh copy that later builder calls do not change;
   * `additionalProperties` is always written, `false` unless allowed.
   */
  build(): JsonSchema {
    const properties = Object.fromEntries(
      [...this.#properties].map(([name, property]) => [name, structuredClone(property)]),
    );
    return {
      type: "object",
      ...(this.#description === undefined ? {} : { description: this.#description }),
      properties,
      required: [...this.#required],
      additionalProperties: this.#additionalProperties,
    };
  }

  #addNumeric(
    type: "integer" | "number",
    name: string,
    description: string,
    options: NumberPropertyOptions,
  ): this {
    const { defaultValue, minimum, maximum } = options;
    const values = { defaultValue, minimum, maximum };
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (!Number.isFinite(value))
        throw propertyError(name, `has ${key} ${value}, not a finite number`);
      if (type === "integer" && !Number.isInteger(value)) {
        throw propertyError(name, `has ${key} ${value}, not an integer`);
      }
    }
    checkOrder(name, "minimum", minimum, "maximum", maximum);
    if (defaultValue !== undefined) {
      if (minimum !== undefined && defaultValue < minimum) {
        throw propertyError(name, `has default ${defaultValue}, below its minimum ${minimum}`);
      }
      if (maximum !== undefined && defaultValue > maximum) {
        throw propertyError(name, `has default ${defaultValue}, above its maximum ${maximum}`);
      }
    }
    return this.#add(name, options, {
      type,
      description,
      default: defaultValue,
      minimum,
      maximum,
    });
  }

  #add(name: string, options: PropertyOptions, property: Record<string, unknown>): this {
    if (typeof name !== "string" || name.trim() === "") {
      throw new InvalidSchemaError(
        `Property name must be a non-empty string; got ${JSON.stringify(name)}.`,
        { propertyName: String(name) },
      );
    }
    if (this.#properties.has(name)) {
      throw propertyError(name, "is already defined; each property name may be added once");
    }
    this.#properties.set(name, withoutUndefined(property));
    if (options.required === true) this.#required.push(name);
    return this;
  }
}

function propertyError(name: string, problem: string): InvalidSchemaError {
  return new InvalidSchemaError(`Property '${name}' ${problem}.`, { propertyName: name });
}

function withoutUndefined(property: Record<string, unknown>): JsonSchemaProperty {
  return Object.fromEntries(Object.entries(property).filter(([, value]) => value !== undefined));
}

function checkLength(name: string, key: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
    throw propertyError(name, `has ${key} ${value}; it must be a non-negative integer`);
  }
}

function checkOrder(
  name: string,
  minKey: string,
  min: number | undefined,
  maxKey: string,
  max: number | undefined,
): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw propertyError(name, `has ${minKey} ${min} greater than ${maxKey} ${max}`);
  }
}

function checkItemCounts(name: string, minItems: number | undefined, maxItems: number | undefined) {
  checkLength(name, "minItems", minItems);
  checkLength(name, "maxItems", maxItems);
  checkOrder(name, "minItems", minItems, "maxItems", maxItems);
}

function compilePattern(name: string, pattern: string): RegExp {
  try {
    return new RegExp(pattern, "u");
  } catch (error) {
    throw new InvalidSchemaError(`Property '${name}' has an invalid pattern /${pattern}/.`, {
      propertyName: name,
      cause: error,
    });
  }
}

function checkString(
  name: string,
  value: JsonValue,
  rules: { minLength?: number; maxLength?: number; regex?: RegExp; pattern?: string },
): void {
  const text = String(value);
  const length = [...text].length;
  if (rules.minLength !== undefined && length < rules.minLength) {
    throw propertyError(name, `has value '${text}' shorter than its minLength ${rules.minLength}`);
  }
  if (rules.maxLength !== undefined && length > rules.maxLength) {
    throw propertyError(name, `has value '${text}' longer than its maxLength ${rules.maxLength}`);
  }
  if (rules.regex !== undefined && !rules.regex.test(text)) {
    throw propertyError(
      name,
      `has value '${text}' that does not match its pattern /${rules.pattern}/`,
    );
  }
}
