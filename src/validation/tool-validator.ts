import type { ValidateFunction } from "ajv";
import type { JsonSchema, JsonSchemaProperty } from "../schema/index.js";
import { compileLimitCheck, type LimitCheck, planLimits } from "./limit-plan.js";
import { mapAjvErrors } from "./map-ajv-errors.js";
import {
  type AjvInstance,
  createAjv,
  describeSchemaErrors,
  dialectOf,
  type SchemaDialect,
} from "./schema-dialect.js";
import { ToolValidationError } from "./tool-validation-error.js";
import { ToolValidationResult } from "./tool-validation-result.js";
import { ToolValidationWarning } from "./tool-validation-warning.js";
import type { ToolValidatorLike } from "./tool-validator-like.js";
import { findLimitProblem, fitsLimits, type ValueLimits } from "./value-limits.js";
import { jsonTypeOf, subjectOf } from "./value-preview.js";

/** Construction settings of a {@link ToolValidator}: the limits every value must fit, and more. */
export interface ToolValidatorConfig {
  /** The most levels of nested objects and arrays; the parameters object is level 1. Default 64. */
  readonly maxDepth?: number;
  /** The longest string value or property name, in UTF-16 code units. Default 1,000,000. */
  readonly maxStringLength?: number;
  /** The most values (properties, items, nested values) in one call. Default 100,000. */
  readonly maxNodes?: number;
  /** The most characters of strings and property names in one call. Default 10,000,000. */
  readonly maxTotalSize?: number;
  /** The most errors one result lists (then one line says how many more). Default 20. */
  readonly maxErrors?: number;
  /** How many schemas compiled from fresh objects are kept by content. Default 256. */
  readonly contentCacheSize?: number;
  /**
   * Receives what Ajv notes about a schema while compiling it, such as an unknown `format`
   * (ignored, as JSON Schema says: validation passes), once per schema. Default: dropped; nothing
   * is ever printed to the console.
   */
  readonly logger?: { warn(object: object, message?: string): void };
}

/** Any schema the validator accepts: a tool's object schema, a property schema, or a boolean. */
export type ValidatableSchema = JsonSchema | JsonSchemaProperty | boolean;

interface CompiledSchema {
  readonly validate: ValidateFunction | undefined;
  /** Why the schema is unusable, when `validate` is undefined. */
  readonly problem: string | undefined;
  /** Top-level properties marked `deprecated: true`. */
  readonly deprecated: readonly string[];
  /** Whether Ajv may run before the limits are checked (see `planLimits`). */
  readonly ajvFirst: boolean;
  /** Checks what the schema leaves unbounded of a value Ajv found valid. */
  readonly fitsIfValid: LimitCheck;
  /** What Ajv compiled and which Ajv, to release it when the content cache drops it. */
  readonly compiledSchema?: object;
  readonly ajv?: AjvInstance;
}

const noErrors: readonly ToolValidationError[] = Object.freeze([]);
const noDeprecations: readonly string[] = Object.freeze([]);

/**
 * Validates tool parameters against JSON Schemas with Ajv (spec 001 `ToolValidator`): draft-07 by
 * default, 2019-09 / 2020-12 where a schema's `$schema` says so, with ajv-formats' formats.
 *
 * - Each schema is compiled once and cached (by object, and by content for schemas rebuilt on
 *   every call), so a valid call costs little more than the compiled Ajv function.
 * - Bad input never throws or hangs: a non-object, a cycle, a 10 MB string or a value nested
 *   100,000 levels deep comes back as a failed result (`too_large`, `too_deep`, ...). The limits
 *   are checked by an iterative walk before Ajv runs, unless the schema keeps Ajv's work bounded
 *   whatever the value (no recursive `$ref`, no `uniqueItems`): then Ajv runs first, and a valid
 *   value only has what its schema leaves unbounded checked (an unbounded string, an open
 *   object's extra properties), by code compiled once per schema.
 * - Errors are field-level and written for the model: `Parameter 'options.depth' must be an
 *   integer, got string "3"`; `anyOf` / `oneOf` failures come back as one error each.
 *
 * @example
 * const validator = new ToolValidator();
 * const result = validator.validateAgainstSchema({ path: 3 }, tool.inputSchema);
 * if (!result.isValid) console.log(result.getErrorMessage());
 * // - path: Parameter 'path' must be a string, got number 3
 */
export class ToolValidator implements ToolValidatorLike {
  static #shared: ToolValidator | undefined;

  /** A validator with the default limits, shared so that tools share compiled schemas. */
  static get shared(): ToolValidator {
    ToolValidator.#shared ??= new ToolValidator();
    return ToolValidator.#shared;
  }

  /**
   * Why `schema` is not a usable JSON Schema (as a message), or `undefined` when it is. Uses
   * {@link ToolValidator.shared}, so the compiled schema is cached for later validations.
   */
  static checkSchema(schema: unknown): string | undefined {
    return ToolValidator.shared.checkSchema(schema);
  }

  /** The limits every value must fit. */
  readonly limits: ValueLimits;
  readonly #maxErrors: number;
  readonly #contentCacheSize: number;
  readonly #byObject = new WeakMap<object, CompiledSchema>();
  readonly #byContent = new Map<string, CompiledSchema>();
  readonly #booleans = new Map<boolean, CompiledSchema>();
  readonly #ajv = new Map<SchemaDialect, AjvInstance>();
  readonly #logger: ToolValidatorConfig["logger"];
  readonly #warned = new Set<string>();

  constructor(config: ToolValidatorConfig = {}) {
    this.limits = Object.freeze({
      maxDepth: config.maxDepth ?? 64,
      maxStringLength: config.maxStringLength ?? 1_000_000,
      maxNodes: config.maxNodes ?? 100_000,
      maxTotalSize: config.maxTotalSize ?? 10_000_000,
    });
    this.#logger = config.logger;
    this.#maxErrors = Math.max(1, config.maxErrors ?? 20);
    this.#contentCacheSize = Math.max(0, config.contentCacheSize ?? 256);
  }

  /**
   * Validates a call's parameters against a tool's schema. The parameters must be a JSON object;
   * anything else (null, an array, a string, undefined) fails with `type_mismatch` on the root.
   * Never throws: an unusable schema fails with `invalid_schema`.
   */
  validateAgainstSchema(parameters: unknown, schema: ValidatableSchema): ToolValidationResult {
    if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
      return ToolValidationResult.invalid(
        ToolValidationError.typeMismatch("", "object", jsonTypeOf(parameters), parameters),
      );
    }
    const compiled = this.#compiled(schema);
    const validate = compiled.validate;
    if (validate === undefined) {
      return ToolValidationResult.invalid(ToolValidationError.invalidSchema(compiled.problem!));
    }
    const errors = this.#check(compiled, validate, parameters, "");
    if (compiled.deprecated.length === 0) {
      return errors === undefined
        ? ToolValidationResult.valid()
        : ToolValidationResult.invalid(...errors);
    }
    const warnings = deprecationsIn(parameters, compiled.deprecated);
    return errors === undefined
      ? ToolValidationResult.validWithWarnings(...warnings)
      : ToolValidationResult.invalidWithWarnings(errors, warnings);
  }

  /**
   * Validates one parameter's value against its property schema; error paths start at
   * `parameterName` (`options` -> `options.depth`). Empty when valid. Never throws.
   */
  validateParameter(
    parameterName: string,
    value: unknown,
    property: JsonSchemaProperty | boolean,
  ): readonly ToolValidationError[] {
    const compiled = this.#compiled(property);
    const validate = compiled.validate;
    if (validate === undefined) {
      const error = ToolValidationError.invalidSchema(compiled.problem!);
      return Object.freeze([new ToolValidationError({ ...error, parameterName })]);
    }
    const errors = this.#check(compiled, validate, value, parameterName);
    return errors === undefined ? noErrors : Object.freeze(errors);
  }

  /**
   * Why `schema` is not a usable JSON Schema (as a message), or `undefined` when it is: not an
   * object or boolean, an unsupported `$schema`, a meta-schema violation, a bad regular expression,
   * an unresolvable `$ref`. Compiles and caches the schema.
   */
  checkSchema(schema: unknown): string | undefined {
    return this.#compiled(schema as ValidatableSchema).problem;
  }

  /**
   * A cheap check of `schema` for registration, without compiling it: an object or boolean, a
   * supported `$schema`, valid against the dialect's meta-schema, every `pattern` a valid regular
   * expression. What only compiling finds (an unresolvable `$ref`) is reported by the first
   * validation (`invalid_schema`, returned to the model as data). A schema already compiled
   * answers from its compilation.
   */
  checkSchemaShape(schema: unknown): string | undefined {
    if (typeof schema === "object" && schema !== null) {
      const compiled = this.#byObject.get(schema);
      if (compiled !== undefined) return compiled.problem;
    }
    if (typeof schema === "boolean") return undefined;
    if (!isRecord(schema)) {
      return `a JSON Schema must be an object or a boolean, got ${jsonTypeOf(schema)}`;
    }
    const choice = dialectOf(schema);
    if ("unsupported" in choice) {
      return `unsupported $schema '${choice.unsupported}'; use draft-07 (the default) or https://json-schema.org/draft/2020-12/schema`;
    }
    if (schema.$async === true) return "asynchronous ($async) schemas are not supported";
    const source =
      choice.canonical === undefined ? schema : { ...schema, $schema: choice.canonical };
    try {
      const ajv = this.#ajvFor(choice.dialect);
      if (!ajv.validateSchema(source)) {
        return `invalid JSON Schema: ${describeSchemaErrors(ajv.errors)}`;
      }
    } catch (error) {
      return error instanceof RangeError
        ? "the schema refers to itself without end (a cyclic object?)"
        : `invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
    }
    return badPattern(schema);
  }

  /**
   * The errors of `value` against a compiled schema, or undefined when it is valid. Where running
   * Ajv first is safe, a valid value then only has the parts its schema leaves unbounded checked
   * against the limits (the common path stays close to raw Ajv); otherwise the limits are checked
   * first, so Ajv never sees a value that could make it recurse without end.
   */
  #check(
    compiled: CompiledSchema,
    validate: ValidateFunction,
    value: unknown,
    basePath: string,
  ): ToolValidationError[] | undefined {
    try {
      if (compiled.ajvFirst) {
        if (validate(value)) {
          return compiled.fitsIfValid(value) ? undefined : this.#limitErrors(value, basePath);
        }
        const errors = validate.errors ?? [];
        return (
          this.#limitErrors(value, basePath) ??
          mapAjvErrors(errors, value, basePath, this.#maxErrors)
        );
      }
      const limitErrors = this.#limitErrors(value, basePath);
      if (limitErrors !== undefined) return limitErrors;
      if (validate(value)) return undefined;
      return mapAjvErrors(validate.errors ?? [], value, basePath, this.#maxErrors);
    } catch (error) {
      // A getter or a proxy threw, or Ajv ran out of stack on a value past the limits.
      try {
        const limitErrors = this.#limitErrors(value, basePath);
        if (limitErrors !== undefined) return limitErrors;
      } catch {
        // fall through: the value cannot even be walked
      }
      return [unreadable(basePath, error)];
    }
  }

  /** The limit error of `value` as a one-item list, or undefined when it fits the limits. */
  #limitErrors(value: unknown, basePath: string): ToolValidationError[] | undefined {
    return fitsLimits(value, this.limits) ? undefined : [this.#limitProblem(value, basePath)];
  }

  #limitProblem(value: unknown, basePath: string): ToolValidationError {
    return (
      findLimitProblem(value, this.limits, basePath) ??
      ToolValidationError.tooLarge(basePath, "too large to validate", "the validator's limits")
    );
  }

  #compiled(schema: ValidatableSchema): CompiledSchema {
    if (typeof schema === "boolean") {
      let compiled = this.#booleans.get(schema);
      if (compiled === undefined) {
        compiled = this.#compile(schema);
        this.#booleans.set(schema, compiled);
      }
      return compiled;
    }
    if (typeof schema !== "object" || schema === null) return this.#compile(schema);
    let compiled = this.#byObject.get(schema);
    if (compiled === undefined) {
      compiled = this.#compileByContent(schema);
      this.#byObject.set(schema, compiled);
    }
    return compiled;
  }

  /** Schemas rebuilt on every call hit this cache instead of compiling again (and leaking in Ajv). */
  #compileByContent(schema: object): CompiledSchema {
    let key: string | undefined;
    try {
      key = JSON.stringify(schema);
    } catch {
      key = undefined; // a cyclic schema: compiling will report it
    }
    if (key === undefined || this.#contentCacheSize === 0) return this.#compile(schema);
    const cached = this.#byContent.get(key);
    if (cached !== undefined) {
      this.#byContent.delete(key);
      this.#byContent.set(key, cached);
      return cached;
    }
    const compiled = this.#compile(schema);
    this.#byContent.set(key, compiled);
    if (this.#byContent.size > this.#contentCacheSize) {
      const [oldestKey, oldest] = this.#byContent.entries().next().value!;
      this.#byContent.delete(oldestKey);
      if (oldest.ajv !== undefined && oldest.compiledSchema !== undefined) {
        oldest.ajv.removeSchema(oldest.compiledSchema);
      }
    }
    return compiled;
  }

  #compile(schema: unknown): CompiledSchema {
    if (typeof schema !== "boolean" && !isRecord(schema)) {
      return failed(`a JSON Schema must be an object or a boolean, got ${jsonTypeOf(schema)}`);
    }
    const choice = dialectOf(schema);
    if ("unsupported" in choice) {
      return failed(
        `unsupported $schema '${choice.unsupported}'; use draft-07 (the default) or ` +
          "https://json-schema.org/draft/2020-12/schema",
      );
    }
    if (isRecord(schema) && schema.$async === true) {
      return failed("asynchronous ($async) schemas are not supported");
    }
    const source =
      choice.canonical === undefined || !isRecord(schema)
        ? schema
        : { ...schema, $schema: choice.canonical };
    for (let attempt = 0; ; attempt++) {
      const ajv = this.#ajvFor(choice.dialect);
      try {
        if (!ajv.validateSchema(source)) {
          return failed(`invalid JSON Schema: ${describeSchemaErrors(ajv.errors)}`);
        }
        const validate = ajv.compile(source);
        const { plan, ajvFirst } = planLimits(source, this.limits);
        return {
          validate,
          problem: undefined,
          deprecated: deprecatedProperties(schema),
          ajvFirst,
          fitsIfValid: compileLimitCheck(plan, this.limits),
          ...(typeof source === "object" ? { compiledSchema: source, ajv } : {}),
        };
      } catch (error) {
        if (typeof source === "object") forget(ajv, source);
        const message = error instanceof Error ? error.message : String(error);
        // A `$id` registered by an earlier schema blocks this one: retry on a fresh Ajv.
        if (attempt === 0 && /already exists/.test(message)) {
          this.#ajv.delete(choice.dialect);
          continue;
        }
        return failed(
          error instanceof RangeError
            ? "the schema refers to itself without end (a cyclic object?)"
            : `invalid JSON Schema: ${message}`,
        );
      }
    }
  }

  #ajvFor(dialect: SchemaDialect): AjvInstance {
    let ajv = this.#ajv.get(dialect);
    if (ajv === undefined) {
      const logger = this.#logger;
      const seen = this.#warned;
      ajv = createAjv(
        dialect,
        logger === undefined
          ? undefined
          : {
              warn: (message) => {
                // Ajv may note the same thing more than once while compiling one schema.
                if (seen.has(message) || seen.size > 10_000) return;
                seen.add(message);
                logger.warn({ dialect }, `[TLS-VAL] ${message}`);
              },
            },
      );
      this.#ajv.set(dialect, ajv);
    }
    return ajv;
  }
}

function failed(problem: string): CompiledSchema {
  return {
    validate: undefined,
    problem,
    deprecated: noDeprecations,
    ajvFirst: false,
    fitsIfValid: () => false,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function forget(ajv: AjvInstance, schema: object): void {
  try {
    ajv.removeSchema(schema);
  } catch {
    // nothing was registered
  }
}

/** The first `pattern` that is not a valid (unicode) regular expression, as a problem. */
function badPattern(schema: Record<string, unknown>): string | undefined {
  const stack: unknown[] = [schema];
  let visited = 0;
  while (stack.length > 0 && visited++ < 100_000) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const record = node as Record<string, unknown>;
    if (typeof record.pattern === "string") {
      try {
        new RegExp(record.pattern, "u");
      } catch (error) {
        return `invalid JSON Schema: pattern '${record.pattern}' is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
      }
    }
    for (const child of Object.values(record)) {
      if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
  return undefined;
}

function deprecatedProperties(schema: unknown): readonly string[] {
  const properties = isRecord(schema) ? schema.properties : undefined;
  if (!isRecord(properties)) return noDeprecations;
  const names = Object.keys(properties).filter((name) => {
    const property = properties[name];
    return isRecord(property) && property.deprecated === true;
  });
  return names.length === 0 ? noDeprecations : Object.freeze(names);
}

function deprecationsIn(
  parameters: object,
  deprecated: readonly string[],
): ToolValidationWarning[] {
  return deprecated
    .filter(
      (name) =>
        Object.hasOwn(parameters, name) &&
        (parameters as Record<string, unknown>)[name] !== undefined,
    )
    .map((name) => ToolValidationWarning.deprecated(name));
}

function unreadable(path: string, error: unknown): ToolValidationError {
  const reason = error instanceof Error ? error.message : String(error);
  return ToolValidationError.invalidValue(
    path,
    `${subjectOf(path)} could not be read as JSON (${reason}); send plain JSON values`,
  );
}
